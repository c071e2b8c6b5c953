//===- PrintScalarOps.cpp - Scalar ops and control flow as CUDA -----------===//
//
// Arithmetic, casts, compares, math functions, scf.for and scf.if.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::cuda_emitter;

//===----------------------------------------------------------------------===//
// Scalar ops
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(arith::ConstantOp op) {
  // Printed inline at each use; only check that it can be.
  return failure(failed(literal(cast<TypedAttr>(op.getValue()), op.getLoc())));
}

std::string CudaEmitter::maximum(Type type, bool isMax, StringRef a,
                                 StringRef b) {
  if (isHalf(type))
    return ((isMax ? "__hmax_nan(" : "__hmin_nan(") + a + ", " + b + ")").str();
  bool isF64 = type.isF64();
  std::string name = (isMax ? "dk_maximum_" : "dk_minimum_") + typeSuffix(type);
  std::string t = isF64 ? "double" : "float";
  std::string nan = isF64 ? "__longlong_as_double(0x7ff8000000000000LL)"
                          : "__uint_as_float(0x7fc00000u)";
  addHelper(name, llvm::formatv("static __device__ __forceinline__ {0} {1}({0} "
                                "a, {0} b) {{\n  return (a != a || b != b) ? "
                                "{2} : {3}(a, b);\n}\n",
                                t, name, nan,
                                (isMax ? "fmax" : "fmin") +
                                    std::string(isF64 ? "" : "f"))
                      .str());
  return (name + "(" + a + ", " + b + ")").str();
}

LogicalResult CudaEmitter::printArith(Operation *op) {
  Value r = op->getResult(0);
  Type type = r.getType();
  // i1 is `bool`, whose arithmetic is not modulo 2.
  if (type.isInteger(1) && !isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
    return op->emitOpError("on i1 cannot be emitted; only andi, ori and xori "
                           "can");
  auto lhs = [&] { return expr(op->getOperand(0)); };
  auto rhs = [&] { return expr(op->getOperand(1)); };
  auto infix = [&](StringRef sym) {
    return (lhs() + " " + sym + " " + rhs()).str();
  };
  auto unsignedInfix = [&](StringRef sym) {
    return (asUnsigned(op->getOperand(0)) + " " + sym + " " +
            asUnsigned(op->getOperand(1)))
        .str();
  };
  auto call = [&](StringRef f32, StringRef f64, StringRef half) {
    StringRef name = type.isF64() ? f64 : isHalf(type) ? half : f32;
    return (name + "(" + lhs() + ", " + rhs() + ")").str();
  };
  std::string text =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<arith::AddFOp, arith::AddIOp>([&](auto) { return infix("+"); })
          .Case<arith::SubFOp, arith::SubIOp>([&](auto) { return infix("-"); })
          .Case<arith::MulFOp, arith::MulIOp>([&](auto) { return infix("*"); })
          .Case<arith::DivFOp, arith::DivSIOp>([&](auto) { return infix("/"); })
          .Case([&](arith::RemSIOp) { return infix("%"); })
          .Case([&](arith::AndIOp) { return infix("&"); })
          .Case([&](arith::OrIOp) { return infix("|"); })
          .Case([&](arith::XOrIOp) { return infix("^"); })
          .Case([&](arith::ShLIOp) { return infix("<<"); })
          .Case([&](arith::ShRSIOp) { return infix(">>"); })
          .Case([&](arith::DivUIOp) { return unsignedInfix("/"); })
          .Case([&](arith::RemUIOp) { return unsignedInfix("%"); })
          .Case([&](arith::ShRUIOp) {
            return asUnsigned(op->getOperand(0)) + " >> " + rhs();
          })
          .Case([&](arith::RemFOp) {
            if (isHalf(type))
              return "fmodf((float)" + lhs() + ", (float)" + rhs() + ")";
            return call("fmodf", "fmod", "");
          })
          .Case([&](arith::NegFOp) {
            // `--x` would be a decrement.
            std::string x = lhs();
            return StringRef(x).starts_with("-") ? "-(" + x + ")" : "-" + x;
          })
          .Case(
              [&](arith::MaxNumFOp) { return call("fmaxf", "fmax", "__hmax"); })
          .Case(
              [&](arith::MinNumFOp) { return call("fminf", "fmin", "__hmin"); })
          .Case([&](arith::MaximumFOp) {
            return maximum(type, /*isMax=*/true, lhs(), rhs());
          })
          .Case([&](arith::MinimumFOp) {
            return maximum(type, /*isMax=*/false, lhs(), rhs());
          })
          .Case([&](arith::MaxSIOp) { return call("max", "", ""); })
          .Case([&](arith::MinSIOp) { return call("min", "", ""); })
          .Case([&](arith::MaxUIOp) {
            return "max(" + asUnsigned(op->getOperand(0)) + ", " +
                   asUnsigned(op->getOperand(1)) + ")";
          })
          .Case([&](arith::MinUIOp) {
            return "min(" + asUnsigned(op->getOperand(0)) + ", " +
                   asUnsigned(op->getOperand(1)) + ")";
          })
          .Default([](Operation *) { return std::string(); });
  if (failed(declare(r)))
    return failure();
  os << text << ";\n";
  return success();
}

/// The CUDA intrinsic reinterpreting `from` as `to`, or "" when none.
static StringRef bitcastIntrinsic(Type from, Type to) {
  if (from.isF32() && to.isInteger(32))
    return "__float_as_int";
  if (from.isInteger(32) && to.isF32())
    return "__int_as_float";
  if (from.isF64() && to.isInteger(64))
    return "__double_as_longlong";
  if (from.isInteger(64) && to.isF64())
    return "__longlong_as_double";
  if (from.isF16() && to.isInteger(16))
    return "__half_as_short";
  if (from.isInteger(16) && to.isF16())
    return "__short_as_half";
  if (from.isBF16() && to.isInteger(16))
    return "__bfloat16_as_short";
  if (from.isInteger(16) && to.isBF16())
    return "__short_as_bfloat16";
  return "";
}

LogicalResult CudaEmitter::printCast(Operation *op) {
  Value in = op->getOperand(0);
  Value r = op->getResult(0);
  Type from = in.getType(), type = r.getType();
  FailureOr<std::string> to = typeName(type, op->getLoc());
  if (failed(to))
    return failure();
  std::string text;
  if (isa<arith::BitcastOp>(op)) {
    StringRef intrinsic = bitcastIntrinsic(from, type);
    if (intrinsic.empty())
      return op->emitOpError("from ")
             << from << " to " << type << " cannot be emitted";
    text = (intrinsic + "(" + expr(in) + ")").str();
  } else if (isF8(type)) {
    // Through double, which holds every source value exactly: one rounding.
    std::string source = isF8(from)                 ? "(float)" + expr(in)
                         : isa<arith::UIToFPOp>(op) ? asUnsigned(in)
                                                    : asSigned(in);
    text = toF8Helper(type) + "((double)" + source + ")";
  } else if (isF8(from)) {
    // cuda_fp8.h converts explicitly to float, exactly.
    text = "(" + *to + ")(float)" + expr(in);
  } else if (type.isInteger(1)) {
    // trunci to i1 keeps the low bit; a C conversion to bool tests != 0.
    text = "(bool)(" + expr(in) + " & 1)";
  } else if (isa<arith::UIToFPOp, arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
    text = "(" + *to + ")" + asUnsigned(in);
  } else if (wgmmaKernel && isa<arith::TruncFOp>(op) && from.isF32() &&
             isHalf(type)) {
    // ptxas serialises every wgmma of a kernel (C7514) where a packing
    // f32 -> 16-bit conversion (F2FP) reads accumulator registers while a
    // group is in flight across a loop's back edge (wgmma_wait=1), even
    // when a wait retires it first. Adding -0.0, an exact identity the
    // compiler keeps under __fadd_rn, puts an FADD between them.
    text = "(" + *to + ")__fadd_rn(" + expr(in) + ", -0.0f)";
  } else if (isa<arith::FPToUIOp>(op)) {
    // Through the unsigned type: a value above the signed maximum is valid.
    text = "(" + *to + ")(" + unsignedName(intWidth(type, options)).str() +
           ")" + expr(in);
  } else {
    text = "(" + *to + ")" + asSigned(in);
  }
  if (failed(declare(r)))
    return failure();
  os << text << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(arith::CmpFOp op) {
  std::string a = expr(op.getLhs()), b = expr(op.getRhs());
  using P = arith::CmpFPredicate;
  std::string text;
  switch (op.getPredicate()) {
  case P::OEQ:
    text = a + " == " + b;
    break;
  case P::OGT:
    text = a + " > " + b;
    break;
  case P::OGE:
    text = a + " >= " + b;
    break;
  case P::OLT:
    text = a + " < " + b;
    break;
  case P::OLE:
    text = a + " <= " + b;
    break;
  case P::ONE:
    text = "(" + a + " < " + b + " || " + a + " > " + b + ")";
    break;
  case P::UNE:
    text = a + " != " + b;
    break;
  case P::UEQ:
    text = "!(" + a + " < " + b + " || " + a + " > " + b + ")";
    break;
  case P::UGT:
    text = "!(" + a + " <= " + b + ")";
    break;
  case P::UGE:
    text = "!(" + a + " < " + b + ")";
    break;
  case P::ULT:
    text = "!(" + a + " >= " + b + ")";
    break;
  case P::ULE:
    text = "!(" + a + " > " + b + ")";
    break;
  // Self-comparison tests for NaN in every float type, __half included.
  case P::ORD:
    text = "(" + a + " == " + a + " && " + b + " == " + b + ")";
    break;
  case P::UNO:
    text = "(" + a + " != " + a + " || " + b + " != " + b + ")";
    break;
  case P::AlwaysTrue:
    text = "true";
    break;
  case P::AlwaysFalse:
    text = "false";
    break;
  }
  if (failed(declare(op.getResult())))
    return failure();
  os << text << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(arith::CmpIOp op) {
  using P = arith::CmpIPredicate;
  bool isUnsigned = false;
  StringRef sym;
  switch (op.getPredicate()) {
  case P::eq:
    sym = "==";
    break;
  case P::ne:
    sym = "!=";
    break;
  case P::slt:
    sym = "<";
    break;
  case P::sle:
    sym = "<=";
    break;
  case P::sgt:
    sym = ">";
    break;
  case P::sge:
    sym = ">=";
    break;
  case P::ult:
    sym = "<", isUnsigned = true;
    break;
  case P::ule:
    sym = "<=", isUnsigned = true;
    break;
  case P::ugt:
    sym = ">", isUnsigned = true;
    break;
  case P::uge:
    sym = ">=", isUnsigned = true;
    break;
  }
  bool equality = sym == "==" || sym == "!=";
  auto operand = [&](Value v) {
    if (equality)
      return expr(v);
    return isUnsigned ? asUnsigned(v) : asSigned(v);
  };
  std::string a = operand(op.getLhs()), b = operand(op.getRhs());
  if (failed(declare(op.getResult())))
    return failure();
  os << a << ' ' << sym << ' ' << b << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(arith::SelectOp op) {
  if (failed(declare(op.getResult())))
    return failure();
  os << expr(op.getCondition()) << " ? " << expr(op.getTrueValue()) << " : "
     << expr(op.getFalseValue()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printMath(Operation *op) {
  Value r = op->getResult(0);
  Type type = r.getType();
  StringRef base = llvm::TypeSwitch<Operation *, StringRef>(op)
                       .Case([](math::ExpOp) { return "exp"; })
                       .Case([](math::Exp2Op) { return "exp2"; })
                       .Case([](math::LogOp) { return "log"; })
                       .Case([](math::Log2Op) { return "log2"; })
                       .Case([](math::SqrtOp) { return "sqrt"; })
                       .Case([](math::RsqrtOp) { return "rsqrt"; })
                       .Case([](math::TanhOp) { return "tanh"; })
                       .Case([](math::ErfOp) { return "erf"; })
                       .Case([](math::SinOp) { return "sin"; })
                       .Case([](math::CosOp) { return "cos"; })
                       .Case([](math::AbsFOp) { return "fabs"; })
                       .Case([](math::FmaOp) { return "fma"; })
                       .Case([](math::PowFOp) { return "pow"; })
                       .Case([](math::FloorOp) { return "floor"; })
                       .Case([](math::CeilOp) { return "ceil"; })
                       .Default([](Operation *) { return ""; });
  // f16 and bf16 are computed in f32 and rounded once, as PyTorch's CUDA
  // kernels do.
  bool half = isHalf(type);
  SmallVector<std::string> args;
  for (Value operand : op->getOperands())
    args.push_back((half ? "(float)" : "") + expr(operand));
  if (failed(declare(r)))
    return failure();
  os << base << (type.isF64() ? "" : "f") << '(' << llvm::join(args, ", ")
     << ");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(scf::ForOp op) {
  // Carried values become mutable locals updated by the yield; the loop's
  // results name the same locals, which are in scope after the loop.
  SmallVector<std::string> carried;
  for (auto [init, arg, result] :
       llvm::zip(op.getInitArgs(), op.getRegionIterArgs(), op.getResults())) {
    FailureOr<std::string> type = typeName(arg.getType(), op.getLoc());
    if (failed(type))
      return failure();
    std::string name = bind(arg, "acc");
    names[result] = name;
    carried.push_back(name);
    os << *type << ' ' << name << " = " << expr(init) << ";\n";
  }
  FailureOr<std::string> indexType =
      typeName(op.getInductionVar().getType(), op.getLoc());
  if (failed(indexType))
    return failure();
  if (std::optional<int64_t> unroll = dkernel::getUnrollFactor(op))
    os << "#pragma unroll " << *unroll << "\n";
  std::string iv = bind(op.getInductionVar(), "i");
  std::string condition = op.getUnsignedCmp()
                              ? asUnsigned(op.getInductionVar()) + " < " +
                                    asUnsigned(op.getUpperBound())
                              : iv + " < " + expr(op.getUpperBound());
  os << "for (" << *indexType << ' ' << iv << " = " << expr(op.getLowerBound())
     << "; " << condition << "; " << iv << " += " << expr(op.getStep())
     << ") {\n";
  os.indent();
  if (failed(emitBlock(*op.getBody())))
    return failure();
  // Assign all carried values at once: a yielded iteration argument (a swap
  // `scf.yield %b, %a`) is read into a temporary before any is assigned.
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  SmallVector<std::string> next;
  for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
    auto arg = dyn_cast<BlockArgument>(v);
    bool isOtherIterArg = arg && arg.getOwner() == op.getBody() &&
                          arg.getArgNumber() > 0 && arg.getArgNumber() != i + 1;
    if (!isOtherIterArg) {
      next.push_back(expr(v));
      continue;
    }
    std::string tmp = carried[i] + "_next";
    os << "const " << *typeName(v.getType(), op.getLoc()) << ' ' << tmp << " = "
       << expr(v) << ";\n";
    next.push_back(tmp);
  }
  for (auto [name, value] : llvm::zip(carried, next))
    if (name != value)
      os << name << " = " << value << ";\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(scf::IfOp op) {
  SmallVector<std::string> results;
  for (Value result : op.getResults()) {
    FailureOr<std::string> type = typeName(result.getType(), op.getLoc());
    if (failed(type))
      return failure();
    std::string name = bind(result, "v");
    results.push_back(name);
    os << *type << ' ' << name << ";\n";
  }
  auto emitBranch = [&](Region &region) -> LogicalResult {
    os.indent();
    Block &block = region.front();
    if (failed(emitBlock(block)))
      return failure();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    for (auto [name, value] : llvm::zip(results, yield.getOperands()))
      os << name << " = " << expr(value) << ";\n";
    os.unindent();
    return success();
  };
  os << "if (" << expr(op.getCondition()) << ") {\n";
  if (failed(emitBranch(op.getThenRegion())))
    return failure();
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    if (failed(emitBranch(op.getElseRegion())))
      return failure();
  }
  os << "}\n";
  return success();
}

std::string CudaEmitter::toF8Helper(Type type) {
  bool e4m3 = isa<Float8E4M3FNType>(type);
  fp8 = true;
  std::string name = "dk_to_" + typeSuffix(type);
  StringRef cuda = e4m3 ? "__nv_fp8_e4m3" : "__nv_fp8_e5m2";
  // __NV_NOSAT: overflow is NaN (e4m3) or infinity (e5m2), not the largest
  // finite value the type's constructor saturates to.
  addHelper(name, llvm::formatv("__device__ __forceinline__ {0} {1}(double "
                                "x) {{\n"
                                "  {0} r;\n"
                                "  r.__x = __nv_cvt_double_to_fp8(x, "
                                "__NV_NOSAT, {2});\n"
                                "  return r;\n"
                                "}\n",
                                cuda, name, e4m3 ? "__NV_E4M3" : "__NV_E5M2")
                      .str());
  return name;
}
