//===- ForkStats.cpp - Which forks change the latency ---------------------===//

#include "ForkStats.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace deplodock::tuner::detail;

void ForkStats::addFork(ArrayRef<uint64_t> options) {
  if (options.empty())
    return;
  uint64_t first = forks.getOrInsertLeaderValue(options.front());
  for (uint64_t key : options.drop_front()) {
    uint64_t other = forks.getOrInsertLeaderValue(key);
    if (other == first)
      continue;
    // Two forks found to be one: their swaps add up.
    Counts merged = counts.lookup(first);
    Counts absorbed = counts.lookup(other);
    bool wasInert = merged.inert() || absorbed.inert();
    merged.ties += absorbed.ties;
    merged.changes += absorbed.changes;
    counts.erase(first);
    counts.erase(other);
    first = *forks.unionSets(first, other);
    counts[first] = merged;
    if (wasInert != merged.inert() || wasInert)
      ++generation;
  }
}

uint64_t ForkStats::forkOf(uint64_t key) {
  return forks.getOrInsertLeaderValue(key);
}

void ForkStats::addMeasured(ArrayRef<uint64_t> keys, double latency) {
  SmallVector<uint64_t, 16> rest;
  for (size_t i = 0; i < keys.size(); ++i) {
    rest.assign(keys.begin(), keys.end());
    rest.erase(rest.begin() + i);
    auto &partners = byRest[hash_combine_range(rest.begin(), rest.end())];
    for (auto [key, other] : partners)
      if (key != keys[i])
        recordSwap(keys[i], key, other == latency);
    partners.push_back({keys[i], latency});
  }
}

void ForkStats::recordSwap(uint64_t a, uint64_t b, bool tie) {
  uint64_t fork = forkOf(a);
  if (fork != forkOf(b))
    return;
  Counts &c = counts[fork];
  bool was = c.inert();
  ++(tie ? c.ties : c.changes);
  if (was != c.inert())
    ++generation;
}

bool ForkStats::isInert(uint64_t key) {
  auto it = counts.find(forkOf(key));
  return it != counts.end() && it->second.inert();
}

uint64_t ForkStats::signature(ArrayRef<uint64_t> keys) {
  SmallVector<uint64_t, 16> live;
  for (uint64_t key : keys)
    if (!isInert(key))
      live.push_back(key);
  return hash_combine_range(live.begin(), live.end());
}
