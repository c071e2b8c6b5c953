//===- SearchRun.cpp - Bookkeeping shared by the strategies ---------------===//

#include "SearchRun.h"

#include <cassert>
#include <chrono>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

static double steadySeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

SearchRun::SearchRun(SearchSpace &space, Evaluator &evaluator,
                     const SearchOptions &options, unsigned defaultPatience)
    : space(space), evaluator(evaluator), options(options),
      patience(options.patience.value_or(defaultPatience)) {
  start = options.clock ? options.clock() : steadySeconds();
}

double SearchRun::now() const {
  return (options.clock ? options.clock() : steadySeconds()) - start;
}

bool SearchRun::shouldStop() {
  if (reason)
    return true;
  if (options.cancelled && options.cancelled())
    reason = StopReason::Cancelled;
  else if (patience && sinceBest >= patience)
    reason = StopReason::Patience;
  else if (options.maxVariants &&
           result.variants.size() + (inFlight ? inFlight->fresh.size() : 0) >=
               options.maxVariants)
    reason = StopReason::VariantBudget;
  else if (options.maxSeconds > 0 && now() >= options.maxSeconds)
    reason = StopReason::TimeBudget;
  return reason.has_value();
}

void SearchRun::expand(NodeId node, SmallVectorImpl<NodeId> &out) {
  ++result.numExpanded;
  space.children(node, out);
}

Measurement SearchRun::evaluate(NodeId node) {
  auto known = measured.find(node);
  if (known != measured.end())
    return result.variants[known->second].measurement;
  Measurement m = evaluator.measure(node);
  record(node, m);
  return m;
}

SmallVector<Measurement> SearchRun::evaluateBatch(ArrayRef<NodeId> nodes) {
  startBatch(nodes);
  return collectBatch();
}

void SearchRun::startBatch(ArrayRef<NodeId> nodes) {
  assert(!inFlight && "one batch at a time");
  // The new terminals, as many as the budget leaves room for; a terminal
  // reached along another path keeps its measurement.
  Batch batch;
  size_t room = options.maxVariants
                    ? options.maxVariants -
                          std::min(options.maxVariants, result.variants.size())
                    : nodes.size();
  size_t taken = 0;
  for (NodeId node : nodes) {
    if (measured.count(node) || llvm::is_contained(batch.fresh, node))
      ++taken;
    else if (batch.fresh.size() < room)
      batch.fresh.push_back(node), ++taken;
    else
      break;
  }
  batch.taken.assign(nodes.begin(), nodes.begin() + taken);
  if (!batch.fresh.empty())
    evaluator.startBatch(batch.fresh);
  inFlight = std::move(batch);
}

SmallVector<Measurement> SearchRun::collectBatch() {
  assert(inFlight && "no batch started");
  Batch batch = std::move(*inFlight);
  inFlight.reset();
  SmallVector<Measurement> out;
  if (!batch.fresh.empty())
    evaluator.finishBatch(out);
  for (auto [node, m] : llvm::zip(batch.fresh, out))
    record(node, m);
  out.clear();
  for (NodeId node : batch.taken)
    out.push_back(result.variants[measured.find(node)->second].measurement);
  return out;
}

void SearchRun::record(NodeId node, const Measurement &m) {
  size_t index = result.variants.size();
  measured.try_emplace(node, index);
  result.variants.push_back({node, m, now()});

  bool improved = false;
  if (!m.isValid()) {
    ++result.numFailed;
  } else if (!result.bestIndex ||
             m.medianUs <
                 result.variants[*result.bestIndex].measurement.medianUs) {
    result.bestIndex = index;
    improved = true;
  }
  // A failure is a measured variant that did not beat the best, so it counts
  // toward the patience like any other.
  sinceBest = improved ? 0 : sinceBest + 1;

  const MeasuredVariant &variant = result.variants.back();
  if (options.onMeasured) {
    ProgressEvent event{index + 1,     node,     variant.measurement,
                        result.best(), improved, variant.seconds};
    options.onMeasured(event);
  }
}

SearchResult SearchRun::finish(StopReason fallback, size_t treeNodes) {
  result.stopReason = reason.value_or(fallback);
  result.numTreeNodes = treeNodes;
  result.seconds = now();
  return std::move(result);
}
