//===- SwizzleTest.cpp - Tests of the TMA swizzle layout
//-------------------===//
//
// The hardware's permutation (known offsets, a bijection on every repeat
// that keeps each 16-byte chunk whole and in its 128-byte line) and the
// segmented slab layout built on it.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/Common/Swizzle.h"

#include "llvm/ADT/DenseSet.h"

#include "gtest/gtest.h"

using namespace deplodock;

namespace {

TEST(Swizzle, KnownOffsets) {
  EXPECT_EQ(swizzleByteOffset(0x1234, 0), 0x1234);
  // Line 1 (bytes 128..255): chunk 0 becomes chunk 1.
  EXPECT_EQ(swizzleByteOffset(128, 128), 144);
  EXPECT_EQ(swizzleByteOffset(128 + 4, 128), 144 + 4);
  // Line 7: chunk 2 XOR 7 = chunk 5.
  EXPECT_EQ(swizzleByteOffset(7 * 128 + 2 * 16, 128), 7 * 128 + 5 * 16);
  // A 32-byte swizzle only flips bit 4, on odd lines.
  EXPECT_EQ(swizzleByteOffset(3 * 128 + 16, 32), 3 * 128);
  EXPECT_EQ(swizzleByteOffset(2 * 128 + 16, 32), 2 * 128 + 16);
  // The pattern repeats: line 8 is line 0 again.
  EXPECT_EQ(swizzleByteOffset(1024 + 32, 128), 1024 + 32);
  EXPECT_EQ(getSwizzleRepeatBytes(128), 1024);
  EXPECT_EQ(getSwizzleRepeatBytes(32), 256);
}

TEST(Swizzle, PermutesChunksWithinLines) {
  for (int64_t swizzle : {32, 64, 128}) {
    llvm::DenseSet<int64_t> seen;
    for (int64_t o = 0; o < getSwizzleRepeatBytes(swizzle); ++o) {
      int64_t s = swizzleByteOffset(o, swizzle);
      EXPECT_EQ(s / 128, o / 128) << "swizzle " << swizzle << " offset " << o;
      EXPECT_EQ(s % 16, o % 16) << "swizzle " << swizzle << " offset " << o;
      EXPECT_TRUE(seen.insert(s).second) << "swizzle " << swizzle;
    }
  }
}

TEST(Swizzle, SegmentedSlab) {
  // A 16 x 64 f32 slab with a 128-byte swizzle: two 16 x 32 segments.
  // Row 0 is unpermuted; column 32 starts the second segment.
  EXPECT_EQ(getSwizzledSlabOffset(0, 5, 16, 128, 4), 5);
  EXPECT_EQ(getSwizzledSlabOffset(0, 32, 16, 128, 4), 16 * 32);
  // Row 1, column 0: line 1, chunk 0 -> chunk 1 (4 floats on).
  EXPECT_EQ(getSwizzledSlabOffset(1, 0, 16, 128, 4), 32 + 4);
  // Every element of the slab lands on its own word.
  llvm::DenseSet<int64_t> seen;
  for (int64_t row = 0; row < 16; ++row)
    for (int64_t c = 0; c < 64; ++c) {
      int64_t at = getSwizzledSlabOffset(row, c, 16, 128, 4);
      EXPECT_GE(at, 0);
      EXPECT_LT(at, 16 * 64);
      EXPECT_TRUE(seen.insert(at).second);
    }
}

} // namespace
