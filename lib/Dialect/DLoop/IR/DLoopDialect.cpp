//===- DLoopDialect.cpp - The Deplodock loop dialect ------------*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace deplodock::dloop;

#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.cpp.inc"

void DLoopDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.cpp.inc"
      >();
}
