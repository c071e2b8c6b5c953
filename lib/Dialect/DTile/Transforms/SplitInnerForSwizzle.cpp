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
  int64_t rows = type.getNumElements() / box.back();
  if (box.size() < 2 || rows % 8 != 0 ||
      llvm::any_of(stage.getPadding(), [](int64_t p) { return p != 0; }))
    return 0;
  int64_t best = 0;
  for (int64_t width : kWidths)
    if (width <= limit && box.back() * elementBytes % width == 0)
      best = width;
  return best;
}

SmallVector<StageOp> tmaStages(KernelOp kernel) {
  SmallVector<StageOp> stages;
  kernel.walk([&](StageOp stage) {
    if (stage.getTransport() == Transport::tma)
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

class SplitInnerForSwizzle final : public Rule {
public:
  StringRef getName() const override { return "split_inner_for_swizzle"; }

  LogicalResult checkRequest(KernelOp kernel, const Target &target,
                             KnobsAttr requested) const override {
    std::optional<int64_t> swizzle = requested.getInt("swizzle");
    if (!swizzle || *swizzle == 0 || target.hasTma())
      return success();
    return kernel.emitOpError("knob swizzle=")
           << *swizzle << " lays out TMA copies, which need sm_90; the "
           << "target is " << target.name;
  }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &) const override {
    if (kernel.getKnobs().getInt("swizzle"))
      return {};
    SmallVector<StageOp> stages = tmaStages(kernel);
    int64_t widest = 0;
    for (StageOp stage : stages)
      widest = std::max(widest, widestSwizzle(stage, 128));
    if (widest == 0)
      return {};
    // Widths that change something: none, then narrowest first.
    SmallVector<int64_t> widths = {0};
    for (int64_t width : kWidths)
      if (width <= widest)
        widths.push_back(width);
    // The heuristic, in order of preference on a tie: none, then widest
    // first. Unanalysable reads take the widest.
    int64_t pick = widest;
    std::optional<int64_t> best;
    SmallVector<int64_t> preference = {0};
    for (int64_t width : llvm::reverse(ArrayRef(widths).drop_front()))
      preference.push_back(width);
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
    auto at = llvm::find(widths, pick);
    std::rotate(widths.begin(), at, at + 1);
    Builder b(kernel.getContext());
    SmallVector<KnobsAttr> options;
    for (int64_t width : widths)
      options.push_back(KnobsAttr::get(
          kernel.getContext(),
          {b.getNamedAttr("swizzle", b.getI64IntegerAttr(width))}));
    return options;
  }

  LogicalResult apply(KernelOp kernel, KnobsAttr option,
                      const Target &) const override {
    int64_t swizzle = *option.getInt("swizzle");
    for (StageOp stage : tmaStages(kernel))
      stage.setSwizzle(widestSwizzle(stage, swizzle));
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createSplitInnerForSwizzle() {
  return std::make_unique<SplitInnerForSwizzle>();
}
