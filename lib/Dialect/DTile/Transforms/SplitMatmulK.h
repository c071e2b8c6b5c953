//===- SplitMatmulK.h - The two ways split-K partial sums meet --*- C++ -*-===//
//
// split_matmul_k deals a matmul's K chunks to blocks (SplitMatmulK.cpp);
// their partial sums meet either by atomic adds into the output or through
// a workspace a second kernel sums (SplitKWorkspace.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITMATMULK_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITMATMULK_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

namespace deplodock::dtile {

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

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_SPLITMATMULK_H
