//===- DLoopOps.h - dloop ops -----------------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_IR_DLOOPOPS_H
#define DEPLODOCK_DIALECT_DLOOP_IR_DLOOPOPS_H

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h.inc"

#endif // DEPLODOCK_DIALECT_DLOOP_IR_DLOOPOPS_H
