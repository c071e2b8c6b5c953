//===- Arithmetic.cpp - Index arithmetic in arith ---------------*- C++ -*-===//
//
// Values of the source map to values of the kernel; index arithmetic folds
// constants as it goes, and divisions of values known to be non-negative
// are unsigned (cheaper than affine's signed floor semantics).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

FailureOr<SmallVector<Value>> KernelLowering::lookupAll(ValueRange olds,
                                                        Operation *user) {
  SmallVector<Value> result;
  for (Value old : olds) {
    Value v = lookup(old);
    if (!v)
      return user->emitOpError("uses a value of type ")
             << old.getType() << " that has no Kernel IR form here";
    result.push_back(v);
  }
  return result;
}

Value KernelLowering::constant(TypedAttr attr) {
  Value &cached = constantCache[attr];
  if (!cached) {
    OpBuilder cb(kernel.getContext());
    cb.setInsertionPointToEnd(&constants);
    cached = arith::ConstantOp::create(cb, kernel.getLoc(), attr);
  }
  return cached;
}

Value KernelLowering::add(Location loc, Value lhs, Value rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return index(*l + *r);
  if (l == 0)
    return rhs;
  if (r == 0)
    return lhs;
  return arith::AddIOp::create(b, loc, lhs, rhs);
}

Value KernelLowering::mul(Location loc, Value lhs, int64_t rhs) {
  if (std::optional<int64_t> l = getConstantIntValue(lhs))
    return index(*l * rhs);
  if (rhs == 1)
    return lhs;
  return arith::MulIOp::create(b, loc, lhs, index(rhs));
}

Value KernelLowering::div(Location loc, Value lhs, int64_t rhs) {
  if (std::optional<int64_t> l = getConstantIntValue(lhs))
    return index(*l / rhs);
  if (rhs == 1)
    return lhs;
  return arith::DivUIOp::create(b, loc, lhs, index(rhs));
}

Value KernelLowering::rem(Location loc, Value lhs, int64_t rhs) {
  if (std::optional<int64_t> l = getConstantIntValue(lhs))
    return index(*l % rhs);
  if (rhs == 1)
    return index(0);
  return arith::RemUIOp::create(b, loc, lhs, index(rhs));
}

Value KernelLowering::cmpLt(Location loc, Value lhs, int64_t rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs,
                               index(rhs));
}

Value KernelLowering::cmpEq(Location loc, Value lhs, int64_t rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs,
                               index(rhs));
}

SmallVector<Value> KernelLowering::delinearize(Location loc, Value linear,
                                               ArrayRef<int64_t> extents) {
  SmallVector<Value> coords(extents.size());
  int64_t stride = 1;
  for (int i = static_cast<int>(extents.size()) - 1; i >= 0; --i) {
    if (extents[i] == 1) {
      coords[i] = index(0);
      continue;
    }
    Value q = div(loc, linear, stride);
    // The outermost non-unit coordinate needs no wrap-around: linear is
    // below the product of the extents.
    bool outermost =
        llvm::all_of(extents.take_front(i), [](int64_t e) { return e == 1; });
    coords[i] = outermost ? q : rem(loc, q, extents[i]);
    stride *= extents[i];
  }
  return coords;
}

Value KernelLowering::expandExpr(Location loc, AffineExpr expr, ValueRange dims,
                                 ValueRange symbols,
                                 ArrayRef<std::optional<Interval>> ranges) {
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return index(cst.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[sym.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhsExpr = binary.getLHS(), rhsExpr = binary.getRHS();
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    Value lhs = expandExpr(loc, lhsExpr, dims, symbols, ranges);
    Value rhs = lhs ? expandExpr(loc, rhsExpr, dims, symbols, ranges) : Value();
    return rhs ? add(loc, lhs, rhs) : Value();
  }
  case AffineExprKind::Mul:
    if (auto cst = dyn_cast<AffineConstantExpr>(rhsExpr)) {
      Value lhs = expandExpr(loc, lhsExpr, dims, symbols, ranges);
      return lhs ? mul(loc, lhs, cst.getValue()) : Value();
    }
    break;
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod:
  case AffineExprKind::CeilDiv: {
    // Unsigned division is exact when the dividend cannot be negative.
    auto cst = dyn_cast<AffineConstantExpr>(rhsExpr);
    if (!cst || cst.getValue() <= 0 || symbols.size() > 0)
      break;
    SmallVector<Interval> known;
    for (const std::optional<Interval> &range : ranges) {
      if (!range)
        break;
      known.push_back(*range);
    }
    if (known.size() != ranges.size())
      break;
    std::optional<Interval> bound = boundAffineExpr(lhsExpr, known);
    if (!bound || bound->lo < 0)
      break;
    Value lhs = expandExpr(loc, lhsExpr, dims, symbols, ranges);
    if (!lhs)
      return {};
    int64_t c = cst.getValue();
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return div(loc, lhs, c);
    if (expr.getKind() == AffineExprKind::Mod)
      return rem(loc, lhs, c);
    return div(loc, add(loc, lhs, index(c - 1)), c);
  }
  default:
    break;
  }
  // Upstream's expansion reports a division by a non-positive constant but
  // then builds on the null value it returned when the division is nested
  // (`(d0 floordiv -4) mod 2`): refuse such an expression before it starts.
  std::optional<AffineExprKind> badDivisor;
  expr.walk([&](AffineExpr e) {
    auto div = dyn_cast<AffineBinaryOpExpr>(e);
    if (badDivisor || !div ||
        (e.getKind() != AffineExprKind::FloorDiv &&
         e.getKind() != AffineExprKind::CeilDiv &&
         e.getKind() != AffineExprKind::Mod))
      return;
    auto cst = dyn_cast<AffineConstantExpr>(div.getRHS());
    if (cst && cst.getValue() <= 0)
      badDivisor = e.getKind();
  });
  if (badDivisor) {
    // Upstream's words, for the same error.
    emitError(loc, *badDivisor == AffineExprKind::Mod
                       ? "modulo by non-positive value is not supported"
                       : "division by non-positive value is not supported");
    return {};
  }
  return affine::expandAffineExpr(b, loc, expr, dims, symbols);
}

FailureOr<SmallVector<Value>> KernelLowering::expandMap(Location loc,
                                                        AffineMap map,
                                                        ValueRange operands,
                                                        Operation *user) {
  FailureOr<SmallVector<Value>> lowered = lookupAll(operands, user);
  if (failed(lowered))
    return failure();
  unsigned numDims = map.getNumDims();
  SmallVector<std::optional<Interval>> ranges;
  for (Value operand : operands.take_front(numDims))
    ranges.push_back(dloop::getIndexRange(operand, user));
  ValueRange dims = ValueRange(*lowered).take_front(numDims);
  ValueRange symbols = ValueRange(*lowered).drop_front(numDims);
  SmallVector<Value> result;
  for (AffineExpr expr : map.getResults()) {
    AffineExpr simple = simplifyWithRanges(expr, ranges);
    // Null after upstream's expansion reported an error (a division by a
    // non-positive constant).
    Value value = expandExpr(loc, simple, dims, symbols, ranges);
    if (!value)
      return failure();
    result.push_back(value);
  }
  return result;
}
