//===- Access.cpp - Affine indices compiled for interpretation ------------===//

#include "Access.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

/// Adds `expr * scale` to `dim` if `expr` is linear in the map operands and
/// its coefficients fit in int64_t.
static bool linearize(AffineExpr expr, unsigned numDims, int64_t scale,
                      Access::Dim &dim) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    int64_t term;
    return !llvm::MulOverflow(scale, cast<AffineConstantExpr>(expr).getValue(),
                              term) &&
           !llvm::AddOverflow(dim.constant, term, dim.constant);
  }
  case AffineExprKind::DimId:
    dim.terms.push_back({cast<AffineDimExpr>(expr).getPosition(), scale});
    return true;
  case AffineExprKind::SymbolId:
    dim.terms.push_back(
        {numDims + cast<AffineSymbolExpr>(expr).getPosition(), scale});
    return true;
  case AffineExprKind::Add: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    return linearize(bin.getLHS(), numDims, scale, dim) &&
           linearize(bin.getRHS(), numDims, scale, dim);
  }
  case AffineExprKind::Mul: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    int64_t product;
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return !llvm::MulOverflow(scale, c.getValue(), product) &&
             linearize(bin.getLHS(), numDims, product, dim);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return !llvm::MulOverflow(scale, c.getValue(), product) &&
             linearize(bin.getRHS(), numDims, product, dim);
    return false;
  }
  default:
    return false;
  }
}

Access deplodock::interp::affineAccess(AffineMap map, unsigned first,
                                       unsigned count) {
  Access access;
  access.first = first;
  access.count = count;
  access.numMapDims = map.getNumDims();
  for (AffineExpr expr : map.getResults()) {
    Access::Dim dim;
    if (!linearize(expr, map.getNumDims(), 1, dim)) {
      dim = Access::Dim();
      dim.expr = expr;
      access.linear = false;
    }
    access.dims.push_back(std::move(dim));
  }
  return access;
}

Access deplodock::interp::indexAccess(unsigned first, unsigned count) {
  Access access;
  access.first = first;
  access.count = count;
  access.numMapDims = count;
  for (unsigned i = 0; i < count; ++i) {
    Access::Dim dim;
    dim.terms.push_back({i, 1});
    access.dims.push_back(std::move(dim));
  }
  return access;
}

std::optional<int64_t> deplodock::interp::evaluateDim(
    const Access::Dim &dim, ArrayRef<int64_t> operands, unsigned numMapDims) {
  if (dim.expr)
    return evaluateAffineExpr(dim.expr, operands, numMapDims);
  int64_t v = dim.constant;
  for (auto [pos, coef] : dim.terms)
    v = wrapMulAdd(v, coef, operands[pos]);
  return v;
}
