//===- DTensorDialect.h - The Deplodock tensor dialect ----------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DTENSOR_IR_DTENSORDIALECT_H
#define DEPLODOCK_DIALECT_DTENSOR_IR_DTENSORDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Deplodock/Dialect/DTensor/IR/DTensorDialect.h.inc"

#endif // DEPLODOCK_DIALECT_DTENSOR_IR_DTENSORDIALECT_H
