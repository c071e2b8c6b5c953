//===- PersistentTiles.cpp - Loop each block over the tiles -----*- C++ -*-===//
//
// persistent_tiles: instead of one block per tile, the grid launches as
// many blocks as the multiprocessors hold at once (sm_count x a factor), and
// block b runs tiles b, b + grid, ... of the linearised block axes (row by
// row, or a group of tile rows at a time, column by column inside it). Each
// tile's body is the finished body of the plain kernel, unchanged, inside an
// scf.for: its K loop starts its accumulators from zero, its first stage
// puts a block barrier before refilling the slabs the previous tile read
// (the Kernel IR lowering never assumes a stage in a loop body fenced), and
// the TMA mbarriers, initialised once before the tile body, keep the phases
// each thread tracks from tile to tile.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The blocks per multiprocessor offered, smallest first.
constexpr int64_t kPerSmFactors[] = {1, 2};

/// The shared-memory bytes one block of `kernel` holds: each slab once, all
/// its slots, however many stage ops fill it (the stages of one rotation,
/// before and in a chunk loop, share their slab).
int64_t slabBytesPerBlock(KernelOp kernel) {
  std::set<std::tuple<void *, SmallVector<int64_t>, int64_t>> seen;
  int64_t bytes = 0;
  kernel.walk([&](StageOp stage) {
    SmallVector<int64_t> box(stage.getBox());
    if (seen.insert({stage.getSource().getAsOpaquePointer(), box,
                     stage.getBuffers()})
            .second)
      bytes += getSlabBytes(stage) * stage.getBuffers();
  });
  return bytes;
}

/// Whether some block of `kernel` folds partial sums into an output by
/// atomics (split-K into zeroed outputs).
bool reducesIntoOutputs(KernelOp kernel) {
  if (kernel.getZeroInit() && !kernel.getZeroInit()->empty())
    return true;
  bool reducing = false;
  kernel.walk([&](dloop::StoreOp store) { reducing |= store.isReducing(); });
  return reducing;
}

/// The blocks-per-multiprocessor factors `kernel` can take on `target`, or
/// why it takes none.
llvm::Expected<SmallVector<int64_t>> planPersistent(KernelOp kernel,
                                                    TargetAttr target) {
  auto refuse = [](const Twine &why) {
    return llvm::createStringError(why.str());
  };
  TileOp tile = kernel.getTile();
  if (reducesIntoOutputs(kernel))
    return refuse("its blocks fold split-K partial sums into zeroed outputs "
                  "by atomics; the split already multiplies the blocks");
  if (getOnlineSoftmaxLoop(tile))
    return refuse("online-softmax kernels are not offered");
  // A persistent grid of sm_count blocks would break the clusters' pairing
  // of tiles (cluster_multicast).
  if (tile.getCluster())
    return refuse("its blocks run in clusters sharing multicast slabs");
  if (llvm::none_of(tile.getBody().front().getOps<dloop::ForOp>(),
                    [](dloop::ForOp loop) { return loop.isReduction(); }))
    return refuse("no reduce loop at the top of the tile body: not a "
                  "block-tiled reduction");
  int64_t tiles = tile.getNumBlocks();
  int64_t threads = tile.getNumThreads();
  int64_t smem = slabBytesPerBlock(kernel);
  SmallVector<int64_t> factors;
  for (int64_t f : kPerSmFactors) {
    // A factor past what a multiprocessor holds would queue blocks like a
    // plain launch, with a longer loop; f = 1 fits whatever launches.
    bool resident = f == 1 || (f * threads <= target.getThreadsPerSM() &&
                               f <= target.getBlocksPerSM() &&
                               f * smem <= target.getSmemPerSM());
    if (resident && f * target.getSmCount() < tiles)
      factors.push_back(f);
  }
  if (factors.empty())
    return refuse(Twine(tiles) + " tiles fit one wave of " +
                  Twine(target.getSmCount()) + " multiprocessors");
  return factors;
}

/// The group of tile rows offered: kTileRowGroup (8), where the tile rows (the
/// second-last block axis) are a multiple of 8 and more than 8.
std::optional<int64_t> groupFor(TileOp tile) {
  ArrayRef<int64_t> extents = tile.getBlockExtents();
  if (extents.size() < 2)
    return std::nullopt;
  int64_t rows = extents[extents.size() - 2];
  if (rows <= kTileRowGroup || rows % kTileRowGroup != 0)
    return std::nullopt;
  return kTileRowGroup;
}

class PersistentTiles final : public TypedRule<PersistentTilesKnobs> {
public:
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    llvm::Expected<SmallVector<int64_t>> plan = planPersistent(kernel, target);
    if (!plan)
      return llvm::toString(plan.takeError());
    return {};
  }

  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getPersistent() != std::optional<bool>(true) ||
        !kernel.getTile() || hasDecided(*this, kernel))
      return success();
    llvm::Expected<SmallVector<int64_t>> plan = planPersistent(kernel, target);
    if (!plan)
      return kernel.emitOpError("knob persistent=true: persistent_tiles "
                                "cannot take @")
             << kernel.getSymName() << ": " << llvm::toString(plan.takeError());
    return success();
  }

protected:
  /// Skip, then each factor.
  SmallVector<PersistentTilesKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    // getRefusal says why not; here a refusal is no options.
    std::optional<SmallVector<int64_t>> factors =
        llvm::expectedToOptional(planPersistent(kernel, target));
    if (!factors)
      return {};
    std::optional<int64_t> group = groupFor(kernel.getTile());
    PersistentTilesKnobs skip;
    skip.persistent = false;
    SmallVector<PersistentTilesKnobs> options{skip};
    for (int64_t f : *factors) {
      PersistentTilesKnobs option;
      option.persistent = true;
      option.persistentPerSm = f;
      options.push_back(option);
      if (group) {
        option.persistentGroup = group;
        options.push_back(option);
      }
    }
    return options;
  }

  /// Skip, until a GPU measures it.
  size_t heuristic(KernelOp, ArrayRef<PersistentTilesKnobs> options,
                   TargetAttr) const override {
    return llvm::find_if(
               options,
               [](const PersistentTilesKnobs &o) { return !o.persistent; }) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const PersistentTilesKnobs &option,
                        TargetAttr target) const override {
    if (!option.persistent)
      return success();
    if (!option.persistentPerSm)
      return failure();
    TileOp tile = kernel.getTile();
    SmallVector<int64_t> extents(tile.getBlockExtents());
    int64_t tiles = tile.getNumBlocks();
    int64_t grid = target.getSmCount() * *option.persistentPerSm;
    std::optional<int64_t> group = option.persistentGroup;
    if (group && group != groupFor(tile))
      return failure();
    rebuildTile(
        tile, {{"persistent", grid}}, getThreadAxes(tile),
        [&](OpBuilder &b, Location loc, ValueRange blockCoords,
            ValueRange threadCoords) {
          auto loop =
              scf::ForOp::create(b, loc, blockCoords[0],
                                 arith::ConstantIndexOp::create(b, loc, tiles),
                                 arith::ConstantIndexOp::create(b, loc, grid));
          b.setInsertionPointToStart(loop.getBody());
          SmallVector<Value> old;
          for (AffineExpr e :
               getTileCoords(b.getAffineDimExpr(0), extents, group.value_or(1)))
            old.push_back(affine::AffineApplyOp::create(
                b, loc, AffineMap::get(1, 0, e), loop.getInductionVar()));
          // The threads stay as they were.
          llvm::append_range(old, threadCoords);
          return std::make_pair(loop.getBody(), old);
        });
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createPersistentTilesRule() {
  return std::make_unique<PersistentTiles>();
}
