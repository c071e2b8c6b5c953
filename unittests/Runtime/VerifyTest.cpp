//===- VerifyTest.cpp - Output checks and their tolerances ----------------===//

#include "Deplodock/Runtime/Verify.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace deplodock::runtime;

namespace {

/// `values` as bytes of `dtype`.
std::vector<uint8_t> bytesOf(DType dtype, std::vector<double> values) {
  std::vector<uint8_t> bytes(values.size() * dtypeSize(dtype));
  for (auto [i, v] : llvm::enumerate(values))
    writeElement(dtype, bytes.data(), i, v);
  return bytes;
}

OutputCheck check(DType dtype, std::vector<double> want,
                  std::vector<double> got, Tolerance tolerance) {
  return checkOutput(dtype, bytesOf(dtype, want), bytesOf(dtype, got),
                     tolerance);
}

TEST(Verify, RelativeAndAbsoluteTolerances) {
  Tolerance t{1e-3, 1e-5, 0};
  EXPECT_TRUE(check(DType::F32, {1, 100, 0}, {1.0009, 100.09, 9e-6}, t).ok);
  OutputCheck bad = check(DType::F32, {1, 100, 0}, {1.0011, 100.2, 2e-5}, t);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.mismatches, 3);
  // The worst element exceeds its allowance the most: 100.2 by ~0.01.
  EXPECT_EQ(bad.worst, 1);
  EXPECT_EQ(bad.expected, 100);
  EXPECT_NEAR(bad.actual, 100.2, 1e-4);
  EXPECT_NEAR(bad.maxAbsError, 0.2, 1e-4);
}

TEST(Verify, ScaleTermAllowsErrorsGrowingWithTheSum) {
  // An element near zero next to large ones: only the scale term lets it
  // differ by 1e-3.
  Tolerance noScale{1e-3, 1e-5, 0}, scale{1e-3, 1e-5, 1e-4};
  EXPECT_FALSE(check(DType::F32, {40, 0.001}, {40, 0.002}, noScale).ok);
  EXPECT_TRUE(check(DType::F32, {40, 0.001}, {40, 0.002}, scale).ok);
}

TEST(Verify, NansAndInfinitiesMustMatch) {
  Tolerance loose{1, 1, 1};
  EXPECT_TRUE(check(DType::F32, {NAN, INFINITY, -INFINITY},
                    {NAN, INFINITY, -INFINITY}, loose)
                  .ok);
  OutputCheck nan = check(DType::F32, {1, 2}, {1, NAN}, loose);
  EXPECT_FALSE(nan.ok);
  EXPECT_EQ(nan.worst, 1);
  EXPECT_FALSE(check(DType::F32, {INFINITY}, {-INFINITY}, loose).ok);
  EXPECT_FALSE(check(DType::F16, {1e9}, {65504}, loose).ok);
  // Poisoned (never written) outputs are NaN in every float type.
  std::vector<uint8_t> poison(8, 0xff);
  EXPECT_FALSE(checkOutput(DType::BF16, bytesOf(DType::BF16, {1, 2, 3, 4}),
                           poison, loose)
                   .ok);
}

TEST(Verify, IntegersMatchExactlyWhateverTheTolerance) {
  Tolerance loose{1, 1, 1};
  EXPECT_TRUE(check(DType::I32, {1, 2, 3}, {1, 2, 3}, loose).ok);
  OutputCheck off = check(DType::I32, {1, 2, 3}, {1, 2, 4}, loose);
  EXPECT_FALSE(off.ok);
  EXPECT_EQ(off.tolerance.rtol, 0);
  EXPECT_FALSE(check(DType::I1, {1, 0}, {1, 1}, loose).ok);
}

TEST(Verify, SizesMustMatch) {
  OutputCheck short_ = checkOutput(DType::F32, bytesOf(DType::F32, {1, 2}),
                                   bytesOf(DType::F32, {1}), {1, 1, 1});
  EXPECT_FALSE(short_.ok);
  EXPECT_EQ(short_.mismatches, 2);
}

TEST(Verify, DefaultTolerancesLoosenWithNarrowerFloats) {
  EXPECT_LT(defaultTolerance(DType::F64).rtol,
            defaultTolerance(DType::F32).rtol);
  EXPECT_LT(defaultTolerance(DType::F32).rtol,
            defaultTolerance(DType::F16).rtol);
  EXPECT_LT(defaultTolerance(DType::F16).rtol,
            defaultTolerance(DType::BF16).rtol);
  EXPECT_EQ(defaultTolerance(DType::I32).rtol, 0);
  // One bf16 rounding step (2^-8 relative) passes by default; ten do not.
  Tolerance bf16 = defaultTolerance(DType::BF16);
  EXPECT_TRUE(check(DType::BF16, {1.5, -3}, {1.5 + 1.5 / 256, -3}, bf16).ok);
  EXPECT_FALSE(check(DType::BF16, {1.5, 0}, {1.5 * 1.1, 0}, bf16).ok);
}

TEST(Verify, MismatchDescriptionsAreDeterministic) {
  OutputCheck c = check(DType::F32, {1, 2}, {1, NAN}, {0, 0, 0});
  EXPECT_EQ(describeMismatch(c, "out", 2),
            "output out: 1 of 2 elements differ (max abs error 0), element "
            "1: expected 2 got nan");
}

} // namespace
