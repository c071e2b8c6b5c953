//===- ImportTensor.cpp - tensor layout ops to index maps -------*- C++ -*-===//
//
// Reshapes, slices, inserts, concats and pads only move data: each becomes a
// dtensor.index_map whose maps say, for every output coordinate, where the
// element comes from.
//
//===----------------------------------------------------------------------===//

#include "Importers.h"

#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::importer;

/// The index map reading `source` at `exprs` over the result of `op`.
static Value indexMap(RewriterBase &rewriter, Operation *op, Value source,
                      ArrayRef<AffineExpr> exprs) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  auto map = AffineMap::get(resultType.getRank(), 0, exprs, op->getContext());
  return dtensor::IndexMapOp::create(rewriter, op->getLoc(), resultType, source,
                                     map);
}

/// Fails with an error on `op` unless every group of `reassociation` holds
/// in-range dimensions of the `rank`-dimensional side (the upstream verifier
/// reads them as 32-bit affine positions, so 2^32 passes it as 0).
static LogicalResult
checkReassociation(Operation *op, ArrayRef<ReassociationIndices> reassociation,
                   int64_t rank) {
  for (const ReassociationIndices &group : reassociation)
    for (int64_t d : group)
      if (d < 0 || d >= rank)
        return op->emitOpError("has reassociation index ")
               << d << ", out of range for rank " << rank;
  return success();
}

static FailureOr<Value> importExpand(RewriterBase &rewriter,
                                     tensor::ExpandShapeOp op) {
  // Source dimension j is the row-major linearisation of its result group.
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  SmallVector<ReassociationIndices> reassociation =
      op.getReassociationIndices();
  if (failed(checkReassociation(op, reassociation, shape.size())))
    return failure();
  SmallVector<AffineExpr> exprs;
  for (const ReassociationIndices &group : reassociation) {
    AffineExpr linear = getAffineConstantExpr(0, op.getContext());
    for (int64_t d : group)
      linear = linear * shape[d] + getAffineDimExpr(d, op.getContext());
    exprs.push_back(linear);
  }
  return indexMap(rewriter, op, op.getSrc(), exprs);
}

static FailureOr<Value> importCollapse(RewriterBase &rewriter,
                                       tensor::CollapseShapeOp op) {
  // Result dimension j splits back into its source group, row-major.
  ArrayRef<int64_t> shape = op.getSrcType().getShape();
  SmallVector<ReassociationIndices> reassociation =
      op.getReassociationIndices();
  if (failed(checkReassociation(op, reassociation, shape.size())))
    return failure();
  SmallVector<AffineExpr> exprs;
  if (llvm::is_contained(shape, 0)) {
    // No element to read: any in-range index will do, and no stride
    // divides by the empty dimension.
    exprs.assign(shape.size(), getAffineConstantExpr(0, op.getContext()));
    return indexMap(rewriter, op, op.getSrc(), exprs);
  }
  for (auto [j, group] : llvm::enumerate(reassociation)) {
    AffineExpr r = getAffineDimExpr(j, op.getContext());
    int64_t stride = 1;
    for (int64_t d : group)
      stride *= shape[d];
    for (auto [k, d] : llvm::enumerate(group)) {
      stride /= shape[d];
      AffineExpr e = r.floorDiv(stride);
      exprs.push_back(k == 0 ? e : e % shape[d]);
    }
  }
  return indexMap(rewriter, op, op.getSrc(), exprs);
}

/// Static offsets, sizes and strides of a slice op, or a located error.
template <typename SliceOp>
static LogicalResult staticSlice(SliceOp op, SmallVectorImpl<int64_t> &offsets,
                                 SmallVectorImpl<int64_t> &sizes,
                                 SmallVectorImpl<int64_t> &strides) {
  offsets.assign(op.getStaticOffsets().begin(), op.getStaticOffsets().end());
  sizes.assign(op.getStaticSizes().begin(), op.getStaticSizes().end());
  strides.assign(op.getStaticStrides().begin(), op.getStaticStrides().end());
  auto dynamic = [](ArrayRef<int64_t> v) {
    return llvm::any_of(v, ShapedType::isDynamic);
  };
  if (dynamic(offsets) || dynamic(sizes) || dynamic(strides))
    return op.emitOpError("has dynamic offsets, sizes or strides; dynamic "
                          "shapes are not supported by ")
           << kPassName;
  return success();
}

static FailureOr<Value> importExtract(RewriterBase &rewriter,
                                      tensor::ExtractSliceOp op) {
  SmallVector<int64_t> offsets, sizes, strides;
  if (failed(staticSlice(op, offsets, sizes, strides)))
    return failure();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<AffineExpr> exprs;
  unsigned r = 0;
  for (unsigned d = 0, e = offsets.size(); d < e; ++d) {
    AffineExpr offset = getAffineConstantExpr(offsets[d], op.getContext());
    if (dropped.test(d)) {
      exprs.push_back(offset);
      continue;
    }
    exprs.push_back(offset +
                    getAffineDimExpr(r++, op.getContext()) * strides[d]);
  }
  return indexMap(rewriter, op, op.getSource(), exprs);
}

static FailureOr<Value> importInsert(RewriterBase &rewriter,
                                     tensor::InsertSliceOp op) {
  SmallVector<int64_t> offsets, sizes, strides;
  if (failed(staticSlice(op, offsets, sizes, strides)))
    return failure();
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }))
    return op.emitOpError("has strides other than 1, which ")
           << kPassName << " cannot import";
  MLIRContext *ctx = op.getContext();
  unsigned rank = offsets.size();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<AffineExpr> sourceExprs, constraints;
  for (unsigned d = 0; d < rank; ++d) {
    AffineExpr dim = getAffineDimExpr(d, ctx);
    // offset <= d < offset + size.
    constraints.push_back(dim - offsets[d]);
    constraints.push_back(offsets[d] + sizes[d] - 1 - dim);
    if (!dropped.test(d))
      sourceExprs.push_back(dim - offsets[d]);
  }
  auto inside = IntegerSet::get(rank, 0, constraints,
                                SmallVector<bool>(constraints.size(), false));
  auto sourceMap = AffineMap::get(rank, 0, sourceExprs, ctx);
  auto destMap = AffineMap::getMultiDimIdentityMap(rank, ctx);
  return dtensor::IndexMapOp::create(
             rewriter, op.getLoc(), op.getResultType(),
             ValueRange{op.getSource(), op.getDest()},
             rewriter.getArrayAttr(
                 {AffineMapAttr::get(sourceMap), AffineMapAttr::get(destMap)}),
             rewriter.getArrayAttr(
                 {IntegerSetAttr::get(inside), rewriter.getUnitAttr()}),
             TypedAttr())
      .getResult();
}

static FailureOr<Value> importConcat(RewriterBase &rewriter,
                                     tensor::ConcatOp op) {
  MLIRContext *ctx = op.getContext();
  auto resultType = cast<RankedTensorType>(op.getType());
  unsigned rank = resultType.getRank();
  int64_t axis = op.getDim();
  AffineExpr d = getAffineDimExpr(axis, ctx);
  SmallVector<Attribute> maps, predicates;
  int64_t offset = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(axis);
    SmallVector<AffineExpr> exprs;
    for (unsigned k = 0; k < rank; ++k)
      exprs.push_back(k == axis ? d - offset : getAffineDimExpr(k, ctx));
    maps.push_back(AffineMapAttr::get(AffineMap::get(rank, 0, exprs, ctx)));
    offset += size;
    // Earlier pieces have already claimed the coordinates below them.
    if (i + 1 == op.getInputs().size())
      predicates.push_back(rewriter.getUnitAttr());
    else
      predicates.push_back(IntegerSetAttr::get(
          IntegerSet::get(rank, 0, {offset - 1 - d}, {false})));
  }
  return dtensor::IndexMapOp::create(
             rewriter, op.getLoc(), resultType, op.getInputs(),
             rewriter.getArrayAttr(maps), rewriter.getArrayAttr(predicates),
             TypedAttr())
      .getResult();
}

/// The constant `value` holds: an arith.constant, or an element at constant
/// indices of a constant tensor (how lowered TOSA passes pad values).
static TypedAttr constantScalar(Value value) {
  Operation *def = value.getDefiningOp();
  if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def))
    return isa<ElementsAttr>(cst.getValue()) ? TypedAttr() : cst.getValue();
  auto extract = dyn_cast_or_null<tensor::ExtractOp>(def);
  if (!extract)
    return {};
  // Splat tensors are already imported as elementwise ops without operands.
  if (auto fill = extract.getTensor().getDefiningOp<dtensor::ElementwiseOp>()) {
    auto yielded =
        fill.getYield().getValue().getDefiningOp<arith::ConstantOp>();
    return fill.getInputs().empty() && yielded ? yielded.getValue()
                                               : TypedAttr();
  }
  auto cst = extract.getTensor().getDefiningOp<arith::ConstantOp>();
  auto dense =
      cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : DenseElementsAttr();
  if (!dense)
    return {};
  if (dense.isSplat())
    return cast<TypedAttr>(dense.getSplatValue<Attribute>());
  // Row-major position of the constant indices, when in bounds.
  ArrayRef<int64_t> shape = dense.getType().getShape();
  int64_t linear = 0;
  for (auto [d, i] : llvm::enumerate(extract.getIndices())) {
    std::optional<int64_t> c = getConstantIntValue(i);
    if (!c || *c < 0 || *c >= shape[d])
      return {};
    linear = linear * shape[d] + *c;
  }
  return cast<TypedAttr>(dense.getValues<Attribute>()[linear]);
}

/// tensor.insert at constant indices: a predicated index map that reads
/// the scalar (as a rank-0 tensor) at that coordinate and the destination
/// everywhere else.
static FailureOr<Value> importInsertScalar(RewriterBase &rewriter,
                                           tensor::InsertOp op) {
  MLIRContext *ctx = op.getContext();
  RankedTensorType type = op.getResult().getType();
  SmallVector<AffineExpr> constraints;
  for (auto [d, i] : llvm::enumerate(op.getIndices())) {
    std::optional<int64_t> c = getConstantIntValue(i);
    if (!c)
      return op.emitOpError("inserts at a computed index, which ")
             << kPassName << " cannot import";
    if (*c < 0 || *c >= type.getDimSize(d))
      return op.emitOpError("inserts at index ")
             << *c << " of dimension " << d << ", out of bounds for " << type;
    constraints.push_back(getAffineDimExpr(d, ctx) - *c);
  }
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  Value scalar;
  if (TypedAttr cst = constantScalar(op.getScalar())) {
    scalar = arith::ConstantOp::create(rewriter, op.getLoc(),
                                       DenseElementsAttr::get(scalarType, cst));
  } else if (auto extract = op.getScalar().getDefiningOp<tensor::ExtractOp>()) {
    // An element of another tensor at constant indices.
    SmallVector<AffineExpr> at;
    for (Value i : extract.getIndices()) {
      std::optional<int64_t> c = getConstantIntValue(i);
      if (!c)
        return op.emitOpError("inserts an element extracted at a computed "
                              "index, which ")
               << kPassName << " cannot import";
      at.push_back(getAffineConstantExpr(*c, ctx));
    }
    scalar = dtensor::IndexMapOp::create(rewriter, op.getLoc(), scalarType,
                                         extract.getTensor(),
                                         AffineMap::get(0, 0, at, ctx));
  } else {
    return op.emitOpError("inserts a scalar that is neither a constant nor "
                          "an extracted element, which ")
           << kPassName << " cannot import";
  }
  unsigned rank = type.getRank();
  if (rank == 0)
    return scalar;
  auto at = IntegerSet::get(rank, 0, constraints,
                            SmallVector<bool>(constraints.size(), true));
  return dtensor::IndexMapOp::create(
             rewriter, op.getLoc(), type, ValueRange{scalar, op.getDest()},
             rewriter.getArrayAttr(
                 {AffineMapAttr::get(AffineMap::get(rank, 0, {}, ctx)),
                  AffineMapAttr::get(
                      AffineMap::getMultiDimIdentityMap(rank, ctx))}),
             rewriter.getArrayAttr(
                 {IntegerSetAttr::get(at), rewriter.getUnitAttr()}),
             TypedAttr())
      .getResult();
}

static FailureOr<Value> importPad(RewriterBase &rewriter, tensor::PadOp op) {
  // Amounts given as constant values (lowered TOSA) count as static.
  SmallVector<int64_t> low, high;
  for (auto [mixed, amounts] : {std::pair(op.getMixedLowPad(), &low),
                                std::pair(op.getMixedHighPad(), &high)})
    for (OpFoldResult amount : mixed) {
      std::optional<int64_t> c = getConstantIntValue(amount);
      if (!c)
        return op.emitOpError("has dynamic padding; dynamic shapes are not "
                              "supported by ")
               << kPassName;
      if (*c < 0)
        return op.emitOpError("pads by ") << *c << ", a negative amount";
      amounts->push_back(*c);
    }
  Value padValue = op.getConstantPaddingValue();
  TypedAttr cst = padValue ? constantScalar(padValue) : TypedAttr();
  if (!cst)
    return op.emitOpError("pads with a value that is not a constant, which ")
           << kPassName << " cannot import";
  MLIRContext *ctx = op.getContext();
  ArrayRef<int64_t> sourceShape = op.getSourceType().getShape();
  unsigned rank = low.size();
  SmallVector<AffineExpr> exprs, constraints;
  for (unsigned k = 0; k < rank; ++k) {
    AffineExpr d = getAffineDimExpr(k, ctx);
    exprs.push_back(d - low[k]);
    if (low[k] != 0)
      constraints.push_back(d - low[k]);
    if (high[k] != 0)
      constraints.push_back(low[k] + sourceShape[k] - 1 - d);
  }
  if (constraints.empty())
    return op.getSource();
  auto inside = IntegerSet::get(rank, 0, constraints,
                                SmallVector<bool>(constraints.size(), false));
  return dtensor::IndexMapOp::create(
             rewriter, op.getLoc(), op.getResultType(),
             ValueRange{op.getSource()},
             rewriter.getArrayAttr(
                 {AffineMapAttr::get(AffineMap::get(rank, 0, exprs, ctx))}),
             rewriter.getArrayAttr({IntegerSetAttr::get(inside)}), cst)
      .getResult();
}

FailureOr<Value> importer::importTensorOp(RewriterBase &rewriter,
                                          Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case(
          [&](tensor::ExpandShapeOp op) { return importExpand(rewriter, op); })
      .Case([&](tensor::CollapseShapeOp op) {
        return importCollapse(rewriter, op);
      })
      .Case([&](tensor::ExtractSliceOp op) {
        return importExtract(rewriter, op);
      })
      .Case(
          [&](tensor::InsertSliceOp op) { return importInsert(rewriter, op); })
      .Case([&](tensor::ConcatOp op) { return importConcat(rewriter, op); })
      .Case(
          [&](tensor::InsertOp op) { return importInsertScalar(rewriter, op); })
      .Case([&](tensor::ExtractOp op) -> FailureOr<Value> {
        // A scalar read: left to its users (tensor.insert, pad values).
        return op.getResult();
      })
      .Case([&](tensor::PadOp op) { return importPad(rewriter, op); })
      .Case([&](tensor::CastOp op) -> FailureOr<Value> {
        if (op.getSource().getType() != op.getType())
          return op.emitOpError("changes a static shape, which ")
                 << kPassName << " cannot import";
        return op.getSource();
      })
      .Default([&](Operation *op) -> FailureOr<Value> {
        return op->emitOpError("is not supported by ") << kPassName;
      });
}
