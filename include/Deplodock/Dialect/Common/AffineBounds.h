//===- AffineBounds.h - Value ranges of affine index maps -------*- C++ -*-===//
//
// Values and interval bounds of affine expressions over a box of
// coordinates. Verifiers use the bounds to reject index maps that read
// outside a buffer or tensor; the interpreter and the roofline model use the
// values.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_AFFINEBOUNDS_H
#define DEPLODOCK_DIALECT_COMMON_AFFINEBOUNDS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace deplodock {

/// A closed integer interval [lo, hi]; empty when lo > hi.
struct Interval {
  int64_t lo = 0;
  int64_t hi = -1;
  bool empty() const { return lo > hi; }
  bool contains(const Interval &other) const {
    return other.empty() || (lo <= other.lo && other.hi <= hi);
  }
};

/// Evaluates `expr` with dimension d_i = operands[i] and symbol
/// s_i = operands[numDims + i]. Floordiv, ceildiv and mod round towards
/// negative infinity (the remainder is never negative); their right operand
/// must be positive, and nothing is returned when it is not. Sums and
/// products wrap in 64 bits.
std::optional<int64_t> evaluateAffineExpr(mlir::AffineExpr expr,
                                          llvm::ArrayRef<int64_t> operands,
                                          unsigned numDims);

/// Ranges [0, extent - 1] of the dimensions of a box with `extents`.
llvm::SmallVector<Interval> boxRanges(llvm::ArrayRef<int64_t> extents);

/// Bounds of `expr` when each dimension `d_i` ranges over `dims[i]`; nullopt
/// when `expr` uses symbols, divides by a non-positive constant or has a bound
/// past 64 bits (unknown, never wrapped). The bound is conservative: every
/// value the expression takes lies inside it.
std::optional<Interval> boundAffineExpr(mlir::AffineExpr expr,
                                        llvm::ArrayRef<Interval> dims);

/// The tight range of `expr` when each dimension d_i ranges over `dims[i]`
/// independently: nullopt unless both ends are attained (and fit in 64 bits).
/// That holds for sums of constants and of distinct dimensions times constants,
/// and for floordivs and mods of those (a mod only within one period or over
/// whole periods). Verifiers reject IR only on tight ranges: an
/// over-approximation must never turn valid IR into an error.
std::optional<Interval> boundAffineExprExactly(mlir::AffineExpr expr,
                                               llvm::ArrayRef<Interval> dims);

/// Narrows `dims` with the constraints of `set` that bound one dimension
/// alone (`d1 - 4 >= 0`, `-d0 + 7 >= 0`, `d2 == 3`). Other constraints are
/// ignored, so the result still contains every point of the set.
void narrowRanges(mlir::IntegerSet set, llvm::MutableArrayRef<Interval> dims);

/// Narrows `dims` to the points outside `set` when `set` is one inequality on
/// one dimension (the predicate of an earlier concat piece); otherwise leaves
/// `dims` as they are.
void excludeRanges(mlir::IntegerSet set, llvm::MutableArrayRef<Interval> dims);

/// Simplifies `expr` knowing dimension d_i ranges over `dims[i]` (nullopt:
/// unknown): a floordiv or mod whose dividend stays inside one multiple of
/// the divisor folds away.
mlir::AffineExpr
simplifyWithRanges(mlir::AffineExpr expr,
                   llvm::ArrayRef<std::optional<Interval>> dims);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_AFFINEBOUNDS_H
