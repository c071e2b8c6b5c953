//===- TileOrder.cpp - Launch the tiles a group of rows at a time -------===//
//
// tile_order: a plain grid runs its tiles in launch order, the last block
// axis fastest, so a matmul's wave of blocks reads one or two rows of tiles:
// every column of B once per row. Where B is larger than the L2, the next
// row reads it from DRAM again. Launched as one axis of tiles dealt g rows
// at a time, column by column inside the g rows (getTileCoords, as
// persistent_tiles deals its groups), the g blocks of a column run side by
// side and read its B slab from L2 once, while A's g row tiles stay in L2
// across the columns. The tile body is unchanged; only which tile a block
// runs moves.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The bytes of the distinct buffers `tile`'s stages read at origins that
/// use `along` but not `across`: B's (its columns) for the column axis,
/// A's for the row axis.
int64_t stagedBytes(TileOp tile, BlockArgument along, BlockArgument across) {
  llvm::DenseSet<Value> sources;
  int64_t bytes = 0;
  tile.walk([&](StageOp stage) {
    if (!stageOriginDependsOn(stage, along, tile) ||
        stageOriginDependsOn(stage, across, tile) ||
        !sources.insert(stage.getSource()).second)
      return;
    auto type = cast<MemRefType>(stage.getSource().getType());
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  });
  return bytes;
}

/// The groups of tile rows `kernel`'s grid can launch by (1 first: row by
/// row), or why none.
llvm::Expected<SmallVector<int64_t>> planGroups(KernelOp kernel,
                                                TargetAttr target) {
  auto refuse = [](const Twine &why) {
    return llvm::createStringError(why.str());
  };
  TileOp tile = kernel.getTile();
  // First: the tile loop a persistent grid wraps its body in hides the
  // reduce loop below.
  if (kernel.getKnobs().getPersistent() == std::optional<bool>(true))
    return refuse("its persistent grid deals the tiles itself "
                  "(persistent_group)");
  if (getOnlineSoftmaxLoop(tile))
    return refuse("online-softmax kernels are not offered");
  if (getTopLevelReductions(tile).empty())
    return refuse("no reduce loop at the top of the tile body: not a "
                  "block-tiled reduction");
  if (tile.getCluster())
    return refuse("its blocks run in clusters that pair neighbouring tiles");
  ArrayRef<int64_t> extents = tile.getBlockExtents();
  if (extents.size() < 2 || extents[extents.size() - 2] < 2 ||
      extents.back() < 2)
    return refuse("fewer than two rows and two columns of tiles");
  if (tile.getNumBlocks() <= target.getSmCount())
    return refuse(Twine(tile.getNumBlocks()) + " tiles fit one wave of " +
                  Twine(target.getSmCount()) + " multiprocessors");
  if (!tile.walk([](StageOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return refuse("no operand is staged: no slab for neighbouring tiles to "
                  "share");
  int64_t rows = extents[extents.size() - 2];
  SmallVector<int64_t> groups{1};
  for (int64_t g = 2; g <= 64 && g < rows; g *= 2)
    if (rows % g == 0)
      groups.push_back(g);
  if (rows <= 64)
    groups.push_back(rows);
  return groups;
}

class TileOrder final : public TypedRule<TileOrderKnobs> {
public:
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    llvm::Expected<SmallVector<int64_t>> plan = planGroups(kernel, target);
    if (!plan)
      return llvm::toString(plan.takeError());
    return {};
  }

  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    std::optional<int64_t> group = requested.getTileGroup();
    if (!group || *group == 1 || !kernel.getTile() || hasDecided(*this, kernel))
      return success();
    llvm::Expected<SmallVector<int64_t>> plan = planGroups(kernel, target);
    if (!plan)
      return kernel.emitOpError("knob tile_group=")
             << *group << ": tile_order cannot take @" << kernel.getSymName()
             << ": " << llvm::toString(plan.takeError());
    return success();
  }

protected:
  /// Row by row, then each group that divides the tile rows, ascending.
  SmallVector<TileOrderKnobs> listOptions(KernelOp kernel,
                                          TargetAttr target) const override {
    std::optional<SmallVector<int64_t>> groups =
        llvm::expectedToOptional(planGroups(kernel, target));
    if (!groups)
      return {};
    return llvm::map_to_vector(*groups,
                               [](int64_t g) { return TileOrderKnobs{g}; });
  }

  /// Groups where B, read once per row of tiles, exceeds half the L2 (the
  /// rest holds A, the outputs and other kernels' data): the largest group
  /// up to kTileRowGroup whose rows of A fit in that half too, else row by
  /// row.
  size_t heuristic(KernelOp kernel, ArrayRef<TileOrderKnobs> options,
                   TargetAttr target) const override {
    TileOp tile = kernel.getTile();
    unsigned n = tile.getBlockExtents().size();
    int64_t rows = tile.getBlockExtents()[n - 2];
    BlockArgument row = tile.getBlockCoord(n - 2);
    BlockArgument col = tile.getBlockCoord(n - 1);
    int64_t half = target.getL2Bytes() / 2;
    if (stagedBytes(tile, col, row) <= half)
      return 0;
    int64_t rowBytes = stagedBytes(tile, row, col) / rows;
    size_t best = 0;
    for (auto [i, option] : llvm::enumerate(options))
      if (option.tileGroup <= kTileRowGroup &&
          option.tileGroup * rowBytes <= half)
        best = i;
    return best;
  }

  LogicalResult rewrite(KernelOp kernel, const TileOrderKnobs &option,
                        TargetAttr) const override {
    if (option.tileGroup == 1)
      return success();
    TileOp tile = kernel.getTile();
    SmallVector<int64_t> extents(tile.getBlockExtents());
    if (extents.size() < 2 || extents[extents.size() - 2] % option.tileGroup)
      return failure();
    rebuildTile(tile, {{"tiles", tile.getNumBlocks()}}, getThreadAxes(tile),
                [&](OpBuilder &b, Location loc, ValueRange blockCoords,
                    ValueRange threadCoords) {
                  SmallVector<Value> old;
                  for (AffineExpr e : getTileCoords(b.getAffineDimExpr(0),
                                                    extents, option.tileGroup))
                    old.push_back(affine::AffineApplyOp::create(
                        b, loc, AffineMap::get(1, 0, e), blockCoords[0]));
                  llvm::append_range(old, threadCoords);
                  return std::make_pair(b.getInsertionBlock(), old);
                });
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createTileOrderRule() {
  return std::make_unique<TileOrder>();
}
