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
// A candidate's score is its prior (SearchSpace::prior: the roofline model's
// 1 / µs when the tuner gives one) or else the product of its decisions'
// l / g. With the exploration constant c as a temperature, odds are raised
// to 1 / c: small c follows the best decisions, large c draws uniformly.
// When the evaluator measures several terminals at once, a batch of
// candidates is chosen before any is measured.
//
//===----------------------------------------------------------------------===//

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
  /// the depths a mutation changes. Adds the log odds of the path to
  /// `score`. kNoNode at a dead end or when the run stops.
  Index rollout(Policy policy, ArrayRef<bool> changeAt, double &score);
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
  bool hasPrior = false;
  SmallVector<Index> scratch;
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

Index Mcts::rollout(Policy policy, ArrayRef<bool> changeAt, double &score) {
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
    // The best terminal's decision here, if it is an option.
    Index kept = kNoNode;
    if (policy == Policy::Mutate)
      for (Index i = first; i != first + k; ++i)
        if (tree[i].live > 0)
          if (std::optional<uint64_t> key = keyOf(i))
            if (bestDecisions.contains(*key))
              kept = i;
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

Index Mcts::propose() {
  unsigned depth = best == kNoNode ? 0 : tree.pathShape(best).first;
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
    if (best != kNoNode && depth &&
        draw < (hasPrior ? kPriorMutateShare : kMutateShare)) {
      changeAt.assign(depth, false);
      for (unsigned m = 0; m < changes; ++m)
        changeAt[tree.getRng()() % depth] = true;
      leaf = rollout(Policy::Mutate, changeAt, score);
    } else if (hasPrior && draw > kPriorMutateShare) {
      // The prior can judge terminals far from anything measured.
      leaf = rollout(Policy::Uniform, {}, score);
    } else {
      leaf = rollout(Policy::Odds, {}, score);
    }
    if (leaf == kNoNode || tree[leaf].done)
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
