//===- DKernelOps.cpp - dkernel ops ---------------------------------*- C++ -*-===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.cpp.inc"
