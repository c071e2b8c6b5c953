//===- CudaEmitter.h - Print Kernel IR as CUDA C++ --------------*- C++ -*-===//
//
// The last step of the pipeline: every dkernel.func of a module printed as an
// `extern "C" __global__` CUDA kernel, one op at a time. The emitter only
// prints; every change to the IR happens in passes before it.
//
// The output is one self-contained file for nvcc or NVRTC (sm_80 and up;
// sm_90 for mbarrier waits and TMA): the fp16/bf16 headers when used (NVRTC
// needs the toolkit's include directory for them), CUtensorMap from cuda.h or,
// under NVRTC, declared with cuda.h's layout, then `static __device__` helpers
// (CAS-loop atomics, NaN-propagating max/min), then the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TARGET_CUDA_CUDAEMITTER_H
#define DEPLODOCK_TARGET_CUDA_CUDAEMITTER_H

#include "mlir/Support/LLVM.h"

#include <functional>

namespace mlir {
class Operation;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace deplodock {

/// How Kernel IR becomes CUDA text.
struct CudaEmitterOptions {
  /// Width of `index` values in the emitted code: 32 (`int`) or 64.
  unsigned indexBitwidth = 32;
};

/// Prints every dkernel.func in `op` (a module or a single kernel) as CUDA
/// C++ to `os`. Fails with a located error on the first op it cannot print;
/// nothing is written then.
mlir::LogicalResult translateToCuda(mlir::Operation *op, llvm::raw_ostream &os,
                                    const CudaEmitterOptions &options = {});

/// Runs after `--emit-cuda` printed `op`, with the options it printed with
/// (deplodock-translate writes the layer manifest there).
using CudaTranslationHook = std::function<mlir::LogicalResult(
    mlir::Operation *, const CudaEmitterOptions &)>;

/// Registers `--emit-cuda` with the translation registry; `afterEmit`, when
/// given, runs after each successful translation.
void registerToCudaTranslation(CudaTranslationHook afterEmit = nullptr);

} // namespace deplodock

#endif // DEPLODOCK_TARGET_CUDA_CUDAEMITTER_H
