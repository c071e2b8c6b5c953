//===- BlockifyLaunch.cpp - Choose the shape of a block ---------*- C++ -*-===//
//
// blockify_launch decides how much of the output one block computes.
// * A matmul gets a BM x BN tile of its two innermost output axes per block;
//   inside the block two free loops walk the tile, which register_tile then
//   deals out to threads. Forks over (BM, BN).
// * Any other kernel without threads yet gets `block_threads` threads taken
//   from its innermost output axes. Forks over the thread count.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

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

/// Powers of two dividing `n` in [lo, hi].
SmallVector<int64_t> powersOfTwo(int64_t n, int64_t lo, int64_t hi) {
  SmallVector<int64_t> result;
  for (int64_t p = 1; p <= std::min(n, hi); p *= 2)
    if (p >= lo && n % p == 0)
      result.push_back(p);
  return result;
}

class BlockifyLaunch final : public Rule {
public:
  StringRef getName() const override { return "blockify_launch"; }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &target) const override {
    TileOp tile = kernel.getTile();
    KnobsAttr knobs = kernel.getKnobs();
    if (!tile.getThreadAxes().empty() || knobs.getInt("BM") ||
        knobs.getInt("block_threads"))
      return {};
    if (classify(kernel) == KernelClass::Matmul)
      return matmulOptions(kernel, target);
    return threadOptions(kernel, target);
  }

  LogicalResult apply(KernelOp kernel, KnobsAttr option,
                      const Target &) const override {
    if (option.getInt("BM"))
      return applyMatmul(kernel, *option.getInt("BM"), *option.getInt("BN"));
    return applyThreads(kernel, *option.getInt("block_threads"));
  }

private:
  SmallVector<KnobsAttr> threadOptions(KernelOp kernel,
                                       const Target &target) const {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    int64_t total = product(extents);
    SmallVector<int64_t> legal;
    for (int64_t t = 32; t <= target.maxThreads; t *= 2)
      if (planThreads(extents, t))
        legal.push_back(t);
    // Fewer elements than a warp: one block holds them all.
    if (legal.empty() && total < 32 && total > 1 && planThreads(extents, total))
      legal.push_back(total);
    if (legal.empty())
      return {};
    // 256 threads keep several blocks per multiprocessor; else the closest.
    int64_t best = *llvm::min_element(legal, [](int64_t a, int64_t b) {
      auto distance = [](int64_t t) {
        return t > 256 ? 2 * (t / 256) : 256 / t;
      };
      return distance(a) < distance(b);
    });
    Builder b(kernel.getContext());
    auto option = [&](int64_t t) {
      return KnobsAttr::get(kernel.getContext(),
                            {b.getNamedAttr("block_threads",
                                            b.getI64IntegerAttr(t))});
    };
    SmallVector<KnobsAttr> options{option(best)};
    for (int64_t t : legal)
      if (t != best)
        options.push_back(option(t));
    return options;
  }

  SmallVector<KnobsAttr> matmulOptions(KernelOp kernel,
                                       const Target &target) const {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    int64_t m = extents[extents.size() - 2], n = extents.back();
    int64_t batch = product(extents.drop_back(2));
    SmallVector<std::pair<int64_t, int64_t>> legal;
    for (int64_t bm : powersOfTwo(m, 1, 128))
      for (int64_t bn : powersOfTwo(n, 8, 256))
        // register_tile must be able to deal the tile to 32..1024 threads
        // with at most 64 outputs each.
        if (bm * bn >= 32 && bm * bn <= 64 * target.maxThreads)
          legal.push_back({bm, bn});
    if (legal.empty())
      return {};
    auto blocks = [&](std::pair<int64_t, int64_t> t) {
      return batch * (m / t.first) * (n / t.second);
    };
    // Largest tiles first (most reuse), squarer first, wider first.
    llvm::sort(legal, [](auto a, auto b) {
      return std::make_tuple(a.first * a.second, std::min(a.first, a.second),
                             a.second) >
             std::make_tuple(b.first * b.second, std::min(b.first, b.second),
                             b.second);
    });
    // The default is the first tile keeping at least half the
    // multiprocessors busy; when none does, the one giving the most blocks.
    auto it = llvm::find_if(legal, [&](auto t) {
      return t.first * t.second <= 128 * 128 &&
             2 * blocks(t) >= target.numSMs;
    });
    std::pair<int64_t, int64_t> best =
        it != legal.end() ? *it : *llvm::max_element(legal, [&](auto a, auto b) {
          return blocks(a) < blocks(b);
        });
    Builder b(kernel.getContext());
    auto option = [&](std::pair<int64_t, int64_t> t) {
      return KnobsAttr::get(
          kernel.getContext(),
          {b.getNamedAttr("BM", b.getI64IntegerAttr(t.first)),
           b.getNamedAttr("BN", b.getI64IntegerAttr(t.second))});
    };
    SmallVector<KnobsAttr> options{option(best)};
    for (auto t : legal)
      if (t != best)
        options.push_back(option(t));
    return options;
  }

  LogicalResult applyThreads(KernelOp kernel, int64_t threads) const {
    TileOp tile = kernel.getTile();
    SmallVector<Axis> axes = getBlockAxes(tile);
    SmallVector<int64_t> extents(tile.getBlockExtents());
    std::optional<SmallVector<Split>> plan = planThreads(extents, threads);
    if (!plan)
      return failure();
    SmallVector<Axis> blockAxes, threadAxes;
    for (auto [axis, split] : llvm::zip(axes, *plan)) {
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
                  for (const Split &split : *plan) {
                    Value blockCoord =
                        split.threads == 1 || split.blocks > 1
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

  LogicalResult applyMatmul(KernelOp kernel, int64_t bm, int64_t bn) const {
    TileOp tile = kernel.getTile();
    SmallVector<Axis> axes = getBlockAxes(tile);
    unsigned numAxes = axes.size();
    Axis mAxis = axes[numAxes - 2], nAxis = axes[numAxes - 1];
    if (mAxis.extent % bm != 0 || nAxis.extent % bn != 0)
      return failure();
    SmallVector<Axis> blockAxes(axes.begin(), axes.end() - 2);
    blockAxes.push_back({mAxis.name + "_o", mAxis.extent / bm});
    blockAxes.push_back({nAxis.name + "_o", nAxis.extent / bn});
    rebuildTile(
        tile, blockAxes, {},
        [&](OpBuilder &b, Location loc, ValueRange blockCoords, ValueRange) {
          // The block's BM x BN outputs, one after another for now.
          Block *inner = b.getBlock();
          SmallVector<Value> local;
          for (auto [axis, size] : {std::make_pair(mAxis, bm),
                                    std::make_pair(nAxis, bn)}) {
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
          for (auto [k, size] : llvm::enumerate(ArrayRef<int64_t>{bm, bn}))
            old.push_back(affine::AffineApplyOp::create(
                b, loc, AffineMap::get(2, 0, o * size + i),
                {blockCoords[numAxes - 2 + k], local[k]}));
          return std::make_pair(inner, old);
        });
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createBlockifyLaunch() {
  return std::make_unique<BlockifyLaunch>();
}
