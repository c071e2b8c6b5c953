//===- Rules.h - Constructors of the Tile rules -----------------*- C++ -*-===//
//
// Each rule's .cpp defines the constructor Rules.td generates a declaration
// for (create<Rule>Rule), and the registry calls them in pipeline order.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_RULES_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_RULES_H

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

namespace deplodock::dtile {

#include "Deplodock/Dialect/DTile/Transforms/Rules.h.inc"

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_RULES_H
