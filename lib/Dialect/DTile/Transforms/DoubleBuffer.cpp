//===- DoubleBuffer.cpp - Two shared slots per chunk stage ------*- C++ -*-===//
//
// double_buffer: the stages of a chunk loop rotate through two slabs, chunk
// k filling slot k mod 2, so a chunk's slab can be filled while the other
// one is still being read. pipeline_k_outer needs it to prefetch; without
// it a chunk still saves a barrier (the Kernel lowering puts none before
// copies into a slot whose readers are behind the previous chunk's). Forks
// apply / skip where the doubled slabs fit in shared memory; the heuristic
// applies it when the loop has two chunks or more.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The chunk loops whose stages all use one slab.
SmallVector<dloop::ForOp> singleBufferedLoops(KernelOp kernel) {
  SmallVector<dloop::ForOp> loops;
  for (dloop::ForOp loop : getStagedChunkLoops(kernel))
    if (llvm::all_of(getChunkStages(loop),
                     [](StageOp s) { return s.getBuffers() == 1; }))
      loops.push_back(loop);
  return loops;
}

class DoubleBuffer final : public TypedRule<DoubleBufferKnobs> {
protected:
  /// Skip, apply: where the second slots fit too (1 KB stays free for
  /// combines, as in stage_inputs).
  SmallVector<DoubleBufferKnobs> listOptions(KernelOp kernel,
                                             TargetAttr target) const override {
    SmallVector<dloop::ForOp> loops = singleBufferedLoops(kernel);
    if (loops.empty())
      return {};
    int64_t extra = 0;
    for (dloop::ForOp loop : loops)
      for (StageOp stage : getChunkStages(loop))
        extra += getSlabBytes(stage);
    if (getStagedBytes(kernel) + extra + 1024 > target.getSmemPerBlock())
      return {};
    return {{false}, {true}};
  }

  /// Apply when a loop has two chunks or more: with one there is nothing
  /// to overlap.
  size_t heuristic(KernelOp kernel, ArrayRef<DoubleBufferKnobs> options,
                   TargetAttr) const override {
    bool worth = llvm::any_of(singleBufferedLoops(kernel),
                              [](dloop::ForOp l) { return l.getExtent() > 1; });
    return llvm::find(options, DoubleBufferKnobs{worth}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const DoubleBufferKnobs &option,
                        TargetAttr) const override {
    if (!option.doubleBuffer)
      return success();
    OpBuilder b(kernel.getContext());
    for (dloop::ForOp loop : singleBufferedLoops(kernel)) {
      SmallVector<StageOp> stages = getChunkStages(loop);
      b.setInsertionPoint(stages.front());
      AffineExpr k = b.getAffineDimExpr(0);
      Value slot = affine::AffineApplyOp::create(
          b, loop.getLoc(), AffineMap::get(1, 0, k % 2),
          ValueRange{loop.getInductionVar()});
      for (StageOp stage : stages) {
        stage.setBuffers(2);
        stage.getSlotMutable().assign(slot);
      }
    }
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createDoubleBufferRule() {
  return std::make_unique<DoubleBuffer>();
}
