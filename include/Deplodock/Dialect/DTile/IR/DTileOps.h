//===- DTileOps.h - dtile ops -----------------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_IR_DTILEOPS_H
#define DEPLODOCK_DIALECT_DTILE_IR_DTILEOPS_H

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DTile/IR/DTileOps.h.inc"

#endif // DEPLODOCK_DIALECT_DTILE_IR_DTILEOPS_H
