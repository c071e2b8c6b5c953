//===- TmaCopy.cpp - Stages travel by TMA -----------------------*- C++ -*-===//
//
// tma_copy (targets with tma): the stages of chunk loops copy with one
// cp.async.bulk.tensor each, issued by one thread and completed on an
// mbarrier, instead of loads and stores through registers; one
// `dtile.async_wait keep 0` after them makes the slabs visible before the
// chunk reads them. Only stages TMA can copy change (see canCopyTma). It
// runs after async_copy and leaves a kernel whose stages already travel by
// cp.async alone: one kernel never mixes the two kinds of waits (the
// original deadlocked doing so). Forks apply / skip; until TMA is measured
// faster the heuristic skips it, so cp.async stays the default.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The stages tma_copy would change, by chunk loop.
SmallVector<std::pair<dloop::ForOp, SmallVector<StageOp>>>
tmaCandidates(KernelOp kernel) {
  SmallVector<std::pair<dloop::ForOp, SmallVector<StageOp>>> result;
  for (dloop::ForOp loop : getStagedChunkLoops(kernel)) {
    SmallVector<StageOp> stages;
    for (StageOp stage : getChunkStages(loop))
      if (stage.getTransport() == Transport::sync && canCopyTma(stage))
        stages.push_back(stage);
    if (!stages.empty())
      result.push_back({loop, std::move(stages)});
  }
  return result;
}

/// Whether some stage of `kernel` already travels asynchronously.
bool hasAsyncStage(KernelOp kernel) {
  bool async = false;
  kernel.walk(
      [&](StageOp stage) { async |= stage.getTransport() != Transport::sync; });
  return async;
}

/// Whether some stage of `kernel` travels by cp.async.
bool hasCpAsyncStage(KernelOp kernel) {
  bool cpAsync = false;
  kernel.walk([&](StageOp stage) {
    cpAsync |= stage.getTransport() == Transport::cp_async;
  });
  return cpAsync;
}

class TmaCopy final : public TypedRule<TmaCopyKnobs> {
public:
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getTma() != std::optional<bool>(true))
      return success();
    if (!target.has(GpuFeature::tma))
      return kernel.emitOpError("knob tma=true asks for TMA copies "
                                "(cp.async.bulk.tensor), which need the "
                                "'tma' feature; target ")
             << target.getName() << " lacks it";
    if (!kernel.getKnobs().getTma() && hasCpAsyncStage(kernel))
      return kernel.emitOpError(
          "knob tma=true needs async_copy=false: one kernel never mixes "
          "cp.async and TMA copies");
    return success();
  }

protected:
  /// Skip, apply: on a target with TMA, where some synchronous stage can
  /// take it and none travels asynchronously yet.
  SmallVector<TmaCopyKnobs> listOptions(KernelOp kernel,
                                        TargetAttr target) const override {
    if (!target.has(GpuFeature::tma) || hasAsyncStage(kernel) ||
        tmaCandidates(kernel).empty())
      return {};
    return {{false}, {true}};
  }

  /// Skip, until TMA is measured faster than cp.async.
  size_t heuristic(KernelOp, ArrayRef<TmaCopyKnobs> options,
                   TargetAttr) const override {
    return llvm::find(options, TmaCopyKnobs{false}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const TmaCopyKnobs &option,
                        TargetAttr) const override {
    if (!option.tma)
      return success();
    OpBuilder b(kernel.getContext());
    for (auto &[loop, stages] : tmaCandidates(kernel)) {
      for (StageOp stage : stages)
        stage.setTransport(Transport::tma);
      // After the loop's last stage, before anything reads a slab.
      b.setInsertionPointAfter(getChunkStages(loop).back());
      AsyncWaitOp::create(b, loop.getLoc(), /*keep=*/0);
    }
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createTmaCopyRule() {
  return std::make_unique<TmaCopy>();
}
