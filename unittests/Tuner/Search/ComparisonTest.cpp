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

RandomTreeOptions smallTree() {
  RandomTreeOptions opts;
  opts.minTerminals = 1000;
  opts.maxTerminals = 3000;
  return opts;
}

TEST(SearchComparison, ReportsEveryStrategyOnOneTree) {
  SyntheticTree tree = makeRandomTree(42, smallTree());
  TreeEvaluator evaluator(tree);
  SearchOptions options;
  options.patience = 0;
  auto names = searchStrategyNames();
  CompareOptions compare;
  compare.referenceUs = tree.bestUs();
  auto report = compareStrategies(tree, evaluator, names, options, compare);
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

TEST(SearchComparison, BudgetsAndRuns) {
  SyntheticTree tree = makeRandomTree(43, smallTree());
  TreeEvaluator evaluator(tree);
  SearchOptions options;
  options.patience = 0;
  CompareOptions compare;
  compare.budgets = {16, 4};
  compare.runs = 3;
  compare.referenceUs = tree.bestUs();
  auto report =
      compareStrategies(tree, evaluator, {"mcts", "random"}, options, compare);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  EXPECT_EQ(report->budgets, (llvm::SmallVector<size_t>{4, 16}));
  EXPECT_EQ(report->seeds, (llvm::SmallVector<uint64_t>{0, 1, 2}));
  for (const StrategyComparison &row : report->rows) {
    // Runs stop at the largest budget when the options set none.
    EXPECT_EQ(row.measured, 16u);
    ASSERT_EQ(row.bestAtBudget.size(), 3u);
    for (const std::vector<double> &run : row.bestAtBudget) {
      ASSERT_EQ(run.size(), 2u);
      EXPECT_GE(run[0], run[1]); // More variants are never worse.
      EXPECT_GE(run[1], tree.bestUs());
    }
    EXPECT_GE(report->medianRatio(row, 0), report->medianRatio(row, 1));
    EXPECT_GE(report->medianRatio(row, 1), 1.0);
    EXPECT_LE(report->runsWithin(row, 0), report->runsWithin(row, 1));
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  printComparison(os, *report);
  EXPECT_NE(text.find("@4"), std::string::npos) << text;
  EXPECT_NE(text.find("@16"), std::string::npos) << text;
  EXPECT_NE(text.find("3 runs per strategy"), std::string::npos) << text;

  // Over two trees: a line per strategy and budget, against random.
  SyntheticTree other = makeRandomTree(44, smallTree());
  TreeEvaluator otherEvaluator(other);
  compare.referenceUs = other.bestUs();
  auto second = compareStrategies(other, otherEvaluator, {"mcts", "random"},
                                  options, compare);
  ASSERT_TRUE(bool(second));
  std::string summary;
  llvm::raw_string_ostream sos(summary);
  ComparisonReport both[] = {*report, *second};
  printComparisonSummary(sos, both);
  EXPECT_NE(summary.find("over 2 kernels"), std::string::npos) << summary;
  // random against itself: equal on both kernels at both budgets.
  EXPECT_NE(summary.find("random              4"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("0/2/0"), std::string::npos) << summary;
}

/// The variant budget of the runs without patience.
constexpr size_t kBudget = 2000;

/// Runs `names` on `seeds` random trees of one kind and prints, per
/// strategy: with patience off and a budget of kBudget variants, the
/// variants needed to get within 2% of the optimum (mean over the seeds,
/// kBudget for a seed that did not get there, and how many did); with the
/// defaults (patience, beam width 4), the variants measured, how often the
/// best was within 2% and the mean of best / optimum (greedy: infinite when
/// option 0 leads to a failure). Returns the first mean per strategy.
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
    unlimited.maxVariants = kBudget;
    unlimited.seed = seed;
    CompareOptions compare;
    compare.referenceUs = tree.bestUs();
    auto full = compareStrategies(tree, evaluator, names, unlimited, compare);
    SearchOptions defaults;
    defaults.seed = seed;
    auto patient = compareStrategies(tree, evaluator, names, defaults, compare);
    EXPECT_TRUE(full && patient);
    if (!full || !patient)
      return {};
    for (const StrategyComparison &row : full->rows) {
      Sums &s = sums[row.strategy];
      s.toTarget += row.variantsToTarget ? *row.variantsToTarget : kBudget;
      s.reached += row.variantsToTarget.has_value();
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
  printf("  %-10s %22s   %s\n", "", "no patience: to 2%", "defaults:");
  printf("  %-10s %12s %9s %9s %9s %9s\n", "strategy", "variants", "reached",
         "measured", "within 2%", "best/opt");
  std::map<std::string, double> means;
  for (llvm::StringRef name : names) {
    const Sums &s = sums[name.str()];
    means[name.str()] = s.toTarget / seeds;
    printf("  %-10s %12.1f %6u/%-2u %9.1f %6u/%-2u %9.3f\n", name.str().c_str(),
           means[name.str()], s.reached, seeds, s.measuredDefault / seeds,
           s.closeDefault, seeds, s.ratioDefault / seeds);
  }
  return means;
}

TEST(SearchComparison, AveragedOverSeeds) {
  llvm::StringRef names[] = {"mcts", "random", "beam", "exhaustive", "greedy"};
  constexpr unsigned kSeeds = 10;
  RandomTreeOptions structured;
  auto means = compareOnTrees("structured", structured, kSeeds, names);
  // With structure, MCTS needs far fewer variants than random draws or a
  // sweep (at the time of writing 10x and 30x fewer).
  EXPECT_LT(means["mcts"] * 3, means["random"]);
  EXPECT_LT(means["mcts"] * 3, means["exhaustive"]);

  RandomTreeOptions separable;
  separable.interaction = 0;
  means = compareOnTrees("separable+noise", separable, kSeeds, names);
  EXPECT_LT(means["mcts"] * 3, means["random"]);

  RandomTreeOptions noHeuristic;
  noHeuristic.goodDefault = false;
  means = compareOnTrees("structured, option 0 arbitrary", noHeuristic, kSeeds,
                         names);
  EXPECT_LT(means["mcts"] * 3, means["random"]);

  RandomTreeOptions flat;
  flat.structured = false;
  means = compareOnTrees("unstructured", flat, kSeeds, names);
  // Without structure there is nothing to learn: all need about as many.
  EXPECT_LT(means["mcts"], 2 * means["random"]);
}

} // namespace
