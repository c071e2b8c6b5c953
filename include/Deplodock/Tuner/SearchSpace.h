//===- SearchSpace.h - The tree a tuner searches ----------------*- C++ -*-===//
//
// The search strategies see a kernel's variants as an abstract tree: every
// node is one partial lowering, its children are one rule's options, and its
// terminals are finished kernels that can be measured. Nodes are opaque
// 64-bit ids; the space regenerates whatever state it needs from an id, so a
// search tree holds ids and statistics only, never IR.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_SEARCHSPACE_H
#define DEPLODOCK_TUNER_SEARCHSPACE_H

#include "Deplodock/Tuner/MeasureStatus.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace deplodock::tuner {

/// An opaque node of a search space. Ids are only compared and hashed; two
/// nodes with the same id are the same node (a terminal reached along two
/// paths is measured once).
using NodeId = uint64_t;

/// The fork tree of one kernel.
class SearchSpace {
public:
  virtual ~SearchSpace();

  /// The kernel with no fork decided yet.
  virtual NodeId root() = 0;

  /// Whether `node` is a finished kernel that can be measured. May be called
  /// more than once per node, so it should be cheap.
  virtual bool isTerminal(NodeId node) = 0;

  /// Appends the children of the non-terminal `node` to `out`: one per option
  /// of the next rule that forks, option 0 (the heuristic) first. Possibly
  /// expensive; strategies that keep a tree call it at most once per node. A
  /// non-terminal without children is a dead end (every option illegal or
  /// failed to apply): it is never measured.
  virtual void children(NodeId node, llvm::SmallVectorImpl<NodeId> &out) = 0;

  /// An optional prior of the terminal `node`: a positive score, higher is
  /// more promising (the tuner's is the roofline model's 1 / us). MCTS
  /// measures, of its candidates, the one with the highest prior. Default:
  /// none.
  virtual std::optional<double> prior(NodeId node);
  /// Says that prior(node) will be asked soon, so that a space may compute
  /// the priors of several terminals at once (on several threads) in
  /// computeQueuedPriors. Asking prior() without this is always allowed.
  /// Default: nothing.
  virtual void queuePrior(NodeId node);
  /// Computes the priors queued since the last call. Default: nothing.
  virtual void computeQueuedPriors();

  /// The replay / heuristic choice among `children` of `node`, an index into
  /// `children` (an index out of range means 0). Default: option 0.
  virtual size_t preferredChild(NodeId node, llvm::ArrayRef<NodeId> children);

  /// An optional key of the decision that leads to `node` (the option its
  /// parent took). Equal keys anywhere in the tree name the same decision
  /// (one rule choosing the same knob values), so a search can carry a good
  /// terminal's decisions into another subtree and pool what it learnt about
  /// a decision. Only compared for equality. Default: none.
  virtual std::optional<uint64_t> decisionKey(NodeId node);

  /// An optional distance between the decisions leading to two children of
  /// one node: how many of the knobs they set differ (a fork choosing tile
  /// sizes and a split at once has neighbours that change one of them).
  /// Default: none (every option as near as another).
  virtual std::optional<unsigned> decisionDistance(NodeId a, NodeId b);
};

/// The outcome of measuring one terminal; latencies in microseconds.
struct Measurement {
  MeasureStatus status = MeasureStatus::Ok;
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  unsigned samples = 0;

  /// A successful measurement with a single latency (min = median = max).
  static Measurement latency(double us, unsigned samples = 1);
  /// A failed measurement.
  static Measurement failure(MeasureStatus status);

  /// Ok with a positive, finite median: the only measurements that have a
  /// reward and can become the best.
  bool isValid() const;
  /// 1 / median µs for valid measurements, 0 otherwise.
  double reward() const;
};

/// Measures terminals (compile, run, check, time).
class Evaluator {
public:
  virtual ~Evaluator();
  /// Measures the terminal `node`. Strategies never ask twice for one node.
  virtual Measurement measure(NodeId node) = 0;
  /// How many terminals it measures at once (one per GPU): how many a
  /// strategy should propose before it needs their latencies.
  virtual unsigned getParallelism() const { return 1; }
  /// Measures the distinct terminals `nodes`, concurrently where it can, and
  /// appends their measurements to `out` in order. Default: one by one.
  virtual void measureBatch(llvm::ArrayRef<NodeId> nodes,
                            llvm::SmallVectorImpl<Measurement> &out);
  /// Says that the terminals `nodes` will likely be measured soon, one by
  /// one, so that their preparation (lowering) may run ahead, several at
  /// once; what is measured and recorded must not change. Default: nothing.
  virtual void prefetch(llvm::ArrayRef<NodeId> nodes);

  /// Whether a batch started by startBatch is measured while the caller goes
  /// on (a GPU measures in another process while the search proposes the
  /// next batch). Default: no, startBatch measures before it returns.
  virtual bool canMeasureAhead() const { return false; }
  /// Starts measuring the distinct terminals `nodes`; one batch at a time.
  virtual void startBatch(llvm::ArrayRef<NodeId> nodes);
  /// Waits for the started batch and appends its measurements to `out` in
  /// order.
  virtual void finishBatch(llvm::SmallVectorImpl<Measurement> &out);

private:
  /// The default startBatch's measurements, until finishBatch.
  llvm::SmallVector<Measurement> started;
};

/// An evaluator that forwards to a callable, for tests and small tools; the
/// callable must outlive it.
class FunctionEvaluator : public Evaluator {
public:
  explicit FunctionEvaluator(llvm::function_ref<Measurement(NodeId)> fn)
      : fn(fn) {}
  Measurement measure(NodeId node) override { return fn(node); }

private:
  llvm::function_ref<Measurement(NodeId)> fn;
};

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_SEARCHSPACE_H
