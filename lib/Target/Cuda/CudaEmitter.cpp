//===- CudaEmitter.cpp - Print Kernel IR as CUDA C++ ------------*- C++ -*-===//
//
// One printOperation per op kind through a TypeSwitch, as in MLIR's C++
// emitter. SSA values become `const` locals named in definition order, loop
// variables `i<N>`, carried values mutable locals; constants are printed
// inline where they are used.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Target/Cuda/CudaEmitter.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace deplodock;

namespace {

/// Device helpers the kernels may call; printed once, before the kernels,
/// in this order, only when used.
enum class Helper { MaximumF, MinimumF, AtomicMaxF, AtomicMinF, AtomicMulF };

class CudaEmitter {
public:
  CudaEmitter(raw_ostream &os, const CudaEmitterOptions &options)
      : os(os), options(options) {}

  LogicalResult emitKernel(dkernel::FuncOp func);

  /// The helpers the printed kernels used.
  const llvm::SmallSetVector<Helper, 8> &getHelpers() const {
    return helpers;
  }
  bool usesHalf() const { return half; }
  bool usesTma() const { return tma; }

private:
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOperation(Operation *op);

  // Scalar ops.
  LogicalResult printOperation(arith::ConstantOp op);
  LogicalResult printArith(Operation *op);
  LogicalResult printCast(Operation *op);
  LogicalResult printOperation(arith::CmpFOp op);
  LogicalResult printOperation(arith::CmpIOp op);
  LogicalResult printOperation(arith::SelectOp op);
  LogicalResult printMath(Operation *op);
  // Control flow.
  LogicalResult printOperation(scf::ForOp op);
  LogicalResult printOperation(scf::IfOp op);
  // Memory and GPU.
  LogicalResult printOperation(memref::LoadOp op);
  LogicalResult printOperation(memref::StoreOp op);
  LogicalResult printGpuIndex(Operation *op, StringRef base,
                              gpu::Dimension dim);
  LogicalResult printOperation(gpu::ShuffleOp op);
  // Kernel IR.
  LogicalResult printOperation(dkernel::AllocSharedOp op);
  LogicalResult printOperation(dkernel::CpAsyncOp op);
  LogicalResult printOperation(dkernel::CpAsyncWaitOp op);
  LogicalResult printOperation(dkernel::MbarrierInitOp op);
  LogicalResult printOperation(dkernel::MbarrierArriveExpectTxOp op);
  LogicalResult printOperation(dkernel::MbarrierWaitOp op);
  LogicalResult printOperation(dkernel::TmaLoadOp op);
  LogicalResult printOperation(dkernel::WarpReduceOp op);
  LogicalResult printOperation(dkernel::TreeReduceOp op);
  LogicalResult printOperation(dkernel::AtomicStoreOp op);

  /// The CUDA spelling of a scalar type, or a located error at `loc`.
  FailureOr<std::string> typeName(Type type, Location loc);
  /// The expression for `value`: its name, or a literal for a constant.
  std::string expr(Value value);
  /// Declares `value` as a new const local: `const T v3 = `.
  LogicalResult declare(Value value, StringRef prefix = "v");
  /// Names `value` without declaring it.
  std::string bind(Value value, StringRef prefix);
  /// `buf[linear index]` for an access of `memref` at `indices`.
  std::string element(Value memref, ValueRange indices);
  /// `(unsigned)x`, for unsigned integer semantics.
  std::string asUnsigned(Value value);

  raw_indented_ostream os;
  const CudaEmitterOptions &options;
  llvm::DenseMap<Value, std::string> names;
  llvm::StringMap<unsigned> counters;
  llvm::SmallSetVector<Helper, 8> helpers;
  bool half = false;
  bool tma = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Names, types and literals
//===----------------------------------------------------------------------===//

std::string CudaEmitter::bind(Value value, StringRef prefix) {
  std::string name = (prefix + Twine(counters[prefix]++)).str();
  names[value] = name;
  return name;
}

FailureOr<std::string> CudaEmitter::typeName(Type type, Location loc) {
  if (type.isIndex())
    return std::string(options.indexBitwidth == 64 ? "long long" : "int");
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  if (type.isF16()) {
    half = true;
    return std::string("__half");
  }
  if (type.isBF16()) {
    half = true;
    return std::string("__nv_bfloat16");
  }
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return std::string("bool");
    case 8:
      return std::string("signed char");
    case 16:
      return std::string("short");
    case 32:
      return std::string("int");
    case 64:
      return std::string("long long");
    default:
      break;
    }
  }
  return emitError(loc, "cannot print type ") << type << " as CUDA";
}

/// A CUDA literal for `attr`, exact for every finite value.
static FailureOr<std::string> literal(TypedAttr attr, Location loc) {
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    if (integer.getType().isInteger(1))
      return std::string(integer.getValue().isZero() ? "false" : "true");
    int64_t v = integer.getValue().getSExtValue();
    if (integer.getType().isInteger(64))
      return llvm::formatv("{0}LL", v).str();
    return std::to_string(v);
  }
  auto fp = dyn_cast<FloatAttr>(attr);
  if (!fp)
    return emitError(loc, "cannot print constant ") << attr << " as CUDA";
  APFloat value = fp.getValue();
  bool isFloat = fp.getType().isF32();
  if (!fp.getType().isF32() && !fp.getType().isF64())
    return emitError(loc, "cannot print constant ")
           << attr << " as CUDA; convert it from f32 in the IR";
  if (value.isNaN())
    return std::string(isFloat ? "__int_as_float(0x7fc00000)"
                               : "__longlong_as_double(0x7ff8000000000000LL)");
  if (value.isInfinity()) {
    bool neg = value.isNegative();
    if (isFloat)
      return std::string(neg ? "__int_as_float(0xff800000)"
                             : "__int_as_float(0x7f800000)");
    return std::string(neg ? "__longlong_as_double(0xfff0000000000000LL)"
                           : "__longlong_as_double(0x7ff0000000000000LL)");
  }
  // 9 (float) or 17 (double) significant digits round-trip exactly.
  double d = value.convertToDouble();
  std::string text =
      llvm::formatv(isFloat ? "{0:e8}" : "{0:e16}", d).str();
  return isFloat ? text + "f" : text;
}

std::string CudaEmitter::expr(Value value) {
  if (auto cst = value.getDefiningOp<arith::ConstantOp>()) {
    FailureOr<std::string> text =
        literal(cast<TypedAttr>(cst.getValue()), cst.getLoc());
    if (succeeded(text))
      return *text;
  }
  auto it = names.find(value);
  return it == names.end() ? std::string("<unnamed>") : it->second;
}

LogicalResult CudaEmitter::declare(Value value, StringRef prefix) {
  FailureOr<std::string> type = typeName(value.getType(), value.getLoc());
  if (failed(type))
    return failure();
  os << "const " << *type << ' ' << bind(value, prefix) << " = ";
  return success();
}

std::string CudaEmitter::asUnsigned(Value value) {
  unsigned width = value.getType().isIndex()
                       ? options.indexBitwidth
                       : value.getType().getIntOrFloatBitWidth();
  return (width == 64 ? "(unsigned long long)" : "(unsigned)") + expr(value);
}

std::string CudaEmitter::element(Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  // Row-major linear index with the static strides folded in.
  std::string index;
  int64_t stride = 1;
  SmallVector<std::string> terms;
  for (int d = type.getRank() - 1; d >= 0; --d) {
    std::string term = expr(indices[d]);
    if (stride != 1)
      term = "(" + term + ") * " + std::to_string(stride);
    terms.push_back(term);
    stride *= type.getDimSize(d);
  }
  std::reverse(terms.begin(), terms.end());
  index = terms.empty() ? "0" : llvm::join(terms, " + ");
  return expr(memref) + "[" + index + "]";
}

//===----------------------------------------------------------------------===//
// Kernels and blocks
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::emitKernel(dkernel::FuncOp func) {
  names.clear();
  counters.clear();
  ArrayRef<int64_t> block = func.getBlock();
  int64_t threads = block[0] * block[1] * block[2];
  os << "extern \"C\" __global__ void __launch_bounds__(" << threads << ")\n"
     << func.getSymName() << "(";
  SmallVector<std::string> params;
  for (BlockArgument arg : func.getArguments()) {
    if (isa<dkernel::TmaDescriptorType>(arg.getType())) {
      tma = true;
      params.push_back("const __grid_constant__ CUtensorMap " +
                       bind(arg, "desc"));
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      return func.emitOpError("parameter #")
             << arg.getArgNumber() << " cannot be printed as CUDA";
    FailureOr<std::string> element =
        typeName(type.getElementType(), func.getLoc());
    if (failed(element))
      return failure();
    bool output = func.isOutput(arg.getArgNumber());
    std::string name = bind(arg, output ? "out" : "in");
    params.push_back((output ? "" : "const ") + *element +
                     "* __restrict__ " + name);
  }
  os << llvm::join(params, ", ") << ") {\n";
  os.indent();
  if (func.getSmem() > 0)
    os << "extern __shared__ __align__(128) unsigned char smem[];\n";
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOperation(&op)))
      return failure();
  return success();
}

LogicalResult CudaEmitter::emitOperation(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp, arith::CmpFOp, arith::CmpIOp, arith::SelectOp,
            scf::ForOp, scf::IfOp, memref::LoadOp, memref::StoreOp,
            gpu::ShuffleOp, dkernel::AllocSharedOp, dkernel::CpAsyncOp,
            dkernel::CpAsyncWaitOp, dkernel::MbarrierInitOp,
            dkernel::MbarrierArriveExpectTxOp, dkernel::MbarrierWaitOp,
            dkernel::TmaLoadOp, dkernel::WarpReduceOp, dkernel::TreeReduceOp,
            dkernel::AtomicStoreOp>(
          [&](auto op) { return printOperation(op); })
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::RemFOp, arith::NegFOp, arith::MaximumFOp,
            arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
            arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
            arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
            arith::ShRUIOp, arith::MaxSIOp, arith::MinSIOp>(
          [&](Operation *op) { return printArith(op); })
      .Case<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp,
            arith::FPToUIOp, arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::BitcastOp>(
          [&](Operation *op) { return printCast(op); })
      .Case<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
            math::SqrtOp, math::RsqrtOp, math::TanhOp, math::ErfOp,
            math::SinOp, math::CosOp, math::AbsFOp, math::FmaOp, math::PowFOp,
            math::FloorOp, math::CeilOp>(
          [&](Operation *op) { return printMath(op); })
      .Case<gpu::ThreadIdOp>([&](gpu::ThreadIdOp op) {
        return printGpuIndex(op, "threadIdx", op.getDimension());
      })
      .Case<gpu::BlockIdOp>([&](gpu::BlockIdOp op) {
        return printGpuIndex(op, "blockIdx", op.getDimension());
      })
      .Case<gpu::BlockDimOp>([&](gpu::BlockDimOp op) {
        return printGpuIndex(op, "blockDim", op.getDimension());
      })
      .Case<gpu::GridDimOp>([&](gpu::GridDimOp op) {
        return printGpuIndex(op, "gridDim", op.getDimension());
      })
      .Case<gpu::BarrierOp>([&](auto) {
        os << "__syncthreads();\n";
        return success();
      })
      .Case<dkernel::CpAsyncCommitOp>([&](auto) {
        os << "asm volatile(\"cp.async.commit_group;\\n\" ::);\n";
        return success();
      })
      // Descriptors are parameters; their ties to buffers matter to the
      // runtime only. Terminators end scopes printed by their parents.
      .Case<dkernel::TmaDescriptorOp, dkernel::ReturnOp, scf::YieldOp>(
          [&](auto) { return success(); })
      .Default([](Operation *op) {
        return op->emitOpError("cannot be emitted as CUDA");
      });
}

//===----------------------------------------------------------------------===//
// Scalar ops
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(arith::ConstantOp op) {
  // Printed inline at each use; only check that it can be.
  return failed(literal(cast<TypedAttr>(op.getValue()), op.getLoc()))
             ? failure()
             : success();
}

LogicalResult CudaEmitter::printArith(Operation *op) {
  Value r = op->getResult(0);
  auto lhs = [&] { return expr(op->getOperand(0)); };
  auto rhs = [&] { return expr(op->getOperand(1)); };
  auto infix = [&](StringRef sym) {
    return (lhs() + " " + sym + " " + rhs()).str();
  };
  bool isF64 = r.getType().isF64();
  std::string text =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case<arith::AddFOp, arith::AddIOp>([&](auto) { return infix("+"); })
          .Case<arith::SubFOp, arith::SubIOp>([&](auto) { return infix("-"); })
          .Case<arith::MulFOp, arith::MulIOp>([&](auto) { return infix("*"); })
          .Case<arith::DivFOp, arith::DivSIOp>(
              [&](auto) { return infix("/"); })
          .Case<arith::RemSIOp>([&](auto) { return infix("%"); })
          .Case<arith::AndIOp>([&](auto) { return infix("&"); })
          .Case<arith::OrIOp>([&](auto) { return infix("|"); })
          .Case<arith::XOrIOp>([&](auto) { return infix("^"); })
          .Case<arith::ShLIOp>([&](auto) { return infix("<<"); })
          .Case<arith::ShRSIOp>([&](auto) { return infix(">>"); })
          .Case<arith::DivUIOp>([&](auto) {
            return asUnsigned(op->getOperand(0)) + " / " +
                   asUnsigned(op->getOperand(1));
          })
          .Case<arith::RemUIOp>([&](auto) {
            return asUnsigned(op->getOperand(0)) + " % " +
                   asUnsigned(op->getOperand(1));
          })
          .Case<arith::ShRUIOp>([&](auto) {
            return asUnsigned(op->getOperand(0)) + " >> " + rhs();
          })
          .Case<arith::RemFOp>([&](auto) {
            return (isF64 ? "fmod(" : "fmodf(") + lhs() + ", " + rhs() + ")";
          })
          .Case<arith::NegFOp>([&](auto) { return "-" + lhs(); })
          .Case<arith::MaxNumFOp>([&](auto) {
            return (isF64 ? "fmax(" : "fmaxf(") + lhs() + ", " + rhs() + ")";
          })
          .Case<arith::MinNumFOp>([&](auto) {
            return (isF64 ? "fmin(" : "fminf(") + lhs() + ", " + rhs() + ")";
          })
          .Case<arith::MaximumFOp>([&](auto) {
            helpers.insert(Helper::MaximumF);
            return "dk_maximumf(" + lhs() + ", " + rhs() + ")";
          })
          .Case<arith::MinimumFOp>([&](auto) {
            helpers.insert(Helper::MinimumF);
            return "dk_minimumf(" + lhs() + ", " + rhs() + ")";
          })
          .Case<arith::MaxSIOp>([&](auto) {
            return "max(" + lhs() + ", " + rhs() + ")";
          })
          .Case<arith::MinSIOp>([&](auto) {
            return "min(" + lhs() + ", " + rhs() + ")";
          })
          .Default([](Operation *) { return std::string(); });
  if ((isa<arith::MaximumFOp, arith::MinimumFOp, arith::RemFOp,
           arith::MaxNumFOp, arith::MinNumFOp>(op)) &&
      !r.getType().isF32() && !isF64)
    return op->emitOpError("is only emitted for f32 and f64");
  if (failed(declare(r)))
    return failure();
  os << text << ";\n";
  return success();
}

LogicalResult CudaEmitter::printCast(Operation *op) {
  Value in = op->getOperand(0);
  Value r = op->getResult(0);
  FailureOr<std::string> to = typeName(r.getType(), op->getLoc());
  if (failed(to))
    return failure();
  std::string text;
  if (auto cast = dyn_cast<arith::BitcastOp>(op)) {
    Type from = in.getType();
    if (from.isF32() && r.getType().isInteger(32))
      text = "__float_as_int(" + expr(in) + ")";
    else if (from.isInteger(32) && r.getType().isF32())
      text = "__int_as_float(" + expr(in) + ")";
    else
      return op->emitOpError("is only emitted between f32 and i32");
  } else if (isa<arith::UIToFPOp, arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
    text = "(" + *to + ")" + asUnsigned(in);
  } else {
    text = "(" + *to + ")" + expr(in);
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
  case P::ORD:
    text = "!isnan(" + a + ") && !isnan(" + b + ")";
    break;
  case P::UNO:
    text = "isnan(" + a + ") || isnan(" + b + ")";
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
  std::string a = isUnsigned ? asUnsigned(op.getLhs()) : expr(op.getLhs());
  std::string b = isUnsigned ? asUnsigned(op.getRhs()) : expr(op.getRhs());
  if (failed(declare(op.getResult())))
    return failure();
  os << a << ' ' << sym << ' ' << b << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(arith::SelectOp op) {
  if (!op.getCondition().getType().isInteger(1))
    return op.emitOpError("with a vector condition cannot be emitted");
  if (failed(declare(op.getResult())))
    return failure();
  os << expr(op.getCondition()) << " ? " << expr(op.getTrueValue()) << " : "
     << expr(op.getFalseValue()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printMath(Operation *op) {
  Value r = op->getResult(0);
  bool isF64 = r.getType().isF64();
  if (!r.getType().isF32() && !isF64)
    return op->emitOpError("is only emitted for f32 and f64");
  StringRef base =
      llvm::TypeSwitch<Operation *, StringRef>(op)
          .Case<math::ExpOp>([](auto) { return "exp"; })
          .Case<math::Exp2Op>([](auto) { return "exp2"; })
          .Case<math::LogOp>([](auto) { return "log"; })
          .Case<math::Log2Op>([](auto) { return "log2"; })
          .Case<math::SqrtOp>([](auto) { return "sqrt"; })
          .Case<math::RsqrtOp>([](auto) { return "rsqrt"; })
          .Case<math::TanhOp>([](auto) { return "tanh"; })
          .Case<math::ErfOp>([](auto) { return "erf"; })
          .Case<math::SinOp>([](auto) { return "sin"; })
          .Case<math::CosOp>([](auto) { return "cos"; })
          .Case<math::AbsFOp>([](auto) { return "fabs"; })
          .Case<math::FmaOp>([](auto) { return "fma"; })
          .Case<math::PowFOp>([](auto) { return "pow"; })
          .Case<math::FloorOp>([](auto) { return "floor"; })
          .Case<math::CeilOp>([](auto) { return "ceil"; })
          .Default([](Operation *) { return ""; });
  SmallVector<std::string> args;
  for (Value operand : op->getOperands())
    args.push_back(expr(operand));
  if (failed(declare(r)))
    return failure();
  os << base << (isF64 ? "" : "f") << '(' << llvm::join(args, ", ")
     << ");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(scf::ForOp op) {
  // Carried values become mutable locals updated by the yield.
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
  if (auto unroll = op->getAttrOfType<IntegerAttr>("dkernel.unroll"))
    os << "#pragma unroll " << unroll.getInt() << "\n";
  std::string iv = bind(op.getInductionVar(), "i");
  os << "for (" << *indexType << ' ' << iv << " = "
     << expr(op.getLowerBound()) << "; " << iv << " < "
     << expr(op.getUpperBound()) << "; " << iv << " += " << expr(op.getStep())
     << ") {\n";
  os.indent();
  if (failed(emitBlock(*op.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  // Read every yielded value before assigning any: a yield may swap.
  SmallVector<std::string> next;
  for (Value v : yield.getOperands())
    next.push_back(expr(v));
  bool readsCarried = llvm::any_of(yield.getOperands(), [&](Value v) {
    return llvm::is_contained(op.getRegionIterArgs(), v);
  });
  if (readsCarried && carried.size() > 1) {
    for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
      FailureOr<std::string> type = typeName(v.getType(), op.getLoc());
      if (failed(type))
        return failure();
      std::string tmp = carried[i] + "_next";
      os << "const " << *type << ' ' << tmp << " = " << next[i] << ";\n";
      next[i] = tmp;
    }
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

//===----------------------------------------------------------------------===//
// Memory and GPU
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(memref::LoadOp op) {
  if (failed(declare(op.getResult())))
    return failure();
  os << element(op.getMemref(), op.getIndices()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(memref::StoreOp op) {
  os << element(op.getMemref(), op.getIndices()) << " = "
     << expr(op.getValueToStore()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printGpuIndex(Operation *op, StringRef base,
                                         gpu::Dimension dim) {
  if (failed(declare(op->getResult(0))))
    return failure();
  FailureOr<std::string> type =
      typeName(op->getResult(0).getType(), op->getLoc());
  os << '(' << *type << ')' << base << '.' << gpu::stringifyDimension(dim)
     << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(gpu::ShuffleOp op) {
  if (op.getMode() != gpu::ShuffleMode::XOR)
    return op.emitOpError("is only emitted in xor mode");
  if (!op.getValid().use_empty())
    return op.emitOpError("with a used 'valid' result cannot be emitted");
  if (failed(declare(op.getShuffleResult())))
    return failure();
  os << "__shfl_xor_sync(0xffffffffu, " << expr(op.getValue()) << ", "
     << expr(op.getOffset()) << ", " << expr(op.getWidth()) << ");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel IR
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(dkernel::AllocSharedOp op) {
  auto type = cast<MemRefType>(op.getType());
  FailureOr<std::string> element =
      typeName(type.getElementType(), op.getLoc());
  if (failed(element))
    return failure();
  os << *element << "* const " << bind(op.getResult(), "smem")
     << " = reinterpret_cast<" << *element << "*>(smem + " << op.getOffset()
     << ");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncOp op) {
  // 16-byte copies bypass L1 (.cg); smaller ones must go through it (.ca).
  int64_t bytes = op.getBytes();
  os << "asm volatile(\"cp.async." << (bytes == 16 ? "cg" : "ca")
     << ".shared.global [%0], [%1], " << bytes
     << ";\\n\" :: \"r\"((unsigned)__cvta_generic_to_shared(&"
     << element(op.getDst(), op.getDstIndices()) << ")), \"l\"(&"
     << element(op.getSrc(), op.getSrcIndices()) << "));\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncWaitOp op) {
  os << "asm volatile(\"cp.async.wait_group " << op.getPending()
     << ";\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierInitOp op) {
  os << "asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\\n\" :: "
        "\"r\"((unsigned)__cvta_generic_to_shared(&"
     << element(op.getMbarriers(), op.getSlot()) << ")), \"r\"("
     << op.getCount() << "));\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierArriveExpectTxOp op) {
  os << "asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], "
        "%1;\\n\" :: \"r\"((unsigned)__cvta_generic_to_shared(&"
     << element(op.getMbarriers(), op.getSlot()) << ")), \"r\"("
     << op.getBytes() << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierWaitOp op) {
  // Spin on try_wait.parity until the phase with this parity completed.
  os << "{\n";
  os.indent();
  os << "const unsigned bar = (unsigned)__cvta_generic_to_shared(&"
     << element(op.getMbarriers(), op.getSlot()) << ");\n"
     << "unsigned done = 0;\n"
     << "while (!done) {\n";
  os.indent();
  os << "asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::"
        "cta.b64 p, [%1], %2;\\nselp.u32 %0, 1, 0, p;\\n}\\n\" : \"=r\"(done) "
        ": \"r\"(bar), \"r\"((unsigned)("
     << expr(op.getPhase()) << ")) : \"memory\");\n";
  os.unindent();
  os << "}\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::TmaLoadOp op) {
  auto desc = cast<dkernel::TmaDescriptorType>(op.getDescriptor().getType());
  unsigned rank = desc.getBoxShape().size();
  // PTX lists coordinates innermost first.
  SmallVector<std::string> coords;
  for (Value c : llvm::reverse(op.getCoords()))
    coords.push_back("\"r\"((int)(" + expr(c) + "))");
  SmallVector<std::string> slots;
  for (unsigned i = 0; i < rank; ++i)
    slots.push_back("%" + std::to_string(i + 3));
  os << "asm volatile(\"cp.async.bulk.tensor." << rank
     << "d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {"
     << llvm::join(slots, ", ") << "}], [%2];\\n\" :: "
     << "\"r\"((unsigned)__cvta_generic_to_shared(" << expr(op.getDst())
     << ")), \"l\"(&" << expr(op.getDescriptor()) << "), "
     << "\"r\"((unsigned)__cvta_generic_to_shared(&"
     << element(op.getMbarriers(), op.getSlot()) << ")), "
     << llvm::join(coords, ", ") << " : \"memory\");\n";
  return success();
}

/// The C expression combining `a` and `b` with `kind`.
static std::string combine(ReduceKind kind, StringRef a, StringRef b,
                           bool isFloat) {
  switch (kind) {
  case ReduceKind::add:
    return (a + " + " + b).str();
  case ReduceKind::mul:
    return (a + " * " + b).str();
  case ReduceKind::max:
    return ((isFloat ? "fmaxf(" : "max(") + a + ", " + b + ")").str();
  case ReduceKind::min:
    return ((isFloat ? "fminf(" : "min(") + a + ", " + b + ")").str();
  }
  return "";
}

LogicalResult CudaEmitter::printOperation(dkernel::WarpReduceOp op) {
  Type type = op.getValue().getType();
  FailureOr<std::string> typeStr = typeName(type, op.getLoc());
  if (failed(typeStr))
    return failure();
  if (isa<FloatType>(type) && !type.isF32())
    return op.emitOpError("is only emitted for f32 floats");
  std::string name = bind(op.getResult(), "red");
  os << *typeStr << ' ' << name << " = " << expr(op.getValue()) << ";\n";
  os << "#pragma unroll\n"
     << "for (int off = " << op.getWidth() / 2 << "; off > 0; off >>= 1)\n";
  os.indent();
  os << name << " = "
     << combine(op.getKind(), name,
                "__shfl_xor_sync(0xffffffffu, " + name + ", off, " +
                    std::to_string(op.getWidth()) + ")",
                isa<FloatType>(type))
     << ";\n";
  os.unindent();
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::TreeReduceOp op) {
  // Halve the live range each step; a barrier orders the steps.
  std::string buf = expr(op.getBuffer());
  Type type = op.getResult().getType();
  std::string tid = "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
                    "threadIdx.z))";
  os << "for (int half = " << op.getLength() / 2
     << "; half > 0; half >>= 1) {\n";
  os.indent();
  os << "const int t = " << tid << ";\n"
     << "if (t < half)\n";
  os.indent();
  os << buf << "[t] = "
     << combine(op.getKind(), buf + "[t]", buf + "[t + half]",
                isa<FloatType>(type))
     << ";\n";
  os.unindent();
  os << "__syncthreads();\n";
  os.unindent();
  os << "}\n";
  if (failed(declare(op.getResult())))
    return failure();
  os << buf << "[0];\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::AtomicStoreOp op) {
  std::string address = "&" + element(op.getMemref(), op.getIndices());
  std::string value = expr(op.getValue());
  Type type = op.getValue().getType();
  bool isFloat = isa<FloatType>(type);
  if (isFloat && !type.isF32())
    return op.emitOpError("is only emitted for f32 floats");
  switch (op.getKind()) {
  case ReduceKind::add:
    os << "atomicAdd(" << address << ", " << value << ");\n";
    return success();
  case ReduceKind::max:
    if (isFloat)
      helpers.insert(Helper::AtomicMaxF);
    os << (isFloat ? "dk_atomic_maxf(" : "atomicMax(") << address << ", "
       << value << ");\n";
    return success();
  case ReduceKind::min:
    if (isFloat)
      helpers.insert(Helper::AtomicMinF);
    os << (isFloat ? "dk_atomic_minf(" : "atomicMin(") << address << ", "
       << value << ");\n";
    return success();
  case ReduceKind::mul:
    if (!isFloat)
      return op.emitOpError("mul is only emitted for f32");
    helpers.insert(Helper::AtomicMulF);
    os << "dk_atomic_mulf(" << address << ", " << value << ");\n";
    return success();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// The source of a device helper.
static StringRef helperSource(Helper helper) {
  switch (helper) {
  case Helper::MaximumF:
    return "static __device__ __forceinline__ float dk_maximumf(float a, "
           "float b) {\n  return (a != a || b != b) ? __int_as_float("
           "0x7fc00000) : fmaxf(a, b);\n}\n";
  case Helper::MinimumF:
    return "static __device__ __forceinline__ float dk_minimumf(float a, "
           "float b) {\n  return (a != a || b != b) ? __int_as_float("
           "0x7fc00000) : fminf(a, b);\n}\n";
  case Helper::AtomicMaxF:
    return "static __device__ __forceinline__ void dk_atomic_maxf(float *p, "
           "float v) {\n  int old = __float_as_int(*p);\n  while (v > "
           "__int_as_float(old)) {\n    const int seen = atomicCAS((int *)p, "
           "old, __float_as_int(v));\n    if (seen == old) break;\n    old = "
           "seen;\n  }\n}\n";
  case Helper::AtomicMinF:
    return "static __device__ __forceinline__ void dk_atomic_minf(float *p, "
           "float v) {\n  int old = __float_as_int(*p);\n  while (v < "
           "__int_as_float(old)) {\n    const int seen = atomicCAS((int *)p, "
           "old, __float_as_int(v));\n    if (seen == old) break;\n    old = "
           "seen;\n  }\n}\n";
  case Helper::AtomicMulF:
    return "static __device__ __forceinline__ void dk_atomic_mulf(float *p, "
           "float v) {\n  int old = __float_as_int(*p);\n  for (;;) {\n    "
           "const int seen = atomicCAS((int *)p, old, "
           "__float_as_int(__int_as_float(old) * v));\n    if (seen == old) "
           "break;\n    old = seen;\n  }\n}\n";
  }
  return "";
}

LogicalResult deplodock::translateToCuda(Operation *op, raw_ostream &os,
                                         const CudaEmitterOptions &options) {
  SmallVector<dkernel::FuncOp> kernels;
  if (auto func = dyn_cast<dkernel::FuncOp>(op))
    kernels.push_back(func);
  else
    op->walk([&](dkernel::FuncOp func) { kernels.push_back(func); });
  if (kernels.empty())
    return op->emitError("no dkernel.func to emit as CUDA");

  std::string body;
  llvm::raw_string_ostream bodyStream(body);
  CudaEmitter emitter(bodyStream, options);
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    if (i)
      bodyStream << '\n';
    if (failed(emitter.emitKernel(kernel)))
      return failure();
  }

  os << "// Generated by deplodock-translate --emit-cuda.\n";
  if (emitter.usesHalf())
    os << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";
  if (emitter.usesTma())
    os << "#include <cuda.h>\n";
  os << '\n';
  for (Helper helper : emitter.getHelpers())
    os << helperSource(helper) << '\n';
  os << body;
  return success();
}
