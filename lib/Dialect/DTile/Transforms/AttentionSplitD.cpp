//===- AttentionSplitD.cpp - A query row's head dimension over threads ---===//
//
// attention_split_d: after attention_blocks, a thread that owns a query row
// holds its query and its accumulators, two head dimensions of registers:
// 256 at head dimension 128 in f32, more than a thread has, so nvcc spills
// and has no register left to keep a load in flight, and q.k is one chain of
// dependent adds. Instead `lanes` threads, neighbouring lanes on a new
// innermost thread axis `hd`, share the row: lane h keeps elements h,
// h + lanes, ... of every head-dimension buffer, every loop over a head
// dimension walks the lane's elements only (consecutive lanes reading
// consecutive elements of a key or value row), and a loop that sums over
// one (q.k) ends in a dtile.combine over the lanes, which gives every lane
// the whole score. The online softmax's maximum and sum are then computed
// alike by every lane of the row, and each lane rescales and stores its own
// accumulators. The dot product's terms are summed in another order
// (strided partial sums, then the lanes'), the rest exactly as before.
//
//===----------------------------------------------------------------------===//

#include "AttentionSplitD.h"
#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The private head buffers of a tile and the loops that walk them.
struct HeadLoops {
  SmallVector<memref::AllocaOp> buffers;
  llvm::SetVector<dloop::ForOp> loops;
};

/// The single index of `op` (a dloop.load or dloop.store) when its map is
/// the identity; null otherwise.
Value getSoleIndex(Operation *op) {
  AffineMap map;
  ValueRange indices;
  if (auto load = dyn_cast<dloop::LoadOp>(op)) {
    map = load.getMap();
    indices = load.getIndices();
  } else if (auto store = dyn_cast<dloop::StoreOp>(op)) {
    map = store.getMap();
    indices = store.getIndices();
  }
  if (!map || indices.size() != 1 || !map.isIdentity())
    return {};
  return indices.front();
}

/// Whether `value` may differ between the threads of a block: it is
/// computed from a thread coordinate or from the induction variable of a
/// loop whose start is one (a strided loop over threads).
bool variesByThread(Value value, TileOp tile) {
  SmallVector<Value> work = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == tile.getOperation())
        return arg.getArgNumber() >= tile.getBlockExtents().size();
      if (isa<StridedForOp>(owner))
        return true;
      continue;
    }
    llvm::append_range(work, v.getDefiningOp()->getOperands());
  }
  return false;
}

/// Whether the last index of `store` is `var` plus terms of other values:
/// distinct values of `var` store to distinct elements.
bool indexesBy(dloop::StoreOp store, Value var) {
  AffineMap map = store.getMap();
  if (map.getNumResults() == 0)
    return false;
  for (unsigned i = 0, e = store.getIndices().size(); i < e; ++i)
    if (store.getIndices()[i] == var) {
      AffineExpr last = map.getResults().back();
      AffineExpr dim = getAffineDimExpr(i, store.getContext());
      // last - var must not depend on var.
      AffineExpr rest =
          simplifyAffineExpr(last - dim, map.getNumDims(), map.getNumSymbols());
      if (rest.isFunctionOfDim(i))
        return false;
      return llvm::none_of(map.getResults().drop_back(),
                           [&](AffineExpr e) { return e.isFunctionOfDim(i); });
    }
  return false;
}

/// The head loops of `kernel` for `lanes` threads a row on `target`, or why
/// the rule cannot split it (see the rule).
llvm::Expected<HeadLoops> planSplitD(KernelOp kernel, TargetAttr target,
                                     int64_t lanes) {
  TileOp tile = kernel.getTile();
  if (!tile)
    return llvm::createStringError("it has no tile");
  HeadLoops head;
  Block &body = tile.getBody().front();
  for (auto buffer : body.getOps<memref::AllocaOp>()) {
    MemRefType type = buffer.getType();
    if (type.getRank() != 1 || !type.hasStaticShape() ||
        type.getDimSize(0) % lanes != 0 || type.getDimSize(0) < 2 * lanes)
      return llvm::createStringError(
          "a private buffer is no row of at least two elements a "
          "lane for " +
          llvm::Twine(lanes) + " lanes");
    head.buffers.push_back(buffer);
    for (Operation *user : buffer->getUsers()) {
      auto index = dyn_cast_or_null<BlockArgument>(getSoleIndex(user));
      auto loop = index
                      ? dyn_cast<dloop::ForOp>(index.getOwner()->getParentOp())
                      : dloop::ForOp();
      if (!loop || index != loop.getInductionVar() ||
          loop.getExtent() != type.getDimSize(0))
        return llvm::createStringError(
            "a private buffer is accessed other than at the "
            "variable of a loop over its extent");
      head.loops.insert(loop);
    }
  }
  if (head.loops.empty())
    return llvm::createStringError("it has no private head-dimension buffer");
  // Only rows a thread cannot hold in registers (which nvcc would spill).
  int64_t words = getPrivateWords(tile);
  int64_t budget = getRegisterBudget(target, tile.getNumThreads());
  if (kBaseThreadRegisters + words <= budget)
    return llvm::createStringError("a thread's rows (" + llvm::Twine(words) +
                                   " words) fit its " + llvm::Twine(budget) +
                                   " registers");
  int64_t threads = tile.getNumThreads() * lanes;
  if (threads % 32 != 0 || threads > target.getThreadsPerBlock())
    return llvm::createStringError(llvm::Twine(threads) + " threads a block (" +
                                   llvm::Twine(tile.getNumThreads()) + " x " +
                                   llvm::Twine(lanes) +
                                   ") are not whole warps within " +
                                   llvm::Twine(target.getThreadsPerBlock()));
  for (dloop::ForOp loop : head.loops) {
    for (Operation *parent = loop->getParentOp(); parent != tile;
         parent = parent->getParentOp()) {
      if (auto outer = dyn_cast<dloop::ForOp>(parent);
          outer && head.loops.contains(outer))
        return llvm::createStringError(
            "a loop over a private buffer is inside another");
      // The lanes of a row combine their sums: all of them must get there
      // (warp shuffles), so no condition that differs between threads.
      if (auto guard = dyn_cast<scf::IfOp>(parent);
          guard && loop.isReduction() &&
          variesByThread(guard.getCondition(), tile))
        return llvm::createStringError(
            "a sum over a private buffer is under a condition "
            "that differs between threads");
    }
    if (loop->walk([](CombineOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return llvm::createStringError(
          "a loop over a private buffer combines across threads "
          "(split_kv's merge)");
    for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
      std::optional<ReduceKind> kind = getAccumulatorKind(loop, i);
      if (!kind || !isIdentity(init, *kind))
        return llvm::createStringError(
            "a loop over a private buffer carries a value that is "
            "no reduction from its identity");
    }
  }
  // Every lane stores only its own elements: stores to memory other threads
  // see are all inside head loops, at an index of the loop's variable.
  WalkResult stores = tile->walk([&](dloop::StoreOp store) {
    if (store.getMemRef().getDefiningOp<memref::AllocaOp>())
      return WalkResult::advance();
    for (Operation *parent = store->getParentOp(); parent != tile;
         parent = parent->getParentOp())
      if (auto loop = dyn_cast<dloop::ForOp>(parent);
          loop && head.loops.contains(loop) &&
          indexesBy(store, loop.getInductionVar()))
        return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (stores.wasInterrupted())
    return llvm::createStringError(
        "it stores to memory outside a loop over a private buffer "
        "or not at that loop's variable");
  return head;
}

/// Deals each private head-dimension buffer of `kernel`'s tile to `lanes`
/// threads on a new innermost thread axis `hd`, as `head` plans (see the
/// rule).
void splitHeadOverThreads(KernelOp kernel, const HeadLoops &head,
                          int64_t lanes) {
  TileOp tile = kernel.getTile();
  Value lane = addInnermostThreadAxis(tile, "hd", lanes);

  // Each buffer, `lanes` times shorter.
  IRMapping mapping;
  llvm::SmallPtrSet<Value, 4> shortBuffers;
  for (memref::AllocaOp buffer : head.buffers) {
    OpBuilder b(buffer);
    MemRefType type = buffer.getType();
    auto shorter = memref::AllocaOp::create(
        b, buffer.getLoc(),
        MemRefType::get({type.getDimSize(0) / lanes}, type.getElementType()));
    mapping.map(buffer.getResult(), shorter.getResult());
    shortBuffers.insert(shorter.getResult());
  }

  // Each head loop over the lane's elements: element j * lanes + lane, at
  // j in the short buffers.
  MLIRContext *ctx = kernel.getContext();
  AffineMap element = AffineMap::get(
      2, 0, getAffineDimExpr(0, ctx) * lanes + getAffineDimExpr(1, ctx));
  for (dloop::ForOp loop : head.loops) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    auto split = dloop::ForOp::create(
        b, loc, loop.getExtent() / lanes, loop.getKind(), loop.getAxis(),
        loop.getInitArgs(),
        [&](OpBuilder &lb, Location ll, Value j, ValueRange iters) {
          Value d = affine::AffineApplyOp::create(lb, ll, element,
                                                  ValueRange{j, lane});
          mapping.map(loop.getInductionVar(), d);
          mapping.map(loop.getIterArgs(), iters);
          for (Operation &op : loop.getBody()->getOperations())
            lb.clone(op, mapping);
          // The short buffers are indexed by j.
          lb.getBlock()->walk([&](Operation *op) {
            if (auto load = dyn_cast<dloop::LoadOp>(op);
                load && shortBuffers.contains(load.getMemRef()))
              load.getIndicesMutable().assign(j);
            if (auto store = dyn_cast<dloop::StoreOp>(op);
                store && shortBuffers.contains(store.getMemRef()))
              store.getIndicesMutable().assign(j);
          });
        });
    // A sum over the head dimension: the lanes' partial sums combined.
    b.setInsertionPointAfter(split);
    for (auto [i, result] : llvm::enumerate(loop.getResults())) {
      Value whole = CombineOp::create(b, loc, split.getResult(i),
                                      *getAccumulatorKind(loop, i),
                                      b.getStrArrayAttr({"hd"}));
      result.replaceAllUsesWith(whole);
    }
    loop.erase();
  }
  for (memref::AllocaOp buffer : head.buffers)
    buffer.erase();
}

class AttentionSplitD final : public TypedRule<AttentionSplitDKnobs> {
public:
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    if (llvm::Expected<HeadLoops> head = planSplitD(kernel, target, 4); !head)
      return llvm::toString(head.takeError());
    return {};
  }

  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    std::optional<int64_t> lanes = requested.getSplitD();
    if (!lanes || *lanes == 1 || !kernel.getTile() || hasDecided(*this, kernel))
      return success();
    if (llvm::Expected<HeadLoops> head = planSplitD(kernel, target, *lanes);
        !head)
      return kernel.emitOpError("knob split_d=")
             << *lanes << ": attention_split_d cannot split the rows of @"
             << kernel.getSymName() << ": " << llvm::toString(head.takeError());
    return success();
  }

protected:
  /// 1, then those of 4, 8 and 16 the rule can take (getRefusal says why
  /// not).
  SmallVector<AttentionSplitDKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    if (!kernel.getTile() || hasDecided(*this, kernel))
      return {};
    SmallVector<AttentionSplitDKnobs> options;
    for (int64_t lanes : {4, 8, 16})
      if (llvm::expectedToOptional(planSplitD(kernel, target, lanes)))
        options.push_back({lanes});
    if (!options.empty())
      options.insert(options.begin(), AttentionSplitDKnobs{1});
    return options;
  }

  /// The split closest to kHeadDimLanes (8): rows this rule can split
  /// spill a thread's registers, and 8 lanes with attention_blocks' 32 rows
  /// and 32 keys ran fastest (H200, Qwen's FP32 sdpa and naive attention at
  /// s128 and s512: 2.04-2.71x over the rows unsplit; 4 and 16 lanes
  /// 1.82-2.73x and 1.97-2.24x; bench/results/forks-h200-2026-11-28b.md).
  size_t heuristic(KernelOp, ArrayRef<AttentionSplitDKnobs> options,
                   TargetAttr) const override {
    auto distance = [](const AttentionSplitDKnobs &o) {
      return std::abs(static_cast<int>(llvm::Log2_64(o.splitD)) -
                      static_cast<int>(llvm::Log2_64(kHeadDimLanes)));
    };
    return llvm::min_element(options,
                             [&](const AttentionSplitDKnobs &a,
                                 const AttentionSplitDKnobs &b) {
                               return distance(a) < distance(b);
                             }) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const AttentionSplitDKnobs &option,
                        TargetAttr target) const override {
    if (option.splitD == 1)
      return success();
    llvm::Expected<HeadLoops> head = planSplitD(kernel, target, option.splitD);
    if (!head) {
      llvm::consumeError(head.takeError());
      return failure();
    }
    splitHeadOverThreads(kernel, *head, option.splitD);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

bool dtile::canSplitHeadDim(KernelOp kernel, TargetAttr target, int64_t lanes) {
  return static_cast<bool>(
      llvm::expectedToOptional(planSplitD(kernel, target, lanes)));
}

std::unique_ptr<Rule> dtile::createAttentionSplitDRule() {
  return std::make_unique<AttentionSplitD>();
}
