//===- Masking.cpp - Guards for tiles that overhang their extent -*- C++
//-*-===//
//
// A tile that does not divide its extent is predicated rather than refused:
// the coordinate a split rebuilds (block * tile + thread, or a register-tile
// copy's row) may run past the extent, and the accesses it reaches are
// guarded by `coord < extent`. A load so guarded yields zero when out of
// range; a store is skipped (vector loads and stores alike). Values computed
// for an out-of-range coordinate are garbage that no store writes, so nothing
// but the accesses needs a guard, and block-wide ops (stages, combines) stay
// outside every branch.
//
//===----------------------------------------------------------------------===//

#include "TileUtils.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The ops of `scope` (at any depth) whose operands depend on `coord`,
/// through results and, conservatively, through the results of any op a
/// dependent op is nested in.
static llvm::SetVector<Operation *> dependents(Block &scope, Value coord) {
  llvm::DenseSet<Value> tainted{coord};
  llvm::SetVector<Operation *> ops;
  bool changed = true;
  while (changed) {
    changed = false;
    scope.walk([&](Operation *op) {
      if (ops.contains(op))
        return;
      bool reached = llvm::any_of(op->getOperands(),
                                  [&](Value v) { return tainted.contains(v); });
      // An op holding a dependent op: its results depend too.
      reached |= llvm::any_of(op->getRegions(), [&](Region &r) {
        return llvm::any_of(r.getOps(), [&](Operation &nested) {
          return ops.contains(&nested);
        });
      });
      if (!reached)
        return;
      ops.insert(op);
      tainted.insert(op->result_begin(), op->result_end());
      changed = true;
    });
  }
  return ops;
}

Value dtile::buildInRange(OpBuilder &b, Location loc, Value coord,
                          int64_t extent) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, coord,
                               arith::ConstantIndexOp::create(b, loc, extent));
}

/// The conjunction of `conds` at `b`.
static Value conjunction(OpBuilder &b, Location loc, ArrayRef<Value> conds) {
  Value all;
  for (Value c : conds)
    all = all ? arith::AndIOp::create(b, loc, all, c).getResult() : c;
  return all;
}

void dtile::guardLoad(Operation *load, Value cond) {
  OpBuilder b(load);
  Location loc = load->getLoc();
  TypeRange types = load->getResultTypes();
  auto ifOp = scf::IfOp::create(b, loc, types, cond,
                                /*withElseRegion=*/true);
  load->replaceAllUsesWith(ifOp.getResults());
  b.setInsertionPointToEnd(ifOp.thenBlock());
  auto yield = scf::YieldOp::create(b, loc, load->getResults());
  load->moveBefore(yield);
  b.setInsertionPointToEnd(ifOp.elseBlock());
  SmallVector<Value> zeros;
  for (Type type : types)
    zeros.push_back(arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(type))));
  scf::YieldOp::create(b, loc, zeros);
}

void dtile::guardAccesses(Block &scope, ArrayRef<Mask> masks) {
  if (masks.empty())
    return;
  MLIRContext *ctx = scope.getParentOp()->getContext();
  // Each condition right after its coordinate's definition, or at the
  // start of the scope when that is outside it (so that copies of the scope
  // copy the condition too).
  SmallVector<Value> conds;
  SmallVector<llvm::SetVector<Operation *>> reached;
  for (const Mask &mask : masks) {
    OpBuilder b(ctx);
    Operation *def = mask.coord.getDefiningOp();
    if (def && scope.findAncestorOpInBlock(*def))
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(&scope);
    conds.push_back(
        buildInRange(b, mask.coord.getLoc(), mask.coord, mask.extent));
    reached.push_back(dependents(scope, mask.coord));
  }
  // Scalar and vector accesses alike (a second kernel may read and write
  // runs before it is dealt to threads).
  SmallVector<Operation *> loads, stores;
  scope.walk([&](Operation *op) {
    if (isa<dloop::LoadOp, dkernel::VectorLoadOp>(op))
      loads.push_back(op);
    else if (isa<dloop::StoreOp, dkernel::VectorStoreOp>(op))
      stores.push_back(op);
  });
  DominanceInfo dominance(scope.getParentOp());
  // A load is guarded by the coordinates its indices use (it must not read
  // outside its buffer).
  for (Operation *load : loads) {
    SmallVector<Value> mine;
    for (auto [cond, ops] : llvm::zip(conds, reached))
      if (ops.contains(load))
        mine.push_back(cond);
    if (mine.empty())
      continue;
    OpBuilder b(load);
    guardLoad(load, conjunction(b, load->getLoc(), mine));
  }
  // Every store by all of them: an out-of-range coordinate computes nothing
  // to keep, and a store that does not use it is made by an in-range point
  // too (a reducing one must not be made twice).
  for (Operation *store : stores) {
    SmallVector<Value> mine;
    for (Value cond : conds)
      if (dominance.properlyDominates(cond, store))
        mine.push_back(cond);
    if (mine.empty())
      continue;
    OpBuilder b(store);
    Location loc = store->getLoc();
    auto ifOp = scf::IfOp::create(b, loc, conjunction(b, loc, mine),
                                  /*withElseRegion=*/false);
    store->moveBefore(ifOp.thenBlock()->getTerminator());
  }
}

/// Whether every op in `op`'s regions only reads memory no kernel op
/// writes: kernel inputs and staged slabs.
static bool readsOnlyConstantMemory(Operation *op, KernelOp kernel) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    if (auto load = dyn_cast<dloop::LoadOp>(nested)) {
      Value buffer = load.getMemRef();
      if (llvm::is_contained(kernel.getInputArgs(), buffer) ||
          buffer.getDefiningOp<StageOp>())
        return WalkResult::advance();
      return WalkResult::interrupt();
    }
    if (nested->getNumRegions() == 0 && !isMemoryEffectFree(nested))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

void dtile::mergeEquivalentGuards(KernelOp kernel) {
  // Register-tile copies repeat a guarded load once per copy of the other
  // axis; CSE leaves ops with regions alone, so equal read-only branches
  // are merged here.
  SmallVector<Block *> blocks;
  kernel.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks) {
    SmallVector<scf::IfOp> seen;
    for (Operation &op : llvm::make_early_inc_range(*block)) {
      auto ifOp = dyn_cast<scf::IfOp>(op);
      if (!ifOp || ifOp.getNumResults() == 0 ||
          !readsOnlyConstantMemory(ifOp, kernel))
        continue;
      scf::IfOp match;
      for (scf::IfOp earlier : seen) {
        DenseMap<Value, Value> equal;
        auto check = [&](Value l, Value r) {
          return success(l == r || equal.lookup(l) == r);
        };
        auto mark = [&](Value l, Value r) { equal[l] = r; };
        if (OperationEquivalence::isEquivalentTo(
                earlier, ifOp, check, mark,
                OperationEquivalence::IgnoreLocations)) {
          match = earlier;
          break;
        }
      }
      if (!match) {
        seen.push_back(ifOp);
        continue;
      }
      ifOp.replaceAllUsesWith(match.getResults());
      ifOp.erase();
    }
  }
}

namespace {
/// `coord < extent` where the range of `coord` decides it (the first
/// register-tile copies of a row never overhang): a constant, so that the
/// guard folds away.
struct FoldDecidedRangeCheck : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpIOp cmp,
                                PatternRewriter &rewriter) const override {
    IntegerAttr extent;
    if (cmp.getPredicate() != arith::CmpIPredicate::ult ||
        !matchPattern(cmp.getRhs(), m_Constant(&extent)))
      return failure();
    std::optional<Interval> range = dloop::getIndexRange(cmp.getLhs());
    if (!range || range->lo < 0)
      return failure();
    bool below = range->hi < extent.getInt();
    if (!below && range->lo < extent.getInt())
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(cmp, below, 1);
    return success();
  }
};
} // namespace

void dtile::populateMaskFoldingPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldDecidedRangeCheck>(patterns.getContext());
  scf::IfOp::getCanonicalizationPatterns(patterns, patterns.getContext());
}
