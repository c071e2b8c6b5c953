//===- StrategiesTest.cpp - Greedy, random, beam, exhaustive, factory -----===//

#include "SyntheticTree.h"

#include "Deplodock/Tuner/Search.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

SearchResult runNamed(llvm::StringRef name, SyntheticTree &tree,
                      const SearchOptions &options = {}) {
  auto strategy = createSearchStrategy(name);
  EXPECT_TRUE(bool(strategy));
  TreeEvaluator evaluator(tree);
  SearchResult result = (*strategy)->run(tree, evaluator, options);
  EXPECT_LE(evaluator.maxCount(), 1u)
      << name.str() << " measured a terminal twice";
  return result;
}

RandomTreeOptions smallTree() {
  RandomTreeOptions opts;
  opts.minTerminals = 500;
  opts.maxTerminals = 3000;
  return opts;
}

//===----------------------------------------------------------------------===//
// Factory
//===----------------------------------------------------------------------===//

TEST(SearchFactory, KnownNames) {
  EXPECT_EQ(searchStrategyNames().front(), "mcts");
  for (llvm::StringRef name : searchStrategyNames()) {
    auto strategy = createSearchStrategy(name);
    ASSERT_TRUE(bool(strategy)) << llvm::toString(strategy.takeError());
    EXPECT_EQ((*strategy)->name(), name);
  }
}

TEST(SearchFactory, UnknownNameIsALocatedError) {
  auto errorOf = [](llvm::StringRef name, llvm::StringRef origin) {
    auto strategy = createSearchStrategy(name, origin);
    return strategy ? std::string() : llvm::toString(strategy.takeError());
  };
  EXPECT_EQ(errorOf("mtcs", "--search"),
            "--search: unknown search strategy 'mtcs'; did you mean 'mcts'? "
            "(expected one of: mcts, greedy, random, beam, exhaustive)");
  EXPECT_EQ(errorOf("Beam", "tune.mlir:3:7"),
            "tune.mlir:3:7: unknown search strategy 'Beam'; did you mean "
            "'beam'? (expected one of: mcts, greedy, random, beam, "
            "exhaustive)");
  EXPECT_EQ(errorOf("annealing", "search strategy"),
            "search strategy: unknown search strategy 'annealing' (expected "
            "one of: mcts, greedy, random, beam, exhaustive)");
}

TEST(SearchFactory, Names) {
  EXPECT_EQ(stopReasonName(StopReason::Exhausted), "exhausted");
  EXPECT_EQ(stopReasonName(StopReason::Completed), "completed");
  EXPECT_EQ(stopReasonName(StopReason::Patience), "patience");
  EXPECT_EQ(stopReasonName(StopReason::VariantBudget), "variant_budget");
  EXPECT_EQ(stopReasonName(StopReason::TimeBudget), "time_budget");
  EXPECT_EQ(stopReasonName(StopReason::Cancelled), "cancelled");
  EXPECT_EQ(measureStatusName(MeasureStatus::Ok), "ok");
  EXPECT_EQ(measureStatusName(MeasureStatus::CompileFail), "compile_fail");
  EXPECT_EQ(measureStatusName(MeasureStatus::LaunchFail), "launch_fail");
  EXPECT_EQ(measureStatusName(MeasureStatus::Timeout), "timeout");
  EXPECT_EQ(measureStatusName(MeasureStatus::WrongResult), "wrong_result");
  EXPECT_DOUBLE_EQ(Measurement::latency(4).reward(), 0.25);
  EXPECT_EQ(Measurement::failure(MeasureStatus::Timeout).reward(), 0);
}

TEST(SearchFactory, CancellingStopsEveryStrategy) {
  for (llvm::StringRef name : searchStrategyNames()) {
    SyntheticTree tree = makeRandomTree(5, smallTree());
    SearchOptions options;
    size_t measured = 0;
    options.onMeasured = [&](const ProgressEvent &) { ++measured; };
    // Cancelled once three variants are in: the fourth is never measured.
    options.cancelled = [&] { return measured >= 3; };
    SearchResult result = runNamed(name, tree, options);
    EXPECT_LE(result.numMeasured(), 3u) << name.str();
    if (name != "greedy") {
      EXPECT_EQ(result.numMeasured(), 3u) << name.str();
      EXPECT_EQ(result.stopReason, StopReason::Cancelled) << name.str();
    }
  }
}

//===----------------------------------------------------------------------===//
// Greedy
//===----------------------------------------------------------------------===//

TEST(GreedySearch, MeasuresExactlyThePreferredPath) {
  SyntheticTree tree = makeRandomTree(21);
  // Prefer the last option at even depths, the second at odd ones.
  for (NodeId n = 0; n < tree.size(); ++n) {
    auto &node = tree.node(n);
    if (!node.children.empty())
      node.preferred = node.depth % 2 ? 1 : node.children.size() - 1;
  }
  SearchResult result = runNamed("greedy", tree);
  ASSERT_EQ(result.numMeasured(), 1u);
  NodeId leaf = tree.preferredLeaf();
  EXPECT_EQ(result.variants[0].node, leaf);
  EXPECT_EQ(result.stopReason, StopReason::Completed);
  // Only the nodes on the path were expanded.
  std::set<NodeId> path;
  for (NodeId n = tree.node(leaf).parent;; n = tree.node(n).parent) {
    path.insert(n);
    if (n == 0)
      break;
  }
  for (NodeId n = 0; n < tree.size(); ++n)
    EXPECT_EQ(tree.expansions[n], path.count(n) ? 1u : 0u);
}

TEST(GreedySearch, DefaultsToOptionZeroAndSurvivesDeadEnds) {
  SyntheticTree tree;
  NodeId a = tree.addInner(0);
  tree.addLeaf(0, 1);
  NodeId a0 = tree.addLeaf(a, 5);
  tree.addLeaf(a, 2);
  SearchResult result = runNamed("greedy", tree);
  ASSERT_EQ(result.numMeasured(), 1u);
  EXPECT_EQ(result.variants[0].node, a0);

  SyntheticTree dead;
  dead.addInner(dead.addInner(0));
  dead.addLeaf(0, 1);
  SearchResult none = runNamed("greedy", dead);
  EXPECT_EQ(none.numMeasured(), 0u);
  EXPECT_EQ(none.best(), nullptr);
}

//===----------------------------------------------------------------------===//
// Random
//===----------------------------------------------------------------------===//

TEST(RandomSearch, NeverRepeatsAndExhausts) {
  SyntheticTree tree = makeRandomTree(4, smallTree());
  SearchOptions options;
  options.patience = 0;
  options.seed = 17;
  SearchResult result = runNamed("random", tree, options);
  EXPECT_EQ(result.stopReason, StopReason::Exhausted);
  EXPECT_EQ(result.numMeasured(), tree.terminals().size());
  std::set<NodeId> seen;
  for (const MeasuredVariant &v : result.variants)
    EXPECT_TRUE(seen.insert(v.node).second);
  for (NodeId n = 0; n < tree.size(); ++n)
    EXPECT_LE(tree.expansions[n], 1u);
}

TEST(RandomSearch, DeterministicForASeed) {
  SearchOptions options;
  options.maxVariants = 200;
  auto nodes = [&](uint64_t seed) {
    SyntheticTree tree = makeRandomTree(8);
    options.seed = seed;
    std::vector<NodeId> out;
    for (const MeasuredVariant &v : runNamed("random", tree, options).variants)
      out.push_back(v.node);
    return out;
  };
  EXPECT_EQ(nodes(1), nodes(1));
  EXPECT_NE(nodes(1), nodes(2));
}

TEST(RandomSearch, FirstWalksAreSpread) {
  // Uniform choices among children: the first 40 walks of a wide tree do
  // not all start with option 0.
  SyntheticTree tree = makeRandomTree(12);
  SearchOptions options;
  options.maxVariants = 40;
  SearchResult result = runNamed("random", tree, options);
  std::set<NodeId> firstLevel;
  for (const MeasuredVariant &v : result.variants) {
    NodeId n = v.node;
    while (tree.node(n).parent != 0)
      n = tree.node(n).parent;
    firstLevel.insert(n);
  }
  EXPECT_GE(firstLevel.size(),
            std::min<size_t>(3, tree.node(0).children.size()));
}

TEST(RandomSearch, TerminalsAreAboutEquallyLikely) {
  // Root: a leaf, a subtree of 9 leaves, a chain ending in 90 leaves (three
  // levels deep). Uniform over terminals, the first draw is the lone leaf 1%
  // of the time, in the 9 about 9%, in the 90 about 90%; uniform per level it
  // would be a third each.
  SyntheticTree tree;
  NodeId lone = tree.addLeaf(0, 1);
  NodeId nine = tree.addInner(0);
  for (int i = 0; i < 9; ++i)
    tree.addLeaf(nine, 2);
  NodeId chain = tree.addInner(tree.addInner(tree.addInner(0)));
  for (int i = 0; i < 90; ++i)
    tree.addLeaf(chain, 3);
  unsigned inLone = 0, inNine = 0, inChain = 0;
  constexpr unsigned kSeeds = 400;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    SearchOptions options;
    options.seed = seed;
    options.maxVariants = 1;
    SearchResult result = runNamed("random", tree, options);
    ASSERT_EQ(result.numMeasured(), 1u);
    NodeId first = result.variants[0].node;
    inLone += first == lone;
    inNine += tree.node(first).parent == nine;
    inChain += tree.node(first).parent == chain;
  }
  EXPECT_LE(inLone, kSeeds * 4 / 100);
  EXPECT_GE(inNine, kSeeds * 4 / 100);
  EXPECT_LE(inNine, kSeeds * 16 / 100);
  EXPECT_GE(inChain, kSeeds * 80 / 100);
}

TEST(RandomSearch, SameDecisionsShareTheirEstimates) {
  // Eight forks of eight options, every option the same decision wherever
  // it is taken (16.8 M terminals). A walk below every child of every node
  // met would expand hundreds of nodes per variant; estimates shared by
  // decision need two walks per decision, then about one expansion per
  // level of each draw.
  GridSpace space(std::vector<unsigned>(8, 8),
                  [](const std::vector<unsigned> &path) {
                    return 10.0 + path[0] + path[7];
                  });
  GridEvaluator evaluator(space);
  SearchOptions options;
  options.maxVariants = 64;
  options.seed = 3;
  SearchResult result = createRandomSearch()->run(space, evaluator, options);
  ASSERT_EQ(result.numMeasured(), 64u);
  printf("random, 64 variants of 8^8 terminals: %zu expansions\n",
         result.numExpanded);
  EXPECT_LE(result.numExpanded, 64u * 8 * 3);
  // Still spread over the first fork's options, and never a terminal twice.
  std::set<unsigned> first;
  for (const MeasuredVariant &v : result.variants)
    first.insert(GridSpace::optionsOf(v.node)[0]);
  EXPECT_EQ(first.size(), 8u);
  for (auto [node, count] : space.measured)
    EXPECT_EQ(count, 1u);
}

//===----------------------------------------------------------------------===//
// Beam
//===----------------------------------------------------------------------===//

TEST(BeamSearch, KeepsWidthNodesPerDepth) {
  for (unsigned width : {1u, 2u, 4u}) {
    SyntheticTree tree = makeRandomTree(30 + width);
    TreeEvaluator evaluator(tree);
    SearchOptions options;
    options.patience = 0;
    options.beamWidth = width;
    SearchResult result = createBeamSearch()->run(tree, evaluator, options);
    EXPECT_LE(evaluator.maxCount(), 1u);
    // A beam member has every child scored (expanded or measured); a node on
    // a rollout path only its preferred child. At most `width` per depth.
    std::map<unsigned, unsigned> members;
    for (NodeId n = 0; n < tree.size(); ++n) {
      EXPECT_LE(tree.expansions[n], 1u);
      auto &node = tree.node(n);
      if (!tree.expansions[n] || node.children.size() < 2)
        continue;
      bool all = true;
      for (NodeId child : node.children)
        all &= tree.expansions[child] > 0 || evaluator.count(child) > 0;
      members[node.depth] += all;
    }
    for (auto [depth, count] : members)
      EXPECT_LE(count, depth == 0 ? 1 : width)
          << "depth " << depth << " width " << width;
    // Every depth but the last kept exactly `width` (the trees are wide).
    EXPECT_EQ(members[1], width);
    EXPECT_EQ(result.stopReason, StopReason::Completed);
    // The first measurement is the greedy (replay) choice.
    EXPECT_EQ(result.variants[0].node, tree.preferredLeaf());
  }
}

TEST(BeamSearch, FindsOptimumOfSeparableTree) {
  SyntheticTree tree = makeSeparableTree({{3, 1.5, 2, 1.2},
                                          {1, 4, 0.5, 2, 3},
                                          {2, 2, 0.8},
                                          {5, 1, 3, 0.9, 2, 1.1, 7},
                                          {1, 0.7}});
  SearchOptions options;
  options.patience = 0;
  options.beamWidth = 1;
  SearchResult result = runNamed("beam", tree, options);
  EXPECT_DOUBLE_EQ(result.best()->measurement.medianUs, tree.bestUs());
  // Width 1: one candidate per option per level, fewer than the options.
  EXPECT_LE(result.numMeasured(), 4u + 5 + 3 + 7 + 2);
}

TEST(BeamSearch, WideBeamIsExhaustive) {
  SyntheticTree tree = makeRandomTree(6, smallTree());
  SearchOptions options;
  options.patience = 0;
  options.beamWidth = 100000;
  SearchResult result = runNamed("beam", tree, options);
  EXPECT_EQ(result.stopReason, StopReason::Exhausted);
  EXPECT_EQ(result.numMeasured(), tree.terminals().size());
}

TEST(BeamSearch, FailingRolloutsRankLast) {
  // Option 0 of the root's children fails on its preferred path; beam of
  // width 1 keeps the child whose rollout is fastest.
  SyntheticTree tree;
  NodeId a = tree.addInner(0), b = tree.addInner(0);
  NodeId a0 = tree.addInner(a), a1 = tree.addInner(a);
  tree.addFailure(a0, MeasureStatus::LaunchFail);
  tree.addLeaf(a0, 1);
  tree.addLeaf(a1, 30);
  NodeId b0 = tree.addInner(b);
  tree.addLeaf(b0, 20);
  NodeId bBest = tree.addLeaf(b0, 10);
  SearchOptions options;
  options.beamWidth = 1;
  SearchResult result = runNamed("beam", tree, options);
  // Level 1: a (fails), b (20) -> keep b. Level 2: b0 (20, known). Level 3:
  // b0's leaves. a's good leaf (1 µs) hides behind a failure.
  ASSERT_TRUE(result.best());
  EXPECT_EQ(result.best()->node, bBest);
  EXPECT_EQ(result.numMeasured(), 3u);
}

TEST(BeamSearch, Budgets) {
  SyntheticTree tree = makeRandomTree(10);
  SearchOptions options;
  options.patience = 0;
  options.maxVariants = 9;
  SearchResult result = runNamed("beam", tree, options);
  EXPECT_EQ(result.stopReason, StopReason::VariantBudget);
  EXPECT_EQ(result.numMeasured(), 9u);
}

//===----------------------------------------------------------------------===//
// Exhaustive
//===----------------------------------------------------------------------===//

TEST(ExhaustiveSearch, EveryTerminalOnceInOrder) {
  SyntheticTree tree = makeRandomTree(2, smallTree());
  SearchResult result = runNamed("exhaustive", tree);
  EXPECT_EQ(result.stopReason, StopReason::Exhausted);
  std::vector<NodeId> nodes;
  for (const MeasuredVariant &v : result.variants)
    nodes.push_back(v.node);
  EXPECT_EQ(nodes, tree.terminals());
  EXPECT_EQ(result.best()->measurement.medianUs, tree.bestUs());
  for (NodeId n = 0; n < tree.size(); ++n)
    EXPECT_EQ(tree.expansions[n], tree.node(n).terminal ? 0u : 1u);
}

TEST(ExhaustiveSearch, PatienceOnlyWhenAsked) {
  SyntheticTree tree = makeRandomTree(2, smallTree());
  SearchOptions options;
  options.patience = 10;
  SearchResult result = runNamed("exhaustive", tree, options);
  EXPECT_EQ(result.stopReason, StopReason::Patience);
  EXPECT_EQ(result.numMeasured() - 1 - *result.bestIndex, 10u);
}

TEST(ExhaustiveSearch, FakeTimeBudget) {
  SyntheticTree tree = makeRandomTree(2, smallTree());
  double now = 0;
  TreeEvaluator evaluator(tree);
  evaluator.clock = &now;
  evaluator.secondsPerMeasure = 1.5;
  SearchOptions options;
  options.maxSeconds = 10;
  options.clock = [&] { return now; };
  SearchResult result = createExhaustiveSearch()->run(tree, evaluator, options);
  // Measurements start at 0, 1.5, ..., 9: seven of them.
  EXPECT_EQ(result.stopReason, StopReason::TimeBudget);
  EXPECT_EQ(result.numMeasured(), 7u);
  EXPECT_DOUBLE_EQ(result.seconds, 10.5);
}

//===----------------------------------------------------------------------===//
// All strategies
//===----------------------------------------------------------------------===//

TEST(SearchAllStrategies, FailuresNeverBest) {
  for (llvm::StringRef name : searchStrategyNames()) {
    SyntheticTree tree;
    NodeId f = tree.addFailure(0, MeasureStatus::WrongResult);
    tree.node(f).measurement.medianUs = 0.5;
    NodeId good = tree.addLeaf(0, 9);
    tree.node(0).preferred = 1;
    SearchResult result = runNamed(name, tree);
    ASSERT_TRUE(result.best()) << name.str();
    EXPECT_EQ(result.best()->node, good) << name.str();
  }
}

TEST(SearchAllStrategies, VariantBudgetAndDeterminism) {
  for (llvm::StringRef name : searchStrategyNames()) {
    if (name == "greedy")
      continue;
    SearchOptions options;
    options.patience = 0;
    options.maxVariants = 25;
    options.seed = 3;
    SyntheticTree t1 = makeRandomTree(77), t2 = makeRandomTree(77);
    SearchResult r1 = runNamed(name, t1, options);
    SearchResult r2 = runNamed(name, t2, options);
    EXPECT_EQ(r1.stopReason, StopReason::VariantBudget) << name.str();
    EXPECT_EQ(r1.numMeasured(), 25u) << name.str();
    ASSERT_EQ(r1.numMeasured(), r2.numMeasured());
    for (size_t i = 0; i < r1.numMeasured(); ++i)
      EXPECT_EQ(r1.variants[i].node, r2.variants[i].node) << name.str();
  }
}

} // namespace
