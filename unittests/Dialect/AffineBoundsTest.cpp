//===- AffineBoundsTest.cpp - Tests of affine expression ranges -----------===//
//
// Bounds of affine expressions over boxes, including ends near the limits of
// 64 bits: a bound that would pass them is unknown (nullopt), never wrapped,
// and a narrowing by a constraint keeps every point that satisfies it (the
// signed overflows fuzz seed 56 found under UBSan).
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/Common/AffineBounds.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <limits>

using namespace deplodock;
using namespace mlir;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

class AffineBoundsTest : public ::testing::Test {
protected:
  MLIRContext context;
  AffineExpr d0 = getAffineDimExpr(0, &context);
  AffineExpr d1 = getAffineDimExpr(1, &context);

  /// The set { d0 : coeff * d0 + constant >= 0 } (== 0 with `eq`).
  IntegerSet constraint(int64_t coeff, int64_t constant, bool eq = false) {
    return IntegerSet::get(1, 0, {d0 * coeff + constant}, {eq});
  }
};

TEST_F(AffineBoundsTest, BoundsInRange) {
  SmallVector<Interval> box = boxRanges({4, 8});
  std::optional<Interval> r = boundAffineExpr(d0 * 8 + d1, box);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, 0);
  EXPECT_EQ(r->hi, 31);
  r = boundAffineExprExactly(d0 * -2 + 5, box);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, -1);
  EXPECT_EQ(r->hi, 5);
  r = boundAffineExprExactly((d0 * 8 + d1) % 16, box);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, 0);
  EXPECT_EQ(r->hi, 15);
}

TEST_F(AffineBoundsTest, OverflowingBoundsAreUnknown) {
  // A block axis of 2^62 blocks times a stride of 8 (seed 56, ir #822).
  SmallVector<Interval> box = boxRanges({int64_t(1) << 62, 2});
  EXPECT_FALSE(boundAffineExpr(d0 * 8, box));
  EXPECT_FALSE(boundAffineExprExactly(d0 * 8, box));
  EXPECT_FALSE(boundAffineExpr(d0 * 2 + d0 * 2, box));
  EXPECT_FALSE(boundAffineExprExactly(d0 + kMax, box));
  // A product of two ranges whose ends reach past 64 bits.
  SmallVector<Interval> wide = {Interval{-(int64_t(1) << 40), 3},
                                Interval{0, int64_t(1) << 40}};
  EXPECT_FALSE(boundAffineExpr(d0 * d1, wide));
  // Within 64 bits the same shapes still bound.
  SmallVector<Interval> big = boxRanges({int64_t(1) << 59, 2});
  std::optional<Interval> r = boundAffineExprExactly(d0 * 8, big);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->hi, ((int64_t(1) << 59) - 1) * 8);
  // A mod over a span wider than 64 bits takes every remainder.
  SmallVector<Interval> huge = {Interval{kMin, kMax}};
  r = boundAffineExprExactly(d0 % 16, huge);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, 0);
  EXPECT_EQ(r->hi, 15);
}

TEST_F(AffineBoundsTest, NegativeOrHugeExtentsAreEmpty) {
  SmallVector<Interval> box = boxRanges({0, kMin, 3});
  EXPECT_TRUE(box[0].empty());
  EXPECT_TRUE(box[1].empty());
  EXPECT_EQ(box[2].hi, 2);
}

TEST_F(AffineBoundsTest, NarrowsByConstraints) {
  SmallVector<Interval> dims = boxRanges({100});
  narrowRanges(constraint(1, -10), dims); // d0 >= 10
  narrowRanges(constraint(-2, 41), dims); // 2 * d0 <= 41
  EXPECT_EQ(dims[0].lo, 10);
  EXPECT_EQ(dims[0].hi, 20);
  narrowRanges(constraint(3, -45, /*eq=*/true), dims); // d0 == 15
  EXPECT_EQ(dims[0].lo, 15);
  EXPECT_EQ(dims[0].hi, 15);
  SmallVector<Interval> other = boxRanges({100});
  excludeRanges(constraint(1, -10), other); // not d0 >= 10
  EXPECT_EQ(other[0].lo, 0);
  EXPECT_EQ(other[0].hi, 9);
}

TEST_F(AffineBoundsTest, NarrowsByExtremeConstraints) {
  // d0 + INT64_MIN >= 0: no int64 d0 passes.
  SmallVector<Interval> dims = boxRanges({100});
  narrowRanges(constraint(1, kMin), dims);
  EXPECT_TRUE(dims[0].empty());
  // INT64_MIN * d0 + 5 >= 0: every d0 <= 0 does.
  dims = {Interval{-7, 7}};
  narrowRanges(constraint(kMin, 5), dims);
  EXPECT_EQ(dims[0].lo, -7);
  EXPECT_EQ(dims[0].hi, 0);
  // -d0 + INT64_MIN == 0 has its solution at INT64_MIN.
  dims = {Interval{kMin, 0}};
  narrowRanges(constraint(-1, kMin, /*eq=*/true), dims);
  EXPECT_EQ(dims[0].lo, kMin);
  EXPECT_EQ(dims[0].hi, kMin);
  // d0 + INT64_MIN == 0 has none in int64.
  dims = boxRanges({100});
  narrowRanges(constraint(1, kMin, /*eq=*/true), dims);
  EXPECT_TRUE(dims[0].empty());
  // not (d0 + INT64_MIN >= 0): every int64 d0, left as it was.
  dims = boxRanges({100});
  excludeRanges(constraint(1, kMin), dims);
  EXPECT_EQ(dims[0].lo, 0);
  EXPECT_EQ(dims[0].hi, 99);
  // A coefficient whose negation does not fit leaves the range.
  excludeRanges(constraint(kMin, 0), dims);
  EXPECT_EQ(dims[0].lo, 0);
  EXPECT_EQ(dims[0].hi, 99);
}

} // namespace
