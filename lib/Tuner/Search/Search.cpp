//===- Search.cpp - Search interfaces, factory and comparison -------------===//

#include "Deplodock/Tuner/Search.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace llvm;
using namespace deplodock::tuner;

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

SearchSpace::~SearchSpace() = default;
Evaluator::~Evaluator() = default;
SearchStrategy::~SearchStrategy() = default;

std::optional<double> SearchSpace::prior(NodeId) { return std::nullopt; }

size_t SearchSpace::preferredChild(NodeId, ArrayRef<NodeId>) { return 0; }

Measurement Measurement::latency(double us, unsigned samples) {
  Measurement m;
  m.medianUs = m.minUs = m.maxUs = us;
  m.samples = samples;
  return m;
}

Measurement Measurement::failure(MeasureStatus status) {
  Measurement m;
  m.status = status;
  return m;
}

bool Measurement::isValid() const {
  return status == MeasureStatus::Ok && medianUs > 0 && std::isfinite(medianUs);
}

double Measurement::reward() const { return isValid() ? 1.0 / medianUs : 0.0; }

StringRef deplodock::tuner::stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::Exhausted:
    return "exhausted";
  case StopReason::Completed:
    return "completed";
  case StopReason::Patience:
    return "patience";
  case StopReason::VariantBudget:
    return "variant_budget";
  case StopReason::TimeBudget:
    return "time_budget";
  case StopReason::Cancelled:
    return "cancelled";
  }
  llvm_unreachable("unknown stop reason");
}

//===----------------------------------------------------------------------===//
// Factory
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> deplodock::tuner::searchStrategyNames() {
  static const StringRef names[] = {"mcts", "greedy", "random", "beam",
                                    "exhaustive"};
  return names;
}

Expected<std::unique_ptr<SearchStrategy>>
deplodock::tuner::createSearchStrategy(StringRef name, StringRef origin) {
  if (name == "mcts")
    return createMctsSearch();
  if (name == "greedy")
    return createGreedySearch();
  if (name == "random")
    return createRandomSearch();
  if (name == "beam")
    return createBeamSearch();
  if (name == "exhaustive")
    return createExhaustiveSearch();

  std::string message;
  raw_string_ostream os(message);
  os << origin << ": unknown search strategy '" << name << "'";
  StringRef closest;
  unsigned closestDistance = 3; // Suggest only near misses.
  for (StringRef known : searchStrategyNames()) {
    unsigned d = known.edit_distance(name.lower());
    if (d < closestDistance) {
      closest = known;
      closestDistance = d;
    }
  }
  if (!closest.empty())
    os << "; did you mean '" << closest << "'?";
  os << " (expected one of: " << join(searchStrategyNames(), ", ") << ")";
  return createStringError(inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

std::optional<size_t>
deplodock::tuner::variantsToReach(const SearchResult &result, double targetUs) {
  for (auto [i, variant] : enumerate(result.variants))
    if (variant.measurement.isValid() &&
        variant.measurement.medianUs <= targetUs)
      return i + 1;
  return std::nullopt;
}

Expected<ComparisonReport> deplodock::tuner::compareStrategies(
    SearchSpace &space, Evaluator &evaluator, ArrayRef<StringRef> strategies,
    const SearchOptions &options, std::optional<double> referenceUs,
    double tolerance) {
  ComparisonReport report;
  report.tolerance = tolerance;
  SmallVector<SearchResult> results;
  double bestUs = std::numeric_limits<double>::infinity();
  for (StringRef name : strategies) {
    Expected<std::unique_ptr<SearchStrategy>> strategy =
        createSearchStrategy(name);
    if (!strategy)
      return strategy.takeError();
    results.push_back((*strategy)->run(space, evaluator, options));
    const SearchResult &result = results.back();
    StrategyComparison row;
    row.strategy = name.str();
    row.bestUs = result.best() ? result.best()->measurement.medianUs
                               : std::numeric_limits<double>::infinity();
    row.measured = result.numMeasured();
    row.stopReason = result.stopReason;
    bestUs = std::min(bestUs, row.bestUs);
    report.rows.push_back(std::move(row));
  }
  report.referenceUs = referenceUs.value_or(bestUs);
  for (auto [row, result] : zip(report.rows, results))
    row.variantsToTarget =
        variantsToReach(result, report.referenceUs * (1 + tolerance));
  return report;
}

void deplodock::tuner::printComparison(raw_ostream &os,
                                       const ComparisonReport &report) {
  os << format("reference %.3f us, target within %.1f%%\n", report.referenceUs,
               report.tolerance * 100);
  os << format("%-12s %12s %10s %12s  %s\n", "strategy", "best us", "measured",
               "to target", "stopped");
  for (const StrategyComparison &row : report.rows) {
    std::string toTarget =
        row.variantsToTarget ? std::to_string(*row.variantsToTarget) : "never";
    os << format("%-12s %12.3f %10zu %12s  %s\n", row.strategy.c_str(),
                 row.bestUs, row.measured, toTarget.c_str(),
                 stopReasonName(row.stopReason).data());
  }
}
