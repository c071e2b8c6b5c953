//===- CooperativeReduce.cpp - Threads share a row's reduction --*- C++ -*-===//
//
// cooperative_reduce: for reductions that are not matmuls (norms, softmax,
// row sums) each output row of the block is reduced by T threads: every
// top-level reduce loop becomes a loop strided over the threads followed by
// a combine across them, every top-level free loop a strided loop, and a
// store of a combined value is done by thread 0 alone. Forks over T; T = 1
// keeps one thread per row (for short rows, with many rows per block after
// blockify_launch). With `rows` = R a block holds R rows of T threads each
// (the innermost block axis split, its inner part a thread axis before t).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The most threads a block of several rows gets (T x R).
constexpr int64_t kMaxRowsThreads = 512;

/// The next power of two at least `n`.
int64_t nextPowerOfTwo(int64_t n) {
  // Saturates at 2^62 (a doubling loop would overflow on an extent near
  // 2^63 and never end); the callers clamp far below.
  if (n <= 1)
    return 1;
  return static_cast<int64_t>(
      llvm::PowerOf2Ceil(std::min<uint64_t>(n, uint64_t(1) << 62)));
}

/// The longest top-level reduce loop of `tile`.
int64_t longestReduction(TileOp tile) {
  int64_t longest = 0;
  for (dloop::ForOp loop : getTopLevelReductions(tile))
    longest = std::max(longest, loop.getExtent());
  return longest;
}

class CooperativeReduce final : public TypedRule<CooperativeReduceKnobs> {
protected:
  /// Powers of two from 32 up to the longest row (rounded up) and the
  /// block's limit, then 1.
  SmallVector<CooperativeReduceKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    TileOp tile = kernel.getTile();
    if (!tile.getThreadAxes().empty() ||
        classify(kernel) != KernelClass::Reduction)
      return {};
    SmallVector<dloop::ForOp> reductions = getTopLevelReductions(tile);
    if (reductions.empty())
      return {};
    // Each accumulator must be a known fold starting at its identity, or T
    // threads would each fold the initial value in.
    for (dloop::ForOp loop : reductions) {
      if (loop.getInitArgs().empty())
        return {};
      for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
        std::optional<ReduceKind> kind = getAccumulatorKind(loop, i);
        if (!kind || !isIdentity(init, *kind))
          return {};
      }
    }
    // Only loops, pure code, loads and stores may sit at the top level.
    for (Operation &op : tile.getBody().front().without_terminator())
      if (!isa<dloop::ForOp, dloop::LoadOp, dloop::StoreOp>(op) && !isPure(&op))
        return {};
    int64_t longest = longestReduction(tile);
    SmallVector<CooperativeReduceKnobs> options;
    for (int64_t t = 32;
         t <= std::min(target.getThreadsPerBlock(),
                       std::max<int64_t>(32, nextPowerOfTwo(longest)));
         t *= 2)
      options.push_back({t});
    options.push_back({1});
    // Several rows per block: the innermost block axis, split by R.
    SmallVector<Axis> blockAxes = getBlockAxes(tile);
    int64_t innermost = blockAxes.back().extent;
    size_t single = options.size();
    for (size_t i = 0; i < single; ++i) {
      int64_t t = options[i].threads;
      if (t < 32)
        continue;
      for (int64_t r = 2;
           t * r <= std::min<int64_t>(kMaxRowsThreads,
                                      target.getThreadsPerBlock()) &&
           r <= innermost;
           r *= 2)
        if (innermost % r == 0)
          options.push_back({t, r});
    }
    return options;
  }

  /// Rows shorter than kLongRow: the row length rounded up to a power of
  /// two, within [32, 256]; but rows of kPairedRow share blocks of 128
  /// threads at two elements a thread (H200, FP32 softmax over rows of 128:
  /// 1.29-1.30x over a row of 128 threads a block, where 4 or 8 rows of 32
  /// threads gave 1.22-1.41x; bench/results/forks-h200-2026-11-28b.md).
  /// Longer ones: kPerThread elements a thread, within [64, 256]. Measured
  /// on the H100: softmax rows of 512 took 47.0 us with 256 threads and
  /// 29.5 with 64 (tuned; eager 28.7).
  size_t heuristic(KernelOp kernel, ArrayRef<CooperativeReduceKnobs> options,
                   TargetAttr) const override {
    int64_t length = longestReduction(kernel.getTile());
    if (nextPowerOfTwo(length) == kPairedRow) {
      const auto *paired = llvm::find(
          options, CooperativeReduceKnobs{kPairedRow / 2, int64_t(2)});
      if (paired != options.end())
        return paired - options.begin();
    }
    int64_t best =
        length < kLongRow
            ? std::clamp<int64_t>(nextPowerOfTwo(length), 32, 256)
            : std::clamp<int64_t>(nextPowerOfTwo(length) / kPerThread, 64, 256);
    return llvm::find(options, CooperativeReduceKnobs{best}) - options.begin();
  }

  /// Rows this long (rounded up) take two rows of half their length in
  /// threads a block.
  static constexpr int64_t kPairedRow = 128;
  /// Rows from this long give each thread kPerThread elements.
  static constexpr int64_t kLongRow = 512;
  static constexpr int64_t kPerThread = 8;

  LogicalResult rewrite(KernelOp kernel, const CooperativeReduceKnobs &option,
                        TargetAttr) const override {
    int64_t threads = option.threads;
    if (threads == 1)
      return success(); // One thread per row; blockify_launch takes over.
    TileOp tile = kernel.getTile();
    int64_t rows = option.rows.value_or(1);
    SmallVector<Axis> blockAxes = getBlockAxes(tile);
    SmallVector<Axis> threadAxes;
    Axis inner = blockAxes.back();
    if (rows > 1) {
      blockAxes.pop_back();
      if (inner.extent > rows)
        blockAxes.push_back({inner.name + "_o", inner.extent / rows});
      if (blockAxes.empty())
        blockAxes.push_back({"unit", 1});
      threadAxes.push_back({inner.name + "_i", rows});
    }
    threadAxes.push_back({"t", threads});
    size_t keptBlocks = getBlockAxes(tile).size() - 1;
    tile = rebuildTile(tile, blockAxes, threadAxes,
                       [&](OpBuilder &b, Location loc, ValueRange blockCoords,
                           ValueRange threadCoords) {
                         SmallVector<Value> old(blockCoords);
                         if (rows == 1)
                           return std::make_pair(b.getBlock(), old);
                         // The innermost row: o * R + i, or i alone when R
                         // spans the axis.
                         old.resize(keptBlocks);
                         Value row = threadCoords[0];
                         if (inner.extent > rows) {
                           AffineExpr o, i;
                           bindDims(b.getContext(), o, i);
                           row = affine::AffineApplyOp::create(
                               b, loc, AffineMap::get(2, 0, o * rows + i),
                               {blockCoords[keptBlocks], row});
                         }
                         old.push_back(row);
                         return std::make_pair(b.getBlock(), old);
                       });
    Value t = tile.getThreadCoord(threadAxes.size() - 1);
    Block &body = tile.getBody().front();
    OpBuilder b(kernel.getContext());
    for (Operation &op :
         llvm::make_early_inc_range(body.without_terminator())) {
      b.setInsertionPoint(&op);
      Location loc = op.getLoc();
      if (auto loop = dyn_cast<dloop::ForOp>(op)) {
        auto strided = StridedForOp::create(b, loc, t, loop.getExtent(),
                                            threads, loop.getKind(),
                                            loop.getAxis(), loop.getInitArgs());
        Block *inner = &strided.getBody().front();
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), strided.getInductionVar());
        mapping.map(loop.getIterArgs(), strided.getIterArgs());
        b.setInsertionPointToStart(inner);
        if (!inner->empty())
          b.setInsertionPoint(inner->getTerminator());
        for (Operation &nested : loop.getBody()->without_terminator())
          b.clone(nested, mapping);
        if (loop.isReduction()) {
          SmallVector<Value> next;
          for (Value v : loop.getYield().getValues())
            next.push_back(mapping.lookupOrDefault(v));
          YieldOp::create(b, loc, next);
          b.setInsertionPointAfter(strided);
          SmallVector<Value> combined;
          for (auto [i, partial] : llvm::enumerate(strided.getResults()))
            combined.push_back(CombineOp::create(b, loc, partial,
                                                 *getAccumulatorKind(loop, i),
                                                 b.getStrArrayAttr({"t"})));
          loop.replaceAllUsesWith(combined);
        }
        loop.erase();
        continue;
      }
      if (auto store = dyn_cast<dloop::StoreOp>(op)) {
        // Every thread holds the value; one of them writes it.
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value first =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, zero);
        auto guard = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
        store->moveBefore(guard.thenBlock()->getTerminator());
      }
    }
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createCooperativeReduceRule() {
  return std::make_unique<CooperativeReduce>();
}
