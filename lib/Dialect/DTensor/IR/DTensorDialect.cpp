//===- DTensorDialect.cpp - The Deplodock tensor dialect --------*- C++ -*-===//

#include "Deplodock/Dialect/DTensor/IR/DTensorDialect.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace deplodock::dtensor;

#include "Deplodock/Dialect/DTensor/IR/DTensorDialect.cpp.inc"

void DTensorDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.cpp.inc"
      >();
}
