//===- Passes.h - Cost model passes -----------------------------*- C++ -*-===//

#ifndef DEPLODOCK_COSTMODEL_PASSES_H
#define DEPLODOCK_COSTMODEL_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace deplodock::costmodel {

#define GEN_PASS_DECL
#include "Deplodock/CostModel/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Deplodock/CostModel/Passes.h.inc"

} // namespace deplodock::costmodel

#endif // DEPLODOCK_COSTMODEL_PASSES_H
