//===- DTensorOps.h - Deplodock tensor dialect ops --------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DTENSOR_IR_DTENSOROPS_H
#define DEPLODOCK_DIALECT_DTENSOR_IR_DTENSOROPS_H

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h.inc"

#endif // DEPLODOCK_DIALECT_DTENSOR_IR_DTENSOROPS_H
