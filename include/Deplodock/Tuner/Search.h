//===- Search.h - Search strategies of the tuner ----------------*- C++ -*-===//
//
// Strategies that walk a SearchSpace, measure terminals with an Evaluator and
// keep the fastest: MCTS with learnt decision odds (the default), greedy
// replay, uniform random terminals, tinygrad-style beam search and an
// exhaustive sweep. They share the options (budgets, patience, seed,
// progress callback) and the result. See docs/Tuner/Search.md.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_SEARCH_H
#define DEPLODOCK_TUNER_SEARCH_H

#include "Deplodock/Tuner/SearchSpace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace deplodock::tuner {

/// Patience of random and beam when SearchOptions leaves it unset (MCTS
/// takes the tree's mean fan-out times its depth).
inline constexpr unsigned kDefaultPatience = 60;

/// One measured terminal, in measuring order.
struct MeasuredVariant {
  NodeId node = 0;
  Measurement measurement;
  /// Seconds since the search started, read after measuring.
  double seconds = 0;
};

/// What a progress callback sees after every measurement.
struct ProgressEvent {
  /// 1-based number of this variant in the search.
  size_t variant = 0;
  NodeId node = 0;
  const Measurement &measurement;
  /// The best valid variant so far (this one included); null if none.
  const MeasuredVariant *best = nullptr;
  /// Whether this variant became the best.
  bool improved = false;
  double seconds = 0;
};

/// Why a search stopped.
enum class StopReason : uint8_t {
  /// Every terminal has been measured (or is a dead end).
  Exhausted,
  /// The strategy finished its own walk (greedy after its one path, beam
  /// after the last depth) with terminals left unmeasured.
  Completed,
  /// `patience` consecutive measurements did not beat the best.
  Patience,
  /// `maxVariants` variants were measured.
  VariantBudget,
  /// `maxSeconds` elapsed.
  TimeBudget,
  /// `cancelled` answered true (the evaluator hit an error, or the user
  /// interrupted).
  Cancelled,
};

/// The lower-case name of a stop reason ("exhausted", "variant_budget", ...).
llvm::StringRef stopReasonName(StopReason reason);

struct SearchOptions {
  /// Stop after this many measured variants (failures included); 0: none.
  size_t maxVariants = 0;
  /// Stop once this many seconds have passed (checked before every expansion
  /// and measurement, so a running measurement is never cut); 0: none.
  double maxSeconds = 0;
  /// Stop after this many consecutive measured variants (failures included)
  /// fail to beat the best; 0 disables. Unset: for mcts the tree's mean
  /// fan-out times its depth (at least 16), kDefaultPatience for random and
  /// beam, disabled for exhaustive and greedy.
  std::optional<unsigned> patience;
  /// The MCTS exploration constant c: a temperature, decisions are drawn in
  /// proportion to their odds to the power 1 / c.
  double explorationConstant = 1.0;
  /// Seed of mcts and random.
  uint64_t seed = 0;
  /// Nodes kept per depth by beam search (0 means 1).
  unsigned beamWidth = 4;
  /// Candidates mcts draws per measurement when a prior ranks them. Each is
  /// a walk down the tree (a Tile rule at every fork point not built
  /// before) and a model estimate: tens of milliseconds on a GEMM's tree.
  unsigned priorCandidates = 32;
  /// Monotonic time in seconds; unset: std::chrono::steady_clock. Inject a
  /// fake clock for deterministic time budgets.
  std::function<double()> clock;
  /// Terminals to measure first (mcts and random; after the default path),
  /// each as the option indices taken from the root: e.g. the winners of
  /// similar kernels. Paths that do not lead to a terminal are skipped.
  std::vector<std::vector<unsigned>> seedPaths;
  /// Called after every measurement, e.g. to print a live progress line.
  std::function<void(const ProgressEvent &)> onMeasured;
  /// Asked before every expansion and measurement; true stops the search
  /// (reason `cancelled`).
  std::function<bool()> cancelled;
};

struct SearchResult {
  /// Every measured variant, in order; a terminal appears at most once.
  std::vector<MeasuredVariant> variants;
  /// Index into `variants` of the fastest valid one.
  std::optional<size_t> bestIndex;
  StopReason stopReason = StopReason::Exhausted;
  /// Measured variants that failed (status other than ok, or no latency).
  size_t numFailed = 0;
  /// Calls of SearchSpace::children.
  size_t numExpanded = 0;
  /// Nodes the strategy held at the end (search-tree size; memory use).
  size_t numTreeNodes = 0;
  double seconds = 0;

  size_t numMeasured() const { return variants.size(); }
  /// The best variant, or null when no measurement was valid.
  const MeasuredVariant *best() const {
    return bestIndex ? &variants[*bestIndex] : nullptr;
  }
};

/// A way to walk a SearchSpace.
class SearchStrategy {
public:
  virtual ~SearchStrategy();
  /// The command-line name ("mcts", ...).
  virtual llvm::StringRef name() const = 0;
  /// Searches `space` until exhausted, completed, out of patience or over a
  /// budget. Deterministic for given options (and seed).
  virtual SearchResult run(SearchSpace &space, Evaluator &evaluator,
                           const SearchOptions &options) = 0;
};

/// MCTS with learnt decision odds: the heuristic's terminal, the seeds, a
/// few uniform terminals, then each measurement the best of several
/// candidates (mutations of the best terminal, draws by the odds of each
/// decision), ranked by the space's prior when it has one; without a prior,
/// coordinate descent from the best once the mutations stall.
std::unique_ptr<SearchStrategy> createMctsSearch();
/// Follows preferredChild from the root and measures that one terminal.
std::unique_ptr<SearchStrategy> createGreedySearch();
/// Seeded draws of terminals, each about equally likely (children in
/// proportion to their estimated terminals); no terminal twice.
std::unique_ptr<SearchStrategy> createRandomSearch();
/// Keeps the best `beamWidth` nodes per depth, scored by the terminal their
/// preferredChild path reaches, and expands all their children.
std::unique_ptr<SearchStrategy> createBeamSearch();
/// Depth-first over every terminal in option order.
std::unique_ptr<SearchStrategy> createExhaustiveSearch();

/// The names createSearchStrategy accepts, default first.
llvm::ArrayRef<llvm::StringRef> searchStrategyNames();

/// The strategy called `name`. An unknown name is an error that starts with
/// `origin` (e.g. "--search") and lists the known names.
llvm::Expected<std::unique_ptr<SearchStrategy>>
createSearchStrategy(llvm::StringRef name,
                     llvm::StringRef origin = "search strategy");

//===----------------------------------------------------------------------===//
// Comparing strategies
//===----------------------------------------------------------------------===//

/// How many measured variants `result` needed before one had a median within
/// `targetUs` (1-based), or none if it never got there.
std::optional<size_t> variantsToReach(const SearchResult &result,
                                      double targetUs);

/// The best valid median among the first `budget` variants of `result`
/// (infinity when none was valid).
double bestWithin(const SearchResult &result, size_t budget);

struct StrategyComparison {
  std::string strategy;
  /// Best median found by any run (infinity when nothing valid was
  /// measured).
  double bestUs = 0;
  /// Variants measured, by the first run.
  size_t measured = 0;
  StopReason stopReason = StopReason::Exhausted;
  /// Variants needed to get within the tolerance of the reference: the
  /// median over the runs that got there, and how many did.
  std::optional<size_t> variantsToTarget;
  unsigned runsReached = 0;
  /// Per run (seed), the best median within each budget of the report.
  std::vector<std::vector<double>> bestAtBudget;
};

struct ComparisonReport {
  /// The best latency the rows are compared with.
  double referenceUs = 0;
  double tolerance = 0;
  /// The budgets of `bestAtBudget` and the seeds of the runs.
  llvm::SmallVector<size_t> budgets;
  llvm::SmallVector<uint64_t> seeds;
  llvm::SmallVector<StrategyComparison> rows;

  /// The median over the runs of `row`'s best within budget `b` (an index in
  /// `budgets`), relative to the reference (1 = as good).
  double medianRatio(const StrategyComparison &row, size_t b) const;
  /// How many runs of `row` got within the tolerance within budget `b`.
  unsigned runsWithin(const StrategyComparison &row, size_t b) const;
};

/// How strategies are compared.
struct CompareOptions {
  /// The latency to compare with; default: the best any run found, or
  /// `knownBestUs` (found before, by other means) when it is lower.
  std::optional<double> referenceUs;
  std::optional<double> knownBestUs;
  /// Relative tolerance of "as good as the reference".
  double tolerance = 0.02;
  /// Report each run's best within these many variants; when the search
  /// options set no variant budget, runs stop at the largest.
  llvm::SmallVector<size_t> budgets;
  /// Runs per strategy, with seeds options.seed, options.seed + 1, ...
  unsigned runs = 1;
};

/// Runs each named strategy on `space` and `evaluator` with `options`
/// (`compare.runs` times, one seed each) and reports how many variants each
/// needed to get within the tolerance of the reference and how close each
/// got within each budget. Use with a replaying or deterministic evaluator
/// (a recorded table, the model), so that every strategy sees the same
/// latencies.
llvm::Expected<ComparisonReport>
compareStrategies(SearchSpace &space, Evaluator &evaluator,
                  llvm::ArrayRef<llvm::StringRef> strategies,
                  const SearchOptions &options,
                  const CompareOptions &compare = {});

/// Prints a report as a table, one strategy per line (with a column per
/// budget: the median best / reference).
void printComparison(llvm::raw_ostream &os, const ComparisonReport &report);

/// Prints, for several kernels' reports of the same strategies and budgets,
/// per strategy and budget: the median over the kernels of the median best /
/// reference, the kernels within the tolerance, and on how many kernels the
/// strategy did better, as well or worse than `baseline` (by median).
void printComparisonSummary(llvm::raw_ostream &os,
                            llvm::ArrayRef<ComparisonReport> reports,
                            llvm::StringRef baseline = "random");

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_SEARCH_H
