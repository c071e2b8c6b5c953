//===- Search.cpp - Search interfaces and the strategy factory ------------===//

#include "Deplodock/Tuner/Search.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace deplodock::tuner;

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

SearchSpace::~SearchSpace() = default;
Evaluator::~Evaluator() = default;
SearchStrategy::~SearchStrategy() = default;

std::optional<double> SearchSpace::prior(NodeId) { return std::nullopt; }

void SearchSpace::queuePrior(NodeId) {}

void SearchSpace::computeQueuedPriors() {}

size_t SearchSpace::preferredChild(NodeId, ArrayRef<NodeId>) { return 0; }

void Evaluator::measureBatch(ArrayRef<NodeId> nodes,
                             SmallVectorImpl<Measurement> &out) {
  for (NodeId node : nodes)
    out.push_back(measure(node));
}

void Evaluator::prefetch(ArrayRef<NodeId>) {}

void Evaluator::startBatch(ArrayRef<NodeId> nodes) {
  started.clear();
  if (nodes.size() == 1)
    started.push_back(measure(nodes.front()));
  else
    measureBatch(nodes, started);
}

void Evaluator::finishBatch(SmallVectorImpl<Measurement> &out) {
  out.append(started.begin(), started.end());
  started.clear();
}

std::optional<uint64_t> SearchSpace::decisionKey(NodeId) {
  return std::nullopt;
}

std::optional<unsigned> SearchSpace::decisionDistance(NodeId, NodeId) {
  return std::nullopt;
}

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
