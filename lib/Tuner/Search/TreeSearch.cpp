//===- TreeSearch.cpp - SP-MCTS and random walks over a search tree -------===//
//
// MCTS and random search share one tree: every node the search reached, with
// its children stored contiguously, its visit count, the best reward in its
// subtree (max-Q) and its live count (unexpanded or unmeasured nodes in its
// subtree). One iteration descends from the root through live children only,
// then either expands the node it reached (one call of
// SearchSpace::children) or measures it and propagates the reward upward.
// Only the choice of child differs between the two strategies.
//
//===----------------------------------------------------------------------===//

#include "SearchRun.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <random>

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

namespace {

using Index = uint32_t;
constexpr Index kNoParent = std::numeric_limits<Index>::max();

struct TreeNode {
  NodeId id;
  Index parent;
  /// Children occupy [firstChild, firstChild + numChildren).
  Index firstChild = 0;
  Index numChildren = 0;
  enum class State : uint8_t { Fresh, Expanded, Done } state = State::Fresh;
  /// Measured terminals below (and at) this node.
  uint64_t visits = 0;
  /// Fresh nodes in this subtree: > 0 while something is left to do.
  uint64_t live = 1;
  /// Max reward (1 / µs) measured in this subtree.
  double bestReward = 0;
};

class SearchTree {
public:
  explicit SearchTree(NodeId root) { nodes.push_back({root, kNoParent}); }

  TreeNode &operator[](Index i) { return nodes[i]; }
  size_t size() const { return nodes.size(); }

  /// Gives fresh node `n` its children; with priors, in decreasing prior
  /// order (nodes without one last), ties in option order.
  void expand(Index n, ArrayRef<NodeId> children, SearchSpace &space) {
    // (prior, option index); sorted with the index as a tie-break, which
    // keeps option order among equal priors.
    SmallVector<std::pair<double, size_t>> order;
    bool anyPrior = false;
    for (auto [i, child] : llvm::enumerate(children)) {
      std::optional<double> p = space.prior(child);
      anyPrior |= p.has_value();
      order.push_back({p ? *p : -std::numeric_limits<double>::infinity(), i});
    }
    if (anyPrior)
      llvm::sort(order, [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
    Index first = nodes.size();
    for (const auto &entry : order)
      nodes.push_back({children[entry.second], n});
    TreeNode &node = nodes[n];
    node.firstChild = first;
    node.numChildren = order.size();
    node.state = TreeNode::State::Expanded;
    // The node leaves the frontier and its children join it; a dead end
    // (no children) just leaves it.
    addLive(n, int64_t(order.size()) - 1);
  }

  /// Records the reward of the measured terminal `n` (0 for a failure):
  /// visits and max-Q of every ancestor, and `n` leaves the frontier.
  void finishLeaf(Index n, double reward) {
    nodes[n].state = TreeNode::State::Done;
    addLive(n, -1);
    for (Index i = n; i != kNoParent; i = nodes[i].parent) {
      ++nodes[i].visits;
      nodes[i].bestReward = std::max(nodes[i].bestReward, reward);
    }
  }

private:
  void addLive(Index n, int64_t delta) {
    for (Index i = n; i != kNoParent; i = nodes[i].parent)
      nodes[i].live = uint64_t(int64_t(nodes[i].live) + delta);
  }

  std::vector<TreeNode> nodes;
};

/// Runs the shared loop; `select(tree, n)` picks a live child of the
/// expanded node `n`.
template <typename SelectFn>
SearchResult runTree(SearchSpace &space, Evaluator &evaluator,
                     const SearchOptions &options, SelectFn select) {
  SearchRun run(space, evaluator, options, kDefaultPatience);
  SearchTree tree(space.root());
  SmallVector<NodeId> children;
  while (tree[0].live > 0 && !run.shouldStop()) {
    Index n = 0;
    while (tree[n].state == TreeNode::State::Expanded)
      n = select(tree, n);
    NodeId id = tree[n].id;
    if (space.isTerminal(id)) {
      tree.finishLeaf(n, run.evaluate(id).reward());
      continue;
    }
    children.clear();
    run.expand(id, children);
    tree.expand(n, children, space);
  }
  return run.finish(StopReason::Exhausted, tree.size());
}

class MctsSearch : public SearchStrategy {
public:
  StringRef name() const override { return "mcts"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    double c = options.explorationConstant;
    return runTree(space, evaluator, options, [c](SearchTree &tree, Index n) {
      const TreeNode &parent = tree[n];
      double globalBest = tree[0].bestReward;
      Index best = kNoParent;
      double bestScore = 0;
      for (Index i = parent.firstChild, e = i + parent.numChildren; i != e;
           ++i) {
        const TreeNode &child = tree[i];
        if (child.live == 0)
          continue;
        // Unvisited first, in (prior) order.
        if (child.visits == 0)
          return i;
        double score = normalizedUcb(child.bestReward, child.visits,
                                     parent.visits, globalBest, c);
        if (best == kNoParent || score > bestScore) {
          best = i;
          bestScore = score;
        }
      }
      return best;
    });
  }
};

class RandomSearch : public SearchStrategy {
public:
  StringRef name() const override { return "random"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    std::mt19937_64 rng(options.seed);
    return runTree(space, evaluator, options,
                   [&rng](SearchTree &tree, Index n) {
                     const TreeNode &parent = tree[n];
                     Index first = parent.firstChild;
                     Index end = first + parent.numChildren;
                     uint64_t numLive = 0;
                     for (Index i = first; i != end; ++i)
                       numLive += tree[i].live > 0;
                     // Plain modulo: portable, and the bias is negligible
                     // for a handful of children.
                     uint64_t pick = rng() % numLive;
                     for (Index i = first; i != end; ++i)
                       if (tree[i].live > 0 && pick-- == 0)
                         return i;
                     return kNoParent;
                   });
  }
};

} // namespace

std::unique_ptr<SearchStrategy> deplodock::tuner::createMctsSearch() {
  return std::make_unique<MctsSearch>();
}

std::unique_ptr<SearchStrategy> deplodock::tuner::createRandomSearch() {
  return std::make_unique<RandomSearch>();
}
