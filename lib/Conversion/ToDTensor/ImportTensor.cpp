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

static FailureOr<Value> importExpand(RewriterBase &rewriter,
                                     tensor::ExpandShapeOp op) {
  // Source dimension j is the row-major linearisation of its result group.
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  SmallVector<AffineExpr> exprs;
  for (ReassociationIndices group : op.getReassociationIndices()) {
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
  SmallVector<AffineExpr> exprs;
  for (auto [j, group] : llvm::enumerate(op.getReassociationIndices())) {
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

static FailureOr<Value> importPad(RewriterBase &rewriter, tensor::PadOp op) {
  ArrayRef<int64_t> low = op.getStaticLow(), high = op.getStaticHigh();
  if (llvm::any_of(low, ShapedType::isDynamic) ||
      llvm::any_of(high, ShapedType::isDynamic))
    return op.emitOpError("has dynamic padding; dynamic shapes are not "
                          "supported by ")
           << kPassName;
  Value padValue = op.getConstantPaddingValue();
  auto cst = padValue ? padValue.getDefiningOp<arith::ConstantOp>()
                      : arith::ConstantOp();
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
             rewriter.getArrayAttr({IntegerSetAttr::get(inside)}),
             cast<TypedAttr>(cst.getValue()))
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
