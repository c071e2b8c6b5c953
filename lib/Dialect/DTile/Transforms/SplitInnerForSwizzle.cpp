//===- SplitInnerForSwizzle.cpp - Swizzle TMA slabs -------------*- C++ -*-===//
//
// split_inner_for_swizzle (after tma_copy): a TMA copy writes its box
// densely, so pad_smem cannot stagger a slab's rows; threads reading down a
// column of a slab whose rows span a multiple of 128 bytes then take turns
// on one bank. The hardware's swizzle permutes each row's 16-byte chunks
// instead, but only for rows of at most the swizzle width: the slab's inner
// dimension is split into swizzle-wide segments, one TMA box each (see
// Common/Swizzle.h for the layout the Kernel lowering reads through).
//
// The knob `swizzle = S` gives every TMA stage the widest width up to S its
// box allows (rows a multiple of the width, outer extents a multiple of 8).
// The rule forks over none and each width some stage can take; the
// heuristic takes the width whose reads the bank-conflict analysis finds
// least conflicted. On a tie it prefers none (swizzled reads cost integer
// instructions), then the widest (the fewest boxes per slab): splitting
// rows into narrow segments spreads a column over banks by itself.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

constexpr int64_t kWidths[] = {32, 64, 128};

/// The widest swizzle up to `limit` that `stage`'s box allows; 0 if none.
int64_t widestSwizzle(StageOp stage, int64_t limit) {
  auto type = cast<MemRefType>(stage.getResult().getType());
  ArrayRef<int64_t> box = stage.getBox();
  int64_t elementBytes = (type.getElementTypeBitWidth() + 7) / 8;
  if (box.size() < 2 ||
      llvm::any_of(stage.getPadding(), [](int64_t p) { return p != 0; }))
    return 0;
  return getWidestSwizzle(box.back() * elementBytes,
                          type.getNumElements() / box.back(), limit);
}

SmallVector<StageOp> tmaStages(KernelOp kernel) {
  SmallVector<StageOp> stages;
  kernel.walk([&](StageOp stage) {
    // A stage its rule swizzled already (mma_sync) keeps its layout.
    if (stage.getTransport() == Transport::tma && stage.getSwizzle() == 0)
      stages.push_back(stage);
  });
  return stages;
}

/// The summed worst conflict degree of the slab reads of `stages` with
/// knob `swizzle`; nullopt when some read cannot be analysed.
std::optional<int64_t> readCost(ArrayRef<StageOp> stages, int64_t swizzle) {
  int64_t cost = 0;
  for (StageOp stage : stages) {
    std::optional<int64_t> stageCost =
        slabReadCost(stage, stage.getPadding(), widestSwizzle(stage, swizzle));
    if (!stageCost)
      return std::nullopt;
    cost += *stageCost;
  }
  return cost;
}

class SplitInnerForSwizzle final : public TypedRule<SplitInnerForSwizzleKnobs> {
public:
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    std::optional<int64_t> swizzle = requested.getSwizzle();
    if (!swizzle || *swizzle == 0 || target.has(GpuFeature::tma))
      return success();
    return kernel.emitOpError("knob swizzle=")
           << *swizzle << " lays out TMA copies, which need the 'tma' "
           << "feature; target " << target.getName() << " lacks it";
  }

protected:
  /// None, then each width some TMA stage can take, narrowest first.
  SmallVector<SplitInnerForSwizzleKnobs>
  listOptions(KernelOp kernel, TargetAttr) const override {
    int64_t widest = widestOfKernel(kernel);
    if (widest == 0)
      return {};
    SmallVector<SplitInnerForSwizzleKnobs> options = {{0}};
    for (int64_t width : kWidths)
      if (width <= widest)
        options.push_back({width});
    return options;
  }

  /// The width whose reads the bank-conflict analysis finds least
  /// conflicted, preferring on a tie none, then the widest; unanalysable
  /// reads take the widest.
  size_t heuristic(KernelOp kernel, ArrayRef<SplitInnerForSwizzleKnobs> options,
                   TargetAttr) const override {
    SmallVector<StageOp> stages = tmaStages(kernel);
    int64_t widest = options.back().swizzle;
    SmallVector<int64_t> preference = {0};
    for (const SplitInnerForSwizzleKnobs &option :
         llvm::reverse(options.drop_front()))
      preference.push_back(option.swizzle);
    int64_t pick = widest;
    std::optional<int64_t> best;
    for (int64_t width : preference) {
      std::optional<int64_t> cost = readCost(stages, width);
      if (!cost) {
        pick = widest;
        break;
      }
      if (!best || *cost < *best) {
        best = cost;
        pick = width;
      }
    }
    return llvm::find(options, SplitInnerForSwizzleKnobs{pick}) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel,
                        const SplitInnerForSwizzleKnobs &option,
                        TargetAttr) const override {
    for (StageOp stage : tmaStages(kernel))
      stage.setSwizzle(widestSwizzle(stage, option.swizzle));
    return success();
  }

private:
  /// The widest swizzle some TMA stage of `kernel` can take; 0 if none.
  static int64_t widestOfKernel(KernelOp kernel) {
    int64_t widest = 0;
    for (StageOp stage : tmaStages(kernel))
      widest = std::max(widest, widestSwizzle(stage, 128));
    return widest;
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createSplitInnerForSwizzleRule() {
  return std::make_unique<SplitInnerForSwizzle>();
}
