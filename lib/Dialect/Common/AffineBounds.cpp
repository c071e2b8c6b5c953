//===- AffineBounds.cpp - Value ranges of affine index maps -----*- C++ -*-===//

#include "Deplodock/Dialect/Common/AffineBounds.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace deplodock {

SmallVector<Interval> boxRanges(ArrayRef<int64_t> extents) {
  SmallVector<Interval> ranges;
  for (int64_t extent : extents)
    ranges.push_back(extent > 0 ? Interval{0, extent - 1} : Interval{});
  return ranges;
}

/// The sum of two intervals; nullopt past 64 bits (bounds are then unknown,
/// never wrapped).
static std::optional<Interval> addIntervals(const Interval &a,
                                            const Interval &b) {
  std::optional<int64_t> lo = llvm::checkedAdd(a.lo, b.lo);
  std::optional<int64_t> hi = llvm::checkedAdd(a.hi, b.hi);
  if (!lo || !hi)
    return std::nullopt;
  return Interval{*lo, *hi};
}

/// The products of `a`'s ends with `c` as an interval; nullopt past 64 bits.
static std::optional<Interval> scaleInterval(const Interval &a, int64_t c) {
  std::optional<int64_t> lo = llvm::checkedMul(a.lo, c);
  std::optional<int64_t> hi = llvm::checkedMul(a.hi, c);
  if (!lo || !hi)
    return std::nullopt;
  return c >= 0 ? Interval{*lo, *hi} : Interval{*hi, *lo};
}

std::optional<Interval> boundAffineExpr(AffineExpr expr,
                                        ArrayRef<Interval> dims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() >= dims.size())
      return std::nullopt;
    return dims[dim.getPosition()];
  }
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return Interval{cst.getValue(), cst.getValue()};
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt; // A symbol.
  std::optional<Interval> lhs = boundAffineExpr(bin.getLHS(), dims);
  std::optional<Interval> rhs = boundAffineExpr(bin.getRHS(), dims);
  if (!lhs || !rhs)
    return std::nullopt;
  if (lhs->empty() || rhs->empty())
    return Interval{};
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return addIntervals(*lhs, *rhs);
  case AffineExprKind::Mul: {
    std::optional<Interval> byLo = scaleInterval(*lhs, rhs->lo);
    std::optional<Interval> byHi = scaleInterval(*lhs, rhs->hi);
    if (!byLo || !byHi)
      return std::nullopt;
    return Interval{std::min(byLo->lo, byHi->lo), std::max(byLo->hi, byHi->hi)};
  }
  default:
    break;
  }
  // Division and modulo: affine expressions divide by constants only.
  if (rhs->lo != rhs->hi || rhs->lo <= 0)
    return std::nullopt;
  int64_t c = rhs->lo;
  switch (expr.getKind()) {
  case AffineExprKind::FloorDiv:
    return Interval{llvm::divideFloorSigned(lhs->lo, c),
                    llvm::divideFloorSigned(lhs->hi, c)};
  case AffineExprKind::CeilDiv:
    return Interval{llvm::divideCeilSigned(lhs->lo, c),
                    llvm::divideCeilSigned(lhs->hi, c)};
  case AffineExprKind::Mod:
    if (llvm::divideFloorSigned(lhs->lo, c) ==
        llvm::divideFloorSigned(lhs->hi, c))
      return Interval{llvm::mod(lhs->lo, c), llvm::mod(lhs->hi, c)};
    return Interval{0, c - 1};
  default:
    return std::nullopt;
  }
}

/// Exact range of `expr` (see boundAffineExprExactly); `seen` collects the
/// dimensions used so far, which must not repeat.
static std::optional<Interval> exactRange(AffineExpr expr,
                                          ArrayRef<Interval> dims,
                                          llvm::SmallBitVector &seen) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    unsigned pos = dim.getPosition();
    if (pos >= dims.size() || seen.test(pos))
      return std::nullopt;
    seen.set(pos);
    return dims[pos];
  }
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return Interval{cst.getValue(), cst.getValue()};
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  std::optional<Interval> lhs = exactRange(bin.getLHS(), dims, seen);
  std::optional<Interval> rhs = exactRange(bin.getRHS(), dims, seen);
  if (!lhs || !rhs || lhs->empty() || rhs->empty())
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add)
    return addIntervals(*lhs, *rhs);
  if (rhs->lo != rhs->hi)
    return std::nullopt; // Affine maps multiply and divide by constants.
  int64_t c = rhs->lo;
  switch (expr.getKind()) {
  case AffineExprKind::Mul:
    // Every multiple of c in between is taken only when c is 1 or -1, but
    // the extremes are exact, which is all a bounds check needs.
    return scaleInterval(*lhs, c);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod:
    if (c <= 0)
      return std::nullopt;
    break;
  default:
    return std::nullopt;
  }
  if (expr.getKind() == AffineExprKind::FloorDiv)
    return Interval{llvm::divideFloorSigned(lhs->lo, c),
                    llvm::divideFloorSigned(lhs->hi, c)};
  if (expr.getKind() == AffineExprKind::CeilDiv)
    return Interval{llvm::divideCeilSigned(lhs->lo, c),
                    llvm::divideCeilSigned(lhs->hi, c)};
  if (llvm::divideFloorSigned(lhs->lo, c) ==
      llvm::divideFloorSigned(lhs->hi, c))
    return Interval{llvm::mod(lhs->lo, c), llvm::mod(lhs->hi, c)};
  // hi - lo + 1 >= c, where hi - lo may pass 64 bits (then it does).
  std::optional<int64_t> span = llvm::checkedSub(lhs->hi, lhs->lo);
  if (!span || *span >= c - 1)
    return Interval{0, c - 1};
  return std::nullopt; // A wrap-around range inside [0, c - 1].
}

std::optional<Interval> boundAffineExprExactly(AffineExpr expr,
                                               ArrayRef<Interval> dims) {
  llvm::SmallBitVector seen(dims.size());
  return exactRange(expr, dims, seen);
}

/// Splits `expr` into `coeff * d_pos + constant` when it has that form.
static bool matchSingleDim(AffineExpr expr, unsigned &pos, int64_t &coeff,
                           int64_t &constant) {
  // Flatten into per-dimension coefficients; give up on anything non-linear
  // and on coefficients past 64 bits.
  SmallVector<int64_t> coeffs;
  int64_t cst = 0;
  auto accumulate = [](int64_t &sum, int64_t scale, int64_t value) {
    std::optional<int64_t> term = llvm::checkedMul(scale, value);
    std::optional<int64_t> next = term ? llvm::checkedAdd(sum, *term) : term;
    if (next)
      sum = *next;
    return next.has_value();
  };
  std::function<bool(AffineExpr, int64_t)> walk = [&](AffineExpr e,
                                                      int64_t scale) -> bool {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (coeffs.size() <= d.getPosition())
        coeffs.resize(d.getPosition() + 1, 0);
      return accumulate(coeffs[d.getPosition()], scale, 1);
    }
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return accumulate(cst, scale, c.getValue());
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return false;
    if (e.getKind() == AffineExprKind::Add)
      return walk(bin.getLHS(), scale) && walk(bin.getRHS(), scale);
    if (e.getKind() == AffineExprKind::Mul) {
      auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
      AffineExpr other = bin.getLHS();
      if (!c) {
        c = dyn_cast<AffineConstantExpr>(bin.getLHS());
        other = bin.getRHS();
      }
      std::optional<int64_t> scaled =
          c ? llvm::checkedMul(scale, c.getValue()) : std::nullopt;
      return scaled && walk(other, *scaled);
    }
    return false;
  };
  if (!walk(expr, 1))
    return false;
  int nonZero = 0;
  for (auto [i, c] : llvm::enumerate(coeffs)) {
    if (c == 0)
      continue;
    ++nonZero;
    pos = i;
    coeff = c;
  }
  constant = cst;
  return nonZero == 1;
}

/// Narrows `r` to the points where `coeff * d + constant >= 0` (coeff is not
/// 0); a bound past 64 bits empties it or leaves it, as no int64 d passes it
/// or every one does.
static void narrowGe(Interval &r, int64_t coeff, int64_t constant) {
  if (coeff > 0) {
    // d >= ceil(-constant / coeff) = -floor(constant / coeff).
    std::optional<int64_t> lo =
        llvm::checkedSub<int64_t>(0, llvm::divideFloorSigned(constant, coeff));
    if (!lo)
      r = Interval{};
    else
      r.lo = std::max(r.lo, *lo);
    return;
  }
  // d <= floor(constant / -coeff); -coeff is 2^63 for the most negative.
  int64_t hi = coeff == std::numeric_limits<int64_t>::min()
                   ? (constant < 0 ? -1 : 0)
                   : llvm::divideFloorSigned(constant, -coeff);
  r.hi = std::min(r.hi, hi);
}

void narrowRanges(IntegerSet set, MutableArrayRef<Interval> dims) {
  for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
    unsigned pos;
    int64_t coeff, constant;
    if (!matchSingleDim(set.getConstraint(i), pos, coeff, constant) ||
        pos >= dims.size())
      continue;
    Interval &r = dims[pos];
    if (!set.isEq(i)) {
      narrowGe(r, coeff, constant);
      continue;
    }
    // d = -constant / coeff: none when it is not whole or past 64 bits
    // (INT64_MIN % -1 and -INT64_MIN are undefined, so -1 goes first).
    std::optional<int64_t> v = constant;
    if (coeff != -1)
      v = constant % coeff != 0
              ? std::nullopt
              : llvm::checkedSub<int64_t>(0, constant / coeff);
    r = v ? Interval{std::max(r.lo, *v), std::min(r.hi, *v)} : Interval{};
  }
}

void excludeRanges(IntegerSet set, MutableArrayRef<Interval> dims) {
  unsigned pos;
  int64_t coeff, constant;
  if (set.getNumConstraints() != 1 || set.isEq(0) ||
      !matchSingleDim(set.getConstraint(0), pos, coeff, constant) ||
      pos >= dims.size())
    return;
  // not (coeff * d + constant >= 0)  <=>  -coeff * d - constant - 1 >= 0,
  // and -constant - 1 is ~constant; -coeff must fit (else leave dims).
  if (coeff == std::numeric_limits<int64_t>::min())
    return;
  narrowGe(dims[pos], -coeff, ~constant);
}

/// Bounds of `expr` over `dims` when every dimension it uses is known.
static std::optional<Interval>
boundPartial(AffineExpr expr, ArrayRef<std::optional<Interval>> dims) {
  SmallVector<Interval> known;
  bool missing = false;
  expr.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      missing |= d.getPosition() >= dims.size() || !dims[d.getPosition()];
  });
  if (missing)
    return std::nullopt;
  for (const std::optional<Interval> &r : dims)
    known.push_back(r ? *r : Interval{0, 0});
  return boundAffineExpr(expr, known);
}

AffineExpr simplifyWithRanges(AffineExpr expr,
                              ArrayRef<std::optional<Interval>> dims) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  AffineExpr lhs = simplifyWithRanges(bin.getLHS(), dims);
  AffineExpr rhs = simplifyWithRanges(bin.getRHS(), dims);
  auto divisor = dyn_cast<AffineConstantExpr>(rhs);
  if (divisor && divisor.getValue() > 0 &&
      (expr.getKind() == AffineExprKind::FloorDiv ||
       expr.getKind() == AffineExprKind::Mod)) {
    int64_t c = divisor.getValue();
    if (std::optional<Interval> r = boundPartial(lhs, dims)) {
      int64_t q = llvm::divideFloorSigned(r->lo, c);
      // lhs - q * c negates q * c: both must fit in 64 bits.
      std::optional<int64_t> base = llvm::checkedMul(q, c);
      bool negatable = base && *base != std::numeric_limits<int64_t>::min();
      if (!r->empty() && q == llvm::divideFloorSigned(r->hi, c)) {
        if (expr.getKind() == AffineExprKind::FloorDiv)
          return getAffineConstantExpr(q, expr.getContext());
        if (negatable)
          return lhs - *base;
      }
    }
  }
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return lhs.floorDiv(rhs);
  case AffineExprKind::CeilDiv:
    return lhs.ceilDiv(rhs);
  case AffineExprKind::Mod:
    return lhs % rhs;
  default:
    return expr;
  }
}

} // namespace deplodock

std::optional<int64_t> deplodock::evaluateAffineExpr(AffineExpr expr,
                                                     ArrayRef<int64_t> operands,
                                                     unsigned numDims) {
  switch (expr.getKind()) {
  case AffineExprKind::DimId:
    return operands[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return operands[numDims + cast<AffineSymbolExpr>(expr).getPosition()];
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> a =
      evaluateAffineExpr(bin.getLHS(), operands, numDims);
  std::optional<int64_t> b =
      evaluateAffineExpr(bin.getRHS(), operands, numDims);
  if (!a || !b)
    return std::nullopt;
  // Sums and products wrap in 64 bits, as the GPU's index arithmetic does
  // (never undefined signed overflow): an index past the buffer is then
  // refused by its user's bounds check, so the overflow flag is not needed.
  int64_t wrapped;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    llvm::AddOverflow(*a, *b, wrapped);
    return wrapped;
  case AffineExprKind::Mul:
    llvm::MulOverflow(*a, *b, wrapped);
    return wrapped;
  default:
    break;
  }
  // The right operand of floordiv, ceildiv and mod must be positive.
  if (*b < 1)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::FloorDiv:
    return llvm::divideFloorSigned(*a, *b);
  case AffineExprKind::CeilDiv:
    return llvm::divideCeilSigned(*a, *b);
  case AffineExprKind::Mod:
    return llvm::mod(*a, *b);
  default:
    return std::nullopt;
  }
}
