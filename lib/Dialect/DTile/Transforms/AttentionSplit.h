//===- AttentionSplit.h - A query row's keys over several threads -*- C++ -*-//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLIT_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLIT_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

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

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLIT_H
