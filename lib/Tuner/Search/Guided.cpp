//===- Guided.cpp - Experimental learned-policy search --------------------===//

#include "SearchTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdlib>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

static double envOr(const char *name, double fallback) {
  const char *v = std::getenv(name);
  return v ? std::atof(v) : fallback;
}

namespace {

class Guided {
public:
  Guided(SearchRun &run, const SearchOptions &options)
      : run(run), space(run.getSpace()), tree(run, options.seed) {
    gamma = envOr("G_GAMMA", 0.25);
    prior = envOr("G_PRIOR", 1.0);
    candidates = envOr("G_CAND", 8);
    initial = envOr("G_INIT", 8);
    mutate = envOr("G_MUT", 0.5);
    leafWeighted = envOr("G_LEAF", 0) != 0;
  }

  SearchResult search();

private:
  std::optional<uint64_t> keyOf(Index n) {
    return space.decisionKey(tree[n].id);
  }
  /// Whether `reward` counts as good.
  double threshold() const;
  /// l/g of a child, and l alone.
  std::pair<double, double> ratio(Index child, Index numOptions);
  /// Walks down from `n` to a live terminal; `policy` 0: prior, 1: sample
  /// from l, 2: carry the incumbent.
  Index walk(Index n, int policy, double &score);
  void measure(Index n);

  SearchRun &run;
  SearchSpace &space;
  SearchTree tree;
  double gamma, prior, mutate;
  unsigned candidates, initial;
  bool leafWeighted;
  /// Rewards of the measured terminals whose path holds each decision.
  DenseMap<uint64_t, std::vector<double>> byKey;
  std::vector<double> rewards; // sorted
  Index best = kNoNode;
  DenseMap<uint64_t, bool> bestKeys;
};

double Guided::threshold() const {
  if (rewards.empty())
    return std::numeric_limits<double>::infinity();
  size_t good = std::max<size_t>(1, size_t(gamma * rewards.size()));
  return rewards[rewards.size() - good];
}

std::pair<double, double> Guided::ratio(Index child, Index numOptions) {
  size_t nGood = std::max<size_t>(1, size_t(gamma * rewards.size()));
  size_t nBad = rewards.size() - nGood;
  double t = threshold();
  size_t g = 0, b = 0;
  if (std::optional<uint64_t> key = keyOf(child)) {
    auto it = byKey.find(*key);
    if (it != byKey.end())
      for (double r : it->second)
        (r >= t ? g : b) += 1;
  }
  double l = (g + prior) / (nGood + prior * numOptions);
  double gg = (b + prior) / (nBad + prior * numOptions);
  return {l / gg, l};
}

Index Guided::walk(Index n, int policy, double &score) {
  score = 0;
  while (n != kNoNode) {
    if (tree.isTerminal(n))
      return n;
    if (!tree.expand(n) || tree[n].done)
      return kNoNode;
    const TreeNode &node = tree[n];
    Index first = node.firstChild, k = node.numChildren;
    if (policy == 2 && best != kNoNode) {
      Index pick = kNoNode;
      for (Index i = first; i != first + k; ++i)
        if (tree[i].live > 0)
          if (std::optional<uint64_t> key = keyOf(i))
            if (bestKeys.count(*key))
              pick = i;
      if (pick != kNoNode) {
        n = pick;
        continue;
      }
    }
    if (policy == 0 || rewards.empty()) {
      n = leafWeighted ? tree.sampleChild(n) : tree.uniformChild(n);
      continue;
    }
    // Sample from l among live children.
    SmallVector<double> ls;
    double total = 0;
    for (Index i = first; i != first + k; ++i) {
      double l = tree[i].live > 0 ? ratio(i, k).second : 0;
      ls.push_back(l);
      total += l;
    }
    if (total <= 0)
      return kNoNode;
    double pick = tree.unit() * total;
    Index chosen = kNoNode;
    for (Index i = 0; i < k; ++i) {
      if (ls[i] <= 0)
        continue;
      chosen = first + i;
      pick -= ls[i];
      if (pick < 0)
        break;
    }
    score += std::log(ratio(chosen, k).first);
    n = chosen;
  }
  return kNoNode;
}

void Guided::measure(Index n) {
  if (run.shouldStop())
    return;
  double reward = tree.measure(n);
  rewards.insert(llvm::upper_bound(rewards, reward), reward);
  for (Index i = n; i != 0; i = tree[i].parent)
    if (std::optional<uint64_t> key = keyOf(i))
      byKey[*key].push_back(reward);
  if (reward > 0 && (best == kNoNode || reward > tree[best].bestReward)) {
    best = n;
    bestKeys.clear();
    for (Index i = n; i != 0; i = tree[i].parent)
      if (std::optional<uint64_t> key = keyOf(i))
        bestKeys[*key] = true;
  }
}

SearchResult Guided::search() {
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
    double score;
    if (rewards.size() < initial) {
      Index leaf = walk(0, 0, score);
      if (leaf != kNoNode)
        measure(leaf);
      continue;
    }
    // Mutation of the incumbent: deviate at one node of its path.
    if (best != kNoNode && tree.unit() < mutate) {
      SmallVector<Index> path;
      for (Index i = tree[best].parent; i != kNoNode; i = tree[i].parent)
        if (tree[i].live > 0)
          path.push_back(i);
      if (!path.empty()) {
        Index at = path[tree.getRng()() % path.size()];
        // A live child other than the incumbent's, by l/g.
        Index first = tree[at].firstChild, k = tree[at].numChildren;
        Index pick = kNoNode;
        double bestScore = -1;
        for (Index i = first; i != first + k; ++i) {
          if (tree[i].live == 0)
            continue;
          double s = ratio(i, k).first * (0.5 + tree.unit());
          if (s > bestScore) {
            bestScore = s;
            pick = i;
          }
        }
        if (pick != kNoNode) {
          Index leaf = walk(pick, 2, score);
          if (leaf != kNoNode && !tree[leaf].done) {
            measure(leaf);
            continue;
          }
        }
      }
    }
    Index chosen = kNoNode;
    double chosenScore = -std::numeric_limits<double>::infinity();
    for (unsigned c = 0; c < candidates; ++c) {
      Index leaf = walk(0, 1, score);
      if (leaf != kNoNode && !tree[leaf].done && score > chosenScore) {
        chosen = leaf;
        chosenScore = score;
      }
    }
    if (chosen != kNoNode)
      measure(chosen);
  }
  return run.finish(StopReason::Exhausted, tree.size());
}

class GuidedSearch : public SearchStrategy {
public:
  StringRef name() const override { return "guided"; }
  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, kDefaultPatience);
    return Guided(run, options).search();
  }
};

} // namespace

std::unique_ptr<SearchStrategy> createGuidedSearch() {
  return std::make_unique<GuidedSearch>();
}
