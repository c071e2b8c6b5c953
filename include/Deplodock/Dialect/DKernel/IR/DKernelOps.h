//===- DKernelOps.h - dkernel ops -----------------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELOPS_H
#define DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELOPS_H

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h.inc"

#endif // DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELOPS_H
