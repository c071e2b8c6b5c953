//===- DTileOps.cpp - dtile ops ---------------------------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DTile/IR/DTileOps.cpp.inc"
