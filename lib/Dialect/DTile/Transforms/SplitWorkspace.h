//===- SplitWorkspace.h - Splits that meet through a workspace --*- C++ -*-===//
//
// The pieces split_matmul_k's workspace form (SplitKWorkspace.cpp) and
// attention_blocks' split_kv_blocks (AttentionSplitBlocks.cpp) share: a
// kernel split over blocks stores its partial results to f32 workspaces,
// and a second kernel, a copy of the unsplit one born after it and already
// mapped to threads, merges them in a fixed order and runs the epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITWORKSPACE_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITWORKSPACE_H

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "mlir/IR/IRMapping.h"

#include <optional>

namespace deplodock::dtile {

/// The elements of a workspace of `splits` times the block points of
/// `kernel` times `inner`, unless that overflows.
std::optional<int64_t> workspaceElements(KernelOp kernel, int64_t splits,
                                         int64_t inner = 1);

/// Whether such a workspace has at most 2^31 - 1 elements, which the
/// emitter's 32-bit indices reach.
bool workspaceFitsIndices(KernelOp kernel, int64_t splits, int64_t inner = 1);

/// A workspace `memref.alloc` of `shape` x `type`, before `kernel`.
mlir::Value allocWorkspace(KernelOp kernel, llvm::ArrayRef<int64_t> shape,
                           mlir::Type type);

/// Binds `buffers` to new block arguments of `kernel`, as inputs (before the
/// outputs' arguments) or outputs (after them); returns those arguments.
mlir::ValueRange appendBuffers(KernelOp kernel, mlir::ValueRange buffers,
                               bool asInputs);

/// Unbinds the buffers `kernel` no longer uses.
void dropUnusedBuffers(KernelOp kernel);

/// A copy of `kernel` without knobs, after it, named `<kernel><suffix>`
/// (`mapping` maps `kernel` into it); failure when that name is taken.
mlir::FailureOr<KernelOp> cloneSecondKernel(KernelOp kernel,
                                            llvm::StringRef suffix,
                                            mlir::IRMapping &mapping);

/// Finishes a second kernel once its merge is built: drops what it no
/// longer uses and deals its points to threads (the innermost over up to
/// 256, masked, as blockify_launch maps pointwise kernels), since the rules
/// never see it. With `even`, fewer threads (halving down to a warp) where
/// they deal the points evenly and the most would be masked.
mlir::LogicalResult mapSecondKernel(KernelOp kernel, bool even = false);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITWORKSPACE_H
