//===- Strategies.cpp - Greedy, beam and exhaustive search ----------------===//

#include "SearchRun.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

/// The index of the preferred child, 0 when the space answers out of range.
static size_t preferred(SearchSpace &space, NodeId node,
                        ArrayRef<NodeId> children) {
  size_t i = space.preferredChild(node, children);
  return i < children.size() ? i : 0;
}

//===----------------------------------------------------------------------===//
// Greedy
//===----------------------------------------------------------------------===//

namespace {
class GreedySearch : public SearchStrategy {
public:
  StringRef name() const override { return "greedy"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, /*defaultPatience=*/0);
    NodeId node = space.root();
    SmallVector<NodeId> children;
    size_t depth = 0;
    while (!space.isTerminal(node)) {
      children.clear();
      if (run.shouldStop())
        return run.finish(StopReason::Completed, depth);
      run.expand(node, children);
      if (children.empty()) // A dead end: nothing to measure.
        return run.finish(StopReason::Completed, depth);
      node = children[preferred(space, node, children)];
      ++depth;
    }
    if (!run.shouldStop())
      run.evaluate(node);
    return run.finish(StopReason::Completed, depth);
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Beam
//===----------------------------------------------------------------------===//

namespace {
class BeamSearch : public SearchStrategy {
public:
  StringRef name() const override { return "beam"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, kDefaultPatience);
    unsigned width = std::max(1u, options.beamWidth);
    // Children of the nodes expanded so far and not yet passed by the beam;
    // an unordered_map because every id is legal and its entries are stable.
    std::unordered_map<NodeId, SmallVector<NodeId, 4>> cache;
    auto childrenOf = [&](NodeId node) -> ArrayRef<NodeId> {
      auto [it, inserted] = cache.try_emplace(node);
      if (inserted)
        run.expand(node, it->second);
      return it->second;
    };
    // Follows preferredChild from `node` to a terminal, or to a dead end, or
    // until the run stops.
    auto rollout = [&](NodeId node) {
      while (!space.isTerminal(node)) {
        if (!cache.count(node) && run.shouldStop())
          break;
        ArrayRef<NodeId> children = childrenOf(node);
        if (children.empty())
          break;
        node = children[preferred(space, node, children)];
      }
      return node;
    };

    NodeId root = space.root();
    SmallVector<NodeId> beam{root};
    if (space.isTerminal(root)) {
      if (!run.shouldStop())
        run.evaluate(root);
      return run.finish(StopReason::Exhausted, 1);
    }
    // Whether the top-k cut ever dropped a live node; if not, the beam saw
    // every terminal.
    bool pruned = false;
    constexpr double kUnknown = std::numeric_limits<double>::infinity();
    SmallVector<NodeId> candidates;
    SmallVector<std::tuple<double, size_t, NodeId>> scored;
    while (!beam.empty() && !run.stopped()) {
      candidates.clear();
      for (NodeId node : beam) {
        if (!cache.count(node) && run.shouldStop())
          break;
        ArrayRef<NodeId> children = childrenOf(node);
        candidates.append(children.begin(), children.end());
        cache.erase(node); // The beam never comes back up.
      }
      scored.clear();
      for (NodeId candidate : candidates) {
        if (run.stopped())
          break;
        NodeId end = rollout(candidate);
        if (run.stopped())
          break;
        if (!space.isTerminal(end)) {
          // A dead end: the candidate itself is dropped, a deeper one makes
          // it a node without a score.
          if (end != candidate)
            scored.push_back({kUnknown, scored.size(), candidate});
          continue;
        }
        if (!run.isMeasured(end) && run.shouldStop())
          break;
        Measurement m = run.evaluate(end);
        if (end != candidate)
          scored.push_back(
              {m.isValid() ? m.medianUs : kUnknown, scored.size(), candidate});
      }
      // Fastest first; failures and unknowns last; ties in expansion order
      // (the candidate's position, as a tie-break).
      llvm::sort(scored, [](const auto &a, const auto &b) {
        return std::get<0>(a) != std::get<0>(b)
                   ? std::get<0>(a) < std::get<0>(b)
                   : std::get<1>(a) < std::get<1>(b);
      });
      if (scored.size() > width) {
        pruned = true;
        scored.resize(width);
      }
      beam.clear();
      for (const auto &entry : scored)
        beam.push_back(std::get<2>(entry));
    }
    return run.finish(pruned ? StopReason::Completed : StopReason::Exhausted,
                      cache.size() + beam.size());
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Exhaustive
//===----------------------------------------------------------------------===//

namespace {
class ExhaustiveSearch : public SearchStrategy {
public:
  StringRef name() const override { return "exhaustive"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, /*defaultPatience=*/0);
    struct Frame {
      SmallVector<NodeId, 8> children;
      size_t next = 0;
    };
    SmallVector<Frame> stack;
    size_t held = 0, peak = 1;
    // Measures a terminal or pushes the children of a non-terminal.
    auto visit = [&](NodeId node) {
      if (run.shouldStop())
        return;
      if (space.isTerminal(node)) {
        run.evaluate(node);
        return;
      }
      stack.emplace_back();
      run.expand(node, stack.back().children);
      held += stack.back().children.size();
      peak = std::max(peak, held);
      // The last fork: its terminals are measured next, in this order.
      SmallVector<NodeId, 8> terminals;
      for (NodeId child : stack.back().children)
        if (space.isTerminal(child) && !run.isMeasured(child))
          terminals.push_back(child);
      if (terminals.size() > 1)
        evaluator.prefetch(terminals);
    };
    visit(space.root());
    while (!stack.empty() && !run.stopped()) {
      Frame &top = stack.back();
      if (top.next == top.children.size()) {
        held -= top.children.size();
        stack.pop_back();
        continue;
      }
      visit(top.children[top.next++]);
    }
    return run.finish(StopReason::Exhausted, peak);
  }
};
} // namespace

std::unique_ptr<SearchStrategy> deplodock::tuner::createGreedySearch() {
  return std::make_unique<GreedySearch>();
}

std::unique_ptr<SearchStrategy> deplodock::tuner::createBeamSearch() {
  return std::make_unique<BeamSearch>();
}

std::unique_ptr<SearchStrategy> deplodock::tuner::createExhaustiveSearch() {
  return std::make_unique<ExhaustiveSearch>();
}
