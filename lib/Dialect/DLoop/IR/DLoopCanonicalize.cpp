//===- DLoopCanonicalize.cpp - Canonical forms of dloop accesses -*- C++
//-*-===//
//
// Index arithmetic written as `affine.apply` or constants folds into the
// affine map of the load or store that uses it, so an access reads as one
// map over loop variables. Fusion relies on this to turn substituted indices
// back into plain accesses.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

namespace {

/// Composes the affine.apply ops and constants feeding an access's indices
/// into its map.
template <typename AccessOp>
struct ComposeAccessMap final : OpRewritePattern<AccessOp> {
  using OpRewritePattern<AccessOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AccessOp op,
                                PatternRewriter &rewriter) const override {
    AffineMap map = op.getMap();
    SmallVector<Value> indices(op.getIndices());
    affine::fullyComposeAffineMapAndOperands(&map, &indices);
    affine::canonicalizeMapAndOperands(&map, &indices);
    // There is no affine scope here, so a symbol is just another operand:
    // make it a dimension, so the same access always reads the same (and
    // the ranges below see it), then merge operands that are now repeated.
    if (map.getNumSymbols() != 0) {
      SmallVector<AffineExpr> dims, symbols;
      for (unsigned i = 0, e = map.getNumInputs(); i < e; ++i)
        (i < map.getNumDims() ? dims : symbols)
            .push_back(getAffineDimExpr(i, op.getContext()));
      map = map.replaceDimsAndSymbols(dims, symbols, map.getNumInputs(), 0);
      affine::canonicalizeMapAndOperands(&map, &indices);
    }
    // What the loop bounds prove: `i floordiv 32` is 0 for i < 32.
    SmallVector<std::optional<Interval>> ranges;
    for (Value index : indices)
      ranges.push_back(getIndexRange(index));
    SmallVector<AffineExpr> exprs;
    for (AffineExpr expr : map.getResults())
      exprs.push_back(simplifyWithRanges(expr, ranges));
    map = simplifyAffineMap(AffineMap::get(
        map.getNumDims(), map.getNumSymbols(), exprs, op.getContext()));
    if (map == op.getMap() && ValueRange(indices) == op.getIndices())
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setMap(map);
      op.getIndicesMutable().assign(indices);
    });
    return success();
  }
};

} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<ComposeAccessMap<LoadOp>>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<ComposeAccessMap<StoreOp>>(context);
}
