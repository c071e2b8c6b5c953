//===- DTileDialect.td - The dtile dialect -*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_DIALECT
#define DEPLODOCK_DIALECT_DTILE_DIALECT

include "mlir/IR/DialectBase.td"

def DTile_Dialect : Dialect {
  let name = "dtile";
  let cppNamespace = "::deplodock::dtile";
  let summary = "Loop nests annotated with their GPU mapping";
  let usePropertiesForAttributes = 1;
}

#endif // DEPLODOCK_DIALECT_DTILE_DIALECT
