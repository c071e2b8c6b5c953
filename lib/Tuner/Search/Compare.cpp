//===- Compare.cpp - Comparing strategies on one space --------------------===//

#include "Deplodock/Tuner/Search.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace llvm;
using namespace deplodock::tuner;

static constexpr double kInf = std::numeric_limits<double>::infinity();

std::optional<size_t>
deplodock::tuner::variantsToReach(const SearchResult &result, double targetUs) {
  for (auto [i, variant] : enumerate(result.variants))
    if (variant.measurement.isValid() &&
        variant.measurement.medianUs <= targetUs)
      return i + 1;
  return std::nullopt;
}

double deplodock::tuner::bestWithin(const SearchResult &result, size_t budget) {
  double best = kInf;
  for (const MeasuredVariant &v : ArrayRef(result.variants).take_front(budget))
    if (v.measurement.isValid())
      best = std::min(best, v.measurement.medianUs);
  return best;
}

/// The median of `values` (the lower one of an even count), sorted in place.
static double median(std::vector<double> &values) {
  if (values.empty())
    return kInf;
  llvm::sort(values);
  return values[(values.size() - 1) / 2];
}

double ComparisonReport::medianRatio(const StrategyComparison &row,
                                     size_t b) const {
  std::vector<double> ratios;
  for (const std::vector<double> &run : row.bestAtBudget)
    ratios.push_back(run[b] / referenceUs);
  return median(ratios);
}

unsigned ComparisonReport::runsWithin(const StrategyComparison &row,
                                      size_t b) const {
  unsigned n = 0;
  for (const std::vector<double> &run : row.bestAtBudget)
    n += run[b] <= referenceUs * (1 + tolerance);
  return n;
}

Expected<ComparisonReport> deplodock::tuner::compareStrategies(
    SearchSpace &space, Evaluator &evaluator, ArrayRef<StringRef> strategies,
    const SearchOptions &options, const CompareOptions &compare) {
  ComparisonReport report;
  report.tolerance = compare.tolerance;
  report.budgets.assign(compare.budgets.begin(), compare.budgets.end());
  llvm::sort(report.budgets);
  unsigned runs = std::max(1u, compare.runs);
  for (unsigned r = 0; r < runs; ++r)
    report.seeds.push_back(options.seed + r);
  SearchOptions runOptions = options;
  if (!runOptions.maxVariants && !report.budgets.empty())
    runOptions.maxVariants = report.budgets.back();

  // Every run's result, per strategy, until the reference is known.
  std::vector<std::vector<SearchResult>> results;
  double bestUs = kInf;
  for (StringRef name : strategies) {
    Expected<std::unique_ptr<SearchStrategy>> strategy =
        createSearchStrategy(name);
    if (!strategy)
      return strategy.takeError();
    StrategyComparison row;
    row.strategy = name.str();
    row.bestUs = kInf;
    std::vector<SearchResult> &runsOf = results.emplace_back();
    for (uint64_t seed : report.seeds) {
      runOptions.seed = seed;
      runsOf.push_back((*strategy)->run(space, evaluator, runOptions));
      const SearchResult &result = runsOf.back();
      if (result.best())
        row.bestUs = std::min(row.bestUs, result.best()->measurement.medianUs);
      std::vector<double> &atBudget = row.bestAtBudget.emplace_back();
      for (size_t budget : report.budgets)
        atBudget.push_back(bestWithin(result, budget));
    }
    row.measured = runsOf.front().numMeasured();
    row.stopReason = runsOf.front().stopReason;
    bestUs = std::min(bestUs, row.bestUs);
    report.rows.push_back(std::move(row));
  }
  report.referenceUs = compare.referenceUs.value_or(
      std::min(bestUs, compare.knownBestUs.value_or(kInf)));
  for (auto [row, runsOf] : zip(report.rows, results)) {
    std::vector<double> reached;
    for (const SearchResult &result : runsOf)
      if (std::optional<size_t> n = variantsToReach(
              result, report.referenceUs * (1 + compare.tolerance)))
        reached.push_back(double(*n));
    row.runsReached = reached.size();
    if (!reached.empty())
      row.variantsToTarget = size_t(median(reached));
  }
  return report;
}

void deplodock::tuner::printComparison(raw_ostream &os,
                                       const ComparisonReport &report) {
  bool manyRuns = report.seeds.size() > 1;
  os << format("reference %.3f us, target within %.1f%%", report.referenceUs,
               report.tolerance * 100);
  if (manyRuns)
    os << format(", %zu runs per strategy (median)", report.seeds.size());
  os << "\n";
  os << format("%-12s %12s %10s %12s", "strategy", "best us", "measured",
               "to target");
  for (size_t budget : report.budgets)
    os << format(" %9s", ("@" + std::to_string(budget)).c_str());
  os << "  stopped\n";
  for (const StrategyComparison &row : report.rows) {
    std::string toTarget =
        row.variantsToTarget ? std::to_string(*row.variantsToTarget) : "never";
    if (manyRuns)
      toTarget += " (" + std::to_string(row.runsReached) + "/" +
                  std::to_string(report.seeds.size()) + ")";
    os << format("%-12s %12.3f %10zu %12s", row.strategy.c_str(), row.bestUs,
                 row.measured, toTarget.c_str());
    for (size_t b = 0; b < report.budgets.size(); ++b)
      os << format(" %9.3f", report.medianRatio(row, b));
    os << "  " << stopReasonName(row.stopReason) << "\n";
  }
}

void deplodock::tuner::printComparisonSummary(
    raw_ostream &os, ArrayRef<ComparisonReport> reports, StringRef baseline) {
  if (reports.empty())
    return;
  const ComparisonReport &first = reports.front();
  os << format("over %zu kernels: median of best / reference; kernels within "
               "%.1f%%; against %s: kernels better, equal, worse\n",
               reports.size(), first.tolerance * 100, baseline.str().c_str());
  std::string versusHeader = "vs " + baseline.str();
  os << format("%-12s %8s %12s %10s %14s\n", "strategy", "budget", "median",
               "within", versusHeader.c_str());
  for (auto [r, row] : enumerate(first.rows)) {
    for (auto [b, budget] : enumerate(first.budgets)) {
      std::vector<double> ratios;
      unsigned within = 0, better = 0, equal = 0, worse = 0;
      for (const ComparisonReport &report : reports) {
        double ratio = report.medianRatio(report.rows[r], b);
        ratios.push_back(ratio);
        within += ratio <= 1 + report.tolerance;
        const StrategyComparison *base = nullptr;
        for (const StrategyComparison &other : report.rows)
          if (other.strategy == baseline)
            base = &other;
        if (!base)
          continue;
        double baseRatio = report.medianRatio(*base, b);
        // Relative differences below 1e-9 are rounding.
        if (ratio < baseRatio * (1 - 1e-9))
          ++better;
        else if (ratio > baseRatio * (1 + 1e-9))
          ++worse;
        else
          ++equal;
      }
      std::string versus = std::to_string(better) + "/" +
                           std::to_string(equal) + "/" + std::to_string(worse);
      os << format("%-12s %8zu %12.3f %7u/%-2zu %14s\n", row.strategy.c_str(),
                   budget, median(ratios), within, reports.size(),
                   versus.c_str());
    }
  }
}
