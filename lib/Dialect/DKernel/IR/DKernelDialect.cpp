//===- DKernelDialect.cpp - The dkernel dialect ---------------------*- C++ -*-===//

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

using namespace mlir;
using namespace deplodock::dkernel;

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.cpp.inc"

void DKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.cpp.inc"
      >();
}
