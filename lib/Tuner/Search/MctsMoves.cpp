//===- MctsMoves.cpp - MCTS's local search: pairs and descent ---*- C++ -*-===//
//
// The moves the Mcts strategy makes from its best terminal once mutations
// stall (Mcts.cpp says when): pair moves from near misses, and coordinate
// descent one fork at a time, with the variants a change unlocks.
//
//===----------------------------------------------------------------------===//

#include "Mcts.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

Index Mcts::pairMove() {
  // The near misses: what each changes from the best at forks not inert.
  SmallVector<SmallVector<uint64_t, kMaxMoveSize>, kNearMisses> near;
  for (const Measured &m : ArrayRef(measured).take_front(kNearMissScan)) {
    if (near.size() == kNearMisses)
      break;
    if (m.node == best)
      continue;
    SmallVector<uint64_t, kMaxMoveSize> move;
    bool small = true;
    for (uint64_t key : m.keys)
      if (!bestDecisions.contains(key) && !forks.isInert(key)) {
        if (move.size() == kMaxMoveSize) {
          small = false;
          break;
        }
        move.push_back(key);
      }
    // A move already among the near misses adds nothing.
    if (small && !move.empty() && !llvm::is_contained(near, move))
      near.push_back(std::move(move));
  }
  if (near.empty())
    return kNoNode;
  // A near miss's move (in turn, fastest first) and one more change at
  // another fork: the second of two coupled changes may be worse alone, so
  // it is drawn like any mutation's.
  for (unsigned attempt = 0; attempt < kPairAttempts; ++attempt) {
    ArrayRef<uint64_t> move = near[numPairs++ % near.size()];
    DenseSet<uint64_t> moveForks, forced;
    for (uint64_t key : move) {
      moveForks.insert(forks.forkOf(key));
      forced.insert(key);
    }
    unsigned depth;
    SmallVector<unsigned, 16> sites = mutationSites(depth, moveForks);
    if (sites.empty())
      continue;
    SmallVector<bool, 16> changeAt(depth, false);
    changeAt[sites[tree.getRng()() % sites.size()]] = true;
    double score = 0;
    Index leaf = rollout(Policy::Mutate, changeAt, score, &forced);
    if (leaf != kNoNode && !tree[leaf].done && !isEquivalentToMeasured(leaf))
      return leaf;
  }
  return kNoNode;
}

SmallVector<unsigned, 16>
Mcts::mutationSites(unsigned &depth, const DenseSet<uint64_t> &exclude) {
  SmallVector<unsigned, 16> sites;
  depth = 0;
  if (best == kNoNode)
    return sites;
  // The path from the best up to the root's child.
  SmallVector<Index, 16> path;
  for (Index i = best; i != 0; i = tree[i].parent)
    path.push_back(i);
  depth = path.size();
  for (unsigned d = 0; d < depth; ++d) {
    Index taken = path[depth - 1 - d];
    if (tree[tree[taken].parent].numChildren < 2)
      continue;
    std::optional<uint64_t> key = keyOf(taken);
    if (key && (forks.isInert(*key) || exclude.contains(forks.forkOf(*key))))
      continue;
    sites.push_back(d);
  }
  return sites;
}

Index Mcts::completeBelow(Index n) {
  while (!tree.isTerminal(n)) {
    if (!tree.expand(n) || tree[n].done)
      return kNoNode;
    // Deterministic, measured or not: the best's decision where it is an
    // option, else the first option; known dead ends are passed over.
    const Index first = tree[n].firstChild, k = tree[n].numChildren;
    Index next = kNoNode;
    for (Index i = first; i != first + k; ++i) {
      if (tree[i].done && tree[i].expanded)
        continue;
      if (next == kNoNode)
        next = i;
      std::optional<uint64_t> key = keyOf(i);
      if (key && bestDecisions.contains(*key)) {
        next = i;
        break;
      }
    }
    if (next == kNoNode)
      return kNoNode;
    n = next;
  }
  return n;
}

SmallVector<Index, 4> Mcts::unlockedVariants(Index changed, Index leaf) {
  // Every option offered along the best's path.
  DenseSet<uint64_t> offered;
  for (Index i = best; i != 0; i = tree[i].parent) {
    Index parent = tree[i].parent;
    for (Index c = tree[parent].firstChild, e = c + tree[parent].numChildren;
         c != e; ++c)
      if (std::optional<uint64_t> key = keyOf(c))
        offered.insert(*key);
  }
  SmallVector<std::pair<double, Index>, 16> unlocked;
  for (Index i = leaf; i != changed; i = tree[i].parent) {
    Index parent = tree[i].parent;
    const Index first = tree[parent].firstChild, k = tree[parent].numChildren;
    for (Index c = first; c != first + k; ++c) {
      if (c == i || tree[c].live == 0)
        continue;
      std::optional<uint64_t> key = keyOf(c);
      if (key && !offered.contains(*key) && !forks.isInert(*key))
        unlocked.push_back({odds(c, k).first, c});
    }
  }
  // The best odds first; equal odds in the tree's order.
  llvm::sort(unlocked, [](auto &a, auto &b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  SmallVector<Index, 4> variants;
  for (auto [ratio, c] : unlocked) {
    if (variants.size() == kUnlockedVariants)
      break;
    Index variant = completeBelow(c);
    if (variant != kNoNode && !tree[variant].done &&
        !llvm::is_contained(variants, variant))
      variants.push_back(variant);
  }
  return variants;
}

Index Mcts::nextUnlocked() {
  while (!pendingUnlocked.empty()) {
    Index variant = pendingUnlocked.front();
    pendingUnlocked.erase(pendingUnlocked.begin());
    if (!tree[variant].done && !isEquivalentToMeasured(variant))
      return variant;
  }
  return kNoNode;
}

Index Mcts::descend() {
  if (best == kNoNode)
    return kNoNode;
  // The last neighbour was not better: what its change unlocked.
  if (Index variant = nextUnlocked(); variant != kNoNode)
    return variant;
  while (true) {
    SmallVector<Index, 16> path;
    for (Index i = best; i != 0; i = tree[i].parent)
      path.push_back(i);
    std::reverse(path.begin(), path.end());
    bool capped = false;
    for (Index taken : path) {
      Index parent = tree[taken].parent;
      if (tree[parent].numChildren < 2)
        continue;
      std::optional<uint64_t> key = keyOf(taken);
      if (!key || forks.isInert(*key))
        continue;
      uint64_t fork = forks.forkOf(*key);
      if (swept.contains(fork))
        continue;
      const Index first = tree[parent].firstChild, k = tree[parent].numChildren;
      struct Candidate {
        double odds;
        unsigned distance;
        Index c;
      };
      SmallVector<Candidate, 32> order;
      for (Index c = first; c != first + k; ++c)
        if (c != taken && tree[c].live > 0)
          order.push_back(
              {odds(c, k).first,
               space.decisionDistance(tree[c].id, tree[taken].id).value_or(0),
               c});
      // The best odds first; equal odds (options never measured) changing
      // the fewest of the best's knobs first, then in option order.
      llvm::sort(order, [](const Candidate &a, const Candidate &b) {
        return std::tie(b.odds, a.distance, a.c) <
               std::tie(a.odds, b.distance, b.c);
      });
      unsigned &tried = triedInCycle[fork];
      for (const Candidate &candidate : order) {
        Index c = candidate.c;
        if (tried >= allowance) {
          capped = true;
          break;
        }
        Index leaf = completeBelow(c);
        if (leaf != kNoNode) {
          // A neighbour measured already (by a mutation, say) still has
          // its unlocked variants to try.
          pendingUnlocked = unlockedVariants(c, leaf);
          if (!tree[leaf].done && !isEquivalentToMeasured(leaf)) {
            ++tried;
            return leaf;
          }
          if (Index variant = nextUnlocked(); variant != kNoNode) {
            ++tried;
            return variant;
          }
        }
        if (run.stopped())
          return kNoNode;
      }
      swept.insert(fork);
    }
    if (improvedInCycle) {
      // A cycle that improved the best starts another.
      triedInCycle.clear();
      allowance = kDescentOptions;
    } else if (capped) {
      // No better neighbour among each fork's most likely options: the
      // next ones.
      allowance += kDescentOptions;
    } else {
      descentStalled = true;
      return kNoNode;
    }
    swept.clear();
    improvedInCycle = false;
  }
}
