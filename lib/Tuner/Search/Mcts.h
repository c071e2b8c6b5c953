//===- Mcts.h - The MCTS strategy's state and moves -------------*- C++ -*-===//
//
// Private to the search library: the Mcts class (Mcts.cpp: rollouts,
// candidates and measurements; MctsMoves.cpp: its local-search moves, pair
// moves and coordinate descent) and the constants both parts tune.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_SEARCH_MCTS_H
#define DEPLODOCK_LIB_TUNER_SEARCH_MCTS_H

#include "ForkStats.h"
#include "SearchTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace deplodock::tuner::detail {

/// The share of the measured rewards that counts as good.
constexpr double kGoodShare = 0.25;
/// Candidates per measurement without a prior to rank them (with one:
/// SearchOptions::priorCandidates, at least this many).
constexpr unsigned kCandidates = 8;
/// The share of candidates that mutate the best terminal: without a prior
/// most of them (the odds draws of the rest explore, measured on the model
/// backend over the examples' kernels); with one, half, the other half drawn
/// uniformly from the terminals for the prior to judge.
constexpr double kMutateShare = 0.75;
constexpr double kPriorMutateShare = 0.5;
/// One more fork is mutated per this many measurements without a better
/// terminal, up to kMaxChanges.
constexpr unsigned kWidenEvery = 8;
constexpr unsigned kMaxChanges = 4;
/// Pair moves combine the fastest this many near misses, each differing
/// from the best in at most kMaxMoveSize decisions (at forks not inert).
constexpr unsigned kNearMisses = 8;
constexpr unsigned kMaxMoveSize = 2;
/// The fastest terminals searched for near misses.
constexpr unsigned kNearMissScan = 256;
/// Near misses a pair move tries before it gives way to the usual
/// candidates.
constexpr unsigned kPairAttempts = 4;
/// Coordinate descent tries at most this many options of a fork per cycle,
/// those of the best odds first, so that a 33-way fork does not spend the
/// budget.
constexpr unsigned kDescentOptions = 3;
/// Variants of a descent neighbour that take an option its change
/// unlocked, measured when the neighbour is not better (one: two spent
/// more of the budget on wide forks for no gain, measured on the examples'
/// kernels on the model backend).
constexpr unsigned kUnlockedVariants = 1;
/// Patience when unset: the tree's mean fan-out times its depth (along the
/// heuristic's path), at least this.
constexpr unsigned kMinPatience = 16;

/// The mcts strategy over one search run (Mcts.cpp says how it searches).
class Mcts {
public:
  Mcts(SearchRun &run, const SearchOptions &options)
      : run(run), space(run.getSpace()), options(options),
        tree(run, options.seed),
        power(1.0 / std::max(options.explorationConstant, 0.05)) {}

  SearchResult search();

private:
  enum class Policy { Uniform, Odds, Mutate };

  std::optional<uint64_t> keyOf(Index n) {
    return space.decisionKey(tree[n].id);
  }
  /// l / g and l of the decision leading to `child`, among `numOptions`.
  std::pair<double, double> odds(Index child, Index numOptions);
  /// Walks from the root to a live terminal with `policy`; `changeAt` marks
  /// the depths a mutation changes, `forced` decisions a mutation takes
  /// wherever they are options. Adds the log odds of the path to `score`.
  /// kNoNode at a dead end or when the run stops.
  Index rollout(Policy policy, llvm::ArrayRef<bool> changeAt, double &score,
                const llvm::DenseSet<uint64_t> *forced = nullptr);
  /// The sorted decision keys of the path to `n`; declares the forks on
  /// the way to `forks`.
  llvm::SmallVector<uint64_t, 16> decisionsOf(Index n);
  /// Learns from measured terminal `n` which forks are inert.
  void observe(Index n, double reward);
  /// Whether terminal `n` is predicted to tie a measured one: the same
  /// decisions at every fork not inert.
  bool isEquivalentToMeasured(Index n);
  /// A pair move once single changes stall: the decisions a near miss (one
  /// of the fastest other terminals, in turn) differs from the best in at
  /// forks not inert (at most kMaxMoveSize), applied to the best with one
  /// more change at another fork. kNoNode when none is left.
  Index pairMove();
  /// The depths of the best's path where a mutation may change the fork
  /// (another option, not inert), skipping the forks in `exclude`; sets
  /// `depth` to the path's length.
  llvm::SmallVector<unsigned, 16>
  mutationSites(unsigned &depth, const llvm::DenseSet<uint64_t> &exclude);
  /// Coordinate descent: the next unmeasured neighbour of the best (one
  /// fork changed, the rest kept) at a fork not yet swept in this cycle,
  /// options in order of their odds; kNoNode at a local optimum.
  Index descend();
  /// Walks down from `n`, keeping the best's decisions where they are
  /// options and taking the first live option elsewhere.
  Index completeBelow(Index n);
  /// Variants of the descent's neighbour `leaf` (the best with its fork at
  /// `changed` changed): each takes, at one fork below `changed`, an
  /// option the best's path never offered (one the change unlocked: a
  /// fork the best has not, or an option it lacked), best odds first.
  llvm::SmallVector<Index, 4> unlockedVariants(Index changed, Index leaf);
  /// The next pending unlocked variant not measured nor predicted to tie a
  /// measured one, or kNoNode.
  Index nextUnlocked();
  /// The candidate to measure next, or kNoNode.
  Index propose();
  /// Measures `batch` (reserved terminals) and learns from them.
  void measure(llvm::ArrayRef<Index> batch);
  /// Learns from the measurements of `batch`, in order.
  void learn(llvm::ArrayRef<Index> batch,
             llvm::ArrayRef<Measurement> measurements);
  /// The next batch of reserved terminals to measure (empty when there is
  /// none).
  llvm::SmallVector<Index> proposeBatch();

  SearchRun &run;
  SearchSpace &space;
  const SearchOptions &options;
  SearchTree tree;
  double power;
  /// Rewards of the measured terminals whose path takes each decision,
  /// sorted.
  llvm::DenseMap<uint64_t, std::vector<double>> byDecision;
  /// Every reward measured, sorted.
  std::vector<double> rewards;
  Index best = kNoNode;
  llvm::DenseSet<uint64_t> bestDecisions;
  unsigned sinceBest = 0;
  /// A measured valid terminal and its path's decision keys, sorted.
  struct Measured {
    Index node;
    double reward;
    llvm::SmallVector<uint64_t, 16> keys;
  };
  /// Measured valid terminals, fastest first.
  std::vector<Measured> measured;
  ForkStats forks;
  /// Nodes whose children were declared a fork.
  llvm::DenseSet<Index> declared;
  /// The signatures of the measured terminals, as of forks' generation
  /// `signaturesAt`.
  llvm::DenseSet<uint64_t> signatures;
  unsigned signaturesAt = ~0u;
  /// Whether the last proposal was a pair move; pair moves made.
  bool lastWasPair = false;
  unsigned numPairs = 0;
  bool hasPrior = false;
  llvm::SmallVector<Index> scratch;
  /// Coordinate descent: the forks swept in this cycle, the options tried
  /// per fork, whether the best improved during the cycle, and whether the
  /// descent ended at a local optimum.
  llvm::DenseSet<uint64_t> swept;
  llvm::DenseMap<uint64_t, unsigned> triedInCycle;
  unsigned allowance = kDescentOptions;
  /// Whether the last proposal was the descent's (it goes on while it has
  /// candidates, improving or not).
  bool inDescent = false;
  bool improvedInCycle = false;
  bool descentStalled = false;
  /// The unlocked variants of the last neighbour, measured next unless it
  /// became the best.
  llvm::SmallVector<Index, 4> pendingUnlocked;
};

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_SEARCH_MCTS_H
