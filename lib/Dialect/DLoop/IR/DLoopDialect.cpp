//===- DLoopDialect.cpp - The dloop dialect ---------------------*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"

using namespace mlir;
using namespace deplodock::dloop;

#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.cpp.inc"

void DLoopDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.cpp.inc"
      >();
}
