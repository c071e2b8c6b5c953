//===- CudaEmitter.cpp - Print Kernel IR as CUDA C++ ------------*- C++ -*-===//
//
// One printOperation per op kind through a TypeSwitch, as in MLIR's C++
// emitter. SSA values become `const` locals named in definition order, loop
// variables `i<N>`, carried values mutable locals; constants are printed
// inline where they are used. The output is a function of the IR alone: names
// come from per-kernel counters and helpers are printed in first-use order.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Target/Cuda/CudaEmitter.h"

#include "Deplodock/Dialect/Common/Sizes.h"
#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace deplodock;

namespace {

/// Device helper sources by name, in insertion order.
using HelperMap =
    llvm::MapVector<std::string, std::string, std::map<std::string, unsigned>>;

/// Prints kernels one at a time into one stream and remembers what the file
/// needs around them: headers and device helpers.
class CudaEmitter {
public:
  CudaEmitter(raw_ostream &os, const CudaEmitterOptions &options)
      : os(os), options(options) {}

  /// Prints `func` as an extern "C" __global__ function.
  LogicalResult emitKernel(dkernel::FuncOp func);

  /// The device helpers the printed kernels call, name to source, each after
  /// the helpers it calls.
  const HelperMap &getHelpers() const { return helpers; }
  /// Whether a printed kernel uses __half (cuda_fp16.h).
  bool usesFp16() const { return fp16; }
  /// Whether a printed kernel uses __nv_bfloat16 (cuda_bf16.h).
  bool usesBf16() const { return bf16; }
  /// Whether a printed kernel takes a CUtensorMap.
  bool usesTma() const { return tma; }

private:
  /// Prints the ops of `block`. Terminators print nothing: the parent op
  /// assigns what they yield.
  LogicalResult emitBlock(Block &block);
  /// Dispatches `op` to its printOperation.
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
  LogicalResult printOperation(memref::AllocaOp op);
  LogicalResult printOperation(memref::LoadOp op);
  LogicalResult printOperation(memref::StoreOp op);
  LogicalResult printGpuIndex(Operation *op, StringRef base,
                              gpu::Dimension dim);
  LogicalResult printOperation(gpu::ShuffleOp op);
  LogicalResult printOperation(gpu::BarrierOp op);
  // Kernel IR.
  LogicalResult printOperation(dkernel::AllocSharedOp op);
  LogicalResult printOperation(dkernel::CpAsyncOp op);
  LogicalResult printOperation(dkernel::VectorCopyOp op);
  LogicalResult printOperation(dkernel::VectorLoadOp op);
  LogicalResult printOperation(dkernel::VectorStoreOp op);
  LogicalResult printOperation(dkernel::CpAsyncCommitOp op);
  LogicalResult printOperation(dkernel::CpAsyncWaitOp op);
  LogicalResult printOperation(dkernel::MbarrierInitOp op);
  LogicalResult printOperation(dkernel::MbarrierArriveExpectTxOp op);
  LogicalResult printOperation(dkernel::MbarrierArriveOp op);
  LogicalResult printOperation(dkernel::MbarrierWaitOp op);
  LogicalResult printOperation(dkernel::TmaLoadOp op);
  LogicalResult printOperation(dkernel::WarpReduceOp op);
  LogicalResult printOperation(dkernel::TreeReduceOp op);
  LogicalResult printOperation(dkernel::AtomicStoreOp op);
  LogicalResult printOperation(dkernel::LdMatrixOp op);
  LogicalResult printOperation(dkernel::MmaSyncOp op);
  // Warpgroup matrix ops (WgmmaOps.td).
  LogicalResult printOperation(dkernel::WgmmaDescOp op);
  LogicalResult printOperation(dkernel::WgmmaFenceOp op);
  LogicalResult printOperation(dkernel::FenceProxyAsyncOp op);
  LogicalResult printOperation(dkernel::WgmmaCommitGroupOp op);
  LogicalResult printOperation(dkernel::WgmmaWaitGroupOp op);
  LogicalResult printOperation(dkernel::WgmmaMmaAsyncOp op);
  LogicalResult printOperation(dkernel::SetMaxNRegOp op);
  /// A fresh name for a local the emitter introduces itself.
  std::string fresh(StringRef prefix) {
    return (prefix + Twine(counters[prefix]++)).str();
  }

  /// The CUDA spelling of a scalar type, or a located error at `loc`.
  FailureOr<std::string> typeName(Type type, Location loc);
  /// The CUDA spelling of `index`.
  StringRef indexTypeName() const {
    return options.indexBitwidth == 64 ? "long long" : "int";
  }
  /// A CUDA literal for `attr`, exact for every value, or a located error.
  FailureOr<std::string> literal(TypedAttr attr, Location loc);
  /// The expression for `value`: its name, or a literal for a constant.
  std::string expr(Value value);
  /// Declares `value` as a new const local: `const T v3 = `.
  LogicalResult declare(Value value, StringRef prefix = "v");
  /// Names `value` without declaring it.
  std::string bind(Value value, StringRef prefix);
  /// `buf[linear index]` for an access of `memref` at `indices`.
  std::string element(Value memref, ValueRange indices);
  /// The 32-bit shared-window address of `memref[indices]`, for PTX.
  std::string sharedAddress(Value memref, ValueRange indices);
  /// `value` read as an unsigned integer of its width.
  std::string asUnsigned(Value value);
  /// `value` read as a signed integer: i1 `true` is -1.
  std::string asSigned(Value value);
  /// The expression combining `a` and `b` of `type` with `kind`; max and min
  /// propagate NaN, as the reference interpreter does.
  FailureOr<std::string> combine(ReduceKind kind, Type type, StringRef a,
                                 StringRef b, Location loc);
  /// The NaN-propagating max (or min) of two values of float `type`.
  std::string maximum(Type type, bool isMax, StringRef a, StringRef b);
  /// The name of a compare-and-swap helper doing `*p = *p <kind> v`.
  FailureOr<std::string> casAtomicHelper(ReduceKind kind, Type type,
                                         Location loc);
  /// Fails with a located error when `op` writes a kernel input parameter.
  LogicalResult checkWritable(Operation *op, Value memref);
  /// Records a device helper, printed once before the kernels.
  void addHelper(StringRef name, std::string source) {
    helpers.try_emplace(name.str(), std::move(source));
  }

  raw_indented_ostream os;
  const CudaEmitterOptions &options;
  /// The kernel being printed.
  dkernel::FuncOp kernel;
  /// The C name of every value printed so far in this kernel.
  llvm::DenseMap<Value, std::string> names;
  /// The next number for each name prefix in this kernel.
  llvm::StringMap<unsigned> counters;
  HelperMap helpers;
  bool fp16 = false;
  bool bf16 = false;
  bool tma = false;
};

} // namespace

/// Whether `type` is f16 or bf16: arithmetic works through the cuda_fp16.h and
/// cuda_bf16.h operators, math functions go through f32.
static bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// The width of integer or index `type` in the emitted code.
static unsigned intWidth(Type type, const CudaEmitterOptions &options) {
  return type.isIndex() ? options.indexBitwidth : type.getIntOrFloatBitWidth();
}

/// The suffix naming helpers specialised for `type`.
static std::string typeSuffix(Type type) {
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  return (type.isInteger() ? "i" : "f") +
         std::to_string(type.getIntOrFloatBitWidth());
}

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
    return indexTypeName().str();
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  if (type.isF16()) {
    fp16 = true;
    return std::string("__half");
  }
  if (type.isBF16()) {
    bf16 = true;
    return std::string("__nv_bfloat16");
  }
  if (auto integer = dyn_cast<IntegerType>(type);
      integer && integer.isSignless()) {
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

/// `0x` and `digits` hex digits of `bits`.
static std::string hex(uint64_t bits, unsigned digits) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex(bits, digits + 2);
  return text;
}

/// The unsigned C type of an integer `width` bits wide.
static StringRef unsignedName(unsigned width) {
  switch (width) {
  case 8:
    return "unsigned char";
  case 16:
    return "unsigned short";
  case 64:
    return "unsigned long long";
  default:
    return "unsigned";
  }
}

FailureOr<std::string> CudaEmitter::literal(TypedAttr attr, Location loc) {
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    Type type = integer.getType();
    if (type.isInteger(1))
      return std::string(integer.getValue().isZero() ? "false" : "true");
    unsigned width = intWidth(type, options);
    APInt value = integer.getValue();
    if (type.isIndex() && !value.isSignedIntN(width))
      return emitError(loc, "index constant ")
             << value.getSExtValue() << " does not fit in " << width
             << " bits; emit with index bitwidth 64";
    int64_t v = value.getSExtValue();
    // The most negative value has no literal: `-2147483648` is a long.
    if (width == 32 && v == std::numeric_limits<int32_t>::min())
      return std::string("(-2147483647 - 1)");
    if (width == 64 && v == std::numeric_limits<int64_t>::min())
      return std::string("(-9223372036854775807LL - 1)");
    return std::to_string(v) + (type.isInteger(64) ? "LL" : "");
  }
  auto fp = dyn_cast<FloatAttr>(attr);
  if (!fp ||
      !(fp.getType().isF32() || fp.getType().isF64() || isHalf(fp.getType())))
    return emitError(loc, "cannot print constant ") << attr << " as CUDA";
  Type type = fp.getType();
  APFloat value = fp.getValue();
  if (type.isF64()) {
    if (!value.isFinite())
      return "__longlong_as_double(" +
             hex(value.bitcastToAPInt().getZExtValue(), 16) + "LL)";
    // 17 significant digits round-trip every double.
    return llvm::formatv("{0:e16}", value.convertToDouble()).str();
  }
  // Every f16 and bf16 value is exactly an f32, so the f32 literal converted
  // with round-to-nearest is exact.
  bool losesInfo = false;
  value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  std::string text =
      value.isFinite()
          ? llvm::formatv("{0:e8}f", value.convertToDouble()).str()
          : "__uint_as_float(" + hex(value.bitcastToAPInt().getZExtValue(), 8) +
                "u)";
  if (type.isF16()) {
    fp16 = true;
    return "__float2half_rn(" + text + ")";
  }
  if (type.isBF16()) {
    bf16 = true;
    return "__float2bfloat16_rn(" + text + ")";
  }
  return text;
}

std::string CudaEmitter::expr(Value value) {
  // A constant's own printOperation checked that it has a literal.
  if (auto cst = value.getDefiningOp<arith::ConstantOp>())
    if (FailureOr<std::string> text =
            literal(cast<TypedAttr>(cst.getValue()), cst.getLoc());
        succeeded(text))
      return *text;
  auto it = names.find(value);
  assert(it != names.end() && "value used before it was printed");
  return it->second;
}

LogicalResult CudaEmitter::declare(Value value, StringRef prefix) {
  FailureOr<std::string> type = typeName(value.getType(), value.getLoc());
  if (failed(type))
    return failure();
  os << "const " << *type << ' ' << bind(value, prefix) << " = ";
  return success();
}

std::string CudaEmitter::asUnsigned(Value value) {
  if (value.getType().isInteger(1))
    return "(unsigned)" + expr(value);
  return "(" + unsignedName(intWidth(value.getType(), options)).str() + ")" +
         expr(value);
}

std::string CudaEmitter::asSigned(Value value) {
  if (value.getType().isInteger(1))
    return "(" + expr(value) + " ? -1 : 0)";
  return expr(value);
}

std::string CudaEmitter::element(Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  // Row-major linear index with the static strides and constant indices
  // folded in; every buffer has the identity layout (parameters,
  // alloc_shared and alloca check it).
  SmallVector<std::string> terms;
  int64_t offset = 0;
  int64_t stride = 1;
  for (int d = type.getRank() - 1; d >= 0; --d) {
    if (auto cst = indices[d].getDefiningOp<arith::ConstantIndexOp>())
      offset += cst.value() * stride;
    else
      terms.push_back(expr(indices[d]) +
                      (stride == 1 ? "" : " * " + std::to_string(stride)));
    stride *= type.getDimSize(d);
  }
  std::reverse(terms.begin(), terms.end());
  if (offset != 0 || terms.empty())
    terms.push_back(std::to_string(offset));
  return expr(memref) + "[" + llvm::join(terms, " + ") + "]";
}

std::string CudaEmitter::sharedAddress(Value memref, ValueRange indices) {
  return "(unsigned)__cvta_generic_to_shared(&" + element(memref, indices) +
         ")";
}

LogicalResult CudaEmitter::checkWritable(Operation *op, Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || arg.getOwner()->getParentOp() != kernel.getOperation() ||
      kernel.isOutput(arg.getArgNumber()))
    return success();
  return op->emitOpError("writes parameter #")
         << arg.getArgNumber()
         << ", which is not in the kernel's outputs (printed const)";
}

//===----------------------------------------------------------------------===//
// Kernels and blocks
//===----------------------------------------------------------------------===//

/// Whether `name` can be the name of an `extern "C"` function.
static bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult CudaEmitter::emitKernel(dkernel::FuncOp func) {
  kernel = func;
  names.clear();
  counters.clear();
  if (!isIdentifier(func.getSymName()))
    return func.emitOpError("name '")
           << func.getSymName() << "' is not a C identifier";
  // Linear indices fold static strides in 64 bits: every buffer's element
  // count must fit.
  auto countable = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return !memref || !memref.hasStaticShape() ||
           checkedNumElements(memref.getShape());
  };
  for (BlockArgument arg : func.getArguments())
    if (!countable(arg.getType()))
      return func.emitOpError("parameter #")
             << arg.getArgNumber() << " has type " << arg.getType()
             << ", which has more elements than a 64-bit index can count";
  WalkResult huge = func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (!countable(result.getType())) {
        op->emitOpError("result has type ")
            << result.getType()
            << ", which has more elements than a 64-bit index can count";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (huge.wasInterrupted())
    return failure();
  // setmaxnreg needs the register count at entry fixed: one block per SM
  // fixes it (ptxas ignores setmaxnreg otherwise).
  bool fixedRegisters = false;
  func.walk([&](dkernel::SetMaxNRegOp) { fixedRegisters = true; });
  os << "extern \"C\" __global__ void __launch_bounds__("
     << func.getNumThreads() << (fixedRegisters ? ", 1" : "") << ")\n"
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
    // A 32-bit linear index would wrap around in a larger buffer.
    if (options.indexBitwidth == 32 &&
        type.getNumElements() > std::numeric_limits<int32_t>::max())
      return func.emitOpError("parameter #")
             << arg.getArgNumber() << " has " << type.getNumElements()
             << " elements, too many for 32-bit indices; emit with index "
                "bitwidth 64";
    bool output = func.isOutput(arg.getArgNumber());
    std::string name = bind(arg, output ? "out" : "in");
    params.push_back((output ? "" : "const ") + *element + "* __restrict__ " +
                     name);
  }
  os << llvm::join(params, ", ") << ") {\n";
  os.indent();
  if (func.getSmem() > 0) {
    // Swizzled TMA boxes need their pattern's repeat (up to 1 KB) aligned.
    int64_t alignment = 128;
    for (Type type : func.getArgumentTypes())
      if (auto desc = dyn_cast<dkernel::TmaDescriptorType>(type))
        alignment = std::max(alignment, getTmaBoxAlignment(desc.getSwizzle()));
    os << "extern __shared__ __align__(" << alignment
       << ") unsigned char smem[];\n";
    // The swizzle is applied to address bits, so reads computed from pool
    // offsets are only right if the pool is aligned: fail loudly if not.
    if (alignment > 128)
      os << "if ((unsigned)__cvta_generic_to_shared(smem) % " << alignment
         << " != 0) __trap();\n";
  }
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
            scf::ForOp, scf::IfOp, memref::AllocaOp, memref::LoadOp,
            memref::StoreOp, gpu::ShuffleOp, gpu::BarrierOp,
            dkernel::AllocSharedOp, dkernel::CpAsyncOp, dkernel::VectorCopyOp,
            dkernel::VectorLoadOp, dkernel::VectorStoreOp,
            dkernel::CpAsyncCommitOp, dkernel::CpAsyncWaitOp,
            dkernel::MbarrierInitOp, dkernel::MbarrierArriveExpectTxOp,
            dkernel::MbarrierArriveOp, dkernel::MbarrierWaitOp,
            dkernel::TmaLoadOp, dkernel::WarpReduceOp, dkernel::TreeReduceOp,
            dkernel::AtomicStoreOp, dkernel::LdMatrixOp, dkernel::MmaSyncOp,
            dkernel::WgmmaDescOp, dkernel::WgmmaFenceOp,
            dkernel::FenceProxyAsyncOp, dkernel::WgmmaCommitGroupOp,
            dkernel::WgmmaWaitGroupOp, dkernel::WgmmaMmaAsyncOp,
            dkernel::SetMaxNRegOp>([&](auto op) { return printOperation(op); })
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::RemFOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
            arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::SubIOp,
            arith::MulIOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
            arith::RemUIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
            arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp, arith::MaxSIOp,
            arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
          [&](Operation *op) { return printArith(op); })
      .Case<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::IndexCastOp, arith::IndexCastUIOp,
            arith::BitcastOp>([&](Operation *op) { return printCast(op); })
      .Case<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::SqrtOp,
            math::RsqrtOp, math::TanhOp, math::ErfOp, math::SinOp, math::CosOp,
            math::AbsFOp, math::FmaOp, math::PowFOp, math::FloorOp,
            math::CeilOp>([&](Operation *op) { return printMath(op); })
      .Case([&](gpu::ThreadIdOp op) {
        return printGpuIndex(op, "threadIdx", op.getDimension());
      })
      .Case([&](gpu::BlockIdOp op) {
        return printGpuIndex(op, "blockIdx", op.getDimension());
      })
      .Case([&](gpu::BlockDimOp op) {
        return printGpuIndex(op, "blockDim", op.getDimension());
      })
      .Case([&](gpu::GridDimOp op) {
        return printGpuIndex(op, "gridDim", op.getDimension());
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
  } else if (type.isInteger(1)) {
    // trunci to i1 keeps the low bit; a C conversion to bool tests != 0.
    text = "(bool)(" + expr(in) + " & 1)";
  } else if (isa<arith::UIToFPOp, arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
    text = "(" + *to + ")" + asUnsigned(in);
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

//===----------------------------------------------------------------------===//
// Memory and GPU
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(memref::AllocaOp op) {
  MemRefType type = op.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return op.emitOpError("of ") << type
                                 << " cannot be emitted; a local "
                                    "array has a static shape and the "
                                    "identity layout";
  Attribute space = type.getMemorySpace();
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  if (space && (!gpuSpace || gpuSpace.getValue() != gpu::AddressSpace::Private))
    return op.emitOpError("in memory space ") << space << " cannot be emitted";
  FailureOr<std::string> element = typeName(type.getElementType(), op.getLoc());
  if (failed(element))
    return failure();
  os << *element << ' ' << bind(op.getResult(), "local") << '['
     << std::max<int64_t>(type.getNumElements(), 1) << "];\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(memref::LoadOp op) {
  if (failed(declare(op.getResult())))
    return failure();
  os << element(op.getMemref(), op.getIndices()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(memref::StoreOp op) {
  if (failed(checkWritable(op, op.getMemref())))
    return failure();
  os << element(op.getMemref(), op.getIndices()) << " = "
     << expr(op.getValueToStore()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printGpuIndex(Operation *op, StringRef base,
                                         gpu::Dimension dim) {
  // The builtins are unsigned; the IR reads them as index.
  if (failed(declare(op->getResult(0))))
    return failure();
  os << '(' << indexTypeName() << ')' << base << '.'
     << gpu::stringifyDimension(dim) << ";\n";
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

LogicalResult CudaEmitter::printOperation(gpu::BarrierOp op) {
  os << "__syncthreads();\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel IR
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(dkernel::AllocSharedOp op) {
  auto type = cast<MemRefType>(op.getType());
  FailureOr<std::string> element = typeName(type.getElementType(), op.getLoc());
  if (failed(element))
    return failure();
  os << *element << "* const " << bind(op.getResult(), "smem")
     << " = reinterpret_cast<" << *element << "*>(smem + " << op.getOffset()
     << ");\n";
  return success();
}

// The asm statements below clobber "memory": the compiler must neither move
// ordinary loads and stores of the buffers they touch across them nor cache
// such values in registers.

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncOp op) {
  // Only 16-byte copies may bypass L1 (.cg); smaller ones go through it (.ca).
  int64_t bytes = op.getBytes();
  // A guarded copy passes a source size of 0 when invalid: cp.async then
  // reads nothing and zero-fills the destination.
  Value valid = op.getValid();
  os << "asm volatile(\"cp.async." << (bytes == 16 ? "cg" : "ca")
     << ".shared.global [%0], [%1], " << bytes << (valid ? ", %2" : "")
     << ";\\n\" :: \"r\"(" << sharedAddress(op.getDst(), op.getDstIndices())
     << "), \"l\"(&" << element(op.getSrc(), op.getSrcIndices()) << ")";
  if (valid)
    os << ", \"r\"(" << expr(valid) << " ? " << bytes << "u : 0u)";
  os << " : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::VectorCopyOp op) {
  // One 64 or 128-bit load and store of raw bits, whatever the element
  // type; the op's creator proved both addresses aligned to the run.
  StringRef type = op.getBytes() == 16 ? "uint4" : "uint2";
  os << "*reinterpret_cast<" << type << " *>(&"
     << element(op.getDst(), op.getDstIndices())
     << ") = *reinterpret_cast<const " << type << " *>(&"
     << element(op.getSrc(), op.getSrcIndices()) << ");\n";
  return success();
}

/// The CUDA vector type of a run of `count` f32 values (float2, float4),
/// or the raw-bits type of any other run of `bytes`.
static StringRef runType(Type element, size_t count, int64_t bytes) {
  if (element.isF32())
    return count == 4 ? "float4" : "float2";
  return bytes == 16 ? "uint4" : "uint2";
}

/// The field of a float2 / float4 holding element `i`.
static StringRef lane(size_t i) { return StringRef("xyzw").substr(i, 1); }

LogicalResult CudaEmitter::printOperation(dkernel::VectorLoadOp op) {
  // One 64 or 128-bit load; its creator proved the address aligned. f32
  // runs read a float2 / float4, other elements go through raw bits into
  // an aligned array that nvcc keeps in registers.
  Type elementType = op.getResult(0).getType();
  size_t count = op.getNumResults();
  int64_t bytes =
      static_cast<int64_t>(count) * dkernel::getScalarBytes(elementType);
  StringRef type = runType(elementType, count, bytes);
  std::string run = fresh("vl");
  std::string from = "*reinterpret_cast<const " + type.str() + " *>(&" +
                     element(op.getSrc(), op.getIndices()) + ")";
  FailureOr<std::string> scalar = typeName(elementType, op.getLoc());
  if (failed(scalar))
    return failure();
  if (elementType.isF32()) {
    os << "const " << type << " " << run << " = " << from << ";\n";
  } else {
    os << "alignas(" << bytes << ") " << *scalar << " " << run << "[" << count
       << "];\n*reinterpret_cast<" << type << " *>(" << run << ") = " << from
       << ";\n";
  }
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (failed(declare(result)))
      return failure();
    if (elementType.isF32())
      os << run << "." << lane(i) << ";\n";
    else
      os << run << "[" << i << "];\n";
  }
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::VectorStoreOp op) {
  if (failed(checkWritable(op, op.getDst())))
    return failure();
  Type elementType = op.getValues().front().getType();
  size_t count = op.getValues().size();
  int64_t bytes =
      static_cast<int64_t>(count) * dkernel::getScalarBytes(elementType);
  StringRef type = runType(elementType, count, bytes);
  std::string to = "*reinterpret_cast<" + type.str() + " *>(&" +
                   element(op.getDst(), op.getIndices()) + ")";
  if (elementType.isF32()) {
    os << to << " = make_" << type << "(";
    for (auto [i, v] : llvm::enumerate(op.getValues()))
      os << (i ? ", " : "") << expr(v);
    os << ");\n";
    return success();
  }
  FailureOr<std::string> scalar = typeName(elementType, op.getLoc());
  if (failed(scalar))
    return failure();
  std::string run = fresh("vs");
  os << "{\n";
  os.indent();
  os << "alignas(" << bytes << ") const " << *scalar << " " << run << "["
     << count << "] = {";
  for (auto [i, v] : llvm::enumerate(op.getValues()))
    os << (i ? ", " : "") << expr(v);
  os << "};\n"
     << to << " = *reinterpret_cast<const " << type << " *>(" << run << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncCommitOp op) {
  os << "asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncWaitOp op) {
  os << "asm volatile(\"cp.async.wait_group " << op.getPending()
     << ";\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierInitOp op) {
  os << "asm volatile(\"mbarrier.init.shared::cta.b64 [%0], " << op.getCount()
     << ";\\n\" :: \"r\"(" << sharedAddress(op.getMbarriers(), op.getSlot())
     << ") : \"memory\");\n";
  return success();
}

LogicalResult
CudaEmitter::printOperation(dkernel::MbarrierArriveExpectTxOp op) {
  // The arrival state is discarded into the sink `_`.
  os << "asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], "
     << op.getBytes() << ";\\n\" :: \"r\"("
     << sharedAddress(op.getMbarriers(), op.getSlot()) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierArriveOp op) {
  // The arrival state is discarded into the sink `_`.
  os << "asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\\n\" :: "
        "\"r\"("
     << sharedAddress(op.getMbarriers(), op.getSlot()) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierWaitOp op) {
  // Spin on try_wait.parity until the phase with this parity has completed.
  os << "{\n";
  os.indent();
  os << "const unsigned bar = "
     << sharedAddress(op.getMbarriers(), op.getSlot()) << ";\n"
     << "unsigned done = 0;\n"
     << "while (!done)\n";
  os.indent();
  os << "asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::"
        "cta.b64 p, [%1], %2;\\nselp.u32 %0, 1, 0, p;\\n}\\n\" : \"=r\"(done) "
        ": \"r\"(bar), \"r\"((unsigned)"
     << expr(op.getPhase()) << ") : \"memory\");\n";
  os.unindent();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::TmaLoadOp op) {
  unsigned rank = op.getDescriptorType().getRank();
  // PTX lists coordinates innermost first; the IR outermost first.
  SmallVector<std::string> slots, coords;
  for (unsigned i = 0; i < rank; ++i)
    slots.push_back("%" + std::to_string(i + 3));
  for (Value c : llvm::reverse(op.getCoords()))
    coords.push_back("\"r\"((int)" + expr(c) + ")");
  os << "asm volatile(\"cp.async.bulk.tensor." << rank
     << "d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {"
     << llvm::join(slots, ", ") << "}], [%2];\\n\" :: \"r\"((unsigned)"
     << "__cvta_generic_to_shared(" << expr(op.getDst())
     << ")), \"l\"((unsigned long long)&" << expr(op.getDescriptor())
     << "), \"r\"(" << sharedAddress(op.getMbarriers(), op.getSlot()) << "), "
     << llvm::join(coords, ", ") << " : \"memory\");\n";
  return success();
}

FailureOr<std::string> CudaEmitter::combine(ReduceKind kind, Type type,
                                            StringRef a, StringRef b,
                                            Location loc) {
  if (type.isInteger(1))
    return emitError(loc, "reductions of i1 cannot be emitted");
  switch (kind) {
  case ReduceKind::add:
    return (a + " + " + b).str();
  case ReduceKind::mul:
    return (a + " * " + b).str();
  case ReduceKind::max:
  case ReduceKind::min: {
    bool isMax = kind == ReduceKind::max;
    if (isa<FloatType>(type))
      return maximum(type, isMax, a, b);
    return ((isMax ? "max(" : "min(") + a + ", " + b + ")").str();
  }
  case ReduceKind::maxnum:
  case ReduceKind::minnum: {
    // fmax and fmin ignore a NaN operand, as arith.maxnumf does.
    bool isMax = kind == ReduceKind::maxnum;
    StringRef name = type.isF64()   ? (isMax ? "fmax" : "fmin")
                     : isHalf(type) ? (isMax ? "__hmax" : "__hmin")
                                    : (isMax ? "fmaxf" : "fminf");
    return (name + "(" + a + ", " + b + ")").str();
  }
  }
  llvm_unreachable("unknown reduction kind");
}

LogicalResult CudaEmitter::printOperation(dkernel::WarpReduceOp op) {
  Type type = op.getValue().getType();
  FailureOr<std::string> typeStr = typeName(type, op.getLoc());
  if (failed(typeStr))
    return failure();
  std::string name = bind(op.getResult(), "red");
  FailureOr<std::string> step =
      combine(op.getKind(), type, name,
              "__shfl_xor_sync(0xffffffffu, " + name + ", off, " +
                  std::to_string(op.getWidth()) + ")",
              op.getLoc());
  if (failed(step))
    return failure();
  os << *typeStr << ' ' << name << " = " << expr(op.getValue()) << ";\n";
  os << "#pragma unroll\n"
     << "for (int off = " << op.getWidth() / 2 << "; off > 0; off >>= 1)\n";
  os.indent();
  os << name << " = " << *step << ";\n";
  os.unindent();
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::TreeReduceOp op) {
  // Halve the live range each step; a barrier orders the steps. Thread `t`
  // is the linear id, so 2-D and 3-D blocks take part with every thread.
  std::string buf = expr(op.getBuffer());
  ArrayRef<int64_t> block = kernel.getBlock();
  std::string tid = "threadIdx.x";
  if (block[2] != 1)
    tid += llvm::formatv(" + {0} * (threadIdx.y + {1} * threadIdx.z)", block[0],
                         block[1]);
  else if (block[1] != 1)
    tid += llvm::formatv(" + {0} * threadIdx.y", block[0]);
  FailureOr<std::string> step =
      combine(op.getKind(), op.getResult().getType(), buf + "[t]",
              buf + "[t + s]", op.getLoc());
  if (failed(step))
    return failure();
  os << "{\n";
  os.indent();
  os << "const int t = " << tid << ";\n"
     << "for (int s = " << op.getLength() / 2 << "; s > 0; s >>= 1) {\n";
  os.indent();
  os << "if (t < s)\n";
  os.indent();
  os << buf << "[t] = " << *step << ";\n";
  os.unindent();
  os << "__syncthreads();\n";
  os.unindent();
  os << "}\n";
  os.unindent();
  os << "}\n";
  if (failed(declare(op.getResult())))
    return failure();
  os << buf << "[0];\n";
  return success();
}

FailureOr<std::string> CudaEmitter::casAtomicHelper(ReduceKind kind, Type type,
                                                    Location loc) {
  FailureOr<std::string> t = typeName(type, loc);
  if (failed(t))
    return failure();
  // How values travel through the integer atomicCAS of their width.
  StringRef bits, toBits, fromBits;
  switch (type.getIntOrFloatBitWidth()) {
  case 16:
    bits = "unsigned short";
    toBits = type.isF16()    ? "__half_as_ushort"
             : type.isBF16() ? "__bfloat16_as_ushort"
                             : "(unsigned short)";
    fromBits = type.isF16()    ? "__ushort_as_half"
               : type.isBF16() ? "__ushort_as_bfloat16"
                               : "(short)";
    break;
  case 32:
    bits = "unsigned";
    toBits = type.isF32() ? "__float_as_uint" : "(unsigned)";
    fromBits = type.isF32() ? "__uint_as_float" : "(int)";
    break;
  case 64:
    bits = "unsigned long long";
    toBits = type.isF64() ? "(unsigned long long)__double_as_longlong"
                          : "(unsigned long long)";
    fromBits = type.isF64() ? "__longlong_as_double" : "(long long)";
    break;
  default:
    return emitError(loc, "atomics on ") << type << " cannot be emitted";
  }
  StringRef kindName = stringifyReduceKind(kind);
  FailureOr<std::string> next = combine(kind, type, "cur", "v", loc);
  if (failed(next))
    return failure();
  std::string name = ("dk_atomic_" + kindName + "_" + typeSuffix(type)).str();
  // Retry until no other thread changed the value between read and swap;
  // stop early when the value would not change (max/min that lose).
  addHelper(
      name,
      llvm::formatv("static __device__ __forceinline__ void {0}({1} *p, {1} v) "
                    "{{\n"
                    "  {2} *const word = ({2} *)p;\n"
                    "  {2} seen = *word, old;\n"
                    "  do {{\n"
                    "    old = seen;\n"
                    "    const {1} cur = {3}(old);\n"
                    "    const {2} next = {4}({5});\n"
                    "    if (next == old)\n"
                    "      return;\n"
                    "    seen = atomicCAS(word, old, next);\n"
                    "  } while (seen != old);\n"
                    "}\n",
                    name, *t, bits, fromBits, toBits, *next)
          .str());
  return name;
}

LogicalResult CudaEmitter::printOperation(dkernel::AtomicStoreOp op) {
  if (failed(checkWritable(op, op.getMemref())))
    return failure();
  std::string address = "&" + element(op.getMemref(), op.getIndices());
  std::string value = expr(op.getValue());
  Type type = op.getValue().getType();
  ReduceKind kind = op.getKind();
  // Native atomics: add on 32-bit ints and every float but f16 on sm_60 (CUDA
  // has atomicAdd for __half from sm_70 and __nv_bfloat16 from sm_80); max and
  // min on 32- and 64-bit ints. i64 add goes through the unsigned overload,
  // which is the same two's-complement sum.
  if (kind == ReduceKind::add && type.isInteger(64)) {
    os << "atomicAdd((unsigned long long *)" << address
       << ", (unsigned long long)" << value << ");\n";
    return success();
  }
  bool native = (kind == ReduceKind::add &&
                 (isa<FloatType>(type) || type.isInteger(32))) ||
                ((kind == ReduceKind::max || kind == ReduceKind::min) &&
                 (type.isInteger(32) || type.isInteger(64)));
  if (native) {
    os << (kind == ReduceKind::add   ? "atomicAdd("
           : kind == ReduceKind::max ? "atomicMax("
                                     : "atomicMin(")
       << address << ", " << value << ");\n";
    return success();
  }
  FailureOr<std::string> helper = casAtomicHelper(kind, type, op.getLoc());
  if (failed(helper))
    return failure();
  os << *helper << '(' << address << ", " << value << ");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// CUtensorMap for NVRTC, which has no cuda.h: 128 opaque bytes aligned to 128,
/// as cuda.h defines it.
static constexpr StringLiteral kTensorMapDecl =
    "#ifdef __CUDACC_RTC__\n"
    "typedef struct CUtensorMap_st {\n"
    "  alignas(128) unsigned long long opaque[16];\n"
    "} CUtensorMap;\n"
    "#else\n"
    "#include <cuda.h>\n"
    "#endif\n";

LogicalResult deplodock::translateToCuda(Operation *op, raw_ostream &os,
                                         const CudaEmitterOptions &options) {
  if (options.indexBitwidth != 32 && options.indexBitwidth != 64)
    return op->emitError("index bitwidth must be 32 or 64, got ")
           << options.indexBitwidth;
  SmallVector<dkernel::FuncOp> kernels;
  if (auto func = dyn_cast<dkernel::FuncOp>(op))
    kernels.push_back(func);
  else
    op->walk([&](dkernel::FuncOp func) { kernels.push_back(func); });
  if (kernels.empty()) {
    // A layer with nothing to launch (it returns its arguments, or views of
    // them) is valid: no kernels to print. One not lowered to Kernel IR yet
    // is not.
    Operation *unlowered = nullptr;
    op->walk([&](Operation *nested) {
      StringRef dialect = nested->getDialect()
                              ? nested->getDialect()->getNamespace()
                              : StringRef();
      if (!llvm::is_contained({"builtin", "func", "memref"}, dialect)) {
        unlowered = nested;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unlowered)
      return unlowered->emitError("no dkernel.func to emit as CUDA: this op "
                                  "is not lowered to Kernel IR");
    os << "// Generated by deplodock-translate --emit-cuda.\n"
       << "// Nothing to launch: the module has no dkernel.func.\n";
    return success();
  }

  // Print into a buffer so that nothing is written when a kernel fails.
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
  if (emitter.usesFp16())
    os << "#include <cuda_fp16.h>\n";
  if (emitter.usesBf16())
    os << "#include <cuda_bf16.h>\n";
  if (emitter.usesTma())
    os << kTensorMapDecl;
  os << '\n';
  for (const auto &helper : emitter.getHelpers())
    os << helper.second << '\n';
  os << body;
  return success();
}

//===----------------------------------------------------------------------===//
// Warp-level matrix ops
//===----------------------------------------------------------------------===//

/// The 16 bits of half value `v` (f16 or bf16) as an unsigned.
static std::string halfBits(Type type, StringRef v) {
  return (Twine("(unsigned)") +
          (type.isF16() ? "__half_as_ushort(" : "__bfloat16_as_ushort(") + v +
          ")")
      .str();
}

LogicalResult CudaEmitter::printOperation(dkernel::LdMatrixOp op) {
  // One 32-bit register per matrix, holding a lane's two elements, the
  // lower column (row, transposed) in the low half.
  unsigned n = op.getNumMatrices();
  std::string regs = fresh("lm");
  os << "unsigned " << regs << "[" << n << "];\n";
  os << "asm volatile(\"ldmatrix.sync.aligned.m8n8.x" << n
     << (op.getTrans() ? ".trans" : "") << ".shared.b16 {";
  for (unsigned i = 0; i < n; ++i)
    os << (i ? ", " : "") << "%" << i;
  os << "}, [%" << n << "];\\n\" : ";
  for (unsigned i = 0; i < n; ++i)
    os << (i ? ", " : "") << "\"=r\"(" << regs << "[" << i << "])";
  os << " : \"r\"(" << sharedAddress(op.getSrc(), op.getIndices())
     << ") : \"memory\");\n";
  Type type = op.getResult(0).getType();
  StringRef fromBits =
      type.isF16() ? "__ushort_as_half" : "__ushort_as_bfloat16";
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (failed(declare(result)))
      return failure();
    os << fromBits << "((unsigned short)(" << regs << "[" << i / 2 << "]"
       << (i % 2 ? " >> 16" : " & 0xffffu") << "));\n";
  }
  return success();
}

/// The tf32 m16n8k8 form: each f32 operand rounded by cvt.rna into a
/// register of its own.
static void printTf32Mma(raw_ostream &os, dkernel::MmaSyncOp op,
                         ArrayRef<std::string> d, StringRef regs,
                         function_ref<std::string(Value)> expr) {
  SmallVector<Value> operands(op.getA());
  llvm::append_range(operands, op.getB());
  os << "unsigned " << regs << "[" << operands.size() << "];\n";
  for (auto [i, v] : llvm::enumerate(operands))
    os << "asm(\"cvt.rna.tf32.f32 %0, %1;\\n\" : \"=r\"(" << regs << "[" << i
       << "]) : \"f\"(" << expr(v) << "));\n";
  os << "asm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\\n\" : ";
  for (auto [i, v] : llvm::enumerate(d))
    os << (i ? ", " : "") << "\"=f\"(" << v << ")";
  os << " : ";
  for (size_t i = 0; i < operands.size(); ++i)
    os << (i ? ", " : "") << "\"r\"(" << regs << "[" << i << "])";
  for (Value c : op.getC())
    os << ", \"f\"(" << expr(c) << ")";
  os << ");\n";
}

LogicalResult CudaEmitter::printOperation(dkernel::MmaSyncOp op) {
  if (op.isTf32()) {
    SmallVector<std::string, 4> d;
    for (Value result : op.getResults())
      d.push_back(bind(result, "acc"));
    os << "float " << llvm::join(d, ", ") << ";\n";
    printTf32Mma(os, op, d, fresh("tf"), [&](Value v) { return expr(v); });
    return success();
  }
  Type type = op.getElementType();
  StringRef name = type.isF16() ? "f16" : "bf16";
  SmallVector<std::string, 4> d;
  for (Value result : op.getResults())
    d.push_back(bind(result, "acc"));
  os << "float " << llvm::join(d, ", ") << ";\n";
  // Operands: 4 + 2 registers of element pairs (low element first), then
  // the 4 accumulators.
  os << "asm(\"mma.sync.aligned.m16n8k16.row.col.f32." << name << "." << name
     << ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\\n\" : ";
  for (auto [i, v] : llvm::enumerate(d))
    os << (i ? ", " : "") << "\"=f\"(" << v << ")";
  os << " : ";
  SmallVector<Value> halves(op.getA());
  llvm::append_range(halves, op.getB());
  for (unsigned i = 0; i < halves.size(); i += 2)
    os << (i ? ", " : "") << "\"r\"(" << halfBits(type, expr(halves[i]))
       << " | (" << halfBits(type, expr(halves[i + 1])) << " << 16))";
  for (Value c : op.getC())
    os << ", \"f\"(" << expr(c) << ")";
  os << ");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Warpgroup matrix ops
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaDescOp op) {
  // The start address's bits 4-17 in bits 0-13; the rest is constant.
  if (failed(declare(op.getResult(), "wd")))
    return failure();
  os << "(long long)((((unsigned long long)"
     << sharedAddress(op.getSrc(), op.getIndices()) << " & 0x3ffffull) >> 4) | "
     << hex(op.getConstantBits(), 16) << "ull);\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaFenceOp op) {
  os << "asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::FenceProxyAsyncOp op) {
  os << "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: "
        "\"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaCommitGroupOp op) {
  os << "asm volatile(\"wgmma.commit_group.sync.aligned;\\n\" ::: "
        "\"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaWaitGroupOp op) {
  os << "asm volatile(\"wgmma.wait_group.sync.aligned " << op.getPending()
     << ";\\n\" ::: \"memory\");\n";
  // The accumulators pass through in their registers; an empty asm that
  // "changes" each keeps their reads after the wait.
  for (auto [acc, result] : llvm::zip(op.getAccumulators(), op.getResults())) {
    std::string name = expr(acc);
    os << "asm volatile(\"\" : \"+f\"(" << name << ") :: \"memory\");\n";
    names[result] = name;
  }
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaMmaAsyncOp op) {
  Type type = op.getElementType();
  StringRef name = type.isF16() ? "f16" : "bf16";
  size_t count = op.getResults().size();
  // The accumulators are updated in place: each result is a fresh local
  // holding C (or zero with scale-d 0).
  SmallVector<std::string> d;
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    d.push_back(bind(result, "acc"));
    os << "float " << d.back() << " = "
       << (op.getC().empty() ? std::string("0.0f") : expr(op.getC()[i]))
       << ";\n";
  }
  os << "asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" << count + 2
     << ", 0;\\nwgmma.mma_async.sync.aligned.m64n" << op.getN() << "k16.f32."
     << name << "." << name << " {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "") << "%" << i;
  // scale-d from a register; scale-a and scale-b 1; imm-trans-a and -b 1
  // for an MN-major operand.
  auto trans = [](dkernel::WgmmaMajor major) {
    return major == dkernel::WgmmaMajor::mn ? 1 : 0;
  };
  os << "}, %" << count << ", %" << count + 1 << ", p, 1, 1, "
     << trans(op.getMajorA()) << ", " << trans(op.getMajorB())
     << ";\\n}\\n\" : ";
  for (auto [i, v] : llvm::enumerate(d))
    os << (i ? ", " : "") << "\"+f\"(" << v << ")";
  os << " : \"l\"(" << expr(op.getA()) << "), \"l\"(" << expr(op.getB())
     << "), \"r\"(" << (op.getC().empty() ? 0 : 1) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::SetMaxNRegOp op) {
  os << "asm volatile(\"setmaxnreg."
     << dkernel::stringifyRegisterChange(op.getChange()) << ".sync.aligned.u32 "
     << op.getCount() << ";\\n\" ::: \"memory\");\n";
  return success();
}
