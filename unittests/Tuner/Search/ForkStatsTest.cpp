//===- ForkStatsTest.cpp - Learning which forks change the latency --------===//

#include "ForkStats.h"

#include "gtest/gtest.h"

using namespace deplodock::tuner::detail;

namespace {

/// Records two terminals (sorted keys) as measured, equally fast or not;
/// each call uses latencies of its own.
void swap(ForkStats &forks, std::vector<uint64_t> a, std::vector<uint64_t> b,
          bool tie) {
  static double latency = 1;
  latency += 10;
  forks.addMeasured(a, latency);
  forks.addMeasured(b, tie ? latency : latency + 1);
}

// Keys 1-3: options of fork A; 10-12: of fork B; 20, 21: of fork C.
ForkStats threeForks() {
  ForkStats forks;
  forks.addFork({1, 2, 3});
  forks.addFork({10, 11, 12});
  forks.addFork({20, 21});
  return forks;
}

TEST(ForkStats, InertAfterTiesWithoutChanges) {
  ForkStats forks = threeForks();
  EXPECT_FALSE(forks.isInert(10));
  swap(forks, {1, 10, 20}, {1, 11, 20}, true);
  EXPECT_FALSE(forks.isInert(10)) << "one tie is not enough";
  unsigned before = forks.getGeneration();
  swap(forks, {2, 11, 20}, {2, 12, 20}, true);
  EXPECT_TRUE(forks.isInert(12));
  EXPECT_FALSE(forks.isInert(1));
  EXPECT_NE(forks.getGeneration(), before);
  // One swap that changes the latency makes it count again.
  swap(forks, {3, 10, 21}, {3, 12, 21}, false);
  EXPECT_FALSE(forks.isInert(10));
}

TEST(ForkStats, OnlySwapsOfOneForkCount) {
  ForkStats forks = threeForks();
  // Two forks differ: no swap. One key more: no swap. Keys of different
  // forks: no swap.
  for (int i = 0; i < 3; ++i) {
    swap(forks, {1, 10, 20}, {2, 11, 20}, true);
    swap(forks, {1, 10}, {1, 10, 20}, true);
    swap(forks, {1, 10, 20}, {1, 10, 21}, false);
    swap(forks, {1, 10}, {1, 20}, true);
  }
  EXPECT_FALSE(forks.isInert(1));
  EXPECT_FALSE(forks.isInert(10));
  EXPECT_FALSE(forks.isInert(20));
}

TEST(ForkStats, SameOptionsElsewhereAreOneFork) {
  ForkStats forks = threeForks();
  // Fork B met again with another option: one fork, whose swaps add up.
  forks.addFork({11, 13});
  EXPECT_EQ(forks.forkOf(13), forks.forkOf(10));
  swap(forks, {1, 10}, {1, 13}, true);
  swap(forks, {2, 11}, {2, 12}, true);
  EXPECT_TRUE(forks.isInert(13));
}

TEST(ForkStats, SignaturesIgnoreInertForks) {
  ForkStats forks = threeForks();
  EXPECT_NE(forks.signature({1, 10, 20}), forks.signature({1, 11, 20}));
  swap(forks, {1, 10, 20}, {1, 11, 20}, true);
  swap(forks, {2, 10, 21}, {2, 12, 21}, true);
  EXPECT_EQ(forks.signature({1, 10, 20}), forks.signature({1, 12, 20}));
  EXPECT_NE(forks.signature({1, 10, 20}), forks.signature({2, 10, 20}));
}

} // namespace
