//===- CudaEmitter.cpp - Print Kernel IR as CUDA C++ ------------*- C++ -*-===//
//
// One printOperation per op kind through a TypeSwitch, as in MLIR's C++
// emitter. SSA values become `const` locals named in definition order, loop
// variables `i<N>`, carried values mutable locals; constants are printed
// inline where they are used. The output is a function of the IR alone: names
// come from per-kernel counters and helpers are printed in first-use order.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

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
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::cuda_emitter;

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
  if (isF8(type)) {
    fp8 = true;
    return std::string(isa<Float8E4M3FNType>(type) ? "__nv_fp8_e4m3"
                                                   : "__nv_fp8_e5m2");
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
  if (!fp || !(fp.getType().isF32() || fp.getType().isF64() ||
               isHalf(fp.getType()) || isF8(fp.getType())))
    return emitError(loc, "cannot print constant ") << attr << " as CUDA";
  Type type = fp.getType();
  APFloat value = fp.getValue();
  if (isF8(type)) {
    // Every 8-bit float is exactly a double; the helper's rounding of it
    // is exact.
    bool losesInfo = false;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    FailureOr<std::string> f64 = literal(
        FloatAttr::get(Float64Type::get(attr.getContext()), value), loc);
    if (failed(f64))
      return failure();
    return toF8Helper(type) + "(" + *f64 + ")";
  }
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
  wgmmaKernel = func.walk([](dkernel::WgmmaMmaAsyncOp) {
                      return WalkResult::interrupt();
                    })
                    .wasInterrupted();
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
     << func.getNumThreads() << (fixedRegisters ? ", 1" : "") << ")";
  // A compile-time cluster shape: cuLaunchKernel then launches clusters
  // without cuLaunchKernelEx's launch attributes.
  if (std::optional<ArrayRef<int64_t>> cluster = func.getCluster()) {
    os << " __cluster_dims__(";
    llvm::interleaveComma(*cluster, os);
    os << ")";
  }
  os << "\n" << func.getSymName() << "(";
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

/// Whether `op` computes on 8-bit float values rather than holding, moving
/// or converting them: cuda_fp8.h's types have no arithmetic.
static bool computesOnF8(Operation *op) {
  if (isa<arith::ConstantOp, arith::SelectOp, arith::SIToFPOp, arith::UIToFPOp,
          arith::FPToSIOp, arith::FPToUIOp, arith::ExtFOp, arith::TruncFOp,
          memref::LoadOp, memref::StoreOp, dkernel::VectorLoadOp,
          dkernel::VectorStoreOp, scf::ForOp, scf::IfOp, scf::YieldOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isF8) ||
         llvm::any_of(op->getResultTypes(), isF8);
}

LogicalResult CudaEmitter::emitOperation(Operation *op) {
  if (computesOnF8(op))
    return op->emitOpError("on 8-bit floats cannot be emitted as CUDA: "
                           "Kernel IR computes them in f32 (dloop-widen-f8)");
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp, arith::CmpFOp, arith::CmpIOp, arith::SelectOp,
            scf::ForOp, scf::IfOp, memref::AllocaOp, memref::LoadOp,
            memref::StoreOp, gpu::ShuffleOp, gpu::BarrierOp,
            dkernel::AllocSharedOp, dkernel::CpAsyncOp, dkernel::VectorCopyOp,
            dkernel::VectorLoadOp, dkernel::VectorStoreOp,
            dkernel::CpAsyncCommitOp, dkernel::CpAsyncWaitOp,
            dkernel::MbarrierInitOp, dkernel::MbarrierArriveExpectTxOp,
            dkernel::MbarrierArriveOp, dkernel::MbarrierWaitOp,
            dkernel::WarpSyncOp, dkernel::WaitPriorGridsOp,
            dkernel::LaunchDependentsOp, dkernel::TmaLoadOp,
            dkernel::WarpReduceOp, dkernel::TreeReduceOp,
            dkernel::AtomicStoreOp, dkernel::LdMatrixOp, dkernel::MmaSyncOp,
            dkernel::WgmmaDescOp, dkernel::WgmmaFenceOp,
            dkernel::FenceProxyAsyncOp, dkernel::WgmmaCommitGroupOp,
            dkernel::WgmmaWaitGroupOp, dkernel::WgmmaMmaAsyncOp,
            dkernel::SetMaxNRegOp, dkernel::ClusterBlockRankOp,
            dkernel::ClusterBarrierOp, dkernel::MbarrierArriveClusterOp,
            dkernel::FenceMbarrierInitOp>(
          [&](auto op) { return printOperation(op); })
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
  if (emitter.usesFp8())
    os << "#include <cuda_fp8.h>\n";
  if (emitter.usesTma())
    os << kTensorMapDecl;
  os << '\n';
  for (const auto &helper : emitter.getHelpers())
    os << helper.second << '\n';
  os << body;
  return success();
}
