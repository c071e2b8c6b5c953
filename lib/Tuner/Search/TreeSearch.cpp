//===- TreeSearch.cpp - MCTS and uniform random sampling ------------------===//
//
// Both strategies keep a SearchTree. Random draws terminals about uniformly
// (children in proportion to their estimated terminals). MCTS descends by
// PUCT over normalised max-Q, and completes a path from the first node it
// had not visited with a rollout that keeps the decisions of the best
// terminal so far where it can (a neighbour of the best: local search) or
// else draws like random.
//
//===----------------------------------------------------------------------===//

#include "SearchTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

double deplodock::tuner::normalizedUcb(double childBestReward,
                                       uint64_t childVisits,
                                       uint64_t parentVisits,
                                       double globalBestReward, double c) {
  if (childVisits == 0)
    return std::numeric_limits<double>::infinity();
  double qNorm = globalBestReward > 0 ? childBestReward / globalBestReward : 0;
  double lnParent = parentVisits > 1 ? std::log(double(parentVisits)) : 0.0;
  return qNorm + c * std::sqrt(lnParent / double(childVisits));
}

static double envOr(const char *name, double fallback) {
  const char *v = std::getenv(name);
  return v ? std::atof(v) : fallback;
}

namespace {

//===----------------------------------------------------------------------===//
// Random
//===----------------------------------------------------------------------===//

class RandomSearch : public SearchStrategy {
public:
  StringRef name() const override { return "random"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, kDefaultPatience);
    SearchTree tree(run, options.seed);
    while (tree[0].live > 0 && !run.shouldStop()) {
      Index n = 0;
      while (n != kNoNode) {
        if (tree.isTerminal(n)) {
          if (!run.shouldStop())
            tree.measure(n);
          break;
        }
        if (!tree.expand(n) || tree[n].done)
          break;
        n = tree.sampleChild(n);
      }
    }
    return run.finish(StopReason::Exhausted, tree.size());
  }
};

//===----------------------------------------------------------------------===//
// MCTS
//===----------------------------------------------------------------------===//

class MctsSearch : public SearchStrategy {
public:
  StringRef name() const override { return "mcts"; }
  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override;
};

/// One MCTS run.
class Mcts {
public:
  Mcts(SearchRun &run, const SearchOptions &options)
      : run(run), space(run.getSpace()), tree(run, options.seed),
        c(options.explorationConstant) {
    carry = envOr("DPLK_CARRY", 0.8);
    fpuDrop = envOr("DPLK_FPU", 0.3);
  }

  SearchResult search();

private:
  /// The normalised value of a reward: log-scaled so that the median valid
  /// reward measured is 0 and the best is 1 (clamped to [0, 1]).
  double normalize(double reward) const;
  /// The child of `n` the descent takes.
  Index select(Index n);
  /// The child a rollout takes below `n`.
  Index rolloutChild(Index n);
  /// Completes a path from `n` to a terminal and measures it.
  void rollout(Index n);
  /// Measures `n`, and learns from it.
  void measure(Index n);

  std::optional<uint64_t> keyOf(Index n) {
    return space.decisionKey(tree[n].id);
  }

  SearchRun &run;
  SearchSpace &space;
  SearchTree tree;
  double c;
  double carry;
  double fpuDrop;
  /// Decisions on the path of the best terminal.
  DenseSet<uint64_t> bestPath;
  /// Valid rewards measured, sorted (for the median).
  std::vector<double> rewards;
  double bestReward = 0;
};

double Mcts::normalize(double reward) const {
  if (reward <= 0 || rewards.empty())
    return 0;
  double ref = rewards[rewards.size() / 2];
  if (bestReward <= ref)
    return reward >= bestReward ? 1 : 0;
  double q = std::log(reward / ref) / std::log(bestReward / ref);
  return std::clamp(q, 0.0, 1.0);
}

Index Mcts::select(Index n) {
  const TreeNode &parent = tree[n];
  double parentQ = normalize(parent.bestReward);
  uint64_t numLive = 0;
  for (Index i = parent.firstChild, e = i + parent.numChildren; i != e; ++i)
    numLive += tree[i].live > 0;
  double prior = numLive ? 1.0 / double(numLive) : 0;
  double sqrtN = std::sqrt(double(parent.visits));
  Index best = kNoNode;
  double bestScore = -std::numeric_limits<double>::infinity();
  for (Index i = parent.firstChild, e = i + parent.numChildren; i != e; ++i) {
    const TreeNode &child = tree[i];
    if (child.live == 0)
      continue;
    double q = child.visits ? normalize(child.bestReward)
                            : std::max(0.0, parentQ - fpuDrop);
    double score = q + c * prior * sqrtN / double(1 + child.visits);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

Index Mcts::rolloutChild(Index n) {
  if (!bestPath.empty() && tree.unit() < carry) {
    const TreeNode &parent = tree[n];
    for (Index i = parent.firstChild, e = i + parent.numChildren; i != e;
         ++i) {
      if (tree[i].live == 0)
        continue;
      std::optional<uint64_t> key = keyOf(i);
      if (key && bestPath.contains(*key))
        return i;
    }
  }
  return tree.sampleChild(n);
}

void Mcts::measure(Index n) {
  if (run.shouldStop())
    return;
  double reward = tree.measure(n);
  if (reward <= 0)
    return;
  rewards.insert(llvm::upper_bound(rewards, reward), reward);
  if (reward > bestReward) {
    bestReward = reward;
    bestPath.clear();
    for (Index i = n; i != 0; i = tree[i].parent)
      if (std::optional<uint64_t> key = keyOf(i))
        bestPath.insert(*key);
  }
}

void Mcts::rollout(Index n) {
  while (n != kNoNode) {
    if (tree.isTerminal(n))
      return measure(n);
    if (!tree.expand(n) || tree[n].done)
      return;
    n = rolloutChild(n);
  }
}

SearchResult Mcts::search() {
  // The first path is the heuristic's (option 0 everywhere).
  {
    Index n = 0;
    while (!tree.isTerminal(n)) {
      if (!tree.expand(n) || tree[n].done)
        break;
      n = tree[n].firstChild;
    }
    if (tree.isTerminal(n) && !tree[n].done)
      measure(n);
  }
  while (tree[0].live > 0 && !run.shouldStop()) {
    Index n = 0;
    while (n != kNoNode) {
      if (tree.isTerminal(n)) {
        measure(n);
        break;
      }
      if (!tree.expand(n) || tree[n].done)
        break;
      if (tree[n].visits == 0) {
        rollout(n);
        break;
      }
      n = select(n);
    }
  }
  return run.finish(StopReason::Exhausted, tree.size());
}

SearchResult MctsSearch::run(SearchSpace &space, Evaluator &evaluator,
                             const SearchOptions &options) {
  SearchRun run(space, evaluator, options, kDefaultPatience);
  return Mcts(run, options).search();
}

} // namespace

std::unique_ptr<SearchStrategy> deplodock::tuner::createMctsSearch() {
  return std::make_unique<MctsSearch>();
}

std::unique_ptr<SearchStrategy> deplodock::tuner::createRandomSearch() {
  return std::make_unique<RandomSearch>();
}
