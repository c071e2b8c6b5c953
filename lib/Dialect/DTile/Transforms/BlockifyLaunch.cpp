//===- BlockifyLaunch.cpp - Choose the shape of a block ---------*- C++ -*-===//
//
// blockify_launch decides how much of the output one block computes.
// * A matmul gets a BM x BN tile of its two innermost output axes per block;
//   inside the block two free loops walk the tile, which register_tile then
//   deals out to threads. Forks over (BM, BN): powers of two (and the extent
//   itself when it is small), dividing the extent or not.
// * Any other kernel without threads yet gets `block_threads` threads taken
//   from its innermost output axes. Forks over the thread count.
// A tile that does not divide its extent is masked: the last block's
// out-of-range outputs guard their loads and skip their stores.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// How one axis is shared between blocks and threads.
struct Split {
  int64_t blocks;
  int64_t threads;
};

/// Takes `threads` threads from the innermost axes of `extents`, whole
/// axes or a divisor of one; nullopt when they do not divide evenly.
std::optional<SmallVector<Split>> planThreads(ArrayRef<int64_t> extents,
                                              int64_t threads) {
  SmallVector<Split> plan(extents.size());
  int64_t left = threads;
  for (int i = extents.size() - 1; i >= 0; --i) {
    int64_t e = extents[i];
    if (left == 1) {
      plan[i] = {e, 1};
    } else if (e <= left && left % e == 0) {
      plan[i] = {1, e};
      left /= e;
    } else if (e % left == 0) {
      plan[i] = {e / left, left};
      left = 1;
    } else {
      return std::nullopt;
    }
  }
  if (left != 1)
    return std::nullopt;
  return plan;
}

/// A masked thread plan: the axes from `first` on are linearised and dealt
/// out to `threads` threads per block, the last block partly idle.
struct MaskedPlan {
  unsigned first;
  int64_t threads;
  int64_t extent; // product of the linearised extents
};

/// Takes `threads` threads from the fewest innermost axes that hold as
/// many elements (all of them if none do).
MaskedPlan planMasked(ArrayRef<int64_t> extents, int64_t threads) {
  unsigned first = extents.size();
  int64_t extent = 1;
  while (first > 0 && extent < threads)
    extent *= extents[--first];
  return {first, threads, extent};
}

/// The tile sizes offered for an output extent: powers of two in
/// [min(lo, extent), hi] that do not exceed the extent rounded up to a power
/// of two, and the extent itself when it is at most `hi`.
SmallVector<int64_t> tileSizes(int64_t extent, int64_t lo, int64_t hi) {
  SmallVector<int64_t> result;
  int64_t ceiling = std::min<int64_t>(hi, llvm::PowerOf2Ceil(extent));
  for (int64_t p = 1; p <= ceiling; p *= 2)
    if (p >= std::min(lo, extent))
      result.push_back(p);
  if (extent <= hi && !llvm::isPowerOf2_64(extent))
    result.push_back(extent);
  return result;
}

using Tile = std::pair<int64_t, int64_t>;

/// The shape of a matmul's output the tiles cover: the batch (every outer
/// axis) and the two innermost extents.
struct MatmulShape {
  int64_t batch, m, n;

  explicit MatmulShape(KernelOp kernel) {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    m = extents[extents.size() - 2];
    n = extents.back();
    batch = product(extents.drop_back(2));
  }
  int64_t blocks(Tile t) const {
    return batch * ceilDiv(m, t.first) * ceilDiv(n, t.second);
  }
  /// The share of a block's outputs that exist (1 when the tile divides).
  double used(Tile t) const {
    return double(m * n) / double(ceilDiv(m, t.first) * t.first *
                                  ceilDiv(n, t.second) * t.second);
  }
};

class BlockifyLaunch final : public TypedRule<BlockifyLaunchKnobs> {
protected:
  SmallVector<BlockifyLaunchKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    if (!kernel.getTile().getThreadAxes().empty())
      return {};
    if (classify(kernel) == KernelClass::Matmul)
      return matmulOptions(kernel, target);
    return threadOptions(kernel, target);
  }

  size_t heuristic(KernelOp kernel, ArrayRef<BlockifyLaunchKnobs> options,
                   TargetAttr target) const override {
    if (options.front().BM)
      return matmulHeuristic(kernel, options, target);
    // 256 threads keep several blocks per multiprocessor; else the closest.
    auto distance = [](const BlockifyLaunchKnobs &o) {
      int64_t t = *o.blockThreads;
      return t > 256 ? 2 * (t / 256) : 256 / t;
    };
    return llvm::min_element(
               options,
               [&](const BlockifyLaunchKnobs &a, const BlockifyLaunchKnobs &b) {
                 return distance(a) < distance(b);
               }) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const BlockifyLaunchKnobs &option,
                        TargetAttr) const override {
    if (option.BM && option.BN)
      return applyMatmul(kernel, *option.BM, *option.BN);
    if (!option.blockThreads)
      return failure();
    return applyThreads(kernel, *option.blockThreads);
  }

private:
  /// Warps of threads, up to the elements rounded up to a power of two
  /// (masked where they do not divide); fewer elements than a warp: one
  /// block holds them all.
  SmallVector<BlockifyLaunchKnobs> threadOptions(KernelOp kernel,
                                                 TargetAttr target) const {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    int64_t total = product(extents);
    if (total <= 1)
      return {};
    SmallVector<BlockifyLaunchKnobs> options;
    auto option = [](int64_t t) {
      BlockifyLaunchKnobs knobs;
      knobs.blockThreads = t;
      return knobs;
    };
    if (total < 32)
      return {option(total)};
    for (int64_t t = 32; t <= target.getThreadsPerBlock() &&
                         t <= std::max<int64_t>(32, llvm::PowerOf2Ceil(total));
         t *= 2)
      options.push_back(option(t));
    return options;
  }

  /// Tiles of powers of two (and the extent itself when small) that
  /// register_tile can deal to 32..1024 threads of at most 64 outputs;
  /// largest first (most reuse), squarer first, wider first.
  SmallVector<BlockifyLaunchKnobs> matmulOptions(KernelOp kernel,
                                                 TargetAttr target) const {
    MatmulShape shape(kernel);
    SmallVector<Tile> legal;
    for (int64_t bm : tileSizes(shape.m, 1, 128))
      for (int64_t bn : tileSizes(shape.n, 8, 256))
        // register_tile must be able to deal the tile to 32..1024 threads
        // with at most 64 outputs each, unless one block holds the output.
        if ((bm * bn >= 32 || (bm >= shape.m && bn >= shape.n)) &&
            bm * bn <= 64 * target.getThreadsPerBlock())
          legal.push_back({bm, bn});
    llvm::sort(legal, [](Tile a, Tile b) {
      return std::make_tuple(a.first * a.second, std::min(a.first, a.second),
                             a.second) >
             std::make_tuple(b.first * b.second, std::min(b.first, b.second),
                             b.second);
    });
    SmallVector<BlockifyLaunchKnobs> options;
    for (Tile t : legal) {
      BlockifyLaunchKnobs knobs;
      knobs.BM = t.first;
      knobs.BN = t.second;
      options.push_back(knobs);
    }
    return options;
  }

  /// The first tile that wastes at most a quarter of its outputs and keeps
  /// at least half the multiprocessors busy; when none does, the least
  /// wasteful of those with the most blocks.
  size_t matmulHeuristic(KernelOp kernel, ArrayRef<BlockifyLaunchKnobs> options,
                         TargetAttr target) const {
    MatmulShape shape(kernel);
    auto tile = [](const BlockifyLaunchKnobs &o) { return Tile(*o.BM, *o.BN); };
    auto it = llvm::find_if(options, [&](const BlockifyLaunchKnobs &o) {
      Tile t = tile(o);
      return t.first * t.second <= 128 * 128 && shape.used(t) >= 0.75 &&
             2 * shape.blocks(t) >= target.getSmCount();
    });
    if (it != options.end())
      return it - options.begin();
    return llvm::max_element(
               options,
               [&](const BlockifyLaunchKnobs &a, const BlockifyLaunchKnobs &b) {
                 return std::make_pair(shape.used(tile(a)) >= 0.75,
                                       shape.blocks(tile(a))) <
                        std::make_pair(shape.used(tile(b)) >= 0.75,
                                       shape.blocks(tile(b)));
               }) -
           options.begin();
  }

public:
  LogicalResult applyThreads(KernelOp kernel, int64_t threads) const {
    TileOp tile = kernel.getTile();
    SmallVector<int64_t> extents(tile.getBlockExtents());
    if (std::optional<SmallVector<Split>> plan = planThreads(extents, threads))
      return applyExact(kernel, *plan);
    return applyMasked(kernel, planMasked(extents, threads));
  }

private:
  /// Threads that divide the innermost axes evenly.
  LogicalResult applyExact(KernelOp kernel, ArrayRef<Split> plan) const {
    TileOp tile = kernel.getTile();
    SmallVector<Axis> axes = getBlockAxes(tile);
    SmallVector<Axis> blockAxes, threadAxes;
    for (auto [axis, split] : llvm::zip(axes, plan)) {
      bool divided = split.blocks > 1 && split.threads > 1;
      if (split.threads == 1 || split.blocks > 1)
        blockAxes.push_back(
            {divided ? axis.name + "_o" : axis.name, split.blocks});
      if (split.threads > 1)
        threadAxes.push_back(
            {divided ? axis.name + "_i" : axis.name, split.threads});
    }
    if (blockAxes.empty())
      blockAxes.push_back({"unit", 1});
    rebuildTile(tile, blockAxes, threadAxes,
                [&](OpBuilder &b, Location loc, ValueRange blockCoords,
                    ValueRange threadCoords) {
                  SmallVector<Value> old;
                  unsigned bi = 0, ti = 0;
                  for (const Split &split : plan) {
                    Value blockCoord = split.threads == 1 || split.blocks > 1
                                           ? blockCoords[bi++]
                                           : Value();
                    Value threadCoord =
                        split.threads > 1 ? threadCoords[ti++] : Value();
                    if (!threadCoord) {
                      old.push_back(blockCoord);
                    } else if (!blockCoord) {
                      old.push_back(threadCoord);
                    } else {
                      AffineExpr o, i;
                      bindDims(b.getContext(), o, i);
                      old.push_back(affine::AffineApplyOp::create(
                          b, loc, AffineMap::get(2, 0, o * split.threads + i),
                          {blockCoord, threadCoord}));
                    }
                  }
                  return std::make_pair(b.getBlock(), old);
                });
    cleanupKernel(kernel);
    return success();
  }

  /// Threads over the linearised innermost axes, the last block masked.
  LogicalResult applyMasked(KernelOp kernel, const MaskedPlan &plan) const {
    TileOp tile = kernel.getTile();
    SmallVector<Axis> axes = getBlockAxes(tile);
    ArrayRef<Axis> inner = ArrayRef(axes).drop_front(plan.first);
    SmallVector<std::string> names;
    for (const Axis &axis : inner)
      names.push_back(axis.name);
    std::string name = llvm::join(names, "_");
    int64_t blocks = ceilDiv(plan.extent, plan.threads);
    SmallVector<Axis> blockAxes(axes.begin(), axes.begin() + plan.first);
    if (blocks > 1 || blockAxes.empty())
      blockAxes.push_back({blocks > 1 ? name + "_o" : "unit", blocks});
    SmallVector<Axis> threadAxes{
        {blocks > 1 ? name + "_i" : name, plan.threads}};
    Value linear;
    TileOp rebuilt = rebuildTile(
        tile, blockAxes, threadAxes,
        [&](OpBuilder &b, Location loc, ValueRange blockCoords,
            ValueRange threadCoords) {
          SmallVector<Value> old(blockCoords.take_front(plan.first));
          AffineExpr o, i;
          bindDims(b.getContext(), o, i);
          linear = blocks > 1
                       ? affine::AffineApplyOp::create(
                             b, loc, AffineMap::get(2, 0, o * plan.threads + i),
                             {blockCoords.back(), threadCoords[0]})
                             .getResult()
                       : threadCoords[0];
          // Row-major coordinates of the linear index, the last fastest.
          int64_t stride = plan.extent;
          for (const Axis &axis : inner) {
            stride /= axis.extent;
            AffineExpr l = b.getAffineDimExpr(0);
            AffineExpr e = l.floorDiv(stride);
            if (&axis != &inner.front())
              e = e % axis.extent;
            old.push_back(affine::AffineApplyOp::create(
                b, loc, AffineMap::get(1, 0, e), linear));
          }
          return std::make_pair(b.getBlock(), old);
        });
    if (blocks * plan.threads != plan.extent)
      guardAccesses(rebuilt.getBody().front(), {{linear, plan.extent}});
    cleanupKernel(kernel);
    return success();
  }

  LogicalResult applyMatmul(KernelOp kernel, int64_t bm, int64_t bn) const {
    TileOp tile = kernel.getTile();
    SmallVector<Axis> axes = getBlockAxes(tile);
    unsigned numAxes = axes.size();
    Axis mAxis = axes[numAxes - 2], nAxis = axes[numAxes - 1];
    SmallVector<Axis> blockAxes(axes.begin(), axes.end() - 2);
    blockAxes.push_back({mAxis.name + "_o", ceilDiv(mAxis.extent, bm)});
    blockAxes.push_back({nAxis.name + "_o", ceilDiv(nAxis.extent, bn)});
    Block *inner = nullptr;
    SmallVector<Mask> masks;
    rebuildTile(
        tile, blockAxes, {},
        [&](OpBuilder &b, Location loc, ValueRange blockCoords, ValueRange) {
          // The block's BM x BN outputs, one after another for now.
          inner = b.getBlock();
          SmallVector<Value> local;
          for (auto [axis, size] :
               {std::make_pair(mAxis, bm), std::make_pair(nAxis, bn)}) {
            if (size == 1) {
              local.push_back(arith::ConstantIndexOp::create(b, loc, 0));
              continue;
            }
            auto loop = dloop::ForOp::create(b, loc, size, LoopKind::free,
                                             axis.name + "_i");
            inner = loop.getBody();
            local.push_back(loop.getInductionVar());
            b.setInsertionPointToStart(inner);
          }
          SmallVector<Value> old(blockCoords.drop_back(2));
          AffineExpr o, i;
          bindDims(b.getContext(), o, i);
          // Named arrays: an ArrayRef of a braced list would outlive the
          // list it points to before the loop body runs.
          int64_t sizes[] = {bm, bn};
          int64_t extents[] = {mAxis.extent, nAxis.extent};
          for (auto [k, size, extent] :
               llvm::zip(llvm::seq<unsigned>(0, 2), sizes, extents)) {
            old.push_back(affine::AffineApplyOp::create(
                b, loc, AffineMap::get(2, 0, o * size + i),
                {blockCoords[numAxes - 2 + k], local[k]}));
            // A tile that does not divide its extent overhangs it.
            if (extent % size != 0)
              masks.push_back({old.back(), extent});
          }
          return std::make_pair(inner, old);
        });
    guardAccesses(*inner, masks);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

LogicalResult dtile::dealRowsToThreads(KernelOp kernel, int64_t threads) {
  return BlockifyLaunch().applyThreads(kernel, threads);
}

bool dtile::dealsRowsEvenly(ArrayRef<int64_t> extents, int64_t threads) {
  return planThreads(extents, threads).has_value();
}

std::unique_ptr<Rule> dtile::createBlockifyLaunchRule() {
  return std::make_unique<BlockifyLaunch>();
}
