//===- DKernelTypes.h - dkernel types ---------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELTYPES_H
#define DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELTYPES_H

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelTypes.h.inc"

#endif // DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELTYPES_H
