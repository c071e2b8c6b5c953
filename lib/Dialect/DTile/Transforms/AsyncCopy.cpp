//===- AsyncCopy.cpp - Stages travel by cp.async ----------------*- C++ -*-===//
//
// async_copy (targets with cp_async): the stages of chunk loops copy with
// cp.async instead of loads and stores through registers; one `dtile.async_wait
// keep 0` after them makes the slabs visible before the chunk reads them. Only
// stages whose rows allow aligned 4, 8 or 16-byte runs change. A kernel
// whose stages already travel asynchronously (TMA) is left alone: one
// kernel never mixes the two kinds of waits. Forks apply / skip; the
// heuristic applies it.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

class AsyncCopy final : public TypedRule<AsyncCopyKnobs> {
protected:
  /// Skip, apply: on a target with cp.async, where some synchronous stage
  /// can take it and none travels asynchronously yet.
  SmallVector<AsyncCopyKnobs> listOptions(KernelOp kernel,
                                          TargetAttr target) const override {
    if (!target.has(GpuFeature::cp_async) || hasStageTravelling(kernel) ||
        getSyncStages(kernel, canCopyAsync).empty())
      return {};
    return {{false}, {true}};
  }

  /// Apply.
  size_t heuristic(KernelOp, ArrayRef<AsyncCopyKnobs> options,
                   TargetAttr) const override {
    return llvm::find(options, AsyncCopyKnobs{true}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const AsyncCopyKnobs &option,
                        TargetAttr) const override {
    if (!option.asyncCopy)
      return success();
    makeAsync(getSyncStages(kernel, canCopyAsync), Transport::cp_async);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createAsyncCopyRule() {
  return std::make_unique<AsyncCopy>();
}
