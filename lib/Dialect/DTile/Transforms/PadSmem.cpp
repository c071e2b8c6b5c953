//===- PadSmem.cpp - Pad shared slabs against bank conflicts ----*- C++ -*-===//
//
// pad_smem: a slab whose rows are a multiple of 32 words long puts a column
// in one bank, so threads reading down a column (A's rows in a matmul) take
// turns. Padding each row by a few words staggers the banks. Per stage the
// rule takes the smallest pad of the innermost dimension (whole words, so
// cp.async runs stay aligned; whole vectors where vector_reads read the
// slab in runs) that lowers the worst conflict degree of the
// slab's reads (and, for a slab transpose_a holds transposed, of its
// copy's scattered writes); it forks (pad / no pad) only when some stage gains
// and the padded slabs still fit. TMA stages are dense by definition and not
// padded.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Words a row may be padded by.
constexpr int64_t kMaxPadWords = 8;

/// The padding that helps `stage` most, or none.
std::optional<SmallVector<int64_t>> choosePad(StageOp stage) {
  auto type = cast<MemRefType>(stage.getResult().getType());
  int64_t rank = type.getRank();
  int64_t elementBits = type.getElementTypeBitWidth();
  if (rank < 2 || stage.getTransport() == Transport::tma ||
      stage.getSwizzle() != 0 || elementBits > 32 ||
      llvm::any_of(stage.getPadding(), [](int64_t p) { return p != 0; }))
    return std::nullopt;
  // Vector reads (vector_reads) need rows that stay whole runs.
  int64_t run = 1;
  for (Operation *user : stage.getResult().getUsers())
    if (auto vector = dyn_cast<dkernel::VectorLoadOp>(user))
      run = std::max<int64_t>(run, vector.getNumResults());
  // A transposed slab's copy scatters its writes down slab columns: they
  // count as much as a read.
  auto cost = [&](ArrayRef<int64_t> pad) -> std::optional<int64_t> {
    std::optional<int64_t> reads = slabReadCost(stage, pad);
    if (!reads || !stage.getTranspose())
      return reads;
    std::optional<int64_t> writes = transposedWriteConflicts(stage, pad);
    if (!writes)
      return std::nullopt;
    return *reads + *writes;
  };
  SmallVector<int64_t> pad(rank, 0);
  std::optional<int64_t> base = cost(pad);
  if (!base)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> best;
  int64_t bestCost = *base;
  for (int64_t words = 1; words <= kMaxPadWords; ++words) {
    pad.back() = words * 32 / elementBits;
    if (pad.back() % run != 0)
      continue;
    std::optional<int64_t> padded = cost(pad);
    if (padded && *padded < bestCost) {
      bestCost = *padded;
      best = pad;
    }
  }
  return best;
}

/// The stages of `kernel` with the padding each would take.
SmallVector<std::pair<StageOp, SmallVector<int64_t>>>
planPads(KernelOp kernel, bool &fits, TargetAttr t) {
  SmallVector<std::pair<StageOp, SmallVector<int64_t>>> plan;
  int64_t bytes = 0;
  kernel.walk([&](StageOp stage) {
    std::optional<SmallVector<int64_t>> pad = choosePad(stage);
    SmallVector<int64_t> padding = pad ? *pad : stage.getPadding();
    auto type = cast<MemRefType>(stage.getResult().getType());
    int64_t elements = stage.getBuffers();
    for (auto [extent, p] : llvm::zip(stage.getSlabShape(), padding))
      elements *= extent + p;
    bytes += elements * ((type.getElementTypeBitWidth() + 7) / 8);
    if (pad)
      plan.push_back({stage, *pad});
  });
  // As stage_inputs, leave 1 KB for combines.
  fits = bytes + 1024 <= t.getSmemPerBlock();
  return plan;
}

class PadSmem final : public TypedRule<PadSmemKnobs> {
protected:
  /// No pad, pad: where some stage gains and the padded slabs fit.
  SmallVector<PadSmemKnobs> listOptions(KernelOp kernel,
                                        TargetAttr target) const override {
    bool fits = false;
    if (planPads(kernel, fits, target).empty() || !fits)
      return {};
    return {{false}, {true}};
  }

  /// Pad: some stage gains (listOptions checked).
  size_t heuristic(KernelOp, ArrayRef<PadSmemKnobs> options,
                   TargetAttr) const override {
    return llvm::find(options, PadSmemKnobs{true}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const PadSmemKnobs &option,
                        TargetAttr target) const override {
    if (!option.pad)
      return success();
    bool fits = false;
    for (auto &[stage, pad] : planPads(kernel, fits, target))
      stage.setPadAttr(DenseI64ArrayAttr::get(kernel.getContext(), pad));
    return success(fits);
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createPadSmemRule() {
  return std::make_unique<PadSmem>();
}
