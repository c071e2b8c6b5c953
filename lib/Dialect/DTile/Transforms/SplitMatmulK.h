//===- SplitMatmulK.h - The two ways split-K partial sums meet --*- C++ -*-===//
//
// split_matmul_k deals a matmul's K chunks to blocks (SplitMatmulK.cpp);
// their partial sums meet either by atomic adds into the output or through
// a workspace a second kernel sums (SplitKWorkspace.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITMATMULK_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITMATMULK_H

#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

namespace deplodock::dtile {

/// Adds the block axis `<k>_s` of `splits` blocks outermost to the tile of
/// `kernel`, whose matmul chunk loop is `chunk`, leaving the loop whole;
/// returns the axis' coordinate.
mlir::Value addSplitAxis(KernelOp kernel, dloop::ForOp chunk, int64_t splits);

/// Deals the chunks of `chunk`, the matmul chunk loop of `kernel`, to
/// `splits` blocks along a new outermost block axis `<k>_s` (`splits`
/// divides its extent); returns that axis' coordinate.
mlir::Value dealChunksToSplits(KernelOp kernel, dloop::ForOp chunk,
                               int64_t splits);

/// The name of the block axis that deals `chunk` to splits: `<k>_s` for a
/// chunk loop `<k>_o` or `<k>`.
std::string getSplitAxis(dloop::ForOp chunk);

/// Splits `kernel` over `splits` blocks whose partial sums of `chunk` go to
/// f32 (f64) workspaces, one per sum, allocated before the kernel; a kernel
/// created after it, already mapped to threads, sums them in order and
/// runs the epilogue: the ops after `chunk` and `stores`, which the split
/// kernel drops.
mlir::LogicalResult splitThroughWorkspace(KernelOp kernel, dloop::ForOp chunk,
                                          llvm::ArrayRef<dloop::StoreOp> stores,
                                          int64_t splits);

/// Whether a tensor-core rule can deal the K range of `loop`, the sum loop
/// of `kernel` it maps whole, to `splits` blocks meeting through a
/// workspace (splitSumThroughWorkspace): the sum is f32, nothing reads the
/// outputs, the tile writes memory only after the loop and the workspace
/// fits the emitter's 32-bit indices.
bool canSplitSumThroughWorkspace(KernelOp kernel, dloop::ForOp loop,
                                 int64_t splits);

/// The tensor-core form of splitThroughWorkspace: the sum kernel is built
/// the same way, and `kernel`'s tile gains the outermost block axis `<k>_s`
/// and stores `loop`'s sum to the workspace [split, block points...]
/// instead of running the epilogue; `loop` is left whole for the rule,
/// which maps it with this axis as a batch axis and deals each split its
/// share of the K chunks. Failure (with an error on `kernel`) where the
/// split cannot be made.
mlir::LogicalResult splitSumThroughWorkspace(KernelOp kernel, dloop::ForOp loop,
                                             int64_t splits);

/// The K splits a tensor-core matmul lists for a block tile making
/// `blocks` blocks of `warps` warps each, over `chunks` K chunks: none
/// where the blocks give every SM one and 4 warps (enough to stream the
/// operands); else the powers of two in [2, 64] dividing `chunks` and
/// leaving each split 4 chunks or more, ascending (a stage's origin must
/// lie inside its source, so no split may start past K).
llvm::SmallVector<int64_t> getTensorCoreSplits(int64_t blocks, int64_t warps,
                                               int64_t chunks,
                                               dkernel::TargetAttr target);

/// The default among `splits` (getTensorCoreSplits's) for `blocks` blocks
/// of `warps` warps: 1 (no split) when the blocks already give half the SMs
/// one and every SM 4 warps (measured: the split lost there) or `splits` is
/// empty; else the fewest giving 7/8 of the SMs a block and every SM 4
/// warps, else the most.
int64_t chooseTensorCoreSplit(int64_t blocks, int64_t warps,
                              llvm::ArrayRef<int64_t> splits,
                              dkernel::TargetAttr target);

/// The splits listed right after option `base` of a tensor-core rule's
/// `options` (`getSplit` reads an option's split knob, unset when unsplit).
template <typename Knobs, typename GetSplit>
llvm::SmallVector<int64_t> getSplitsAfter(llvm::ArrayRef<Knobs> options,
                                          size_t base, GetSplit getSplit) {
  llvm::SmallVector<int64_t> splits;
  for (size_t i = base + 1; i < options.size() && getSplit(options[i]); ++i)
    splits.push_back(*getSplit(options[i]));
  return splits;
}

/// The index of option `base` split `split` ways among those listed right
/// after it; `base` when `split` is 1.
template <typename Knobs, typename GetSplit>
size_t findSplitOption(llvm::ArrayRef<Knobs> options, size_t base,
                       int64_t split, GetSplit getSplit) {
  for (size_t i = base + 1; i < options.size() && getSplit(options[i]); ++i)
    if (*getSplit(options[i]) == split)
      return i;
  return base;
}

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITMATMULK_H
