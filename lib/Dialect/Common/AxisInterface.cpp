//===- AxisInterface.cpp - Ops that bind named axes -------------*- C++ -*-===//

#include "Deplodock/Dialect/Common/AxisInterface.h"

using namespace mlir;

#include "Deplodock/Dialect/Common/AxisInterface.cpp.inc"

LogicalResult deplodock::verifyAxisNotShadowed(Operation *op, StringRef axis) {
  for (Operation *parent = op->getParentOp();
       parent && !parent->hasTrait<OpTrait::IsIsolatedFromAbove>();
       parent = parent->getParentOp()) {
    auto binder = dyn_cast<AxisOpInterface>(parent);
    if (binder && llvm::is_contained(binder.getAxisNames(), axis))
      return op->emitOpError("axis \"")
             << axis << "\" shadows an enclosing axis";
  }
  return success();
}

std::optional<deplodock::Interval> deplodock::getCoordRange(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return std::nullopt;
  auto binder =
      dyn_cast_or_null<AxisOpInterface>(arg.getOwner()->getParentOp());
  return binder ? binder.getCoordRange(arg) : std::nullopt;
}
