//===- Mcts.cpp - Monte-Carlo tree search with learnt decision odds -------===//
//
// The default strategy, built for few measurements in trees of millions of
// terminals whose good region is small. It keeps the SearchTree of what it
// reached and, for every decision (a fork's option, named by its decision
// key wherever in the tree it is taken), the rewards of the measured
// terminals whose path takes it. After the heuristic's terminal and the
// seeds (warm starts), every measurement is the best of several candidate
// rollouts:
//
//  * three quarters (half with a prior) mutate the best terminal so far:
//    change one fork of its path (more the longer the best has not improved)
//    and keep its other decisions below (local search). A terminal as fast
//    as the best becomes the best (neutral drift), so the search crosses the
//    plateaus of equal latencies these trees are made of;
//  * the others draw each fork's option in proportion to its odds of
//    being good: l = P(option | good), good being the best quarter of the
//    measured rewards (a tree-structured Parzen estimator, with one
//    pseudo-count per option); with a prior, uniform terminals instead,
//    which the prior can judge unmeasured.
//
// Without a prior, two more rules spend the measurements where outcomes
// can differ (ForkStats.h). Forks whose options the measurements show to be
// equivalent (inert: swaps of them tie, none changes anything) are never
// mutated, and a candidate that takes a measured terminal's decisions at
// every fork not inert is predicted to tie it and dropped. And once the best
// has not improved for a while, every other measurement is a pair move: a
// near miss's change (the fastest terminals that differ from the best in
// one or two decisions) applied to the best together with one more change
// elsewhere, for the optimum that takes two changes each worse alone (a
// latency that is the largest of several bottlenecks).
//
// Once the mutations stall (kWidenEvery measurements without a better
// terminal), coordinate descent takes over: it changes one fork of the
// best's path at a time, the forks in path order, each to its options of
// the best odds (kDescentOptions per fork and cycle), completing the rest
// with the best's decisions where they are options and option 0
// elsewhere. A neighbour that is not better is followed by its unlocked
// variant: the option of best odds that a fork below the change offers
// and the best's path never did (a new fork, or a larger split_k under a
// smaller BK), for the optimum that takes a worse change and what it
// opens. A cycle that improved the best starts another; one that did
// not gives every fork kDescentOptions more; once every option of every
// fork was tried without a gain (a local optimum), the pair moves and
// mutations go on until they improve the best and stall again.
//
// A candidate's score is its prior (SearchSpace::prior: the roofline model's
// 1 / µs when the tuner gives one) or else the product of its decisions'
// l / g. With the exploration constant c as a temperature, odds are raised
// to 1 / c: small c follows the best decisions, large c draws uniformly.
// When the evaluator measures several terminals at once, a batch of
// candidates is chosen before any is measured.
//
//===----------------------------------------------------------------------===//

#include "ForkStats.h"
#include "SearchTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

namespace {

/// The share of the measured rewards that counts as good.
constexpr double kGoodShare = 0.25;
/// Candidates per measurement without a prior to rank them (with one:
/// SearchOptions::priorCandidates, at least this many).
constexpr unsigned kCandidates = 8;
/// The share of candidates that mutate the best terminal: without a prior
/// most of them (the odds draws of the rest explore, measured on the model
/// backend over the examples' kernels); with one, half, the other half drawn
/// uniformly from the terminals for the prior to judge.
constexpr double kMutateShare = 0.75;
constexpr double kPriorMutateShare = 0.5;
/// One more fork is mutated per this many measurements without a better
/// terminal, up to kMaxChanges.
constexpr unsigned kWidenEvery = 8;
constexpr unsigned kMaxChanges = 4;
/// Pair moves combine the fastest this many near misses, each differing
/// from the best in at most kMaxMoveSize decisions (at forks not inert).
constexpr unsigned kNearMisses = 8;
constexpr unsigned kMaxMoveSize = 2;
/// The fastest terminals searched for near misses.
constexpr unsigned kNearMissScan = 256;
/// Near misses a pair move tries before it gives way to the usual
/// candidates.
constexpr unsigned kPairAttempts = 4;
/// Coordinate descent tries at most this many options of a fork per cycle,
/// those of the best odds first, so that a 33-way fork does not spend the
/// budget.
constexpr unsigned kDescentOptions = 3;
/// Variants of a descent neighbour that take an option its change
/// unlocked, measured when the neighbour is not better (one: two spent
/// more of the budget on wide forks for no gain, measured on the examples'
/// kernels on the model backend).
constexpr unsigned kUnlockedVariants = 1;
/// Patience when unset: the tree's mean fan-out times its depth (along the
/// heuristic's path), at least this.
constexpr unsigned kMinPatience = 16;

class Mcts {
public:
  Mcts(SearchRun &run, const SearchOptions &options)
      : run(run), space(run.getSpace()), options(options),
        tree(run, options.seed),
        power(1.0 / std::max(options.explorationConstant, 0.05)) {}

  SearchResult search();

private:
  enum class Policy { Uniform, Odds, Mutate };

  std::optional<uint64_t> keyOf(Index n) {
    return space.decisionKey(tree[n].id);
  }
  /// l / g and l of the decision leading to `child`, among `numOptions`.
  std::pair<double, double> odds(Index child, Index numOptions);
  /// Walks from the root to a live terminal with `policy`; `changeAt` marks
  /// the depths a mutation changes, `forced` decisions a mutation takes
  /// wherever they are options. Adds the log odds of the path to `score`.
  /// kNoNode at a dead end or when the run stops.
  Index rollout(Policy policy, ArrayRef<bool> changeAt, double &score,
                const DenseSet<uint64_t> *forced = nullptr);
  /// The sorted decision keys of the path to `n`; declares the forks on
  /// the way to `forks`.
  SmallVector<uint64_t, 16> decisionsOf(Index n);
  /// Learns from measured terminal `n` which forks are inert.
  void observe(Index n, double reward);
  /// Whether terminal `n` is predicted to tie a measured one: the same
  /// decisions at every fork not inert.
  bool isEquivalentToMeasured(Index n);
  /// A pair move once single changes stall: the decisions a near miss (one
  /// of the fastest other terminals, in turn) differs from the best in at
  /// forks not inert (at most kMaxMoveSize), applied to the best with one
  /// more change at another fork. kNoNode when none is left.
  Index pairMove();
  /// The depths of the best's path where a mutation may change the fork
  /// (another option, not inert), skipping the forks in `exclude`; sets
  /// `depth` to the path's length.
  SmallVector<unsigned, 16> mutationSites(unsigned &depth,
                                          const DenseSet<uint64_t> &exclude);
  /// Coordinate descent: the next unmeasured neighbour of the best (one
  /// fork changed, the rest kept) at a fork not yet swept in this cycle,
  /// options in order of their odds; kNoNode at a local optimum.
  Index descend();
  /// Walks down from `n`, keeping the best's decisions where they are
  /// options and taking the first live option elsewhere.
  Index completeBelow(Index n);
  /// Variants of the descent's neighbour `leaf` (the best with its fork at
  /// `changed` changed): each takes, at one fork below `changed`, an
  /// option the best's path never offered (one the change unlocked: a
  /// fork the best has not, or an option it lacked), best odds first.
  SmallVector<Index, 4> unlockedVariants(Index changed, Index leaf);
  /// The next pending unlocked variant not measured nor predicted to tie a
  /// measured one, or kNoNode.
  Index nextUnlocked();
  /// The candidate to measure next, or kNoNode.
  Index propose();
  /// Measures `batch` (reserved terminals) and learns from them.
  void measure(ArrayRef<Index> batch);

  SearchRun &run;
  SearchSpace &space;
  const SearchOptions &options;
  SearchTree tree;
  double power;
  /// Rewards of the measured terminals whose path takes each decision,
  /// sorted.
  DenseMap<uint64_t, std::vector<double>> byDecision;
  /// Every reward measured, sorted.
  std::vector<double> rewards;
  Index best = kNoNode;
  DenseSet<uint64_t> bestDecisions;
  unsigned sinceBest = 0;
  /// A measured valid terminal and its path's decision keys, sorted.
  struct Measured {
    Index node;
    double reward;
    SmallVector<uint64_t, 16> keys;
  };
  /// Measured valid terminals, fastest first.
  std::vector<Measured> measured;
  ForkStats forks;
  /// Nodes whose children were declared a fork.
  DenseSet<Index> declared;
  /// The signatures of the measured terminals, as of forks' generation
  /// `signaturesAt`.
  DenseSet<uint64_t> signatures;
  unsigned signaturesAt = ~0u;
  /// Whether the last proposal was a pair move; pair moves made.
  bool lastWasPair = false;
  unsigned numPairs = 0;
  bool hasPrior = false;
  SmallVector<Index> scratch;
  /// Coordinate descent: the forks swept in this cycle, the options tried
  /// per fork, whether the best improved during the cycle, and whether the
  /// descent ended at a local optimum.
  DenseSet<uint64_t> swept;
  DenseMap<uint64_t, unsigned> triedInCycle;
  unsigned allowance = kDescentOptions;
  /// Whether the last proposal was the descent's (it goes on while it has
  /// candidates, improving or not).
  bool inDescent = false;
  bool improvedInCycle = false;
  bool descentStalled = false;
  /// The unlocked variants of the last neighbour, measured next unless it
  /// became the best.
  SmallVector<Index, 4> pendingUnlocked;
};

std::pair<double, double> Mcts::odds(Index child, Index numOptions) {
  size_t n = rewards.size();
  size_t numGood = std::max<size_t>(1, size_t(kGoodShare * double(n)));
  size_t numBad = n - std::min(n, numGood);
  // A failure (reward 0) is never good.
  double threshold =
      n ? std::max(rewards[n - std::min(n, numGood)], 1e-300) : 1e-300;
  size_t good = 0, bad = 0;
  if (std::optional<uint64_t> key = space.decisionKey(tree[child].id)) {
    auto it = byDecision.find(*key);
    if (it != byDecision.end()) {
      const std::vector<double> &sorted = it->second;
      good = sorted.end() - llvm::lower_bound(sorted, threshold);
      bad = sorted.size() - good;
    }
  }
  double l = (good + 1.0) / (numGood + double(numOptions));
  double g = (bad + 1.0) / (numBad + double(numOptions));
  return {l / g, l};
}

Index Mcts::rollout(Policy policy, ArrayRef<bool> changeAt, double &score,
                    const DenseSet<uint64_t> *forced) {
  Index n = 0;
  for (unsigned depth = 0;; ++depth) {
    if (tree.isTerminal(n))
      return n;
    if (!tree.expand(n) || tree[n].done)
      return kNoNode;
    if (policy == Policy::Uniform) {
      n = tree.sampleChild(n);
      if (n == kNoNode)
        return kNoNode;
      continue;
    }
    const Index first = tree[n].firstChild, k = tree[n].numChildren;
    bool change = depth < changeAt.size() && changeAt[depth];
    // The best terminal's decision here (or a forced one), if it is an
    // option.
    Index kept = kNoNode;
    bool isForced = false;
    if (policy == Policy::Mutate)
      for (Index i = first; i != first + k && !isForced; ++i)
        if (tree[i].live > 0)
          if (std::optional<uint64_t> key = keyOf(i)) {
            if (forced && forced->contains(*key)) {
              kept = i;
              isForced = true;
            } else if (bestDecisions.contains(*key)) {
              kept = i;
            }
          }
    if (isForced) {
      score += std::log(odds(kept, k).first);
      n = kept;
      continue;
    }
    if (kept != kNoNode && !change) {
      score += std::log(odds(kept, k).first);
      n = kept;
      continue;
    }
    // Draw by l (by l / g where a mutation changes the decision).
    double total = 0;
    scratch.clear();
    SmallVector<double, 16> weights;
    for (Index i = first; i != first + k; ++i) {
      if (tree[i].live == 0 || i == kept)
        continue;
      auto [ratio, l] = odds(i, k);
      scratch.push_back(i);
      weights.push_back(std::pow(change ? ratio : l, power));
      total += weights.back();
    }
    if (scratch.empty()) {
      if (kept == kNoNode)
        return kNoNode;
      n = kept;
      continue;
    }
    double pick = tree.unit() * total;
    Index chosen = scratch.back();
    for (auto [i, w] : llvm::zip(scratch, weights)) {
      pick -= w;
      if (pick < 0) {
        chosen = i;
        break;
      }
    }
    score += std::log(odds(chosen, k).first);
    n = chosen;
  }
}

SmallVector<uint64_t, 16> Mcts::decisionsOf(Index n) {
  SmallVector<uint64_t, 16> keys;
  for (Index i = n; i != 0; i = tree[i].parent) {
    std::optional<uint64_t> key = keyOf(i);
    if (!key)
      continue;
    keys.push_back(*key);
    Index parent = tree[i].parent;
    if (declared.insert(parent).second) {
      SmallVector<uint64_t, 16> options;
      for (Index c = tree[parent].firstChild, e = c + tree[parent].numChildren;
           c != e; ++c)
        if (std::optional<uint64_t> option = keyOf(c))
          options.push_back(*option);
      forks.addFork(options);
    }
  }
  llvm::sort(keys);
  return keys;
}

void Mcts::observe(Index n, double reward) {
  Measured m{n, reward, decisionsOf(n)};
  forks.addMeasured(m.keys, reward);
  if (signaturesAt == forks.getGeneration())
    signatures.insert(forks.signature(m.keys));
  auto at =
      llvm::upper_bound(measured, reward, [](double r, const Measured &x) {
        return r > x.reward;
      });
  measured.insert(at, std::move(m));
}

bool Mcts::isEquivalentToMeasured(Index n) {
  if (signaturesAt != forks.getGeneration()) {
    signatures.clear();
    for (const Measured &m : measured)
      signatures.insert(forks.signature(m.keys));
    signaturesAt = forks.getGeneration();
  }
  return signatures.contains(forks.signature(decisionsOf(n)));
}

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
      SmallVector<std::pair<double, Index>, 32> order;
      for (Index c = first; c != first + k; ++c)
        if (c != taken && tree[c].live > 0)
          order.push_back({odds(c, k).first, c});
      // The best odds first; equal odds in option order.
      llvm::sort(order, [](auto &a, auto &b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
      });
      unsigned &tried = triedInCycle[fork];
      for (auto [ratio, c] : order) {
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

Index Mcts::propose() {
  // Once mutations stall, coordinate descent from the best until it
  // reaches a local optimum; then pair moves and mutations until they
  // improve the best and stall again.
  if (!hasPrior && !descentStalled && (sinceBest >= kWidenEvery || inDescent)) {
    Index n = descend();
    inDescent = n != kNoNode;
    if (n != kNoNode)
      return n;
  }
  // Once single changes stall, every other measurement is a pair move.
  if (!hasPrior && best != kNoNode && sinceBest >= kWidenEvery &&
      !lastWasPair) {
    Index n = pairMove();
    if (n != kNoNode) {
      lastWasPair = true;
      return n;
    }
  }
  lastWasPair = false;
  unsigned depth = 0;
  SmallVector<unsigned, 16> sites = mutationSites(depth, {});
  unsigned changes = 1 + std::min(sinceBest / kWidenEvery, kMaxChanges - 1);
  unsigned numCandidates =
      hasPrior ? std::max(options.priorCandidates, kCandidates) : kCandidates;
  Index chosen = kNoNode;
  double chosenScore = -std::numeric_limits<double>::infinity();
  auto consider = [&](Index leaf, double score) {
    if (std::optional<double> prior = space.prior(tree[leaf].id)) {
      hasPrior = true;
      score = std::log(*prior);
    } else if (hasPrior) {
      return; // Without an estimate it cannot compete.
    }
    if (chosen == kNoNode || score > chosenScore) {
      chosen = leaf;
      chosenScore = score;
    }
  };
  // Once the space has shown a prior, the candidates' priors are computed
  // together after the walks (which never read them), and the candidates
  // are then considered in the order they were drawn, as one by one.
  bool together = hasPrior;
  SmallVector<std::pair<Index, double>, 32> drawn;
  SmallVector<bool, 16> changeAt;
  for (unsigned c = 0; c < numCandidates && !run.stopped(); ++c) {
    double score = 0;
    Index leaf;
    double draw = tree.unit();
    if (!sites.empty() &&
        draw < (hasPrior ? kPriorMutateShare : kMutateShare)) {
      changeAt.assign(depth, false);
      for (unsigned m = 0; m < changes; ++m)
        changeAt[sites[tree.getRng()() % sites.size()]] = true;
      leaf = rollout(Policy::Mutate, changeAt, score);
    } else if (hasPrior && draw > kPriorMutateShare) {
      // The prior can judge terminals far from anything measured.
      leaf = rollout(Policy::Uniform, {}, score);
    } else {
      leaf = rollout(Policy::Odds, {}, score);
    }
    if (leaf == kNoNode || tree[leaf].done)
      continue;
    // A terminal predicted to tie a measured one teaches nothing.
    if (!hasPrior && isEquivalentToMeasured(leaf))
      continue;
    if (!together) {
      consider(leaf, score);
      continue;
    }
    space.queuePrior(tree[leaf].id);
    drawn.push_back({leaf, score});
  }
  space.computeQueuedPriors();
  for (auto [leaf, score] : drawn)
    consider(leaf, score);
  return chosen;
}

void Mcts::measure(ArrayRef<Index> batch) {
  SmallVector<NodeId> ids;
  for (Index n : batch)
    ids.push_back(tree[n].id);
  SmallVector<Measurement> measured = run.evaluateBatch(ids);
  for (auto [n, m] : llvm::zip(batch, measured)) {
    double reward = m.reward();
    tree.reward(n, reward);
    if (reward > 0)
      observe(n, reward);
    rewards.insert(llvm::upper_bound(rewards, reward), reward);
    for (Index i = n; i != 0; i = tree[i].parent)
      if (std::optional<uint64_t> key = keyOf(i)) {
        std::vector<double> &sorted = byDecision[*key];
        sorted.insert(llvm::upper_bound(sorted, reward), reward);
      }
    bool better =
        reward > 0 && (best == kNoNode || reward > tree[best].bestReward);
    // A tie moves the best too (neutral drift): these trees are plateaus
    // of equal latencies, which mutations cross one fork at a time.
    bool tie = !hasPrior && reward > 0 && best != kNoNode &&
               reward == tree[best].bestReward;
    if (better || tie) {
      best = n;
      bestDecisions.clear();
      for (Index i = n; i != 0; i = tree[i].parent)
        if (std::optional<uint64_t> key = keyOf(i))
          bestDecisions.insert(*key);
    }
    if (better) {
      improvedInCycle = true;
      pendingUnlocked.clear();
      if (descentStalled) {
        descentStalled = false;
        swept.clear();
        triedInCycle.clear();
        allowance = kDescentOptions;
      }
    }
    if (better)
      sinceBest = 0;
    else
      ++sinceBest;
  }
}

SearchResult Mcts::search() {
  // The heuristic's terminal first; the tree's shape sets the patience.
  Index first = tree.defaultLeaf();
  if (first != kNoNode && !run.shouldStop()) {
    auto [depth, fanOut] = tree.pathShape(first);
    run.setDefaultPatience(
        std::max(kMinPatience, unsigned(std::lround(fanOut * depth))));
    tree.reserve(first);
    measure({first});
  }
  // The seeds next (warm starts: winners of similar kernels).
  for (Index n : tree.seedLeaves(options.seedPaths)) {
    if (run.shouldStop())
      break;
    tree.reserve(n);
    measure({n});
  }
  SmallVector<Index> batch;
  while (tree[0].live > 0 && !run.shouldStop()) {
    batch.clear();
    while (batch.size() < run.getParallelism() && tree[0].live > 0 &&
           !run.stopped()) {
      Index n = propose();
      if (n == kNoNode) {
        // Every candidate met a dead end or a terminal already taken: a
        // uniform walk finds a live terminal, or takes a dead end off the
        // frontier.
        double ignored = 0;
        n = rollout(Policy::Uniform, {}, ignored);
        if (n == kNoNode || tree[n].done)
          continue;
      }
      tree.reserve(n);
      batch.push_back(n);
    }
    if (!batch.empty())
      measure(batch);
  }
  return run.finish(StopReason::Exhausted, tree.size());
}

class MctsSearch : public SearchStrategy {
public:
  StringRef name() const override { return "mcts"; }
  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, kDefaultPatience);
    return Mcts(run, options).search();
  }
};

} // namespace

std::unique_ptr<SearchStrategy> deplodock::tuner::createMctsSearch() {
  return std::make_unique<MctsSearch>();
}
