//===- SplitMatmulK.cpp - Split a matmul's K chunks over blocks -*- C++ -*-===//
//
// split_matmul_k: the chunk loop of a matmul (after chunk_matmul_k) is dealt
// to split_k blocks along a new outermost block axis `<k>_s`, each summing
// its share of the chunks. The partial sums meet in one of two ways.
// * Atomically: the stores become atomic adds into outputs the kernel
//   zeroes first (`zero_init`). Only epilogues linear in the accumulator
//   split so: a sum of the partial sums, each scaled by values that do not
//   depend on them, plus terms that do not depend on them at all, which the
//   first split alone adds (a residual). Anything else (SiLU of the sum, a
//   product of two sums) is refused, and so is a half-precision (f16, bf16)
//   output: its atomics would add the partial sums in half precision, where
//   they must accumulate in f32.
// * Through a workspace (split_workspace, SplitKWorkspace.cpp): any
//   pointwise epilogue and any output type, for sums kept in f32 or f64.
// A kernel reading its output is refused either way. Runs before
// blockify_launch, which counts the split axis among the blocks. Forks:
// skip (split_k = 1) or split_k among the divisors of the chunk count that
// leave each split two chunks or more, atomically or through a workspace.
//
//===----------------------------------------------------------------------===//

#include "SplitMatmulK.h"
#include "Rules.h"
#include "SplitWorkspace.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The chunk loop and the stores of its results: a matmul kernel this rule
/// can split, and how its partial sums may meet.
struct SplitPlan {
  dloop::ForOp chunk;
  SmallVector<dloop::StoreOp> stores;
  /// The values after the chunk loop that depend on its results.
  llvm::DenseSet<Value> tainted;
  /// Atomic adds into the outputs: a linear epilogue, no half output.
  bool atomic = true;
  /// A workspace: the sums are f32 or f64.
  bool workspace = true;
};

/// Whether `value` is a sum of terms each either free of `tainted` values or
/// one tainted value scaled (multiplied, divided) by free ones.
bool isLinear(Value value, const llvm::DenseSet<Value> &tainted) {
  if (!tainted.contains(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || def->getNumResults() != 1 ||
      !isa<FloatType>(value.getType()))
    return isa_and_nonnull<dloop::ForOp>(def);
  if (isa<arith::AddFOp, arith::SubFOp>(def))
    return isLinear(def->getOperand(0), tainted) &&
           isLinear(def->getOperand(1), tainted);
  if (isa<arith::NegFOp>(def))
    return isLinear(def->getOperand(0), tainted);
  if (isa<arith::MulFOp>(def)) {
    bool lhs = tainted.contains(def->getOperand(0));
    bool rhs = tainted.contains(def->getOperand(1));
    return !(lhs && rhs) && isLinear(def->getOperand(lhs ? 0 : 1), tainted);
  }
  if (isa<arith::DivFOp>(def))
    return !tainted.contains(def->getOperand(1)) &&
           isLinear(def->getOperand(0), tainted);
  return false;
}

/// The matmul chunk loop of `kernel` and its stores, when the kernel splits.
std::optional<SplitPlan> planSplit(KernelOp kernel) {
  TileOp tile = kernel.getTile();
  if (!tile || !tile.getThreadAxes().empty() ||
      classify(kernel) != KernelClass::Matmul)
    return std::nullopt;
  SmallVector<dloop::ForOp> loops = getTopLevelReductions(tile);
  if (loops.size() != 1 || loops[0].getBody()->getOps<dloop::ForOp>().empty())
    return std::nullopt;
  SplitPlan plan;
  plan.chunk = loops[0];
  plan.tainted.insert(plan.chunk.getResults().begin(),
                      plan.chunk.getResults().end());
  // A split block must not read what other blocks fold into.
  bool readsOutput = false;
  kernel.walk([&](dloop::LoadOp load) {
    readsOutput |= llvm::is_contained(kernel.getOutputArgs(), load.getMemRef());
  });
  if (readsOutput)
    return std::nullopt;
  // Before the loop: pure ops only (no store would be repeated per split).
  Block &body = tile.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (&op == plan.chunk.getOperation())
      break;
    if (op.getNumRegions() != 0 || !isPure(&op))
      return std::nullopt;
  }
  // After it: pure region-free ops and stores of linear values.
  for (Operation &op : llvm::make_range(std::next(plan.chunk->getIterator()),
                                        body.without_terminator().end())) {
    if (auto store = dyn_cast<dloop::StoreOp>(op)) {
      if (store.isReducing() || !plan.tainted.contains(store.getValue()))
        return std::nullopt;
      plan.atomic &= isLinear(store.getValue(), plan.tainted) &&
                     !isa<Float16Type, BFloat16Type>(
                         store.getMemRefType().getElementType());
      plan.stores.push_back(store);
      continue;
    }
    // Loads read inputs only (checked above): the residual.
    if (op.getNumRegions() != 0 ||
        (!isMemoryEffectFree(&op) && !isa<dloop::LoadOp>(op)))
      return std::nullopt;
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return plan.tainted.contains(v); }))
      plan.tainted.insert(op.result_begin(), op.result_end());
  }
  // A sum kept in half precision is the IR's own rounding: not lifted.
  plan.workspace = llvm::all_of(plan.chunk.getResultTypes(), [](Type type) {
    return isa<Float32Type, Float64Type>(type);
  });
  if (plan.stores.empty() || !(plan.atomic || plan.workspace))
    return std::nullopt;
  return plan;
}

/// Rebuilds linear `value` at `b` as this split's share of it: terms free of
/// the partial sums count in the first split only.
Value buildShare(OpBuilder &b, Value value,
                 const llvm::DenseSet<Value> &tainted, Value first,
                 llvm::DenseMap<Value, Value> &built) {
  if (Value done = built.lookup(value))
    return done;
  Location loc = value.getLoc();
  Value share;
  if (!tainted.contains(value)) {
    Value zero = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(value.getType())));
    share = arith::SelectOp::create(b, loc, first, value, zero);
  } else if (isa<dloop::ForOp>(value.getDefiningOp())) {
    share = value;
  } else {
    Operation *def = value.getDefiningOp();
    IRMapping mapping;
    for (Value operand : def->getOperands())
      // Scale factors are kept whole; summands and scaled values shared.
      if (tainted.contains(operand) ||
          isa<arith::AddFOp, arith::SubFOp, arith::NegFOp>(def))
        mapping.map(operand, buildShare(b, operand, tainted, first, built));
    share = b.clone(*def, mapping)->getResult(0);
  }
  built[value] = share;
  return share;
}

/// The most K splits a GPU measured faster by default (FP32 GEMMs, H200).
constexpr int64_t kMeasuredSplit = 8;

class SplitMatmulK final : public TypedRule<SplitMatmulKKnobs> {
protected:
  /// A matmul whose K loop is chunked (the chunk loop holds a loop) and not
  /// yet dealt to threads or tiles: 1 (no split), then for each divisor of
  /// the chunk count up to 64 that leaves each split two chunks or more the
  /// atomic and the workspace option, where they apply.
  SmallVector<SplitMatmulKKnobs> listOptions(KernelOp kernel,
                                             TargetAttr) const override {
    std::optional<SplitPlan> plan = planSplit(kernel);
    if (!plan)
      return {};
    int64_t chunks = plan->chunk.getExtent();
    SmallVector<SplitMatmulKKnobs> options{{1}};
    for (int64_t s = 2; s <= 64 && 2 * s <= chunks; ++s) {
      if (chunks % s != 0)
        continue;
      if (plan->atomic)
        options.push_back({s});
      if (plan->workspace && workspaceFitsIndices(kernel, s))
        options.push_back({s, /*splitWorkspace=*/true});
    }
    if (options.size() == 1)
      return {};
    return options;
  }

  /// Split atomically when the output holds fewer than two 128 x 128 tiles
  /// (blockify_launch's preferred size) an SM: into 8 (the largest split
  /// measured), or where 64 x 64 tiles would leave most SMs idle, into the
  /// fewest splits that fill them once if that is more. On the H200 eight
  /// splits were the fastest of 1, 2, 4 and 8 on seven of eight such FP32
  /// GEMMs (1.00-1.62x over no split; 0.98x on the eighth, TinyLlama q_proj
  /// s512; bench/results/forks-h200-2026-11-28.md). The workspace is never
  /// the default: it measured no faster than the atomics (0.98-1.03x).
  size_t heuristic(KernelOp kernel, ArrayRef<SplitMatmulKKnobs> options,
                   TargetAttr target) const override {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    int64_t batch = product(extents.drop_back(2));
    int64_t m = extents[extents.size() - 2], n = extents.back();
    int64_t small = batch * ceilDiv(m, 64) * ceilDiv(n, 64);
    int64_t large = batch * ceilDiv(m * n, 128 * 128);
    int64_t sms = target.getSmCount();
    bool idle = 2 * small < sms;
    if (!idle && large >= 2 * sms)
      return 0;
    std::optional<size_t> measured, fill, last;
    for (auto [i, option] : llvm::enumerate(options)) {
      if (i == 0 || option.splitWorkspace.value_or(false))
        continue;
      if (option.splitK <= kMeasuredSplit)
        measured = i;
      if (idle && !fill && small * option.splitK >= sms)
        fill = i;
      last = i;
    }
    // None fills the SMs: as many splits as there are.
    if (idle && !fill)
      fill = last;
    size_t pick = measured.value_or(0);
    if (fill && options[*fill].splitK > options[pick].splitK)
      pick = *fill;
    return pick;
  }

  LogicalResult rewrite(KernelOp kernel, const SplitMatmulKKnobs &option,
                        TargetAttr) const override {
    int64_t splits = option.splitK;
    if (splits == 1)
      return success();
    std::optional<SplitPlan> plan = planSplit(kernel);
    if (!plan || splits < 2 || plan->chunk.getExtent() % splits != 0)
      return failure();
    if (option.splitWorkspace.value_or(false)) {
      if (!plan->workspace)
        return failure();
      return splitThroughWorkspace(kernel, plan->chunk, plan->stores, splits);
    }
    if (!plan->atomic)
      return failure();
    Value split = dealChunksToSplits(kernel, plan->chunk, splits);
    // Each split folds its share into the zeroed outputs.
    OpBuilder b(kernel.getContext());
    dloop::ForOp chunk = plan->chunk;
    Location loc = chunk.getLoc();
    b.setInsertionPointAfter(chunk);
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, split,
                              arith::ConstantIndexOp::create(b, loc, 0));
    llvm::DenseMap<Value, Value> built;
    SmallVector<int64_t> zeroInit;
    for (dloop::StoreOp store : plan->stores) {
      b.setInsertionPoint(store);
      store.getValueMutable().assign(
          buildShare(b, store.getValue(), plan->tainted, first, built));
      store.setReduceKind(ReduceKind::add);
      auto pos = llvm::find(kernel.getOutputArgs(), store.getMemref()) -
                 kernel.getOutputArgs().begin();
      zeroInit.push_back(pos);
    }
    llvm::sort(zeroInit);
    zeroInit.erase(llvm::unique(zeroInit), zeroInit.end());
    kernel.setZeroInit(zeroInit);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::string dtile::getSplitAxis(dloop::ForOp chunk) {
  StringRef axis = chunk.getAxis();
  axis.consume_back("_o");
  return (axis + "_s").str();
}

Value dtile::addSplitAxis(KernelOp kernel, dloop::ForOp chunk, int64_t splits) {
  TileOp tile = kernel.getTile();
  SmallVector<Axis> blockAxes{{getSplitAxis(chunk), splits}};
  llvm::append_range(blockAxes, getBlockAxes(tile));
  Value split;
  rebuildTile(tile, blockAxes, {},
              [&](OpBuilder &, Location, ValueRange blockCoords, ValueRange) {
                split = blockCoords.front();
                return std::make_pair(
                    split.getParentBlock(),
                    SmallVector<Value>(blockCoords.drop_front()));
              });
  return split;
}

Value dtile::dealChunksToSplits(KernelOp kernel, dloop::ForOp chunk,
                                int64_t splits) {
  int64_t perSplit = chunk.getExtent() / splits;
  Value split = addSplitAxis(kernel, chunk, splits);
  // Split s runs chunks s * perSplit + [0, perSplit).
  chunk.setExtent(perSplit);
  OpBuilder b(kernel.getContext());
  b.setInsertionPointToStart(chunk.getBody());
  AffineExpr s, k;
  bindDims(b.getContext(), s, k);
  Value index = affine::AffineApplyOp::create(
      b, chunk.getLoc(), AffineMap::get(2, 0, s * perSplit + k),
      {split, chunk.getInductionVar()});
  chunk.getInductionVar().replaceAllUsesExcept(index, index.getDefiningOp());
  return split;
}

std::unique_ptr<Rule> dtile::createSplitMatmulKRule() {
  return std::make_unique<SplitMatmulK>();
}
