//===- ChunkReduce.cpp - Chunk reductions whose inputs threads share -*- C++ -*-//
//
// chunk_reduce: a reduction computed one output per thread (cooperative_reduce
// chose T = 1) that reads an input all threads share, such as the vector of a
// matrix-vector product, is split into chunks whose shared slab fits in
// 8 KB, so stage_inputs can stage it one chunk at a time. No fork: the chunk
// is the longest of 128, 64, ..., 8 dividing K whose slab fits (with several
// such loops, the shortest of their chunks).
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

/// Whether `loop` splits into chunks of `chunk` whose shared slab fits.
bool chunkFits(TileOp tile, dloop::ForOp loop, int64_t chunk) {
  int64_t perIteration = sharedSlabPerIteration(tile, loop);
  return perIteration != 0 && loop.getExtent() % chunk == 0 &&
         chunk * perIteration * 4 <= 8192;
}

/// The longest of 128, 64, ..., 8 that `loop` splits into, if any.
std::optional<int64_t> longestChunk(TileOp tile, dloop::ForOp loop) {
  for (int64_t c = 128; c >= 8; c /= 2)
    if (chunkFits(tile, loop, c))
      return c;
  return std::nullopt;
}

class ChunkReduce final : public TypedRule<ChunkReduceKnobs> {
protected:
  /// Threads, one output each (cooperative_reduce's strided loops are no
  /// dloop.for), reading a slab they share: the one chunk that fits.
  SmallVector<ChunkReduceKnobs> listOptions(KernelOp kernel,
                                            TargetAttr) const override {
    TileOp tile = kernel.getTile();
    if (tile.getThreadAxes().empty() ||
        classify(kernel) != KernelClass::Reduction)
      return {};
    // Each loop's own chunk is the longest that fits; the kernel's is the
    // shortest of those, which divides (and fits) every other loop too.
    std::optional<int64_t> chunk;
    for (dloop::ForOp loop : getTopLevelReductions(tile))
      if (std::optional<int64_t> own = longestChunk(tile, loop))
        chunk = std::min(chunk.value_or(*own), *own);
    if (!chunk)
      return {};
    return {{*chunk}};
  }

  size_t heuristic(KernelOp, ArrayRef<ChunkReduceKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp kernel, const ChunkReduceKnobs &option,
                        TargetAttr) const override {
    TileOp tile = kernel.getTile();
    for (dloop::ForOp loop : getTopLevelReductions(tile))
      if (chunkFits(tile, loop, option.chunk))
        splitReduceLoop(loop, option.chunk);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createChunkReduceRule() {
  return std::make_unique<ChunkReduce>();
}
