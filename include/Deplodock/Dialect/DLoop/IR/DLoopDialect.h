//===- DLoopDialect.h - The Deplodock loop dialect --------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_IR_DLOOPDIALECT_H
#define DEPLODOCK_DIALECT_DLOOP_IR_DLOOPDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h.inc"

#endif // DEPLODOCK_DIALECT_DLOOP_IR_DLOOPDIALECT_H
