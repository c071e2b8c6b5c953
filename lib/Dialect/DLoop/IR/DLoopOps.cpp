//===- DLoopOps.cpp - dloop ops ---------------------------------*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.cpp.inc"
