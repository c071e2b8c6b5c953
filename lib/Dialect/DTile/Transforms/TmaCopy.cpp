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
    if (!kernel.getKnobs().getTma() &&
        hasStageTravelling(kernel, Transport::cp_async))
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
    if (!target.has(GpuFeature::tma) || hasStageTravelling(kernel) ||
        getSyncStages(kernel, canCopyTma).empty())
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
    makeAsync(getSyncStages(kernel, canCopyTma), Transport::tma);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createTmaCopyRule() {
  return std::make_unique<TmaCopy>();
}
