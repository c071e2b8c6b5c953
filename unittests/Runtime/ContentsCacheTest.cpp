//===- ContentsCacheTest.cpp - Initial contents kept across requests ------===//

#include "Deplodock/Runtime/ContentsCache.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;

namespace {

BufferSpec buffer(InitKind init, DType dtype, int64_t elements,
                  uint64_t seed = 0, uint64_t stream = 0) {
  BufferSpec b;
  b.dtype = dtype;
  b.shape = {elements};
  b.init = init;
  b.seed = seed;
  b.stream = stream;
  if (init == InitKind::Data)
    b.data.assign(b.numBytes(), 7);
  return b;
}

std::vector<uint8_t> bytesOf(llvm::ArrayRef<uint8_t> bytes) {
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

TEST(ContentsCache, MakesWhatTheBufferStartsWith) {
  ContentsCache cache;
  for (const BufferSpec &b : {buffer(InitKind::Seeded, DType::F32, 100, 3, 1),
                              buffer(InitKind::Seeded, DType::BF16, 100, 3, 1),
                              buffer(InitKind::Zero, DType::F32, 10),
                              buffer(InitKind::Poison, DType::F16, 10),
                              buffer(InitKind::Data, DType::F32, 10)}) {
    EXPECT_EQ(bytesOf(cache.get(b)), b.initialContents());
    // Again, from the cache where it was kept.
    EXPECT_EQ(bytesOf(cache.get(b)), b.initialContents());
  }
  // The given bytes are the request's: never copied into the cache.
  EXPECT_EQ(cache.getNumEntries(), 4u);
  EXPECT_EQ(cache.getNumHits(), 4u);
  EXPECT_EQ(cache.getNumMisses(), 4u);
}

TEST(ContentsCache, KeyedByWhatTheContentsDependOn) {
  ContentsCache cache;
  BufferSpec weights = buffer(InitKind::Seeded, DType::F32, 64, 1, 2);
  std::vector<uint8_t> first = bytesOf(cache.get(weights));
  // Another name and shape with as many elements: the same values.
  BufferSpec reshaped = weights;
  reshaped.name = "w";
  reshaped.shape = {8, 8};
  EXPECT_EQ(bytesOf(cache.get(reshaped)), first);
  EXPECT_EQ(cache.getNumHits(), 1u);
  // Another seed, stream or type: other values, each made once.
  BufferSpec seed = weights, stream = weights, type = weights;
  seed.seed = 9;
  stream.stream = 3;
  type.dtype = DType::F16;
  for (const BufferSpec *b : {&seed, &stream, &type}) {
    EXPECT_NE(bytesOf(cache.get(*b)), first);
    EXPECT_EQ(bytesOf(cache.get(*b)), b->initialContents());
  }
  EXPECT_EQ(cache.getNumMisses(), 4u);
  // Zeros do not depend on the seed.
  EXPECT_EQ(cache.get(buffer(InitKind::Zero, DType::F32, 64, 1, 2)).size(),
            256u);
  EXPECT_EQ(cache.get(buffer(InitKind::Zero, DType::F32, 64, 5, 6)).size(),
            256u);
  EXPECT_EQ(cache.getNumMisses(), 5u);
}

TEST(ContentsCache, DropsTheLeastRecentlyUsedWithinItsBudget) {
  // Room for three buffers of 1 KiB.
  ContentsCache cache(3 * 1024);
  BufferSpec a = buffer(InitKind::Seeded, DType::F32, 256, 0, 0);
  BufferSpec b = buffer(InitKind::Seeded, DType::F32, 256, 0, 1);
  BufferSpec c = buffer(InitKind::Seeded, DType::F32, 256, 0, 2);
  BufferSpec d = buffer(InitKind::Seeded, DType::F32, 256, 0, 3);
  EXPECT_EQ(cache.get(a).size(), 1024u);
  EXPECT_EQ(cache.get(b).size(), 1024u);
  EXPECT_EQ(cache.get(c).size(), 1024u);
  EXPECT_EQ(cache.get(a).size(),
            1024u); // a is now the most recent, b the least.
  EXPECT_EQ(cache.getNumHits(), 1u);
  EXPECT_EQ(bytesOf(cache.get(d)), d.initialContents());
  EXPECT_EQ(cache.getSizeBytes(), 3u * 1024);
  EXPECT_EQ(cache.getNumEntries(), 3u);
  EXPECT_EQ(cache.get(a).size(), 1024u);
  EXPECT_EQ(cache.get(c).size(), 1024u);
  EXPECT_EQ(cache.getNumHits(), 3u);
  // b was dropped: made again.
  EXPECT_EQ(bytesOf(cache.get(b)), b.initialContents());
  EXPECT_EQ(cache.getNumMisses(), 5u);
  EXPECT_LE(cache.getSizeBytes(), 3u * 1024);
}

TEST(ContentsCache, ABufferLargerThanTheBudgetIsMadeEachTime) {
  ContentsCache cache(100);
  BufferSpec big = buffer(InitKind::Seeded, DType::F32, 256, 4, 0);
  EXPECT_EQ(bytesOf(cache.get(big)), big.initialContents());
  EXPECT_EQ(bytesOf(cache.get(big)), big.initialContents());
  EXPECT_EQ(cache.getNumMisses(), 2u);
  EXPECT_EQ(cache.getNumEntries(), 0u);
  EXPECT_EQ(cache.getSizeBytes(), 0u);
}

} // namespace
