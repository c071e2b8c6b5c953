//===- AttentionQueryRow.h - An attention row's query in registers -*- C++ -*-//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONQUERYROW_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONQUERYROW_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

namespace deplodock::dtile {

/// Reads that the loops of online-softmax loop `keys` repeat for every key
/// (the query row: a global load indexed only by the loop `inner` around it,
/// the head dimension, and values from outside `keys`, possibly under a
/// row mask) are read once instead: a private buffer over `inner` is filled
/// before `keys`, and the body reads it. Returns how many were hoisted.
unsigned hoistKeyInvariantRows(dloop::ForOp keys);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONQUERYROW_H
