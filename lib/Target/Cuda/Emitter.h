//===- Emitter.h - The CUDA emitter, shared by its files ------------------===//
//
// The CudaEmitter class, private to lib/Target/Cuda: CudaEmitter.cpp holds
// names, types, kernels and the entry point; Print*Ops.cpp and
// PrintReductions.cpp print the ops of one kind each.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TARGET_CUDA_EMITTER_H
#define DEPLODOCK_LIB_TARGET_CUDA_EMITTER_H

#include "Deplodock/Target/Cuda/CudaEmitter.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <map>
#include <string>

namespace deplodock::cuda_emitter {

using llvm::raw_ostream;
using llvm::StringRef;
using llvm::Twine;
using mlir::Block;
using mlir::raw_indented_ostream;
namespace arith = mlir::arith;
namespace gpu = mlir::gpu;
namespace memref = mlir::memref;
namespace scf = mlir::scf;
using mlir::FailureOr;
using mlir::Location;
using mlir::LogicalResult;
using mlir::Operation;
using mlir::Type;
using mlir::TypedAttr;
using mlir::Value;
using mlir::ValueRange;

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
  /// Whether a printed kernel uses __nv_fp8_e4m3 or __nv_fp8_e5m2
  /// (cuda_fp8.h).
  bool usesFp8() const { return fp8; }
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
  LogicalResult printOperation(dkernel::WarpSyncOp op);
  LogicalResult printOperation(dkernel::WaitPriorGridsOp op);
  LogicalResult printOperation(dkernel::LaunchDependentsOp op);
  LogicalResult printOperation(dkernel::MbarrierWaitOp op);
  LogicalResult printOperation(dkernel::MbarrierArriveClusterOp op);
  LogicalResult printOperation(dkernel::FenceMbarrierInitOp op);
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
  // Thread-block clusters (ClusterOps.td).
  LogicalResult printOperation(dkernel::ClusterBlockRankOp op);
  LogicalResult printOperation(dkernel::ClusterBarrierOp op);
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
  /// The name of the device helper rounding a double to 8-bit float `type`
  /// (nearest, ties to even; overflow gives NaN for e4m3fn and infinity for
  /// e5m2, as arith.truncf does).
  std::string toF8Helper(Type type);
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
  /// Whether it issues warpgroup MMA (its f32 -> 16-bit conversions go
  /// through an add of -0.0: PrintScalarOps.cpp).
  bool wgmmaKernel = false;
  /// The C name of every value printed so far in this kernel.
  llvm::DenseMap<Value, std::string> names;
  /// The next number for each name prefix in this kernel.
  llvm::StringMap<unsigned> counters;
  HelperMap helpers;
  bool fp16 = false;
  bool bf16 = false;
  bool fp8 = false;
  bool tma = false;
};

/// Whether `type` is f16 or bf16: arithmetic works through the cuda_fp16.h and
/// cuda_bf16.h operators, math functions go through f32.
inline bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// Whether `type` is an 8-bit float: held in the cuda_fp8.h types, read
/// through f32 and written by a rounding helper (Kernel IR does no
/// arithmetic on them).
inline bool isF8(Type type) {
  return mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(type);
}

/// The width of integer or index `type` in the emitted code.
inline unsigned intWidth(Type type, const CudaEmitterOptions &options) {
  return type.isIndex() ? options.indexBitwidth : type.getIntOrFloatBitWidth();
}

/// The suffix naming helpers specialised for `type`.
inline std::string typeSuffix(Type type) {
  if (type.isBF16())
    return "bf16";
  if (mlir::isa<mlir::Float8E4M3FNType>(type))
    return "f8e4m3";
  if (mlir::isa<mlir::Float8E5M2Type>(type))
    return "f8e5m2";
  if (type.isF16())
    return "f16";
  return (type.isInteger() ? "i" : "f") +
         std::to_string(type.getIntOrFloatBitWidth());
}

/// `0x` and `digits` hex digits of `bits`.
inline std::string hex(uint64_t bits, unsigned digits) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex(bits, digits + 2);
  return text;
}

/// The unsigned C type of an integer `width` bits wide.
inline StringRef unsignedName(unsigned width) {
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

} // namespace deplodock::cuda_emitter

#endif // DEPLODOCK_LIB_TARGET_CUDA_EMITTER_H
