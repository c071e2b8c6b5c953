//===- ForkTree.h - One kernel's fork tree as a search space ----*- C++ -*-===//
//
// The search space the tuner walks for one fused Loop IR kernel: the Tile
// rules run in order and every rule with several options branches. The tree
// stores decisions, not IR: a node is its parent and the option taken there
// (plus a few uniqued attributes), so thousands of nodes cost kilobytes. The
// IR of a node is rebuilt on demand by replaying its choices from the root,
// starting from the nearest ancestor held in a small LRU cache of cursors.
// Rules with a single option are applied in passing and make no tree level.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_FORKTREE_H
#define DEPLODOCK_TUNER_FORKTREE_H

#include "Deplodock/Dialect/DTile/Transforms/ForkCursor.h"
#include "Deplodock/Tuner/SearchSpace.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ThreadPool.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace deplodock::tuner {

/// The fork tree of one Loop IR kernel. Node ids are dense indices in
/// creation order (the root is 0); the same node always has the same id and
/// the same children, so several strategies may walk one space in turn.
class ForkTreeSpace : public SearchSpace {
public:
  /// Cursors kept besides the root's when none is given.
  static constexpr size_t kDefaultCacheCapacity = 8;

  /// The space of `kernel` on `target`. The kernel is copied (it may die
  /// afterwards); fails, with the errors tileify reports, when it cannot be
  /// tileified.
  static mlir::FailureOr<std::unique_ptr<ForkTreeSpace>>
  create(dloop::KernelOp kernel, const dtile::Target &target,
         size_t cacheCapacity = kDefaultCacheCapacity);

  NodeId root() override { return 0; }
  /// Whether every rule has run at `node`; false at a dead end.
  bool isTerminal(NodeId node) override;
  /// One child per option of the next forking rule, option 0 first; none at
  /// a terminal or a dead end (an option that failed to apply).
  void children(NodeId node, llvm::SmallVectorImpl<NodeId> &out) override;
  /// The knob delta of the option taken to reach `node` (uniqued, so equal
  /// deltas are the same decision wherever they are taken).
  std::optional<uint64_t> decisionKey(NodeId node) override;
  std::optional<unsigned> decisionDistance(NodeId a, NodeId b) override;

  /// The kernel at `node`, rebuilt by replay; null at a dead end. Valid until
  /// the next call that materialises a node.
  const dtile::ForkCursor *getCursor(NodeId node);

  /// The parent of `node` (the root is its own parent).
  NodeId getParent(NodeId node) const;
  /// The nodes from the root down to `node`, both included.
  llvm::SmallVector<NodeId> getAncestry(NodeId node) const;
  /// The option index taken at each fork from the root to `node`.
  llvm::SmallVector<unsigned> getPath(NodeId node) const;
  /// The node `path` (option indices from the root) leads to, or failure
  /// when an index is out of range or the path passes a dead end.
  mlir::FailureOr<NodeId> descend(llvm::ArrayRef<unsigned> path);
  /// The first terminal of option 0 at every fork (the heuristic default),
  /// or failure when that path is a dead end.
  mlir::FailureOr<NodeId> defaultTerminal();

  /// The option (knob delta) taken to reach `node`; empty at the root.
  dtile::KnobsAttr getDelta(NodeId node) const;
  /// The knobs stamped on the kernel at `node`; null at a dead end.
  dtile::KnobsAttr getKnobs(NodeId node);
  /// The rule that forks at the non-terminal `node`, or null.
  const dtile::Rule *getRule(NodeId node);

  /// The work that estimates one terminal's latency in µs (or none); it
  /// may run on any thread.
  using PriorTask = std::function<std::optional<double>()>;
  /// The prior of terminals: `fn` is called once per terminal, with its
  /// cursor (valid during the call only), on the thread that owns the tree,
  /// and returns the estimate's task; prior() is 1 / the estimate.
  void setPriorEstimator(
      std::function<PriorTask(NodeId, const dtile::ForkCursor &)> fn) {
    priorEstimator = std::move(fn);
  }
  /// Where queued priors are computed: on `pool`, several at once (null: one
  /// after the other on the calling thread). The tasks must be safe to run
  /// together.
  void setThreadPool(llvm::ThreadPoolInterface *threads) { pool = threads; }
  std::optional<double> prior(NodeId node) override;
  /// Builds the terminal's kernel now (the cursor is at hand right after a
  /// walk reached it) and keeps its task for computeQueuedPriors.
  void queuePrior(NodeId node) override;
  void computeQueuedPriors() override;

  /// Nodes created so far.
  size_t getNumNodes() const { return nodes.size(); }
  /// Bytes the tree itself holds per node (no IR).
  static size_t getBytesPerNode();
  /// Cursors held now, the root's excluded: never more than the capacity.
  size_t getNumCachedCursors() const { return cache.size(); }
  size_t getCacheCapacity() const { return capacity; }
  /// Rule applications done to rebuild nodes, and the seconds they took,
  /// for reports.
  size_t getNumReplayedChoices() const { return numChoices; }
  double getReplaySeconds() const { return replaySeconds; }

private:
  enum class State : uint8_t { Unknown, Inner, Terminal, DeadEnd };
  struct Node {
    uint32_t parent;
    uint32_t option;
    uint32_t firstChild = 0;
    uint32_t numChildren = 0;
    State state = State::Unknown;
    bool expanded = false;
    uint16_t rule = 0;
    dtile::KnobsAttr delta;
    dtile::KnobsAttr knobs;
  };
  struct CacheEntry {
    NodeId node;
    uint64_t lastUse;
    dtile::ForkCursor cursor;
  };

  ForkTreeSpace(dtile::ForkCursor root, size_t capacity);
  /// Applies single-option rules until a fork or the end.
  static mlir::FailureOr<dtile::ForkCursor> skipForced(dtile::ForkCursor cursor,
                                                       size_t &choices);
  /// Records what `cursor` tells about `node` the first time it is built.
  void learn(NodeId node, const dtile::ForkCursor &cursor);
  /// Finds `node` in the cache (the root is always there).
  const dtile::ForkCursor *lookup(NodeId node);

  std::vector<Node> nodes;
  dtile::ForkCursor rootCursor;
  std::vector<CacheEntry> cache;
  size_t capacity;
  uint64_t clock = 0;
  size_t numChoices = 0;
  double replaySeconds = 0;
  std::function<PriorTask(NodeId, const dtile::ForkCursor &)> priorEstimator;
  llvm::ThreadPoolInterface *pool = nullptr;
  /// Priors computed so far, by terminal.
  llvm::DenseMap<NodeId, std::optional<double>> priors;
  /// Terminals queued for computeQueuedPriors, and their tasks.
  std::vector<std::pair<NodeId, PriorTask>> queued;
};

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_FORKTREE_H
