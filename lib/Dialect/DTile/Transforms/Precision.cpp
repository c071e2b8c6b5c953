//===- Precision.cpp - The contraction precision a module allows ---------===//

#include "Deplodock/Dialect/DTile/Transforms/Precision.h"

using namespace mlir;
using namespace deplodock;

bool dtile::allowsTf32(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  return module && module->hasAttr(kTf32AttrName);
}

LogicalResult dtile::applyPrecisionOption(ModuleOp module,
                                          StringRef precision) {
  if (precision.empty())
    return success();
  if (precision == "tf32") {
    module->setAttr(kTf32AttrName, UnitAttr::get(module.getContext()));
    return success();
  }
  if (precision == "ieee") {
    module->removeAttr(kTf32AttrName);
    return success();
  }
  return module.emitError("precision must be ieee or tf32, got '")
         << precision << "'";
}
