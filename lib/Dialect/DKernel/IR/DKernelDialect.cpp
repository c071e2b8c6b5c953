//===- DKernelDialect.cpp - The dkernel dialect -----------------*- C++ -*-===//

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace deplodock::dkernel;

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.cpp.inc"
#include "Deplodock/Dialect/DKernel/IR/DKernelEnums.cpp.inc"

void DKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

LogicalResult DKernelDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  if (attr.getName() == kTargetAttrName) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError("'")
             << kTargetAttrName << "' is only valid on a module";
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitOpError("'")
             << kTargetAttrName << "' must be a #dkernel.target, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() != kUnrollAttrName)
    return op->emitOpError("has unknown dkernel attribute '")
           << attr.getName().getValue() << "'";
  if (!isa<scf::ForOp>(op))
    return op->emitOpError("'")
           << kUnrollAttrName << "' is only valid on scf.for";
  auto factor = dyn_cast<IntegerAttr>(attr.getValue());
  if (!factor || !factor.getType().isSignlessInteger(64) || factor.getInt() < 1)
    return op->emitOpError("'")
           << kUnrollAttrName << "' must be an i64 integer >= 1, got "
           << attr.getValue();
  return success();
}

void deplodock::dkernel::setUnrollFactor(Operation *op, int64_t factor) {
  op->setAttr(kUnrollAttrName,
              Builder(op->getContext()).getI64IntegerAttr(factor));
}
