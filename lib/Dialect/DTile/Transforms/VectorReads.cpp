//===- VectorReads.cpp - Register fragments as vector slab reads -*- C++ -*-=//
//
// vector_reads: a thread's FN register-tile columns of a slab row become
// 64 or 128-bit shared reads (float4 for f32) instead of FN scalar reads.
// register_tile gives thread n the columns n * FN + j, contiguous; with
// FN wider than one vector W the columns are first dealt in runs of W
// (thread n takes q * W * T + W * n + r: 4 x 4 sub-tiles spread over the
// warp for FN = 8, f32), so that a quarter-warp's 128-bit reads cover 32
// consecutive words, conflict-free. Legal where permute_register_tile
// kept the columns, the slab's (padded) rows and the read's innermost
// index coefficients and base are multiples of W: the run is aligned
// whatever the operands hold. A's rows (a column of its slab per thread)
// stay scalar reads, unless transpose_a held A's slab transposed: then a
// thread's FM rows at one K are adjacent and form runs too, whether or not
// permute_register_tile interleaved B's columns. Forks skip / apply; the
// heuristic applies (H200, FP32 GEMMs: 1.02-1.14x).
//
//===----------------------------------------------------------------------===//

#include "PermuteRegisterTile.h"
#include "Rules.h"
#include "TileUtils.h"
#include "VectorRuns.h"

#include "mlir/IR/TypeUtilities.h"

#include <functional>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// Whether `slab` is a stage's slab whose (padded) rows hold whole runs of
/// `width` elements.
static bool isAlignedSlab(Value slab, int64_t width) {
  auto stage = slab.getDefiningOp<StageOp>();
  if (!stage || !llvm::is_contained(
                    vectorWidths(getElementTypeOrSelf(slab.getType())), width))
    return false;
  int64_t row = stage.getSlabShape().back();
  return row % width == 0 && (row + stage.getPadding().back()) % width == 0;
}

/// Deals `kernel`'s register-tile columns in runs of the widest vector
/// that forms runs of slab reads and rewrites those reads; false (the
/// kernel unchanged, or a clone to throw away) when none forms. Where the
/// columns cannot be dealt (permute_register_tile interleaved them), the
/// rows of a transposed slab (transpose_a) still form runs: a thread's
/// rows are adjacent there already.
static bool vectorizeReads(KernelOp kernel, bool rewrite) {
  std::optional<PermuteRegisterTileKnobs> permuted =
      kernel.getKnobs().get<PermuteRegisterTileKnobs>();
  std::optional<ColumnThreads> columns = getRegisterColumnThreads(kernel);
  bool dealColumns = !(permuted && permuted->permute) && columns;
  SmallVector<int64_t, 4> widths;
  bool anyTransposed = false;
  kernel.walk([&](StageOp stage) {
    anyTransposed |= stage.getTranspose();
    for (int64_t w : vectorWidths(getElementTypeOrSelf(stage.getResult())))
      if (!llvm::is_contained(widths, w))
        widths.push_back(w);
  });
  if (!dealColumns && !anyTransposed)
    return false;
  llvm::sort(widths, std::greater<>());
  for (int64_t width : widths) {
    bool deal =
        dealColumns && (width <= columns->fn || columns->fn % width == 0);
    // Without dealt columns only the transposed slabs' rows form runs.
    auto accept = [&](Value v) {
      return isAlignedSlab(v, width) &&
             (deal || v.getDefiningOp<StageOp>().getTranspose());
    };
    auto copy = cast<KernelOp>(kernel->clone());
    bool dealt = !deal || columns->fn <= width ||
                 succeeded(permuteRegisterColumns(copy, width));
    SmallVector<VectorRun> runs =
        dealt ? findVectorRuns(copy, /*stores=*/false, width, accept)
              : SmallVector<VectorRun>();
    copy->erase();
    if (runs.empty())
      continue;
    if (!rewrite)
      return true;
    if (deal && columns->fn > width &&
        failed(permuteRegisterColumns(kernel, width)))
      return false;
    rewriteVectorRuns(findVectorRuns(kernel, /*stores=*/false, width, accept));
    cleanupKernel(kernel);
    return true;
  }
  return false;
}

bool dtile::formsVectorReads(KernelOp kernel) {
  return vectorizeReads(kernel, /*rewrite=*/false);
}

namespace {

class VectorReads final : public TypedRule<VectorReadsKnobs> {
protected:
  /// Skip, apply: where some run of slab reads forms.
  SmallVector<VectorReadsKnobs> listOptions(KernelOp kernel,
                                            TargetAttr) const override {
    if (!vectorizeReads(kernel, /*rewrite=*/false))
      return {};
    return {{false}, {true}};
  }

  /// Apply: 128-bit reads quarter the shared-memory instructions of a
  /// K step (bench/results/forks-h200-2026-11-28.md).
  size_t heuristic(KernelOp, ArrayRef<VectorReadsKnobs> options,
                   TargetAttr) const override {
    return llvm::find(options, VectorReadsKnobs{true}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const VectorReadsKnobs &option,
                        TargetAttr) const override {
    if (!option.vectorReads)
      return success();
    return success(vectorizeReads(kernel, /*rewrite=*/true));
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createVectorReadsRule() {
  return std::make_unique<VectorReads>();
}
