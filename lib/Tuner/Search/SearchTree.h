//===- SearchTree.h - The tree the tree searches keep -----------*- C++ -*-===//
//
// MCTS and random search keep one tree of the nodes they reached: children
// stored contiguously, per node its visit count, the best reward below it
// (max-Q), its live count (nodes below not yet expanded or measured) and an
// estimate of the terminals below it. The estimate is Knuth's: a random
// walk down multiplies the fan-outs it meets; once a node's children are
// estimated, their sum replaces its own, so estimates sharpen where the
// search goes; a decision (key) walked below twice lends its mean estimate
// to the same decision under other prefixes, which spares most walks.
// Sampling children in proportion to it draws terminals about uniformly,
// however unbalanced the tree.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_SEARCH_SEARCHTREE_H
#define DEPLODOCK_LIB_TUNER_SEARCH_SEARCHTREE_H

#include "SearchRun.h"

#include "llvm/ADT/DenseMap.h"

#include <limits>
#include <random>
#include <vector>

namespace deplodock::tuner::detail {

using Index = uint32_t;
inline constexpr Index kNoNode = std::numeric_limits<Index>::max();

struct TreeNode {
  NodeId id;
  Index parent;
  /// Children occupy [firstChild, firstChild + numChildren).
  Index firstChild = 0;
  Index numChildren = 0;
  /// Whether the children are known (non-terminals only).
  bool expanded = false;
  /// A measured terminal, or a dead end (no children).
  bool done = false;
  /// SearchSpace::isTerminal, asked once: 0 unknown, 1 no, 2 yes.
  uint8_t terminal = 0;
  /// Measured terminals below (and at) this node.
  uint64_t visits = 0;
  /// Unexpanded or unmeasured nodes in this subtree: > 0 while something is
  /// left to do.
  uint64_t live = 1;
  /// Max reward (1 / µs) measured in this subtree.
  double bestReward = 0;
  /// Estimated terminals below; 0 while unknown.
  double leaves = 0;
};

class SearchTree {
public:
  SearchTree(SearchRun &run, uint64_t seed);

  TreeNode &operator[](Index i) { return nodes[i]; }
  size_t size() const { return nodes.size(); }
  SearchRun &getRun() { return run; }
  std::mt19937_64 &getRng() { return rng; }

  bool isTerminal(Index n);
  /// Gives node `n` its children (in option order) unless it has them;
  /// false when the run stopped first. A node without children becomes a
  /// done dead end.
  bool expand(Index n);
  /// Takes terminal `n` off the frontier before it is measured (so that a
  /// batch never holds it twice).
  void reserve(Index n);
  /// Records the reward of the reserved terminal `n` (0 for a failure):
  /// visits and max-Q of every ancestor.
  void reward(Index n, double reward);
  /// Measures terminal `n` through the run and records its reward.
  double measure(Index n);
  /// Descends from the root along `path` (option indices); the node
  /// reached, or kNoNode when an index is out of range, the path meets a
  /// dead end, or the run stopped.
  Index follow(llvm::ArrayRef<unsigned> path);
  /// The distinct unmeasured terminals `paths` lead to (paths that lead
  /// nowhere are skipped); stops early when the run stops.
  llvm::SmallVector<Index>
  seedLeaves(llvm::ArrayRef<std::vector<unsigned>> paths);
  /// Follows option 0 from the root: the heuristic's terminal, or kNoNode.
  Index defaultLeaf();
  /// The depth of the path to `n` and the mean fan-out along it.
  std::pair<unsigned, double> pathShape(Index n);

  /// The estimated terminals below `n` (walking down once if unknown);
  /// 0 when the run stopped before it knew.
  double leaves(Index n);
  /// A live child of the expanded node `n`, drawn in proportion to the
  /// terminals below it (each terminal about equally likely); kNoNode when
  /// the run stopped first or none is live.
  Index sampleChild(Index n);
  /// A uniform pick among the live children; kNoNode when none is live.
  Index uniformChild(Index n);
  /// A uniform double in [0, 1).
  double unit();

private:
  void addLive(Index n, int64_t delta);

  SearchRun &run;
  std::mt19937_64 rng;
  std::vector<TreeNode> nodes;
  llvm::SmallVector<NodeId> scratch;
  /// Per decision key, the sum and count of the walks' estimates below it.
  llvm::DenseMap<uint64_t, std::pair<double, unsigned>> byDecision;
};

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_SEARCH_SEARCHTREE_H
