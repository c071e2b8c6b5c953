//===- DeplodockEnums.h - Enums shared by the dialects ----------*- C++ -*-===//
//
// Reduction and loop kinds spelled once for every level.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_DEPLODOCKENUMS_H
#define DEPLODOCK_DIALECT_COMMON_DEPLODOCKENUMS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

#include "Deplodock/Dialect/Common/DeplodockEnums.h.inc"

#endif // DEPLODOCK_DIALECT_COMMON_DEPLODOCKENUMS_H
