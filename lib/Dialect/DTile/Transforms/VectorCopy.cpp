//===- VectorCopy.cpp - Synchronous stages in 8/16-byte runs ----*- C++ -*-===//
//
// vector_copy: the synchronous stages of chunk loops that neither cp.async
// nor TMA took copy their slab an aligned run (16 or 8 bytes: float4 or
// float2 for f32) per load and store instead of an element. The alignment is
// proven from the IR (StageOp::getCpAsyncRunBytes: box, source rows, padded
// slab rows and the innermost origin are multiples of the run); a stage that
// may reach past its source (zero_fill) keeps element copies. Forks skip /
// apply; the heuristic skips until a GPU measures it.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// Whether `stage` can move runs of at least 8 bytes.
static bool canCopyVector(StageOp stage) {
  std::optional<int64_t> run = stage.getCpAsyncRunBytes();
  return !stage.getZeroFill() && run && *run >= 8;
}

namespace {

class VectorCopy final : public TypedRule<VectorCopyKnobs> {
protected:
  /// Skip, apply: where some synchronous chunk stage can take it.
  SmallVector<VectorCopyKnobs> listOptions(KernelOp kernel,
                                           TargetAttr) const override {
    if (getSyncStages(kernel, canCopyVector).empty())
      return {};
    return {{false}, {true}};
  }

  /// Skip: today's element copies stay the default until measured.
  size_t heuristic(KernelOp, ArrayRef<VectorCopyKnobs> options,
                   TargetAttr) const override {
    return llvm::find(options, VectorCopyKnobs{false}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const VectorCopyKnobs &option,
                        TargetAttr) const override {
    if (!option.vectorCopy)
      return success();
    for (const auto &[loop, stages] : getSyncStages(kernel, canCopyVector))
      for (StageOp stage : stages)
        stage.setTransport(Transport::vector);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createVectorCopyRule() {
  return std::make_unique<VectorCopy>();
}
