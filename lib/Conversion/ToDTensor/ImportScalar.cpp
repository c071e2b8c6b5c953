//===- ImportScalar.cpp - arith and math on tensors -------------*- C++ -*-===//

#include "Importers.h"

#include "Deplodock/Dialect/DTensor/IR/Constants.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::importer;

FailureOr<Value> importer::importScalarOp(RewriterBase &rewriter,
                                          Operation *op) {
  Location loc = op->getLoc();
  if (op->getNumResults() != 1)
    return op->emitOpError("is not supported by ") << kPassName;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType)
    return op->emitOpError("is not supported by ") << kPassName;

  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = dyn_cast<ElementsAttr>(cst.getValue());
    if (!elements)
      return op->emitOpError("is not supported by ") << kPassName;
    // Weights stay constants, dense_resource blobs made dense elements.
    FailureOr<DenseElementsAttr> dense =
        dtensor::getDenseElements(loc, elements);
    if (failed(dense))
      return failure();
    if (!dense->isSplat())
      return *dense == elements
                 ? cst.getResult()
                 : arith::ConstantOp::create(rewriter, loc, *dense).getResult();
    return dtensor::ElementwiseOp::create(
               rewriter, loc, resultType, ValueRange{},
               [&](OpBuilder &b, Location loc, ValueRange) -> Value {
                 return arith::ConstantOp::create(
                     b, loc,
                     cast<TypedAttr>(dense->getSplatValue<Attribute>()));
               })
        .getResult();
  }

  // Every operand must be a tensor of the result's shape: a scalar operand
  // (the condition of a select) would need a broadcast nobody wrote.
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getShape() != resultType.getShape())
      return op->emitOpError("mixes tensors of different shapes or scalars, "
                             "which ")
             << kPassName << " cannot import";
  }
  return dtensor::ElementwiseOp::create(
             rewriter, loc, resultType, op->getOperands(),
             [&](OpBuilder &b, Location, ValueRange args) -> Value {
               IRMapping mapping;
               mapping.map(op->getOperands(), args);
               Operation *scalar = b.clone(*op, mapping);
               for (OpResult r : scalar->getResults())
                 r.setType(getElementTypeOrSelf(r.getType()));
               return scalar->getResult(0);
             })
      .getResult();
}
