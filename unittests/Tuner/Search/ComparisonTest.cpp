//===- ComparisonTest.cpp - Comparing strategies on synthetic trees -------===//

#include "SyntheticTree.h"

#include "Deplodock/Tuner/Search.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>

using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

TEST(SearchComparison, VariantsToReach) {
  SearchResult result;
  for (double us : {50.0, 30.0, 25.0, 10.0})
    result.variants.push_back({0, Measurement::latency(us), 0});
  result.variants.insert(result.variants.begin() + 1,
                         {0, Measurement::failure(MeasureStatus::Timeout), 0});
  EXPECT_EQ(variantsToReach(result, 1000), 1u);
  EXPECT_EQ(variantsToReach(result, 30), 3u);
  EXPECT_EQ(variantsToReach(result, 10.2), 5u);
  EXPECT_EQ(variantsToReach(result, 9), std::nullopt);
}

TEST(SearchComparison, ReportsEveryStrategyOnOneTree) {
  SyntheticTree tree = makeRandomTree(42);
  TreeEvaluator evaluator(tree);
  SearchOptions options;
  options.patience = 0;
  auto names = searchStrategyNames();
  auto report =
      compareStrategies(tree, evaluator, names, options, tree.bestUs());
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  ASSERT_EQ(report->rows.size(), names.size());
  EXPECT_EQ(report->referenceUs, tree.bestUs());
  for (const StrategyComparison &row : report->rows) {
    if (row.strategy == "exhaustive") {
      EXPECT_EQ(row.measured, tree.terminals().size());
      EXPECT_EQ(row.bestUs, tree.bestUs());
      EXPECT_TRUE(row.variantsToTarget.has_value());
    }
    if (row.strategy == "greedy")
      EXPECT_EQ(row.measured, 1u);
    if (row.variantsToTarget)
      EXPECT_LE(*row.variantsToTarget, row.measured);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  printComparison(os, *report);
  EXPECT_NE(text.find("exhaustive"), std::string::npos);
  EXPECT_NE(text.find("to target"), std::string::npos);

  // Without a reference, the best any strategy found (exhaustive: optimum).
  auto implicit = compareStrategies(tree, evaluator, names, options);
  ASSERT_TRUE(bool(implicit));
  EXPECT_EQ(implicit->referenceUs, tree.bestUs());

  auto bad = compareStrategies(tree, evaluator, {"mcts", "nope"}, options);
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
}

/// Runs `names` on `seeds` random trees of one kind and prints, per
/// strategy: with patience off and no budget, the variants needed to get
/// within 2% of the optimum (mean over the seeds that got there, and how many
/// did); with the defaults (patience 60, beam width 4), the variants measured
/// how often the best was within 2% and the mean of best / optimum (greedy:
/// infinite when option 0 leads to a failure). Returns the first mean per
/// strategy.
std::map<std::string, double>
compareOnTrees(const char *kind, const RandomTreeOptions &treeOptions,
               unsigned seeds, llvm::ArrayRef<llvm::StringRef> names) {
  struct Sums {
    double toTarget = 0;
    unsigned reached = 0;
    double measuredDefault = 0;
    unsigned closeDefault = 0;
    double ratioDefault = 0;
  };
  std::map<std::string, Sums> sums;
  double terminals = 0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    SyntheticTree tree = makeRandomTree(5000 + seed, treeOptions);
    terminals += tree.terminals().size();
    TreeEvaluator evaluator(tree);
    SearchOptions unlimited;
    unlimited.patience = 0;
    unlimited.seed = seed;
    auto full =
        compareStrategies(tree, evaluator, names, unlimited, tree.bestUs());
    SearchOptions defaults;
    defaults.seed = seed;
    auto patient =
        compareStrategies(tree, evaluator, names, defaults, tree.bestUs());
    EXPECT_TRUE(full && patient);
    if (!full || !patient)
      return {};
    for (const StrategyComparison &row : full->rows) {
      Sums &s = sums[row.strategy];
      if (row.variantsToTarget) {
        s.toTarget += *row.variantsToTarget;
        ++s.reached;
      }
    }
    for (const StrategyComparison &row : patient->rows) {
      Sums &s = sums[row.strategy];
      s.measuredDefault += row.measured;
      s.closeDefault += row.variantsToTarget.has_value();
      s.ratioDefault += row.bestUs / tree.bestUs();
    }
  }
  printf("%s trees, %u seeds, %.0f terminals on average\n", kind, seeds,
         terminals / seeds);
  printf("  %-10s %22s   %s\n", "", "no patience: to 2%",
         "defaults (patience 60):");
  printf("  %-10s %12s %9s %9s %9s %9s\n", "strategy", "variants", "reached",
         "measured", "within 2%", "best/opt");
  std::map<std::string, double> means;
  for (llvm::StringRef name : names) {
    const Sums &s = sums[name.str()];
    means[name.str()] = s.reached ? s.toTarget / s.reached : INFINITY;
    printf("  %-10s %12.1f %6u/%-2u %9.1f %6u/%-2u %9.3f\n", name.str().c_str(),
           means[name.str()], s.reached, seeds, s.measuredDefault / seeds,
           s.closeDefault, seeds, s.ratioDefault / seeds);
  }
  return means;
}

TEST(SearchComparison, AveragedOverSeeds) {
  llvm::StringRef names[] = {"mcts", "random", "beam", "exhaustive", "greedy"};
  RandomTreeOptions structured;
  auto means = compareOnTrees("structured", structured, 30, names);
  // With structure, MCTS needs far fewer variants than random walks or a
  // sweep.
  EXPECT_LT(means["mcts"] * 1.5, means["random"]);
  EXPECT_LT(means["mcts"] * 1.5, means["exhaustive"]);

  RandomTreeOptions separable;
  separable.interaction = 0;
  means = compareOnTrees("separable+noise", separable, 30, names);
  EXPECT_LT(means["mcts"] * 1.5, means["random"]);

  RandomTreeOptions noHeuristic;
  noHeuristic.goodDefault = false;
  means =
      compareOnTrees("structured, option 0 arbitrary", noHeuristic, 30, names);
  EXPECT_LT(means["mcts"] * 1.5, means["random"]);

  RandomTreeOptions flat;
  flat.structured = false;
  means = compareOnTrees("unstructured", flat, 30, names);
  // Without structure there is nothing to learn: all need about as many.
  EXPECT_LT(means["mcts"], 2 * means["random"]);
}

} // namespace
