//===- ChunkReduce.cpp - Chunk reductions whose inputs threads share -*- C++ -*-//
//
// chunk_reduce: a reduction computed one output per thread (cooperative_reduce
// chose T = 1) that reads an input all threads share, such as the vector of a
// matrix-vector product, is split into chunks whose shared slab fits in
// 8 KB, so stage_inputs can stage it one chunk at a time. No fork: the chunk
// is the longest of 128, 64, ..., 8 dividing K whose slab fits.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"


using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Elements of one iteration's slab that the loads of `loop` share between
/// threads: 0 when no input read in the loop skips a thread axis.
int64_t sharedSlabPerIteration(TileOp tile, dloop::ForOp loop) {
  SmallVector<BlockArgument> threads(
      tile.getBody().front().getArguments().drop_front(
          tile.getBlockAxes().size()));
  int64_t elements = 0;
  loop.walk([&](dloop::LoadOp load) {
    if (!llvm::is_contained(load.getIndices(), loop.getInductionVar()))
      return;
    int64_t span = 1;
    bool skipsThread = false;
    for (auto [i, thread] : llvm::enumerate(threads)) {
      if (llvm::is_contained(load.getIndices(), thread))
        span *= tile.getThreadExtents()[i];
      else
        skipsThread = true;
    }
    if (skipsThread)
      elements += span;
  });
  return elements;
}

class ChunkReduce final : public Rule {
public:
  StringRef getName() const override { return "chunk_reduce"; }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &) const override {
    TileOp tile = kernel.getTile();
    if (kernel.getKnobs().getInt("chunk") || tile.getThreadAxes().empty() ||
        classify(kernel) != KernelClass::Reduction ||
        kernel.getKnobs().getInt("threads").value_or(1) != 1)
      return {};
    SmallVector<dloop::ForOp> loops = getTopLevelReductions(tile);
    std::optional<int64_t> chunk;
    for (dloop::ForOp loop : loops) {
      int64_t perIteration = sharedSlabPerIteration(tile, loop);
      if (perIteration == 0)
        continue;
      for (int64_t c = 128; c >= 8; c /= 2)
        if (loop.getExtent() % c == 0 && c * perIteration * 4 <= 8192 &&
            (!chunk || c < *chunk)) {
          chunk = c;
          break;
        }
    }
    if (!chunk)
      return {};
    Builder b(kernel.getContext());
    return {KnobsAttr::get(kernel.getContext(),
                           {b.getNamedAttr("chunk",
                                           b.getI64IntegerAttr(*chunk))})};
  }

  LogicalResult apply(KernelOp kernel, KnobsAttr option,
                      const Target &) const override {
    int64_t c = *option.getInt("chunk");
    TileOp tile = kernel.getTile();
    for (dloop::ForOp loop : getTopLevelReductions(tile))
      if (sharedSlabPerIteration(tile, loop) != 0 && loop.getExtent() % c == 0)
        splitReduceLoop(loop, c);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createChunkReduce() {
  return std::make_unique<ChunkReduce>();
}
