//===- AttentionBlocks.cpp - Query rows and key steps of attention -*- C++ -*-//
//
// attention_blocks: the online-softmax kernel dloop-fuse-attention builds
// holds, per query row, a private buffer of head-dimension accumulators that
// every step of the loop over the keys rescales. The rule deals BQ query
// rows to the threads of a block (one row per thread: the running maximum,
// sum and accumulators stay in its registers) and steps the keys BKV at a
// time, so that the K and V rows of one step, which all the block's threads
// read, form a slab stage_inputs can stage. The query row, which every key
// would read again, is read once into registers (AttentionQueryRow.cpp).
// With few query rows per head (decoding) or too few rows in all to fill
// the GPU, split_kv threads share each row's keys (AttentionSplit.cpp), and
// with few per head split_kv_blocks blocks share its key steps, merged by a
// second kernel (AttentionSplitBlocks.cpp). Forks over (BQ, BKV, split_kv,
// split_kv_blocks).
//
// The seam for tensor cores: q.k^T of one step is a BQ x BKV product and
// p.v a BQ x BKV by BKV x D one; a rule that maps them to MMA fragments
// takes the same blocks.
//
//===----------------------------------------------------------------------===//

#include "AttentionQueryRow.h"
#include "AttentionSplit.h"
#include "AttentionSplitD.h"
#include "Rules.h"
#include "SplitWorkspace.h"
#include "TileUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

dloop::ForOp dtile::getOnlineSoftmaxLoop(TileOp tile) {
  SmallVector<dloop::ForOp> reductions = getTopLevelReductions(tile);
  for (auto buffer : tile.getBody().front().getOps<memref::AllocaOp>())
    for (Operation *user : buffer->getUsers())
      if (isa<dloop::StoreOp>(user))
        for (dloop::ForOp loop : reductions)
          if (loop->isProperAncestor(user))
            return loop;
  return {};
}

namespace {

/// The bytes of the largest private row buffer (accumulators or query row)
/// a thread of `tile` holds.
int64_t getRowBufferBytes(TileOp tile) {
  int64_t bytes = 0;
  for (auto buffer : tile.getBody().front().getOps<memref::AllocaOp>()) {
    MemRefType type = buffer.getType();
    if (type.hasStaticShape() && type.getElementType().isIntOrFloat())
      bytes = std::max<int64_t>(bytes, type.getNumElements() *
                                           type.getElementTypeBitWidth() / 8);
  }
  return bytes;
}

/// Rows of this many bytes of accumulators (head dim 128 in f32) in heads of
/// this many query rows or more take the blocks measured for them.
constexpr int64_t kWideRowBytes = 512, kLongHeadRows = 128;
/// The block of such rows attention_split_d then shares best (32 rows and
/// 32 keys a step), and the smallest listed (16 rows of 8 lanes: 4 warps).
constexpr int64_t kSharedRows = 32, kSharedKeys = 32, kSharedRowsMin = 16;

/// Threads that fill the GPU: four warps per SM, enough to keep an SM's
/// FP32 pipes and its memory latency covered by a serial chain per row.
int64_t fillThreads(TargetAttr target) { return 4 * 32 * target.getSmCount(); }

class AttentionBlocks final : public TypedRule<AttentionBlocksKnobs> {
protected:
  /// BQ: a warp or more, powers of two up to the rows (rounded up), 256
  /// and the block's limit (a thread holds a whole row's accumulators, so
  /// larger blocks only spill); all rows when there are fewer than a warp. BKV:
  /// every key, then powers of two in [16, 128] below the key count.
  /// split_kv: 1, and where a head has at most 64 query rows or the rows
  /// in all fill fewer than four warps per SM, powers of two from 2 up to
  /// 32 and BKV, with BQ x split_kv threads at most 256; BQ may then also be
  /// a power of two below a warp and the rows whose threads fill one. Then,
  /// where the keys can split over blocks (at most 64 query rows per head),
  /// each stepped option with BQ at most the rows again with
  /// split_kv_blocks.
  SmallVector<AttentionBlocksKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    TileOp tile = kernel.getTile();
    if (!tile.getThreadAxes().empty())
      return {};
    dloop::ForOp keys = getOnlineSoftmaxLoop(tile);
    if (!keys)
      return {};
    int64_t rows = product(tile.getBlockExtents());
    SmallVector<int64_t> queryBlocks;
    if (rows < 32)
      queryBlocks.push_back(rows);
    for (int64_t t = 32;
         t <= std::min<int64_t>({target.getThreadsPerBlock(), 256,
                                 int64_t(llvm::PowerOf2Ceil(rows))});
         t *= 2)
      queryBlocks.push_back(t);
    SmallVector<int64_t> keySteps = {keys.getExtent()};
    for (int64_t c = 16; c <= 128 && c < keys.getExtent(); c *= 2)
      keySteps.push_back(c);
    bool fewQueries = tile.getBlockExtents().back() <= 64 &&
                      getRunningMaxIndex(keys, /*stepped=*/false);
    bool canSplit = fewQueries || (rows < fillThreads(target) &&
                                   getRunningMaxIndex(keys, /*stepped=*/false));
    int64_t maxThreads = std::min<int64_t>(256, target.getThreadsPerBlock());
    SmallVector<AttentionBlocksKnobs> options;
    for (int64_t bq : queryBlocks)
      for (int64_t bkv : keySteps)
        for (int64_t s = 1; s <= 32; s *= 2)
          if (s == 1 || (canSplit && s <= bkv && bq * s <= maxThreads))
            options.push_back({bq, bkv, s});
    // Fewer rows than a warp per block, when their threads fill one.
    if (canSplit)
      for (int64_t bq = 1; bq < std::min<int64_t>(rows, 32); bq *= 2)
        for (int64_t bkv : keySteps)
          for (int64_t s = 2; s <= 32; s *= 2)
            if (s <= bkv && bq * s >= 32 && bq * s <= maxThreads)
              options.push_back({bq, bkv, s});
    // Rows past a thread's registers, which attention_split_d shares among
    // threads: also 16 rows a block, for twice the blocks of 32 (a short
    // head's 32-row blocks leave SMs without one).
    if (getRowBufferBytes(tile) >= kWideRowBytes && rows > kSharedRowsMin)
      for (int64_t bkv : keySteps)
        options.push_back({kSharedRowsMin, bkv, 1});
    // Then each stepped option whose rows fit the block over split_kv_blocks
    // blocks: the divisors of its step count in [2, 64].
    std::optional<memref::AllocaOp> acc =
        fewQueries ? llvm::expectedToOptional(getBlockSplitAccumulators(
                         kernel, keys, /*stepped=*/false))
                   : std::nullopt;
    if (!acc)
      return options;
    int64_t dims = acc->getType().getDimSize(0);
    for (size_t i = 0, e = options.size(); i < e; ++i) {
      AttentionBlocksKnobs option = options[i];
      if (option.BKV >= keys.getExtent() || option.BQ > rows)
        continue;
      for (int64_t s : divisorsIn(ceilDiv(keys.getExtent(), option.BKV), 2, 64))
        if (workspaceFitsIndices(kernel, s, dims)) {
          option.splitKvBlocks = s;
          options.push_back(option);
        }
    }
    return options;
  }

  /// split_kv_blocks where the kernel is an online softmax this rule could
  /// take but that one cannot split, or one attention_mma mapped already.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr,
                             KnobsAttr requested) const override {
    std::optional<int64_t> blocks = requested.getSplitKvBlocks();
    TileOp tile = kernel.getTile();
    if (!blocks || !tile || hasDecided(*this, kernel))
      return success();
    auto refuse = [&](const llvm::Twine &why) {
      return kernel.emitOpError("knob split_kv_blocks=")
             << *blocks << ": attention_blocks cannot split the keys of @"
             << kernel.getSymName() << " over blocks: " << why;
    };
    if (!tile.getThreadAxes().empty()) {
      // attention_mma's kernel: its running maximum is combined over lanes.
      for (dloop::ForOp loop : getTopLevelReductions(tile))
        for (Value value : loop.getYield().getValues())
          if (auto combine = value.getDefiningOp<CombineOp>();
              combine && combine.getKind() == ReduceKind::max)
            return refuse("it runs on tensor cores (attention_mma), which "
                          "does not split keys over blocks");
      return success();
    }
    dloop::ForOp keys = getOnlineSoftmaxLoop(tile);
    if (!keys)
      return success();
    if (tile.getBlockExtents().back() > 64)
      return refuse("a head has more than 64 query rows");
    llvm::Expected<memref::AllocaOp> acc =
        getBlockSplitAccumulators(kernel, keys, /*stepped=*/false);
    if (!acc)
      return refuse(llvm::toString(acc.takeError()));
    return success();
  }

  /// Decoding (at most 16 queries per head, or at most 128 rows in all: a
  /// single query leaves only the heads' axis, and a thread per row would
  /// leave the GPU nearly idle): a warp per row and a row per
  /// block, for as many blocks as there are rows; 32 keys per step, else
  /// the closest. Otherwise split_kv threads per row, the power of two
  /// closest to four warps per SM over the rows (1 where the rows fill
  /// them), and 64 rows per block (two warps: enough blocks for long
  /// sequences and for the heads of short ones), fewer where that would pass
  /// 256 threads, else the closest; then 32 keys per step, else the closest.
  /// But first, for rows of 512 bytes of accumulators or more (head dim 128
  /// in f32: with the query row, more than a thread's 255 registers) in
  /// heads of 128 query rows or more: 32 rows a block and 32 keys a step,
  /// whose rows attention_split_d then shares among 8 threads (H200, Qwen's
  /// FP32 sdpa and naive attention at s128 and s512: 2.04-2.71x over 64-key
  /// steps split 8 ways, bench/results/forks-h200-2026-11-28b.md); where it
  /// cannot, 32 rows, 64 keys and 8 threads a row over the keys, 1.73x and
  /// 1.09x over the rest of the rule there
  /// (bench/results/forks-h200-2026-11-28.md).
  size_t heuristic(KernelOp kernel, ArrayRef<AttentionBlocksKnobs> options,
                   TargetAttr target) const override {
    auto distance = [](double value, double goal) {
      return std::abs(std::log2(value / goal));
    };
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    if (getRowBufferBytes(kernel.getTile()) >= kWideRowBytes &&
        extents.back() >= kLongHeadRows) {
      const auto *shared =
          llvm::find(options, AttentionBlocksKnobs{kSharedRows, kSharedKeys, 1,
                                                   std::nullopt});
      if (shared != options.end() &&
          splitsHeadDimAfter(kernel, *shared, target))
        return shared - options.begin();
      const auto *wide =
          llvm::find(options, AttentionBlocksKnobs{32, 64, 8, std::nullopt});
      if (wide != options.end())
        return wide - options.begin();
    }
    // split_kv_blocks is never the default until a GPU measures it.
    bool decoding = (extents.back() <= 16 || product(extents) <= 128) &&
                    llvm::any_of(options, [](const AttentionBlocksKnobs &o) {
                      return o.splitKv > 1;
                    });
    int64_t rows = 1, split = 32;
    if (!decoding) {
      double fill =
          std::max(1.0, double(fillThreads(target)) / double(product(extents)));
      split = llvm::min_element(options, [&](const AttentionBlocksKnobs &a,
                                             const AttentionBlocksKnobs &b) {
                return distance(a.splitKv, fill) < distance(b.splitKv, fill);
              })->splitKv;
      rows = std::min<int64_t>(64, 256 / split);
    }
    auto key = [&](const AttentionBlocksKnobs &o) {
      return std::make_tuple(o.splitKvBlocks.has_value(), distance(o.BQ, rows),
                             distance(o.splitKv, split), distance(o.BKV, 32));
    };
    return llvm::min_element(
               options,
               [&](const AttentionBlocksKnobs &a,
                   const AttentionBlocksKnobs &b) { return key(a) < key(b); }) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const AttentionBlocksKnobs &option,
                        TargetAttr) const override;

private:
  /// Whether attention_split_d takes kHeadDimLanes a row of `kernel` after
  /// `option` (tried on a copy).
  bool splitsHeadDimAfter(KernelOp kernel, const AttentionBlocksKnobs &option,
                          TargetAttr target) const {
    auto copy = cast<KernelOp>(kernel->clone());
    bool splits = succeeded(rewrite(copy, option, target)) &&
                  canSplitHeadDim(copy, target, kHeadDimLanes);
    copy->erase();
    return splits;
  }
};

} // namespace

LogicalResult AttentionBlocks::rewrite(KernelOp kernel,
                                       const AttentionBlocksKnobs &option,
                                       TargetAttr) const {
  dloop::ForOp keys = getOnlineSoftmaxLoop(kernel.getTile());
  if (!keys)
    return failure();
  bool stepped = option.BKV < keys.getExtent();
  int64_t rows = product(kernel.getTile().getBlockExtents());
  if (stepped)
    keys = splitReduceLoop(keys, option.BKV);
  if (int64_t blocks = option.splitKvBlocks.value_or(1);
      blocks > 1 &&
      (!stepped || failed(splitKeysOverBlocks(kernel, keys, blocks))))
    return failure();
  // A single row keeps its one thread (there is nothing to deal).
  if (rows > 1 && failed(dealRowsToThreads(kernel, option.BQ)))
    return failure();
  keys = getOnlineSoftmaxLoop(kernel.getTile());
  if (!keys)
    return failure();
  // The query row, read for every key, is read once (before split_kv
  // turns the key loop into one strided over threads).
  hoistKeyInvariantRows(keys);
  if (option.splitKv > 1 &&
      failed(splitKeysOverThreads(kernel, keys, stepped, option.splitKv)))
    return failure();
  cleanupKernel(kernel);
  return success();
}

std::unique_ptr<Rule> dtile::createAttentionBlocksRule() {
  return std::make_unique<AttentionBlocks>();
}
