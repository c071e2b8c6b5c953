//===- SplitKWorkspace.cpp - Split-K partial sums through a workspace -----===//
//
// The workspace form of split_matmul_k: every split block stores its partial
// sums (f32 or f64) to a workspace [split_k, block extents...], one
// `memref.alloc` per sum the chunk loop carries, and a second kernel,
// `@<kernel>_split_sum`, sums the splits of each output point in order,
// split 0 first, then runs the epilogue the matmul kernel had (residual
// loads, SiLU, products, the rounding to f16 or bf16) and stores the
// outputs. No atomics and no zeroed outputs: the result does not depend on
// the order blocks run in, the sum stays in f32 until the epilogue rounds
// it once, and any pointwise epilogue is legal.
//
// The tensor-core rules (wgmma_async, mma_sync) split the same way, with a
// knob of their own: they add the split axis and workspace store to the
// kernel before mapping its sum loop whole, and deal each split its share
// of the K chunks themselves.
//
// The sum kernel is born mapped (its innermost point axes over up to 256
// threads, as blockify_launch maps pointwise kernels, so the workspace's
// last dimension is read coalesced), because the lowering runs the rules
// only on the kernels it tileified: nothing is left for them to decide.
// Where the workspace's rows (the innermost output extent) hold whole
// 16-byte runs (W = 4 f32 columns), each thread sums W adjacent columns:
// the innermost axis `<n>` becomes `<n>_v` of extent / W, the split loop
// carries W accumulators and reads each workspace once per split as one
// `dkernel.vector_load` (a float4), unrolled (up to 16 deep), and the
// epilogue runs once per column, its W stores one `dkernel.vector_store`
// where the output's rows and element allow it (8 bytes of bf16 or f16, 16
// of f32; else W scalar stores). Threads are the most warps up to 256 that
// deal the runs evenly, else 256 masked (a masked thread neither reads nor
// stores its run). Each column is still summed in f32, split 0 first: the
// results are those of one column per thread, bit for bit. Elsewhere (rows
// of no whole run) one column per thread, scalar, as before.
//
//===----------------------------------------------------------------------===//

#include "SplitMatmulK.h"
#include "SplitWorkspace.h"
#include "TileUtils.h"
#include "VectorRuns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The most iterations of the sum kernel's split loop unrolled: 16 float4
/// reads in flight a thread (64 registers) and no more.
static constexpr int64_t kMaxSumUnroll = 16;

/// The run W of workspace columns a thread of the sum kernel reads at once:
/// the widest vector of the workspaces' element (4 for f32, a float4) when
/// the innermost block extent (the workspaces' rows) holds whole runs; else
/// 1 (one column per thread).
static int64_t getSumRunWidth(KernelOp sum, ValueRange spaces) {
  ArrayRef<int64_t> extents = sum.getTile().getBlockExtents();
  if (spaces.empty() || extents.empty() ||
      !sum.getTile().getThreadAxes().empty())
    return 1;
  SmallVector<int64_t, 2> widths =
      vectorWidths(getElementTypeOrSelf(spaces.front().getType()));
  if (widths.empty() || extents.back() % widths.front() != 0)
    return 1;
  int64_t width = widths.front();
  for (Value space : spaces)
    if (!isAlignedGlobalBuffer(sum, space, width))
      return 1;
  return width;
}

/// Gives each point of the sum kernel's tile `width` adjacent columns: its
/// innermost block axis `<n>` becomes `<n>_v`, `width` times shorter.
/// Returns the columns c * width + j, j < width, built at the start of the
/// tile body (the old body sees the first).
static SmallVector<Value> groupColumns(KernelOp sum, int64_t width) {
  TileOp tile = sum.getTile();
  SmallVector<Axis> axes = getBlockAxes(tile);
  axes.back() = {axes.back().name + "_v", axes.back().extent / width};
  SmallVector<Value> columns;
  rebuildTile(
      tile, axes, {},
      [&](OpBuilder &b, Location loc, ValueRange blockCoords, ValueRange) {
        AffineExpr c = b.getAffineDimExpr(0);
        for (int64_t j = 0; j < width; ++j)
          columns.push_back(affine::AffineApplyOp::create(
              b, loc, AffineMap::get(1, 0, c * width + j), blockCoords.back()));
        SmallVector<Value> old(blockCoords.drop_back());
        old.push_back(columns.front());
        return std::make_pair(b.getBlock(), old);
      });
  return columns;
}

/// Repeats, for each column after the first, every op of `body` but
/// `total` and the columns that depends on the first column, right after
/// the op (so that the copies of a store are adjacent). `maps[j]` maps the
/// first column's values to column j's.
static void repeatForColumns(Block &body, dloop::ForOp total,
                             ArrayRef<Value> columns,
                             MutableArrayRef<IRMapping> maps) {
  llvm::DenseSet<Value> dependent{columns.front()};
  for (Value result : total.getResults())
    dependent.insert(result);
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    if (&op != total && !llvm::any_of(op.getResults(), [&](Value v) {
          return llvm::is_contained(columns, v);
        }))
      ops.push_back(&op);
  for (Operation *op : ops) {
    bool depends = false;
    op->walk([&](Operation *nested) {
      depends |= llvm::any_of(nested->getOperands(),
                              [&](Value v) { return dependent.contains(v); });
    });
    if (!depends)
      continue;
    dependent.insert(op->result_begin(), op->result_end());
    OpBuilder b(op);
    b.setInsertionPointAfter(op);
    for (IRMapping &map : maps.drop_front())
      b.setInsertionPointAfter(b.clone(*op, map));
  }
}

/// Builds the sum kernel from `sum`, a copy of the unsplit kernel whose chunk
/// loop is `chunk`: the loop becomes a loop over the splits reading
/// `workspaces` (bound as inputs), in order. Where the workspaces' rows
/// hold whole runs of W columns (getSumRunWidth), each thread sums W
/// adjacent columns: one vector read per split and workspace, W
/// accumulators, the epilogue repeated per column and its stores one
/// vector store where the output's rows allow it.
static LogicalResult buildSumKernel(KernelOp sum, dloop::ForOp chunk,
                                    ValueRange workspaces, int64_t splits) {
  ValueRange spaces = appendBuffers(sum, workspaces, /*asInputs=*/true);
  int64_t width = getSumRunWidth(sum, spaces);
  SmallVector<Value> columns;
  if (width > 1)
    columns = groupColumns(sum, width);
  TileOp tile = sum.getTile();
  ValueRange points = tile.getBody().front().getArguments();
  if (width == 1)
    columns.push_back(points.back());
  OpBuilder b(chunk);
  Location loc = chunk.getLoc();
  SmallVector<Value> zeros;
  for (int64_t j = 0; j < width; ++j)
    for (Type type : chunk.getResultTypes())
      zeros.push_back(arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(type))));
  // The accumulators column by column; each workspace's reads of the
  // columns adjacent (one run).
  size_t sums = spaces.size();
  auto total = dloop::ForOp::create(
      b, loc, splits, LoopKind::reduce, getSplitAxis(chunk), zeros,
      [&](OpBuilder &nested, Location nestedLoc, Value split, ValueRange accs) {
        SmallVector<Value> parts(accs.size());
        for (auto [r, space] : llvm::enumerate(spaces))
          for (auto [j, column] : llvm::enumerate(columns)) {
            SmallVector<Value> indices{split};
            llvm::append_range(indices, points.drop_back());
            indices.push_back(column);
            parts[j * sums + r] =
                dloop::LoadOp::create(nested, nestedLoc, space, indices);
          }
        SmallVector<Value> next;
        for (auto [acc, part] : llvm::zip(accs, parts))
          next.push_back(arith::AddFOp::create(nested, nestedLoc, acc, part));
        dloop::YieldOp::create(nested, nestedLoc, next);
      });
  chunk.replaceAllUsesWith(total.getResults().take_front(sums));
  chunk.erase();
  if (width == 1)
    return mapSecondKernel(sum);

  // A short loop of independent reads: unrolled (by the largest factor of
  // the splits up to kMaxSumUnroll), the reads in flight together.
  int64_t unroll = std::min(splits, kMaxSumUnroll);
  while (splits % unroll != 0)
    --unroll;
  if (unroll > 1)
    total.setUnroll(unroll);
  SmallVector<IRMapping> maps(width);
  for (auto [j, map] : llvm::enumerate(maps)) {
    map.map(columns.front(), columns[j]);
    for (size_t r = 0; r < sums; ++r)
      map.map(total.getResult(r), total.getResult(j * sums + r));
  }
  repeatForColumns(tile.getBody().front(), total, columns, maps);
  cleanupKernel(sum);
  rewriteVectorRuns(findVectorRuns(sum, /*stores=*/false, width, [&](Value v) {
    return llvm::is_contained(spaces, v);
  }));
  rewriteVectorRuns(findVectorRuns(sum, /*stores=*/true, width, [&](Value v) {
    return isAlignedGlobalBuffer(sum, v, width);
  }));
  return mapSecondKernel(sum, /*even=*/true);
}

/// splitThroughWorkspace, the split axis added by `split` (which deals the
/// chunks to it or leaves that to a tensor-core rule).
static LogicalResult
splitInto(KernelOp kernel, dloop::ForOp chunk, ArrayRef<dloop::StoreOp> stores,
          int64_t splits,
          function_ref<Value(KernelOp, dloop::ForOp, int64_t)> split) {
  if (!workspaceFitsIndices(kernel, splits))
    return failure();
  // One workspace per sum: [splits, block extents...].
  SmallVector<int64_t> shape{splits};
  llvm::append_range(shape, kernel.getTile().getBlockExtents());
  // The sum kernel starts as a copy of the unsplit kernel, after it.
  IRMapping mapping;
  FailureOr<KernelOp> copied = cloneSecondKernel(kernel, "_split_sum", mapping);
  if (failed(copied))
    return failure();
  KernelOp sum = *copied;
  SmallVector<Value> workspaces;
  for (Type type : chunk.getResultTypes())
    workspaces.push_back(allocWorkspace(kernel, shape, type));
  auto copy = cast<dloop::ForOp>(mapping.lookup(chunk.getOperation()));
  if (failed(buildSumKernel(sum, copy, workspaces, splits)))
    return failure();

  // The split kernel stores its partial sums and drops the epilogue.
  Value coord = split(kernel, chunk, splits);
  ValueRange spaces = appendBuffers(kernel, workspaces, /*asInputs=*/false);
  SmallVector<Value> indices{coord};
  llvm::append_range(
      indices, kernel.getTile().getBody().front().getArguments().drop_front());
  OpBuilder b(chunk.getContext());
  b.setInsertionPointAfter(chunk);
  for (auto [space, part] : llvm::zip(spaces, chunk.getResults()))
    dloop::StoreOp::create(b, chunk.getLoc(), part, space, indices);
  for (dloop::StoreOp store : stores)
    store.erase();
  cleanupKernel(kernel);
  dropUnusedBuffers(kernel);
  return success();
}

LogicalResult dtile::splitThroughWorkspace(KernelOp kernel, dloop::ForOp chunk,
                                           ArrayRef<dloop::StoreOp> stores,
                                           int64_t splits) {
  return splitInto(kernel, chunk, stores, splits, dealChunksToSplits);
}

bool dtile::canSplitSumThroughWorkspace(KernelOp kernel, dloop::ForOp loop,
                                        int64_t splits) {
  if (loop->getParentOp() != kernel.getTile() || loop.getNumResults() != 1 ||
      !loop.getResult(0).getType().isF32() ||
      !workspaceFitsIndices(kernel, splits))
    return false;
  // A split block must not read what the sum kernel writes, nor write
  // before its loop, which every split repeats.
  bool fits = true;
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<dloop::LoadOp>(op))
      fits &= !llvm::is_contained(kernel.getOutputArgs(), load.getMemRef());
    else if (isa<dloop::StoreOp>(op))
      fits &= op->getBlock() == loop->getBlock() && loop->isBeforeInBlock(op);
  });
  return fits;
}

LogicalResult dtile::splitSumThroughWorkspace(KernelOp kernel,
                                              dloop::ForOp loop,
                                              int64_t splits) {
  auto refuse = [&] {
    return kernel.emitOpError("cannot split K ")
           << splits << " ways through a workspace";
  };
  if (!canSplitSumThroughWorkspace(kernel, loop, splits))
    return refuse();
  SmallVector<dloop::StoreOp> stores;
  for (Operation &op : llvm::make_range(std::next(loop->getIterator()),
                                        loop->getBlock()->end()))
    if (auto store = dyn_cast<dloop::StoreOp>(op))
      stores.push_back(store);
  if (failed(splitInto(kernel, loop, stores, splits, addSplitAxis)))
    return refuse();
  return success();
}

/// Warps per SM that stream a matmul's operands well enough: fewer leave
/// the memory system idle between a warp's loads (no GPU measurement yet).
static constexpr int64_t kWarpsPerSm = 4;

/// Whether `blocks` blocks of `warps` warps give every SM a block and
/// kWarpsPerSm warps.
static bool fillsSms(int64_t blocks, int64_t warps,
                     dkernel::TargetAttr target) {
  return blocks >= target.getSmCount() &&
         blocks * warps >= kWarpsPerSm * target.getSmCount();
}

SmallVector<int64_t> dtile::getTensorCoreSplits(int64_t blocks, int64_t warps,
                                                int64_t chunks,
                                                dkernel::TargetAttr target) {
  SmallVector<int64_t> splits;
  if (fillsSms(blocks, warps, target))
    return splits;
  for (int64_t s = 2; s <= 64 && 4 * s <= chunks; s *= 2)
    if (chunks % s == 0)
      splits.push_back(s);
  return splits;
}

int64_t dtile::chooseTensorCoreSplit(int64_t blocks, int64_t warps,
                                     ArrayRef<int64_t> splits,
                                     dkernel::TargetAttr target) {
  // Measured on an H200 (2026-11-27, BF16 suite): splitting a tile that
  // already gives half the SMs a block and every SM 4 warps lost to the
  // unsplit kernel (TinyLlama gate_proj s512, 88 blocks of 8 warps: 50 ->
  // 63 us; Qwen gate_proj s128, 74 blocks: 82 -> 96 us), the workspace's
  // traffic costing more than the blocks gained; splits of sparser tiles
  // won (Qwen down_proj s32, 112 blocks of 1 warp: 474 -> 80 us).
  if (2 * blocks >= target.getSmCount() &&
      blocks * warps >= kWarpsPerSm * target.getSmCount())
    return 1;
  // A split short of a whole wave by a few SMs is taken over twice the
  // split: each split adds a full f32 copy of the output to the workspace's
  // traffic. The roofline model (v3) puts TinyLlama q_proj s512 (32 blocks
  // of 8 warps, 128 of 132 SMs at 4 ways) at 21 us split 4 ways against
  // 31 us split 8, which the H200 measured at 50 us (unsplit: 33).
  int64_t mostSms = target.getSmCount() - target.getSmCount() / 8;
  for (int64_t s : splits)
    if (blocks * s >= mostSms &&
        blocks * s * warps >= kWarpsPerSm * target.getSmCount())
      return s;
  return splits.empty() ? 1 : splits.back();
}
