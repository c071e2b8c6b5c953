//===- SearchRun.h - Bookkeeping shared by the strategies -------*- C++ -*-===//
//
// One search in progress: the measured variants, the best, memoisation by
// terminal, budgets, patience and the progress callback. Every strategy
// measures through a SearchRun and asks it before every expansion and
// measurement whether to stop, so that the stop rules are the same for all.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_SEARCH_SEARCHRUN_H
#define DEPLODOCK_LIB_TUNER_SEARCH_SEARCHRUN_H

#include "Deplodock/Tuner/Search.h"

#include <unordered_map>

namespace deplodock::tuner::detail {

class SearchRun {
public:
  /// Starts the clock. `defaultPatience` applies when options leave it unset.
  SearchRun(SearchSpace &space, Evaluator &evaluator,
            const SearchOptions &options, unsigned defaultPatience);

  SearchSpace &getSpace() { return space; }
  const SearchOptions &getOptions() const { return options; }

  /// Whether a budget or the patience forbids the next expansion or
  /// measurement; records the reason the first time it answers yes.
  bool shouldStop();
  /// The patience when the options leave it unset, decided once the
  /// strategy knows the tree.
  void setDefaultPatience(unsigned value) {
    if (!options.patience)
      patience = value;
  }
  /// Whether shouldStop has already answered yes.
  bool stopped() const { return reason.has_value(); }

  /// `space.children(node)`, counted.
  void expand(NodeId node, llvm::SmallVectorImpl<NodeId> &out);

  /// The measurement of terminal `node`: measured now (counted, reported,
  /// checked against the best) unless measured before in this search.
  Measurement evaluate(NodeId node);
  /// Measures the terminals `nodes` together, as many as the variant budget
  /// leaves room for (terminals measured before cost nothing); their
  /// measurements, in order (fewer when the budget cut the batch).
  llvm::SmallVector<Measurement> evaluateBatch(llvm::ArrayRef<NodeId> nodes);
  /// evaluateBatch in two halves, for a search that proposes its next batch
  /// while this one is measured (canMeasureAhead): startBatch takes the
  /// terminals the budget leaves room for (the batch in flight counts) and
  /// starts measuring them; collectBatch records them and returns the
  /// measurements of the terminals taken, in order. One batch at a time.
  void startBatch(llvm::ArrayRef<NodeId> nodes);
  llvm::SmallVector<Measurement> collectBatch();
  bool hasBatchInFlight() const { return inFlight.has_value(); }
  /// Whether the evaluator measures a started batch while the search goes
  /// on.
  bool canMeasureAhead() const { return evaluator.canMeasureAhead(); }
  /// How many terminals to propose at once.
  unsigned getParallelism() const {
    return std::max(1u, evaluator.getParallelism());
  }
  /// Whether `node` was measured in this search.
  bool isMeasured(NodeId node) const { return measured.count(node); }

  /// Finishes the result; `fallback` is the reason when nothing stopped it.
  SearchResult finish(StopReason fallback, size_t treeNodes);

private:
  double now() const;
  /// Records the measurement of `node`, just taken.
  void record(NodeId node, const Measurement &m);

  SearchSpace &space;
  Evaluator &evaluator;
  const SearchOptions &options;
  unsigned patience;
  double start;
  SearchResult result;
  /// Terminal -> index in result.variants. Not a DenseMap: every id is
  /// legal, including the ones DenseMap reserves.
  std::unordered_map<NodeId, size_t> measured;
  /// Measurements since the last improvement of the best.
  unsigned sinceBest = 0;
  std::optional<StopReason> reason;
  /// The started batch: the terminals asked for that the budget took, and
  /// those of them new to this search (measured).
  struct Batch {
    llvm::SmallVector<NodeId> taken;
    llvm::SmallVector<NodeId> fresh;
  };
  std::optional<Batch> inFlight;
};

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_SEARCH_SEARCHRUN_H
