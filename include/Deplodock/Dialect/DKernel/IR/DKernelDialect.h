//===- DKernelDialect.h - The dkernel dialect -----------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELDIALECT_H
#define DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h.inc"

#endif // DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELDIALECT_H
