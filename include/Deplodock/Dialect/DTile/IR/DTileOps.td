//===- DTileOps.td - dtile ops -*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_OPS
#define DEPLODOCK_DIALECT_DTILE_OPS

include "Deplodock/Dialect/DTile/IR/DTileDialect.td"
include "mlir/IR/OpBase.td"

#endif // DEPLODOCK_DIALECT_DTILE_OPS
