//===- ReferenceCacheTest.cpp - Reference outputs kept across requests ----===//

#include "Deplodock/Runtime/ReferenceCache.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;

namespace {

BenchRequest requestWith(std::string source) {
  BenchRequest request;
  BufferSpec in;
  in.shape = {4};
  in.init = InitKind::Seeded;
  request.buffers = {in, BufferSpec()};
  request.buffers[1].shape = {4};
  LaunchSpec launch;
  launch.kernel = "naive";
  launch.params = {{0, std::nullopt}, {1, std::nullopt}};
  request.reference = ReferenceProgram{std::move(source), {}, {launch}};
  request.outputs = {{1, std::nullopt, std::nullopt}};
  return request;
}

TEST(ReferenceCache, KeyedByTheReferenceAndTheBuffersItNames) {
  BenchRequest request = requestWith("a");
  EXPECT_EQ(ReferenceCache::key(BenchRequest()), "");
  std::string key = ReferenceCache::key(request);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(ReferenceCache::key(request), key);
  // The variant's own kernels and timing are not the reference's.
  BenchRequest variant = request;
  variant.source = "other";
  variant.timing.maxSamples = 3;
  EXPECT_EQ(ReferenceCache::key(variant), key);
  BenchRequest tma = request, data = request, output = request;
  tma.reference->launches[0].params[0].tma = TmaSpec{0, {2}, 0};
  data.buffers[0].init = InitKind::Data;
  data.buffers[0].data.assign(16, 1);
  output.outputs[0].buffer = 0;
  for (const BenchRequest *other : {&tma, &data, &output})
    EXPECT_NE(ReferenceCache::key(*other), key);
  // Given bytes count by their values, not only their size.
  BenchRequest otherData = data;
  otherData.buffers[0].data[3] = 2;
  EXPECT_NE(ReferenceCache::key(otherData), ReferenceCache::key(data));
}

TEST(ReferenceCache, KeepsTheMostRecentlyUsed) {
  ReferenceCache cache;
  std::string a = ReferenceCache::key(requestWith("a"));
  std::string b = ReferenceCache::key(requestWith("b"));
  std::string c = ReferenceCache::key(requestWith("c"));
  EXPECT_EQ(cache.lookup(a), nullptr);
  cache.store(a, {{1}});
  cache.store(b, {{2}});
  ASSERT_NE(cache.lookup(a), nullptr); // a is now more recent than b.
  EXPECT_EQ(*cache.lookup(a), ReferenceCache::Outputs{{1}});
  cache.store(c, {{3}});
  EXPECT_EQ(cache.getNumEntries(), ReferenceCache::kEntries);
  EXPECT_EQ(cache.lookup(b), nullptr);
  ASSERT_NE(cache.lookup(c), nullptr);
  EXPECT_EQ(*cache.lookup(c), ReferenceCache::Outputs{{3}});
  // Nothing is kept under no key.
  cache.store("", {{4}});
  EXPECT_EQ(cache.lookup(""), nullptr);
}

} // namespace
