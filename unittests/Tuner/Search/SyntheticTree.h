//===- SyntheticTree.h - Fork trees for search tests ------------*- C++ -*-===//
//
// An explicit tree (node id = index) whose terminals carry a latency or a
// failure, plus generators: random trees shaped like real fork trees (a rule
// per level with 2-12 options) with or without latency structure, and
// separable trees. The space and the evaluator count their calls so tests can
// check that nothing is expanded or measured twice.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_UNITTESTS_TUNER_SEARCH_SYNTHETICTREE_H
#define DEPLODOCK_UNITTESTS_TUNER_SEARCH_SYNTHETICTREE_H

#include "Deplodock/Tuner/SearchSpace.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <vector>

namespace deplodock::tuner::testing {

/// A uniform double in [0, 1) from 53 random bits (portable).
inline double unit(std::mt19937_64 &rng) {
  return double(rng() >> 11) * 0x1.0p-53;
}

class SyntheticTree : public SearchSpace {
public:
  struct Node {
    NodeId parent = 0;
    unsigned depth = 0;
    std::vector<NodeId> children;
    /// A non-terminal without children is a dead end.
    bool terminal = false;
    Measurement measurement;
    std::optional<double> prior;
    size_t preferred = 0;
    /// Its index among its parent's children.
    unsigned option = 0;
  };

  SyntheticTree() { nodes.emplace_back(); }

  /// Adds a non-terminal (dead end until it gets children) under `parent`.
  NodeId addInner(NodeId parent) { return add(parent, false, {}); }
  /// Adds a terminal with latency `us` under `parent`.
  NodeId addLeaf(NodeId parent, double us) {
    return add(parent, true, Measurement::latency(us));
  }
  NodeId addFailure(NodeId parent, MeasureStatus status) {
    return add(parent, true, Measurement::failure(status));
  }
  Node &node(NodeId id) { return nodes[id]; }
  size_t size() const { return nodes.size(); }

  /// Every terminal, depth-first in option order.
  std::vector<NodeId> terminals() const {
    std::vector<NodeId> out;
    std::vector<NodeId> stack{0};
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      if (nodes[n].terminal)
        out.push_back(n);
      for (auto it = nodes[n].children.rbegin(); it != nodes[n].children.rend();
           ++it)
        stack.push_back(*it);
    }
    return out;
  }

  /// The best valid latency of any terminal.
  double bestUs() const {
    double best = std::numeric_limits<double>::infinity();
    for (const Node &n : nodes)
      if (n.terminal && n.measurement.isValid())
        best = std::min(best, n.measurement.medianUs);
    return best;
  }

  /// The terminal reached from the root through preferred children.
  NodeId preferredLeaf() const {
    NodeId n = 0;
    while (!nodes[n].terminal && !nodes[n].children.empty())
      n = nodes[n].children[nodes[n].preferred];
    return n;
  }

  // SearchSpace.
  NodeId root() override { return 0; }
  bool isTerminal(NodeId id) override { return nodes.at(id).terminal; }
  void children(NodeId id, llvm::SmallVectorImpl<NodeId> &out) override {
    ++expansions.at(id);
    if (onExpand)
      onExpand(id);
    out.append(nodes[id].children.begin(), nodes[id].children.end());
  }
  std::optional<double> prior(NodeId id) override { return nodes[id].prior; }
  size_t preferredChild(NodeId id, llvm::ArrayRef<NodeId>) override {
    return nodes[id].preferred;
  }
  /// Option k at depth d is the same decision wherever it is taken (as the
  /// random trees share effects by option index), unless keys are off.
  std::optional<uint64_t> decisionKey(NodeId id) override {
    if (!keys || id == 0)
      return std::nullopt;
    return (uint64_t(nodes[id].depth) << 32) | nodes[id].option;
  }
  bool keys = true;

  /// Calls of children() per node.
  std::vector<unsigned> expansions{0};
  /// Called on every expansion (e.g. to advance a fake clock).
  std::function<void(NodeId)> onExpand;

private:
  NodeId add(NodeId parent, bool terminal, Measurement m) {
    NodeId id = nodes.size();
    Node n;
    n.parent = parent;
    n.depth = nodes[parent].depth + 1;
    n.terminal = terminal;
    n.measurement = m;
    n.option = nodes[parent].children.size();
    nodes.push_back(std::move(n));
    nodes[parent].children.push_back(id);
    expansions.push_back(0);
    return id;
  }

  std::vector<Node> nodes;
};

/// Measures a SyntheticTree's terminals; counts calls per node and can
/// advance a fake clock by `secondsPerMeasure`.
class TreeEvaluator : public Evaluator {
public:
  explicit TreeEvaluator(SyntheticTree &tree) : tree(tree) {}
  Measurement measure(NodeId id) override {
    if (id >= counts.size())
      counts.resize(tree.size(), 0);
    ++counts[id];
    ++total;
    if (clock)
      *clock += secondsPerMeasure;
    return tree.node(id).measurement;
  }
  unsigned count(NodeId id) const {
    return id < counts.size() ? counts[id] : 0;
  }
  unsigned maxCount() const {
    unsigned m = 0;
    for (unsigned c : counts)
      m = std::max(m, c);
    return m;
  }

  SyntheticTree &tree;
  std::vector<unsigned> counts;
  size_t total = 0;
  double *clock = nullptr;
  double secondsPerMeasure = 0;
};

struct RandomTreeOptions {
  /// Leaf latencies correlate with their subtree (a product of per-node
  /// factors, partly shared by option index) or are independent.
  bool structured = true;
  /// Share of each level's factor that belongs to the node rather than to
  /// its option index (0: separable up to noise; 1: no shared effects).
  double interaction = 0.3;
  /// Whether option 0 is a decent heuristic: its shared effect ranks in the
  /// best quarter of its level (the best for up to 4 options).
  bool goodDefault = true;
  /// Relative noise on each leaf (uniform in +-noise).
  double noise = 0.02;
  /// Probability that a leaf fails.
  double failureRate = 0;
  /// Probability that a level-1 subtree fails entirely (an illegal option).
  double failingSubtreeRate = 0;
  /// Terminal counts are kept in [minTerminals, maxTerminals].
  double minTerminals = 1e3, maxTerminals = 1e5;
};

/// A random tree of depth 4-7: each level is one rule with 2-12 options
/// (siblings sometimes lose a few, as legality varies), some leaves end a
/// level early. Structured latencies: 10 µs times, per level, a factor that
/// mixes an effect of the option index (shared across the level) with one of
/// the node (`interaction`), so that subtrees correlate; a 20x spread for a
/// typical leaf, 400x at most. Unstructured: log-uniform in [10, 200] µs.
inline SyntheticTree makeRandomTree(uint64_t seed,
                                    const RandomTreeOptions &opts = {}) {
  std::mt19937_64 rng(seed);
  unsigned depth = 4 + rng() % 4;
  std::vector<unsigned> width(depth);
  double product;
  do {
    product = 1;
    for (unsigned &w : width) {
      w = 2 + rng() % 11;
      product *= w;
    }
  } while (product < opts.minTerminals * 1.3 || product > opts.maxTerminals);
  // Per-level option effects and spreads.
  std::vector<std::vector<double>> optionEffect(depth);
  for (unsigned l = 0; l < depth; ++l) {
    for (unsigned k = 0; k < width[l]; ++k)
      optionEffect[l].push_back(unit(rng));
    if (opts.goodDefault) {
      std::vector<double> sorted = optionEffect[l];
      std::sort(sorted.begin(), sorted.end());
      double target = sorted[(width[l] - 1) / 4];
      auto it =
          std::find(optionEffect[l].begin(), optionEffect[l].end(), target);
      std::iter_swap(optionEffect[l].begin(), it);
    }
  }
  double spread = std::log(20.0) / depth;

  SyntheticTree tree;
  struct Pending {
    NodeId id;
    unsigned level;
    double logFactor;
    bool failing;
  };
  std::vector<Pending> stack{{0, 0, 0, false}};
  while (!stack.empty()) {
    Pending p = stack.back();
    stack.pop_back();
    unsigned n = width[p.level];
    if (n > 3 && rng() % 4 == 0)
      n -= 1 + rng() % 2;
    for (unsigned k = 0; k < n; ++k) {
      double local =
          opts.structured
              ? spread * 2 *
                    ((1 - opts.interaction) * optionEffect[p.level][k] +
                     opts.interaction * unit(rng))
              : 0;
      double logFactor = p.logFactor + local;
      bool failing =
          p.failing || (p.level == 0 && unit(rng) < opts.failingSubtreeRate);
      bool last = p.level + 1 == depth;
      bool early = !last && p.level + 2 >= depth && rng() % 20 == 0;
      if (last || early) {
        // A leaf that ends early gets the mean factor of the levels it
        // skips, so that it is not faster for lack of factors.
        logFactor += spread * (depth - 1 - p.level);
        double us = opts.structured ? 10 * std::exp(logFactor)
                                    : 10 * std::exp(std::log(20.0) * unit(rng));
        us *= 1 + opts.noise * (2 * unit(rng) - 1);
        if (failing || unit(rng) < opts.failureRate)
          tree.addFailure(p.id, MeasureStatus(1 + rng() % 4));
        else
          tree.addLeaf(p.id, us);
      } else {
        NodeId child = tree.addInner(p.id);
        stack.push_back({child, p.level + 1, logFactor, failing});
      }
    }
  }
  return tree;
}

/// A tree with `widths[l]` options at level l and latency
/// prod_l factors[l][option], no noise.
inline SyntheticTree
makeSeparableTree(const std::vector<std::vector<double>> &factors) {
  SyntheticTree tree;
  std::vector<std::pair<NodeId, double>> level{{0, 1.0}};
  for (size_t l = 0; l < factors.size(); ++l) {
    std::vector<std::pair<NodeId, double>> next;
    bool last = l + 1 == factors.size();
    for (auto [id, f] : level)
      for (double factor : factors[l]) {
        if (last)
          tree.addLeaf(id, f * factor);
        else
          next.push_back({tree.addInner(id), f * factor});
      }
    level = std::move(next);
  }
  return tree;
}

/// A tree shaped like a GEMM's forks under a roofline-like model: the
/// latency is the largest of three bottlenecks (compute, parallelism, the
/// split's reduction) set by two coupled forks, `split` (level 0) and
/// `tile` (level 1), times separable factors of two more forks; two forks
/// change nothing (like `unroll` on the model). From the heuristic, every
/// single change of split or tile is worse, the best tile alone by 50%; the
/// optimum, 16% below the best single-change terminal, takes split = 3 and
/// tile = 2 together. Every level is full, so its keys are (depth, option).
inline SyntheticTree makeBottleneckTree(unsigned inertWidth = 8) {
  static const double compute[] = {1.0, 1.1, 0.8, 1.2, 1.05, 1.3};
  static const double perTile[] = {1.0, 1.0, 1.5, 1.2, 1.1, 0.9};
  static const double split[] = {1.0, 0.8, 0.9, 1.9, 0.7, 1.1};
  static const double reduce[] = {0.5, 0.6, 0.55, 1.05, 0.7, 0.9};
  static const double third[] = {1.0, 1.1, 0.97, 1.3};
  static const double fifth[] = {1.0, 1.2, 0.98};
  const unsigned widths[] = {6, 6, inertWidth, 4, inertWidth, 3};
  SyntheticTree tree;
  std::vector<std::pair<NodeId, std::vector<unsigned>>> level{{0, {}}};
  for (unsigned l = 0; l < 6; ++l) {
    std::vector<std::pair<NodeId, std::vector<unsigned>>> next;
    for (auto &[id, options] : level)
      for (unsigned k = 0; k < widths[l]; ++k) {
        std::vector<unsigned> path = options;
        path.push_back(k);
        if (l < 5) {
          next.push_back({tree.addInner(id), path});
          continue;
        }
        unsigned a = path[0], b = path[1];
        double us = 10 *
                    std::max({compute[b], perTile[b] / split[a],
                              reduce[a] * compute[b]}) *
                    third[path[3]] * fifth[path[5]];
        tree.addLeaf(id, us);
      }
    level = std::move(next);
  }
  return tree;
}

/// A full tree too large to build: `widths[l]` options at level l, node ids
/// encoding the depth (top byte) and the options taken (four bits each), the
/// latency of a terminal any function of its options. Option k at depth d is
/// the same decision wherever it is taken.
class GridSpace : public SearchSpace {
public:
  using Latency = std::function<double(const std::vector<unsigned> &)>;
  GridSpace(std::vector<unsigned> widths, Latency latency)
      : widths(std::move(widths)), latency(std::move(latency)) {}

  static unsigned depthOf(NodeId id) { return unsigned(id >> 56); }
  /// The options taken from the root to `id`.
  static std::vector<unsigned> optionsOf(NodeId id) {
    std::vector<unsigned> path(depthOf(id));
    for (unsigned l = 0; l < path.size(); ++l)
      path[l] = unsigned(id >> (4 * l)) & 15;
    return path;
  }
  NodeId root() override { return 0; }
  bool isTerminal(NodeId id) override { return depthOf(id) == widths.size(); }
  void children(NodeId id, llvm::SmallVectorImpl<NodeId> &out) override {
    ++expansions;
    unsigned d = depthOf(id);
    if (d == widths.size())
      return;
    NodeId base = (id & ((NodeId(1) << 56) - 1)) | (NodeId(d + 1) << 56);
    for (unsigned k = 0; k < widths[d]; ++k)
      out.push_back(base | (NodeId(k) << (4 * d)));
  }
  std::optional<uint64_t> decisionKey(NodeId id) override {
    unsigned d = depthOf(id);
    if (d == 0)
      return std::nullopt;
    return (uint64_t(d) << 32) | ((id >> (4 * (d - 1))) & 15);
  }
  /// How many knobs two options of one fork set differently, when `distance`
  /// says (each option a setting of several knobs).
  std::optional<unsigned> decisionDistance(NodeId a, NodeId b) override {
    unsigned d = depthOf(a);
    if (!distance || d == 0 || d != depthOf(b))
      return std::nullopt;
    return distance(unsigned(a >> (4 * (d - 1))) & 15,
                    unsigned(b >> (4 * (d - 1))) & 15);
  }
  Measurement measure(NodeId id) {
    ++measured[id];
    return Measurement::latency(latency(optionsOf(id)));
  }
  /// The best latency, by enumeration (small grids only).
  double bestUs() const {
    double best = std::numeric_limits<double>::infinity();
    std::vector<unsigned> path(widths.size(), 0);
    while (true) {
      best = std::min(best, latency(path));
      size_t l = 0;
      while (l < path.size() && ++path[l] == widths[l])
        path[l++] = 0;
      if (l == path.size())
        return best;
    }
  }

  std::vector<unsigned> widths;
  Latency latency;
  std::function<unsigned(unsigned, unsigned)> distance;
  size_t expansions = 0;
  std::map<NodeId, unsigned> measured;
};

class GridEvaluator : public Evaluator {
public:
  explicit GridEvaluator(GridSpace &space) : space(space) {}
  Measurement measure(NodeId id) override { return space.measure(id); }
  GridSpace &space;
};

} // namespace deplodock::tuner::testing

#endif // DEPLODOCK_UNITTESTS_TUNER_SEARCH_SYNTHETICTREE_H
