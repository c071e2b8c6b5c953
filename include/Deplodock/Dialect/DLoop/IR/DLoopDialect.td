//===- DLoopDialect.td - The dloop dialect -*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_DIALECT
#define DEPLODOCK_DIALECT_DLOOP_DIALECT

include "mlir/IR/DialectBase.td"

def DLoop_Dialect : Dialect {
  let name = "dloop";
  let cppNamespace = "::deplodock::dloop";
  let summary = "Buffer-level loop nests, one kernel per future GPU kernel";
  let usePropertiesForAttributes = 1;
}

#endif // DEPLODOCK_DIALECT_DLOOP_DIALECT
