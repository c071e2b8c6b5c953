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

#include "Mcts.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

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
  learn(batch, run.evaluateBatch(ids));
}

void Mcts::learn(ArrayRef<Index> batch, ArrayRef<Measurement> measurements) {
  for (auto [n, m] : llvm::zip(batch, measurements)) {
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
  if (!run.canMeasureAhead()) {
    while (tree[0].live > 0 && !run.shouldStop())
      if (SmallVector<Index> batch = proposeBatch(); !batch.empty())
        measure(batch);
    return run.finish(StopReason::Exhausted, tree.size());
  }
  // Each batch is proposed while the one before is measured (a GPU in
  // another process): it is chosen without that batch's results, as a
  // batch for several GPUs is, and the proposals' walks and priors cost no
  // GPU time. The order is fixed, so the search stays deterministic.
  SmallVector<Index> inFlight;
  auto startMeasuring = [&](SmallVector<Index> batch) {
    SmallVector<NodeId> ids;
    for (Index n : batch)
      ids.push_back(tree[n].id);
    run.startBatch(ids);
    inFlight = std::move(batch);
  };
  auto learnInFlight = [&] {
    SmallVector<Measurement> measurements = run.collectBatch();
    learn(ArrayRef(inFlight).take_front(measurements.size()), measurements);
    inFlight.clear();
  };
  while (tree[0].live > 0 && !run.shouldStop()) {
    SmallVector<Index> batch = proposeBatch();
    if (run.hasBatchInFlight())
      learnInFlight();
    // Its results may have spent the patience.
    if (batch.empty() || run.shouldStop())
      break;
    startMeasuring(std::move(batch));
  }
  if (run.hasBatchInFlight())
    learnInFlight();
  return run.finish(StopReason::Exhausted, tree.size());
}

SmallVector<Index> Mcts::proposeBatch() {
  SmallVector<Index> batch;
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
  return batch;
}

namespace {

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
