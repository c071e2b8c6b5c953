//===- PipelineKOuter.cpp - Prefetch the next chunk's slabs -----*- C++ -*-===//
//
// pipeline_k_outer: the slabs of chunk 0 are staged before a double-buffered
// chunk loop, and iteration k, once chunk k's slabs have landed (its async
// waits move to the top of the body), stages chunk k + 1 into the other slot
// before computing on chunk k; the slabs are carried from one iteration to
// the next. The prefetch is guarded by `k + 1 < chunks`, so every chunk is
// staged exactly once and waited for exactly once, whatever the number of
// chunks (one included: nothing is prefetched). Forks apply / skip; the
// heuristic applies it where the copies are asynchronous (so they can
// overlap the computation) and there are two chunks or more.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Whether the stages of `loop` can move ahead by one chunk: they rotate
/// through two slots or more and their origins use only the chunk variable
/// and values from outside the loop.
bool canPipeline(dloop::ForOp loop) {
  return llvm::all_of(getChunkStages(loop), [&](StageOp stage) {
    return stage.getBuffers() >= 2 &&
           llvm::all_of(stage.getOrigin(), [&](Value v) {
             return v == loop.getInductionVar() ||
                    loop.isDefinedOutsideOfLoop(v);
           });
  });
}

/// A copy of `stage` at `b` for chunk `k + shift` filling `slot`; `k` stands
/// for `loop`'s variable, or is null for chunk `shift` itself.
StageOp cloneForChunk(OpBuilder &b, StageOp stage, dloop::ForOp loop, Value k,
                      int64_t shift, Value slot) {
  auto copy = cast<StageOp>(b.clone(*stage));
  SmallVector<Value> operands;
  SmallVector<AffineExpr> dims;
  for (Value operand : stage.getOrigin()) {
    if (operand != loop.getInductionVar()) {
      dims.push_back(b.getAffineDimExpr(operands.size()));
      operands.push_back(operand);
    } else if (k) {
      dims.push_back(b.getAffineDimExpr(operands.size()) + shift);
      operands.push_back(k);
    } else {
      dims.push_back(b.getAffineConstantExpr(shift));
    }
  }
  copy.getOriginMutable().assign(operands);
  copy.setMapAttr(AffineMapAttr::get(simplifyAffineMap(
      stage.getMap().replaceDimsAndSymbols(dims, {}, operands.size(), 0))));
  copy.getSlotMutable().assign(slot);
  return copy;
}

/// Rewrites `loop` into its pipelined form.
void pipeline(dloop::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<StageOp> stages = getChunkStages(loop);
  SmallVector<AsyncWaitOp> waits =
      llvm::to_vector(loop.getBody()->getOps<AsyncWaitOp>());
  SmallVector<Type> slabTypes;
  for (StageOp stage : stages)
    slabTypes.push_back(stage.getType());

  // Prologue: chunk 0 into slot 0.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> inits;
  for (StageOp stage : stages)
    inits.push_back(cloneForChunk(b, stage, loop, Value(), 0, zero));

  int64_t extent = loop.getExtent();
  auto prefetchNext = [&](OpBuilder &b, Value k, ValueRange slabs,
                          IRMapping &mapping) -> SmallVector<Value> {
    for (auto [stage, slab] : llvm::zip(stages, slabs))
      mapping.map(stage.getResult(), slab);
    // Chunk k has landed ...
    for (AsyncWaitOp wait : waits)
      b.clone(*wait);
    // ... then chunk k + 1 goes to the other slot, if there is one.
    Value last = arith::ConstantIndexOp::create(b, loc, extent - 1);
    Value more =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k, last);
    auto prefetch =
        scf::IfOp::create(b, loc, slabTypes, more, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prefetch.elseBlock());
    scf::YieldOp::create(b, loc, slabs);
    b.setInsertionPointToStart(prefetch.thenBlock());
    AffineExpr d = b.getAffineDimExpr(0);
    Value slot = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, 1 - d % 2), ValueRange{k});
    SmallVector<Value> next;
    for (StageOp stage : stages)
      next.push_back(cloneForChunk(b, stage, loop, k, 1, slot));
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(prefetch.getResults());
  };
  // The computation on chunk k follows.
  carryAhead(loop, inits, prefetchNext,
             [](Operation *op) { return isa<StageOp, AsyncWaitOp>(op); });
}

class PipelineKOuter final : public TypedRule<PipelineKOuterKnobs> {
protected:
  /// Skip, apply: where every staged chunk loop can move its stages ahead.
  SmallVector<PipelineKOuterKnobs> listOptions(KernelOp kernel,
                                               TargetAttr) const override {
    SmallVector<dloop::ForOp> loops = getStagedChunkLoops(kernel);
    if (loops.empty() || !llvm::all_of(loops, canPipeline))
      return {};
    return {{false}, {true}};
  }

  /// Apply where the copies are asynchronous (synchronous ones cannot
  /// overlap the computation) and a loop has two chunks or more (one has
  /// nothing to overlap with).
  size_t heuristic(KernelOp kernel, ArrayRef<PipelineKOuterKnobs> options,
                   TargetAttr) const override {
    bool worth =
        hasStageTravelling(kernel) &&
        llvm::any_of(getStagedChunkLoops(kernel),
                     [](dloop::ForOp loop) { return loop.getExtent() > 1; });
    return llvm::find(options, PipelineKOuterKnobs{worth}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const PipelineKOuterKnobs &option,
                        TargetAttr) const override {
    if (!option.pipeline)
      return success();
    for (dloop::ForOp loop : getStagedChunkLoops(kernel))
      pipeline(loop);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createPipelineKOuterRule() {
  return std::make_unique<PipelineKOuter>();
}
