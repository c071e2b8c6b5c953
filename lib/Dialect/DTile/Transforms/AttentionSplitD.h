//===- AttentionSplitD.h - Whether attention_split_d takes a kernel ------===//
//
// attention_blocks chooses its blocks for the split attention_split_d makes
// after it (AttentionSplitD.cpp), so it asks whether that split applies.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLITD_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLITD_H

#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

namespace deplodock::dtile {

/// The threads a row attention_split_d prefers (measured fastest with
/// attention_blocks' 32 rows and 32 keys; Rules.td cites the sweep).
constexpr int64_t kHeadDimLanes = 8;

/// Whether attention_split_d can share each query row of `kernel` (after
/// attention_blocks) among `lanes` threads on `target`.
bool canSplitHeadDim(KernelOp kernel, dkernel::TargetAttr target,
                     int64_t lanes);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONSPLITD_H
