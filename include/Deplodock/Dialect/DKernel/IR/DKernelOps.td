//===- DKernelOps.td - dkernel ops -*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_OPS
#define DEPLODOCK_DIALECT_DKERNEL_OPS

include "Deplodock/Dialect/DKernel/IR/DKernelDialect.td"
include "mlir/IR/OpBase.td"

#endif // DEPLODOCK_DIALECT_DKERNEL_OPS
