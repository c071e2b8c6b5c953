//===- DKernelDialect.td - The dkernel dialect -*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_DIALECT
#define DEPLODOCK_DIALECT_DKERNEL_DIALECT

include "mlir/IR/DialectBase.td"

def DKernel_Dialect : Dialect {
  let name = "dkernel";
  let cppNamespace = "::deplodock::dkernel";
  let summary = "GPU kernels built from hardware primitives";
  let usePropertiesForAttributes = 1;
}

#endif // DEPLODOCK_DIALECT_DKERNEL_DIALECT
