//===- RandomSearch.cpp - Terminals drawn uniformly -----------------------===//
//
// The honest baseline: every unmeasured terminal about equally likely. Each
// walk descends from the root choosing children in proportion to their
// estimated terminals (SearchTree::sampleChild), never a measured one; the
// seeds (warm starts) come first.
//
//===----------------------------------------------------------------------===//

#include "SearchTree.h"

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

namespace {

class RandomSearch : public SearchStrategy {
public:
  StringRef name() const override { return "random"; }

  SearchResult run(SearchSpace &space, Evaluator &evaluator,
                   const SearchOptions &options) override {
    SearchRun run(space, evaluator, options, kDefaultPatience);
    SearchTree tree(run, options.seed);
    for (Index n : tree.seedLeaves(options.seedPaths))
      if (!run.shouldStop())
        tree.measure(n);
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

} // namespace

std::unique_ptr<SearchStrategy> deplodock::tuner::createRandomSearch() {
  return std::make_unique<RandomSearch>();
}
