//===- KernelProgram.h - Benchmark requests from Kernel IR ------*- C++ -*-===//
//
// What the runtime needs of a module in Kernel IR: the CUDA source of its
// dkernel.funcs, and the buffers and launches of a host function (one that
// only allocates buffers, launches kernels and returns buffers) or of a
// single kernel on its own. deplodock-run --bench and the tuner's cuda
// backend build their BenchRequests from it.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_KERNELPROGRAM_H
#define DEPLODOCK_RUNTIME_KERNELPROGRAM_H

#include "Deplodock/Interpreter/Buffer.h"
#include "Deplodock/Runtime/BenchRequest.h"
#include "Deplodock/Runtime/LayerManifest.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace deplodock::dkernel {
class FuncOp;
} // namespace deplodock::dkernel

namespace deplodock::runtime {

/// Buffers and launches ready for a BenchRequest or, as a LayerManifest,
/// for a caller of the layer. The buffers are the function's arguments in
/// order, then its allocations; their init is Poison (makeBenchRequest
/// fills the arguments).
struct KernelProgram : LayerManifest {
  /// Every dkernel.func of the module, as CUDA.
  std::string source;
};

/// The dtype of elements of `type` as the CUDA emitter prints them (index
/// is i32 or i64 by `indexBitwidth`); fails for other types.
std::optional<DType> getDType(mlir::Type type, unsigned indexBitwidth = 32);

/// The program of host function `host`: its memref arguments, its
/// memref.allocs and its dkernel.launches in order (none, and no source,
/// when it only returns its arguments). Fails with a located error on
/// anything else (a scalar argument, another op, a launch of something that
/// is not a dkernel.func).
mlir::FailureOr<KernelProgram>
buildKernelProgram(mlir::func::FuncOp host,
                   const CudaEmitterOptions &options = {});

/// The program of one kernel alone: its buffer parameters are the
/// arguments, its outputs the results.
mlir::FailureOr<KernelProgram>
buildKernelProgram(dkernel::FuncOp kernel,
                   const CudaEmitterOptions &options = {});

/// A request running `program` with its arguments drawn as
/// interp::randomInputs draws them for `seed` (the CPU interpreter sees the
/// same inputs), verifying its results once the caller gives their expected
/// contents or a reference program.
BenchRequest makeBenchRequest(const KernelProgram &program, uint64_t seed);

/// `program` as the reference of a request on the same buffers.
ReferenceProgram makeReferenceProgram(const KernelProgram &program);

/// The bytes of `buffer` as a device holds them as `dtype`.
std::vector<uint8_t> toBytes(const interp::Buffer &buffer, DType dtype);

/// An interpreter buffer of `shape` and `elementType` holding `bytes` of
/// `dtype`.
interp::Buffer fromBytes(llvm::ArrayRef<uint8_t> bytes, DType dtype,
                         llvm::ArrayRef<int64_t> shape, mlir::Type elementType);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_KERNELPROGRAM_H
