//===- DTileDialect.cpp - The Deplodock tile dialect ------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock::dtile;

#include "Deplodock/Dialect/DTile/IR/DTileDialect.cpp.inc"
#include "Deplodock/Dialect/DTile/IR/DTileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Deplodock/Dialect/DTile/IR/DTileAttrs.cpp.inc"

void DTileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Deplodock/Dialect/DTile/IR/DTileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DTile/IR/DTileOps.cpp.inc"
      >();
}
