//===- DTileDialect.h - The dtile dialect -----------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_IR_DTILEDIALECT_H
#define DEPLODOCK_DIALECT_DTILE_IR_DTILEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Deplodock/Dialect/DTile/IR/DTileDialect.h.inc"

#endif // DEPLODOCK_DIALECT_DTILE_IR_DTILEDIALECT_H
