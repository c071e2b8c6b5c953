//===- ImportLinalg.cpp - linalg.generic to dtensor -------------*- C++ -*-===//
//
// A generic op is an iteration domain, one affine map per operand and a
// scalar body. Each operand the body reads is laid out over the domain with
// an index map, the body becomes an elementwise op over the domain, and a
// reduction body is split into the reduce it performs and the combine with
// the initial value.
//
//===----------------------------------------------------------------------===//

#include "Importers.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::importer;

Value importer::readOver(OpBuilder &b, Location loc, Value source,
                         AffineMap map, ArrayRef<int64_t> domain) {
  auto type = cast<RankedTensorType>(source.getType());
  if (map.isIdentity() && type.getShape() == domain)
    return source;
  auto resultType = RankedTensorType::get(domain, type.getElementType());
  return dtensor::IndexMapOp::create(b, loc, resultType, source, map);
}

/// The affine form of an index computed from linalg.index values and
/// constants, if it has one.
static std::optional<AffineExpr> indexExpr(Value v) {
  MLIRContext *ctx = v.getContext();
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return getAffineDimExpr(index.getDim(), ctx);
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    if (auto value = dyn_cast<IntegerAttr>(cst.getValue()))
      return getAffineConstantExpr(value.getInt(), ctx);
  if (auto cast = dyn_cast<arith::IndexCastOp>(def))
    return indexExpr(cast.getIn());
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return std::nullopt;
  std::optional<AffineExpr> lhs = indexExpr(def->getOperand(0));
  std::optional<AffineExpr> rhs = indexExpr(def->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return *lhs + *rhs;
  if (isa<arith::SubIOp>(def))
    return *lhs - *rhs;
  if (!isa<AffineConstantExpr>(*lhs) && !isa<AffineConstantExpr>(*rhs))
    return std::nullopt; // Not affine.
  return *lhs * *rhs;
}

/// The predicate of a comparison between two affine indices over `numDims`
/// dimensions, when it is one conjunction of affine constraints.
static std::optional<IntegerSet> indexPredicate(arith::CmpIOp cmp,
                                                unsigned numDims) {
  std::optional<AffineExpr> a = indexExpr(cmp.getLhs());
  std::optional<AffineExpr> b = indexExpr(cmp.getRhs());
  if (!a || !b)
    return std::nullopt;
  AffineExpr constraint;
  bool isEq = false;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
    constraint = *b - *a - 1;
    break;
  case arith::CmpIPredicate::sle:
    constraint = *b - *a;
    break;
  case arith::CmpIPredicate::sgt:
    constraint = *a - *b - 1;
    break;
  case arith::CmpIPredicate::sge:
    constraint = *a - *b;
    break;
  case arith::CmpIPredicate::eq:
    constraint = *a - *b;
    isEq = true;
    break;
  default:
    return std::nullopt; // `ne` is a disjunction; unsigned orders differ.
  }
  return IntegerSet::get(numDims, 0, {constraint}, {isEq});
}

namespace {

/// Builds the elementwise op computing one value of a generic body over the
/// whole iteration domain.
class BodyImporter {
public:
  BodyImporter(RewriterBase &rewriter, linalg::GenericOp op,
               ArrayRef<int64_t> domain)
      : rewriter(rewriter), op(op), domain(domain), loc(op.getLoc()) {}

  /// The tensor of `root` at every point of the domain. `forbidden` are
  /// block arguments (reduction accumulators) the computation must not read.
  FailureOr<Value> build(Value root, ArrayRef<BlockArgument> forbidden = {});

private:
  LogicalResult collect(Value root, ArrayRef<BlockArgument> forbidden);

  RewriterBase &rewriter;
  linalg::GenericOp op;
  ArrayRef<int64_t> domain;
  Location loc;
  /// Body ops to clone, in block order.
  llvm::SetVector<Operation *> slice;
  /// Values the elementwise body receives as arguments, and the tensors that
  /// feed them (null for generic operands, laid out later).
  llvm::SmallVector<std::pair<Value, Value>> leaves;
  /// Scalar constants (operands of the generic or defined above it) that are
  /// cloned into the body.
  llvm::SmallVector<std::pair<Value, arith::ConstantOp>> constants;
};

} // namespace

LogicalResult BodyImporter::collect(Value root,
                                    ArrayRef<BlockArgument> forbidden) {
  Block *body = op.getBlock();
  MLIRContext *ctx = op.getContext();
  Type i1 = IntegerType::get(ctx, 1);
  SmallVector<Value> worklist{root};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!visited.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    bool inBody = def ? def->getBlock() == body
                      : cast<BlockArgument>(v).getOwner() == body;
    if (!inBody) {
      // Scalars from above the generic: constants are cloned into the body.
      auto cst = dyn_cast_or_null<arith::ConstantOp>(def);
      if (!cst)
        return op.emitOpError("reads a value defined outside its body, which ")
               << kPassName << " cannot import";
      constants.push_back({v, cst});
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (llvm::is_contained(forbidden, arg))
        return op.emitOpError("reads its output inside a reduction, which ")
               << kPassName << " cannot import";
      OpOperand *operand = op.getMatchingOpOperand(arg);
      Value source = operand->get();
      if (!isa<RankedTensorType>(source.getType())) {
        auto cst = source.getDefiningOp<arith::ConstantOp>();
        if (!cst)
          return op.emitOpError("has a scalar operand that is not a "
                                "constant, which ")
                 << kPassName << " cannot import";
        constants.push_back({arg, cst});
        continue;
      }
      // Laid out once the leaves are sorted, so index maps come in order.
      leaves.push_back({arg, Value()});
      continue;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      // A comparison of coordinates: a predicated index map of constants.
      if (std::optional<IntegerSet> set = indexPredicate(cmp, domain.size())) {
        auto scalar = RankedTensorType::get({}, i1);
        Value yes = arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(scalar, true));
        AffineMap map = AffineMap::get(domain.size(), 0, ctx);
        Value mask = dtensor::IndexMapOp::create(
            rewriter, loc, RankedTensorType::get(domain, i1), ValueRange{yes},
            rewriter.getArrayAttr({AffineMapAttr::get(map)}),
            rewriter.getArrayAttr({IntegerSetAttr::get(*set)}),
            cast<TypedAttr>(rewriter.getBoolAttr(false)));
        leaves.push_back({v, mask});
        continue;
      }
    }
    if (auto index = dyn_cast<linalg::IndexOp>(def)) {
      // Any other use of a coordinate reads it from an iota constant.
      int64_t dim = index.getDim();
      auto iotaType = RankedTensorType::get({domain[dim]}, IndexType::get(ctx));
      SmallVector<APInt> values;
      for (int64_t i = 0; i < domain[dim]; ++i)
        values.push_back(APInt(64, i));
      Value iota = arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(iotaType, values));
      AffineMap map =
          AffineMap::get(domain.size(), 0, getAffineDimExpr(dim, ctx), ctx);
      leaves.push_back({v, readOver(rewriter, loc, iota, map, domain)});
      continue;
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(def)) {
      // A data-dependent read (embedding lookup): a gather whose index
      // tensors are the body's index computations over the domain.
      Value table = extract.getTensor();
      if (table.getParentBlock() == body)
        return def->emitOpError("reads a tensor made inside the "
                                "linalg.generic body, which ")
               << kPassName << " cannot import";
      SmallVector<Value> indices;
      for (Value index : extract.getIndices()) {
        FailureOr<Value> tensor =
            BodyImporter(rewriter, op, domain).build(index, forbidden);
        if (failed(tensor))
          return failure();
        indices.push_back(*tensor);
      }
      Value gather = dtensor::GatherOp::create(
          rewriter, loc, RankedTensorType::get(domain, v.getType()), table,
          indices);
      leaves.push_back({v, gather});
      continue;
    }
    if (!isa<arith::ArithDialect, math::MathDialect>(def->getDialect()))
      return def->emitOpError("in a linalg.generic body is not supported by ")
             << kPassName;
    slice.insert(def);
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  return success();
}

FailureOr<Value> BodyImporter::build(Value root,
                                     ArrayRef<BlockArgument> forbidden) {
  if (failed(collect(root, forbidden)))
    return failure();
  // Clone in block order so every operand is defined before its use.
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // Operands of the generic keep their order; coordinates come after, in
  // the order they were found.
  SmallVector<std::pair<Value, Value>> args, coords;
  for (auto &leaf : leaves)
    (isa<BlockArgument>(leaf.first) ? args : coords).push_back(leaf);
  llvm::sort(args, [](const auto &a, const auto &b) {
    return cast<BlockArgument>(a.first).getArgNumber() <
           cast<BlockArgument>(b.first).getArgNumber();
  });
  leaves = std::move(args);
  llvm::append_range(leaves, coords);
  SmallVector<Value> inputs;
  for (auto &[leaf, tensor] : leaves) {
    if (!tensor) {
      OpOperand *operand = op.getMatchingOpOperand(cast<BlockArgument>(leaf));
      tensor = readOver(rewriter, loc, operand->get(),
                        op.getMatchingIndexingMap(operand), domain);
    }
    inputs.push_back(tensor);
  }
  auto resultType = RankedTensorType::get(domain, root.getType());
  auto elementwise = dtensor::ElementwiseOp::create(
      rewriter, loc, resultType, inputs,
      [&](OpBuilder &b, Location, ValueRange args) {
        IRMapping mapping;
        for (auto [leaf, arg] : llvm::zip(leaves, args))
          mapping.map(leaf.first, arg);
        for (auto [value, cst] : constants)
          mapping.map(value, b.clone(*cst)->getResult(0));
        for (Operation *bodyOp : ordered)
          b.clone(*bodyOp, mapping);
        return mapping.lookupOrDefault(root);
      });
  return elementwise.getResult();
}

/// Whether `init` is, everywhere, the identity of `kind`: folding it in then
/// changes nothing and the combine can be dropped.
static bool isIdentityInit(Value init, ReduceKind kind) {
  auto fill = init.getDefiningOp<dtensor::ElementwiseOp>();
  if (!fill || !fill.getInputs().empty())
    return false;
  auto cst = fill.getYield().getValue().getDefiningOp<arith::ConstantOp>();
  return cst && isReduceIdentity(cst.getValue(), kind);
}

/// Lays a tensor over the domain's dimensions `dims` (in domain order) out
/// as an output whose coordinate j is domain dimension `outMap(j)`, or the
/// constant 0 on a size-1 output axis (keepdim reductions).
static FailureOr<Value> layoutResult(RewriterBase &rewriter,
                                     linalg::GenericOp op, Value value,
                                     ArrayRef<unsigned> dims, AffineMap outMap,
                                     Type resultType) {
  auto shape = cast<RankedTensorType>(resultType).getShape();
  auto refuse = [&] {
    return op.emitOpError("has an output map that is not a permutation of "
                          "its parallel dimensions, which ")
           << kPassName << " cannot import";
  };
  for (auto [j, expr] : llvm::enumerate(outMap.getResults())) {
    auto cst = dyn_cast<AffineConstantExpr>(expr);
    if (cst && (cst.getValue() != 0 || shape[j] != 1))
      return refuse();
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!cst && (!dim || !llvm::is_contained(dims, dim.getPosition())))
      return refuse();
  }
  // Value coordinate k (domain dim dims[k]) is the output coordinate that
  // the output map sends that dimension to.
  SmallVector<AffineExpr> exprs;
  MLIRContext *ctx = op.getContext();
  for (unsigned dim : dims) {
    std::optional<unsigned> pos =
        outMap.getResultPosition(getAffineDimExpr(dim, ctx));
    if (!pos)
      return refuse();
    exprs.push_back(getAffineDimExpr(*pos, ctx));
  }
  auto map = AffineMap::get(outMap.getNumResults(), 0, exprs, ctx);
  return readOver(rewriter, op.getLoc(), value, map, shape);
}

/// The combining op of reduction result `i` and the value it folds into the
/// accumulator, when the body yields `acc <kind> partial`.
static std::optional<std::pair<ReduceKind, Value>>
matchReduction(linalg::GenericOp op, unsigned i) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  BlockArgument acc = op.getRegionOutputArgs()[i];
  Operation *combiner = yield.getValues()[i].getDefiningOp();
  std::optional<ReduceKind> kind =
      combiner ? getCombinerKind(combiner) : std::nullopt;
  // `all` and `any` (SDPA's fully masked rows): on i1, where true is -1
  // as a signed integer, and is max and or is min.
  if (combiner && isa<arith::AndIOp, arith::OrIOp>(combiner) &&
      combiner->getResult(0).getType().isInteger(1))
    kind = isa<arith::AndIOp>(combiner) ? ReduceKind::max : ReduceKind::min;
  if (!kind || combiner->getBlock() != op.getBlock() ||
      !llvm::is_contained(combiner->getOperands(), acc))
    return std::nullopt;
  Value partial = combiner->getOperand(0) == acc ? combiner->getOperand(1)
                                                 : combiner->getOperand(0);
  return std::make_pair(*kind, partial);
}

/// Reduces `full` (over the whole domain) along the reduction dimensions
/// and lays the result out as result `i` of `op`.
static FailureOr<Value> reduceOver(RewriterBase &rewriter, linalg::GenericOp op,
                                   unsigned i, Value full, ReduceKind kind,
                                   ArrayRef<int64_t> domain,
                                   ArrayRef<unsigned> parallel,
                                   ArrayRef<unsigned> reduction) {
  SmallVector<int64_t> keptShape;
  for (unsigned d : parallel)
    keptShape.push_back(domain[d]);
  SmallVector<int64_t> axes(reduction.begin(), reduction.end());
  llvm::sort(axes);
  Type element = cast<RankedTensorType>(full.getType()).getElementType();
  Location loc = op.getLoc();
  // GPUs combine no i1 across threads: i1 reduces sign-extended to i32
  // (true is -1, so every kind keeps its meaning), then takes the low bit.
  bool isBool = element.isInteger(1);
  Type i32 = rewriter.getI32Type();
  if (isBool)
    full = dtensor::ElementwiseOp::create(
        rewriter, loc, RankedTensorType::get(domain, i32), ValueRange{full},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          return arith::ExtSIOp::create(b, loc, i32, args[0]);
        });
  auto keptType = RankedTensorType::get(keptShape, isBool ? i32 : element);
  Value reduced = dtensor::ReduceOp::create(rewriter, loc, keptType, full, kind,
                                            rewriter.getDenseI64ArrayAttr(axes),
                                            /*keepdim=*/false);
  if (isBool)
    reduced = dtensor::ElementwiseOp::create(
        rewriter, loc, RankedTensorType::get(keptShape, element),
        ValueRange{reduced},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
          Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
          Value low = arith::AndIOp::create(b, loc, args[0], one);
          return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, low,
                                       zero);
        });
  return layoutResult(rewriter, op, reduced, parallel,
                      op.getMatchingIndexingMap(op.getDpsInitOperand(i)),
                      op->getResult(i).getType());
}

/// Result `i` as an index reduction: the body yields
/// `select(v <cmp> acc_j, index, acc_i)` where result j reduces v with max
/// (or min) and `index` is the coordinate along the one reduction
/// dimension: argmax (argmin). A strict comparison keeps the first index
/// at which v reaches the reduced value, a non-strict one the last; the
/// import reduces, with min (max), the indices where v equals it. The
/// initial index is never read: some index always reaches the maximum.
static FailureOr<Value> importIndexReduction(RewriterBase &rewriter,
                                             linalg::GenericOp op, unsigned i,
                                             ArrayRef<int64_t> domain,
                                             ArrayRef<unsigned> parallel,
                                             ArrayRef<unsigned> reduction) {
  auto refuse = [&] {
    return op.emitOpError("has a reduction body for result #")
           << i << " that is neither an add, mul, max or min into the "
           << "output nor an argmax or argmin, which " << kPassName
           << " cannot import";
  };
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  BlockArgument acc = op.getRegionOutputArgs()[i];
  auto select = yield.getValues()[i].getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != op.getBlock() ||
      select.getFalseValue() != acc || reduction.size() != 1)
    return refuse();
  // The selected index: the coordinate along the reduction dimension.
  Value index = select.getTrueValue();
  if (auto cast = index.getDefiningOp<arith::IndexCastOp>())
    index = cast.getIn();
  auto coord = index.getDefiningOp<linalg::IndexOp>();
  if (!coord || coord.getDim() != reduction[0] ||
      !select.getType().isSignlessInteger())
    return refuse();
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return refuse();
  // Find the value reduction the comparison reads: cmp(v, acc_j) or
  // cmp(acc_j, v) with result j folding v.
  for (unsigned j = 0, e = op->getNumResults(); j < e; ++j) {
    std::optional<std::pair<ReduceKind, Value>> value = matchReduction(op, j);
    BlockArgument accJ = op.getRegionOutputArgs()[j];
    if (j == i || !value)
      continue;
    bool vFirst = cmp.getLhs() == value->second && cmp.getRhs() == accJ;
    bool vSecond = cmp.getRhs() == value->second && cmp.getLhs() == accJ;
    if (!vFirst && !vSecond)
      continue;
    using P = arith::CmpFPredicate;
    P pred = cmp.getPredicate();
    if (vSecond) // acc_j < v is v > acc_j.
      pred = pred == P::OGT   ? P::OLT
             : pred == P::OLT ? P::OGT
             : pred == P::OGE ? P::OLE
             : pred == P::OLE ? P::OGE
                              : pred;
    bool greater = pred == P::OGT || pred == P::OGE;
    bool less = pred == P::OLT || pred == P::OLE;
    bool strict = pred == P::OGT || pred == P::OLT;
    bool isMax =
        value->first == ReduceKind::max || value->first == ReduceKind::maxnum;
    bool isMin =
        value->first == ReduceKind::min || value->first == ReduceKind::minnum;
    if (!(greater && isMax) && !(less && isMin))
      return refuse();
    SmallVector<BlockArgument> accs(op.getRegionOutputArgs());
    FailureOr<Value> v =
        BodyImporter(rewriter, op, domain).build(value->second, accs);
    FailureOr<Value> idx =
        BodyImporter(rewriter, op, domain).build(select.getTrueValue(), accs);
    if (failed(v) || failed(idx))
      return failure();
    // The reduced value, broadcast back over the domain.
    Location loc = op.getLoc();
    Type element = cast<RankedTensorType>(v->getType()).getElementType();
    SmallVector<int64_t> keptShape;
    SmallVector<AffineExpr> keptDims;
    for (unsigned d : parallel) {
      keptShape.push_back(domain[d]);
      keptDims.push_back(rewriter.getAffineDimExpr(d));
    }
    Value reduced = dtensor::ReduceOp::create(
        rewriter, loc, RankedTensorType::get(keptShape, element), *v,
        value->first,
        rewriter.getDenseI64ArrayAttr({static_cast<int64_t>(reduction[0])}),
        /*keepdim=*/false);
    Value spread = readOver(
        rewriter, loc, reduced,
        AffineMap::get(domain.size(), 0, keptDims, op.getContext()), domain);
    // The indices where v reaches it; elsewhere one past the last index
    // (or -1, for the last occurrence), which never wins.
    // Indices are reduced as i32 (extended to the result type after), whose
    // extremes every level holds exactly.
    ReduceKind pick = strict ? ReduceKind::min : ReduceKind::max;
    Type indexType = select.getType();
    Type i32 = rewriter.getI32Type();
    int64_t extent = domain[reduction[0]];
    if (extent > std::numeric_limits<int32_t>::max() ||
        indexType.getIntOrFloatBitWidth() < 32)
      return op.emitOpError("has an index reduction over ")
             << extent << " elements into " << indexType << ", which "
             << kPassName << " cannot import";
    int64_t never = strict ? extent : -1;
    Value hits = dtensor::ElementwiseOp::create(
        rewriter, loc, RankedTensorType::get(domain, i32),
        ValueRange{*v, spread, *idx},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                           args[0], args[1]);
          Value index = arith::TruncIOp::create(b, loc, i32, args[2]);
          Value none =
              arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(never));
          return arith::SelectOp::create(b, loc, eq, index, none);
        });
    FailureOr<Value> picked =
        reduceOver(rewriter, op, i, hits, pick, domain, parallel, reduction);
    if (failed(picked))
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(i).getType());
    if (indexType == i32)
      return *picked;
    return dtensor::ElementwiseOp::create(
               rewriter, loc, resultType, ValueRange{*picked},
               [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                 return arith::ExtSIOp::create(b, loc, indexType, args[0]);
               })
        .getResult();
  }
  return refuse();
}

/// Result `i` of a generic with reduction iterators.
static FailureOr<Value> importReduction(RewriterBase &rewriter,
                                        linalg::GenericOp op, unsigned i,
                                        ArrayRef<int64_t> domain,
                                        ArrayRef<unsigned> parallel,
                                        ArrayRef<unsigned> reduction) {
  std::optional<std::pair<ReduceKind, Value>> match = matchReduction(op, i);
  if (!match)
    return importIndexReduction(rewriter, op, i, domain, parallel, reduction);
  ReduceKind kind = match->first;
  Value partial = match->second;
  SmallVector<BlockArgument> accs(op.getRegionOutputArgs());
  FailureOr<Value> full =
      BodyImporter(rewriter, op, domain).build(partial, accs);
  if (failed(full))
    return failure();
  FailureOr<Value> laidOut =
      reduceOver(rewriter, op, i, *full, kind, domain, parallel, reduction);
  if (failed(laidOut))
    return failure();
  Value init = op.getDpsInits()[i];
  if (isIdentityInit(init, kind))
    return *laidOut;
  // Fold the initial value in with the body's own combining op.
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  Operation *combiner = yield.getValues()[i].getDefiningOp();
  BlockArgument acc = op.getRegionOutputArgs()[i];
  return dtensor::ElementwiseOp::create(
             rewriter, op.getLoc(), init.getType(), ValueRange{init, *laidOut},
             [&](OpBuilder &b, Location, ValueRange args) {
               IRMapping mapping;
               mapping.map(acc, args[0]);
               mapping.map(partial, args[1]);
               return b.clone(*combiner, mapping)->getResult(0);
             })
      .getResult();
}

FailureOr<SmallVector<Value>> importer::importGeneric(RewriterBase &rewriter,
                                                      linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics())
    return op.emitOpError("works on buffers; ")
           << kPassName << " imports ops on tensors";
  SmallVector<int64_t> domain = op.getStaticLoopRanges();
  if (llvm::any_of(domain, ShapedType::isDynamic))
    return op.emitOpError("has a dynamic iteration domain; dynamic shapes "
                          "are not supported by ")
           << kPassName;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  SmallVector<unsigned> parallel, reduction;
  op.getParallelDims(parallel);
  op.getReductionDims(reduction);

  if (reduction.empty()) {
    SmallVector<Value> results;
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      FailureOr<Value> full = BodyImporter(rewriter, op, domain).build(value);
      if (failed(full))
        return failure();
      FailureOr<Value> result =
          layoutResult(rewriter, op, *full, parallel,
                       op.getIndexingMapMatchingResult(op->getResult(i)),
                       op->getResult(i).getType());
      if (failed(result))
        return failure();
      results.push_back(*result);
    }
    return results;
  }

  // Each result is a reduction of its own (max and argmax come as one
  // generic); results nobody reads are dropped.
  SmallVector<Value> results;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    if (e > 1 && op->getResult(i).use_empty()) {
      results.push_back(Value());
      continue;
    }
    FailureOr<Value> result =
        importReduction(rewriter, op, i, domain, parallel, reduction);
    if (failed(result))
      return failure();
    results.push_back(*result);
  }
  return results;
}
