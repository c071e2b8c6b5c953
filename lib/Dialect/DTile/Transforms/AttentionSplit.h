//===- AttentionSplit.h - A query row's keys over several threads -*- C++ -*-//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLIT_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLIT_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace deplodock::dtile {

/// Which of the two values the key loop `keys` of an online softmax carries
/// is the running maximum (the other being the running sum), when it
/// carries exactly those; `stepped`: the keys of one step are the first
/// loop inside `keys`.
std::optional<unsigned> getRunningMaxIndex(dloop::ForOp keys, bool stepped);

/// Deals the keys of each step of `keys` to `splits` threads per query row
/// (a new innermost thread axis "kv", round-robin within the step) and
/// merges their partial softmaxes after the loop; the row's first thread
/// stores the output. Needs getRunningMaxIndex.
mlir::LogicalResult splitKeysOverThreads(KernelOp kernel, dloop::ForOp keys,
                                         bool stepped, int64_t splits);

/// exp(m - max), 0 where `m` is -inf: the weight of a partial softmax
/// whose running maximum is `m` in a merge whose maximum is `max`.
mlir::Value buildPartialScale(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value m, mlir::Value max);

/// The accumulators of online-softmax loop `keys` of `kernel` (no threads
/// yet; `stepped` as for getRunningMaxIndex), when splitKeysOverBlocks can
/// split it: one static row of f32 accumulators, an f32 running maximum and
/// sum, no store to memory other blocks see before the loop and no read of
/// the outputs; else why not.
llvm::Expected<mlir::memref::AllocaOp>
getBlockSplitAccumulators(KernelOp kernel, dloop::ForOp keys, bool stepped);

/// Deals the key steps `steps` of `kernel` (no threads yet) to `splits`
/// blocks (a new outermost block axis `<k>_s`; `splits` divides the steps)
/// that store their partial softmaxes to f32 workspaces, and creates the
/// kernel `@<kernel>_kv_merge` after it, already mapped to threads, that
/// merges them in order and runs the epilogue (AttentionSplitBlocks.cpp).
mlir::LogicalResult splitKeysOverBlocks(KernelOp kernel, dloop::ForOp steps,
                                        int64_t splits);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLIT_H
