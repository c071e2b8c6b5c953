//===- DLoopOps.td - dloop ops -*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_OPS
#define DEPLODOCK_DIALECT_DLOOP_OPS

include "Deplodock/Dialect/DLoop/IR/DLoopDialect.td"
include "mlir/IR/OpBase.td"

#endif // DEPLODOCK_DIALECT_DLOOP_OPS
