//===- DTileDialect.cpp - The dtile dialect ---------------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

using namespace mlir;
using namespace deplodock::dtile;

#include "Deplodock/Dialect/DTile/IR/DTileDialect.cpp.inc"

void DTileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DTile/IR/DTileOps.cpp.inc"
      >();
}
