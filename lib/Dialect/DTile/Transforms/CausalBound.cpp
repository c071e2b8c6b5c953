//===- CausalBound.cpp - Stop an attention block's keys at its diagonal -===//
//
// causal_bound: in an online-softmax kernel whose key loop attention_blocks
// or attention_mma stepped, a key step every key of which is masked to -inf for
// every query row of the block contributes nothing (its probabilities are
// exp(-inf) = 0, the running maximum and sum pass through), so it is never run.
// The mask is read from the IR, not from names: the score the running maximum
// folds is `select(c, -inf, x)` or `x + select(c, -inf, y)`, with `c` an index
// comparison affine in the key step, the keys of one step, the threads and
// values the whole block shares. When the masked keys of a row are those
// from some point on (causal, also shifted for decoding), the steps a block
// needs are those before the first one masked for all of its rows: their
// count depends on the block's coordinates only (the last query row, for
// causal), and the step loop becomes an scf.for up to it. Steps a row needs
// keep their per-key mask, so the result is unchanged. attention_mma clones
// the mask onto each fragment element (rows g and g + 8, keys 2t and 2t + 1
// of each 8-key tile): each gives a bound, and the step count is the largest.
//
// A finite mask is exact only where every row keeps an unmasked key, which
// step 0 must show: the scores folded into one running maximum are one row's
// (for each value of what is fixed per row), so some mask of each such group
// must leave a key of step 0 unmasked for every row, the keys' coordinates
// (the step, the loops of one step, the thread axes the maximum is combined
// over, as attention_mma's key lanes t) picked once for all the rows.
//
// No fork: skipping work whose result is known is never slower. It runs after
// the stages are placed and before pipeline_k_outer, whose prefetch needs the
// step count to be static (a causal key loop is not pipelined).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The step count of a causal key loop: `(expr ceildiv divisor)` of
/// `operands`, all defined outside the loop and uniform over the block.
struct StepBound {
  dloop::ForOp steps;
  AffineExpr expr;
  int64_t divisor;
  SmallVector<Value> operands;
};

/// A masked score: -inf where `cond` holds (where it fails when `negate`),
/// or a finite value so negative (`finite`) that its exponential vanishes
/// against any unmasked score, as the mask's author meant.
struct Mask {
  Value cond;
  bool negate;
  bool finite;
};

/// The mask values recognised: -inf, or at most -1e9 (PyTorch's
/// `masked_fill(-1e9)` and `finfo.min`), whose exponential against a row's
/// maximum underflows to exactly 0 for any score of magnitude below 4e8.
std::optional<bool> getMaskValue(Value value) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.getValue().isNegative())
    return std::nullopt;
  if (attr.getValue().isInfinity())
    return false;
  if (attr.getValueAsDouble() <= -1e9)
    return true;
  return std::nullopt;
}

/// The mask of `score`: `select(c, mask, x)` or `x + select(c, mask, y)`.
/// A -inf select around a masked score (attention_mma's guard past the rows
/// and keys) gives the inner mask: the outer one only masks more keys, so a
/// step the inner one masks whole adds nothing either. With a finite inner
/// mask too: the key it keeps for a row (boundOf's key 0) is in the keys
/// the guard keeps, and the rows the guard masks whole are never stored.
std::optional<Mask> getMask(Value score) {
  auto select = score.getDefiningOp<arith::SelectOp>();
  if (auto add = score.getDefiningOp<arith::AddFOp>())
    for (Value term : add->getOperands())
      if (auto s = term.getDefiningOp<arith::SelectOp>())
        select = s;
  if (!select)
    return std::nullopt;
  for (bool negate : {false, true}) {
    Value maskValue = negate ? select.getFalseValue() : select.getTrueValue();
    Value other = negate ? select.getTrueValue() : select.getFalseValue();
    std::optional<bool> finite = getMaskValue(maskValue);
    if (!finite)
      continue;
    if (!*finite && select.getResult() == score)
      if (std::optional<Mask> inner = getMask(other))
        return inner;
    return Mask{select.getCondition(), negate, *finite};
  }
  return std::nullopt;
}

/// Whether `value` is a running maximum: a loop's iter arg (`of` where
/// given), or a max of one (attention_mma folds a row's scores one after
/// another).
bool isRunningMax(Value value, Value of = {}) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return of ? value == of
              : isa<dloop::ForOp, StridedForOp>(arg.getOwner()->getParentOp());
  Operation *def = value.getDefiningOp();
  return isa_and_nonnull<arith::MaxNumFOp, arith::MaximumFOp>(def) &&
         llvm::any_of(def->getOperands(),
                      [&](Value v) { return isRunningMax(v, of); });
}

/// The iter arg a running maximum `value` starts from (the row it is for).
Value getRunningMaxRoot(Value value) {
  if (isa<BlockArgument>(value))
    return value;
  for (Value operand : value.getDefiningOp()->getOperands())
    if (isRunningMax(operand))
      return getRunningMaxRoot(operand);
  return value;
}

/// The thread arguments of `tile` over which `steps` combines its running
/// maxima (dtile.combine max): the lanes that hold keys of one row.
SmallVector<Value> getKeyLanes(dloop::ForOp steps, TileOp tile) {
  SmallVector<Value> lanes;
  Block &body = tile.getBody().front();
  unsigned numBlock = tile.getBlockAxes().size();
  for (Value value : steps.getYield().getValues())
    if (auto combine = value.getDefiningOp<CombineOp>();
        combine && combine.getKind() == ReduceKind::max)
      for (Attribute name : combine.getOver())
        for (auto [i, axis] : llvm::enumerate(tile.getThreadAxes()))
          if (axis == name &&
              !llvm::is_contained(lanes, body.getArgument(numBlock + i)))
            lanes.push_back(body.getArgument(numBlock + i));
  return lanes;
}

/// attention_mma's key loop: a top-level reduction of `tile` that yields a
/// running maximum of its own, folded over threads (dtile.combine max).
dloop::ForOp getMmaSoftmaxLoop(TileOp tile) {
  for (dloop::ForOp loop : getTopLevelReductions(tile))
    for (auto [arg, value] :
         llvm::zip(loop.getIterArgs(), loop.getYield().getValues()))
      if (auto combine = value.getDefiningOp<CombineOp>();
          combine && combine.getKind() == ReduceKind::max &&
          isRunningMax(combine.getValue(), arg))
        return loop;
  return {};
}

/// Whether `score` feeds only the running maximum (a max with an iter arg)
/// and exponentials of `score - something`: a masked score then adds
/// nothing (its probability is 0, the maximum and sum pass through).
bool feedsOnlySoftmax(Value score) {
  bool max = false;
  for (Operation *user : score.getUsers()) {
    if (isa<arith::MaxNumFOp, arith::MaximumFOp>(user)) {
      if (!isRunningMax(user->getOperand(user->getOperand(0) == score ? 1 : 0)))
        return false;
      max = true;
      continue;
    }
    auto sub = dyn_cast<arith::SubFOp>(user);
    if (!sub || sub.getLhs() != score ||
        !llvm::all_of(sub->getUsers(), llvm::IsaPred<math::ExpOp>))
      return false;
  }
  return max;
}

/// Builds `value` as an affine expression of the leaves it is computed from
/// (index constants and affine.apply fold in; anything else is a leaf).
AffineExpr toAffine(Value value, SmallVectorImpl<Value> &leaves) {
  MLIRContext *ctx = value.getContext();
  IntegerAttr cst;
  if (matchPattern(value, m_Constant(&cst)))
    return getAffineConstantExpr(cst.getInt(), ctx);
  if (auto apply = value.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    for (auto [i, operand] : llvm::enumerate(apply.getMapOperands()))
      (i < map.getNumDims() ? dims : syms).push_back(toAffine(operand, leaves));
    return map.getResult(0).replaceDimsAndSymbols(dims, syms);
  }
  auto it = llvm::find(leaves, value);
  unsigned pos = it - leaves.begin();
  if (it == leaves.end())
    leaves.push_back(value);
  return getAffineDimExpr(pos, ctx);
}

/// `masked` is `expr >= 0`, from comparison `cond` (negated when `negate`).
std::optional<AffineExpr> maskedExpr(Value cond, bool negate,
                                     SmallVectorImpl<Value> &leaves) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || !cmp.getLhs().getType().isIndex())
    return std::nullopt;
  AffineExpr diff =
      toAffine(cmp.getLhs(), leaves) - toAffine(cmp.getRhs(), leaves);
  AffineExpr geZero;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::sge:
    geZero = diff;
    break;
  case arith::CmpIPredicate::sgt:
    geZero = diff - 1;
    break;
  case arith::CmpIPredicate::sle:
    geZero = -diff;
    break;
  case arith::CmpIPredicate::slt:
    geZero = -diff - 1;
    break;
  default:
    return std::nullopt;
  }
  // not (e >= 0) is -e - 1 >= 0.
  return negate ? -geZero - 1 : geZero;
}

/// The value of `expr` with every dim set to `values[dim]`.
int64_t evaluate(AffineExpr expr, ArrayRef<int64_t> values) {
  SmallVector<AffineExpr> dims;
  for (int64_t v : values)
    dims.push_back(getAffineConstantExpr(v, expr.getContext()));
  return cast<AffineConstantExpr>(
             simplifyAffineExpr(expr.replaceDims(dims), values.size(), 0))
      .getValue();
}

/// The extent of `value` when it is the variable of a loop inside `steps`
/// (starting at 0, or at a thread's share) or a thread coordinate of `tile`:
/// the values it ranges over are then [0, extent), any of which some thread of
/// the block runs.
std::optional<int64_t> getVaryingExtent(Value value, dloop::ForOp steps,
                                        TileOp tile) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<dloop::ForOp>(owner); loop && loop != steps &&
                                                 steps->isAncestor(loop) &&
                                                 arg == loop.getInductionVar())
    return loop.getExtent();
  // split_kv's loop over a share of one step's keys.
  if (auto loop = dyn_cast<StridedForOp>(owner);
      loop && steps->isAncestor(loop) && arg == loop.getInductionVar())
    return loop.getExtent();
  unsigned numBlock = tile.getBlockAxes().size();
  if (owner == tile && arg.getArgNumber() >= numBlock)
    return tile.getThreadExtents()[arg.getArgNumber() - numBlock];
  return std::nullopt;
}

/// Whether `expr` is linear in the dims `flagged` marks: none of them under
/// a floordiv, ceildiv or mod.
bool isLinearIn(AffineExpr expr, ArrayRef<bool> flagged) {
  bool linear = true;
  expr.walk([&](AffineExpr e) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin || bin.getKind() == AffineExprKind::Add ||
        bin.getKind() == AffineExprKind::Mul)
      return;
    for (auto [pos, flag] : llvm::enumerate(flagged))
      linear &= !(flag && bin.getLHS().isFunctionOfDim(pos));
  });
  return linear;
}

/// How a leaf of the mask varies: the step variable, a value some thread
/// or key of one step takes (ranging over [0, extent)), or a block
/// coordinate (fixed within the block, ranging over [0, extent)).
struct Leaf {
  enum { Step, Varying, Block } kind;
  int64_t extent;
};

/// The bound one masked score puts on the key steps of `tile`'s `steps`.
/// `keepsKey` says whether the mask leaves one key of step 0 unmasked for
/// every row it is folded for: the coordinates of the keys (the step, loops
/// of one step, and the thread arguments `keyLanes`, over which the rows are
/// combined) at 0, the others at their worst.
std::optional<StepBound> boundOf(const Mask &mask, dloop::ForOp steps,
                                 TileOp tile, ArrayRef<Value> keyLanes,
                                 bool &keepsKey) {
  SmallVector<Value> leaves;
  std::optional<AffineExpr> masked = maskedExpr(mask.cond, mask.negate, leaves);
  if (!masked || !masked->isPureAffine())
    return std::nullopt;
  Block &body = tile.getBody().front();
  unsigned numBlock = tile.getBlockAxes().size();
  SmallVector<Leaf> kinds;
  for (Value leaf : leaves) {
    if (leaf == steps.getInductionVar())
      kinds.push_back({Leaf::Step, steps.getExtent()});
    else if (std::optional<int64_t> extent =
                 getVaryingExtent(leaf, steps, tile))
      kinds.push_back({Leaf::Varying, *extent});
    else if (auto arg = dyn_cast<BlockArgument>(leaf);
             arg && arg.getOwner() == &body && arg.getArgNumber() < numBlock)
      kinds.push_back(
          {Leaf::Block, tile.getBlockExtents()[arg.getArgNumber()]});
    else
      return std::nullopt; // Not known to be uniform over the block.
  }
  // masked = c * step + (linear in what varies within the block) + rest.
  SmallVector<bool> inBlock, everywhere;
  for (Leaf kind : kinds) {
    inBlock.push_back(kind.kind != Leaf::Block);
    everywhere.push_back(true);
  }
  if (!isLinearIn(*masked, inBlock))
    return std::nullopt;
  unsigned n = leaves.size();
  SmallVector<int64_t> zeros(n, 0);
  int64_t base = evaluate(*masked, zeros);
  auto coefficient = [&](unsigned i) {
    SmallVector<int64_t> unit(n, 0);
    unit[i] = 1;
    return evaluate(*masked, unit) - base;
  };
  // A finite mask is exact only where every row has an unmasked key (else
  // the softmax averages the masked ones): key 0 is, for the largest value
  // the mask takes there, over every row of every block.
  keepsKey = false;
  bool linear = isLinearIn(*masked, everywhere);
  if (mask.finite && !linear)
    return std::nullopt;
  if (linear) {
    int64_t largest = base;
    for (auto [i, kind] : llvm::enumerate(kinds)) {
      bool key =
          kind.kind == Leaf::Step ||
          (kind.kind == Leaf::Varying &&
           (!isa<dtile::TileOp>(
                cast<BlockArgument>(leaves[i]).getOwner()->getParentOp()) ||
            llvm::is_contained(keyLanes, leaves[i])));
      if (!key)
        largest += std::max<int64_t>(0, coefficient(i) * (kind.extent - 1));
    }
    keepsKey = largest < 0;
  }
  MLIRContext *ctx = tile.getContext();
  StepBound bound{steps, {}, 0, {}};
  SmallVector<AffineExpr> replacements;
  for (auto [i, leaf, kind] : llvm::enumerate(leaves, kinds)) {
    if (kind.kind == Leaf::Step) {
      bound.divisor = coefficient(i);
      replacements.push_back(getAffineConstantExpr(0, ctx));
    } else if (kind.kind == Leaf::Varying) {
      // The smallest value over the block: where the fewest keys are masked.
      replacements.push_back(
          getAffineConstantExpr(coefficient(i) < 0 ? kind.extent - 1 : 0, ctx));
    } else {
      replacements.push_back(getAffineDimExpr(bound.operands.size(), ctx));
      bound.operands.push_back(leaf);
    }
  }
  // A step is needed while some key of it is unmasked for some row: steps
  // k with c * k + least < 0, the first ceil(-least / c) of them.
  if (bound.divisor <= 0)
    return std::nullopt;
  bound.expr = simplifyAffineExpr(-masked->replaceDims(replacements),
                                  bound.operands.size(), 0);
  return bound;
}

/// The bound of `kernel`'s key steps when its masks allow one: the most
/// steps any masked score of a step needs. Every score the running maxima
/// fold must be masked, or no step is known to add nothing.
std::optional<StepBound> planBound(KernelOp kernel) {
  TileOp tile = kernel.getTile();
  if (!tile || tile.getThreadAxes().empty())
    return std::nullopt;
  dloop::ForOp steps = getOnlineSoftmaxLoop(tile);
  if (!steps)
    steps = getMmaSoftmaxLoop(tile);
  if (!steps || steps.getExtent() < 2)
    return std::nullopt;
  // Each mask with the running maximum (the row) it is folded into.
  SmallVector<std::pair<Mask, Value>> masks;
  WalkResult walk = steps.walk([&](Operation *op) {
    if (!isa<arith::MaxNumFOp, arith::MaximumFOp>(op))
      return WalkResult::advance();
    for (Value score : op->getOperands()) {
      if (isRunningMax(score))
        continue;
      std::optional<Mask> m = getMask(score);
      if (!m || !feedsOnlySoftmax(score))
        return WalkResult::interrupt(); // A score no mask ends.
      Value other = op->getOperand(op->getOperand(0) == score ? 1 : 0);
      masks.push_back({*m, getRunningMaxRoot(other)});
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || masks.empty())
    return std::nullopt;
  SmallVector<Value> keyLanes = getKeyLanes(steps, tile);
  // The rows masked with a finite value, and those some mask of theirs shows
  // to keep a key.
  llvm::SmallPtrSet<void *, 4> finiteRows, keptRows;
  std::optional<StepBound> bound;
  for (const auto &[mask, row] : masks) {
    bool keepsKey = false;
    std::optional<StepBound> next =
        boundOf(mask, steps, tile, keyLanes, keepsKey);
    if (mask.finite)
      finiteRows.insert(row.getAsOpaquePointer());
    if (keepsKey)
      keptRows.insert(row.getAsOpaquePointer());
    if (!next || (bound && next->divisor != bound->divisor))
      return std::nullopt;
    if (!bound) {
      bound = next;
      continue;
    }
    // Both over one operand list; the larger where they differ by a constant.
    SmallVector<AffineExpr> dims;
    for (Value operand : next->operands) {
      auto it = llvm::find(bound->operands, operand);
      dims.push_back(
          getAffineDimExpr(it - bound->operands.begin(), tile.getContext()));
      if (it == bound->operands.end())
        bound->operands.push_back(operand);
    }
    AffineExpr expr = next->expr.replaceDims(dims);
    auto diff = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr - bound->expr, bound->operands.size(), 0));
    if (!diff)
      return std::nullopt;
    if (diff.getValue() > 0)
      bound->expr = expr;
  }
  if (llvm::any_of(finiteRows, [&](void *row) { return !keptRows.count(row); }))
    return std::nullopt; // A finite mask's row whose keys may all be masked.
  // Every block needing every step (decoding's few rows) skips nothing.
  if (auto cst = dyn_cast<AffineConstantExpr>(bound->expr);
      cst && ceilDiv(cst.getValue(), bound->divisor) >= steps.getExtent())
    return std::nullopt;
  return bound;
}

/// Replaces the step loop by an scf.for over the steps a block needs.
void applyBound(const StepBound &bound) {
  dloop::ForOp steps = bound.steps;
  OpBuilder b(steps);
  Location loc = steps.getLoc();
  AffineMap map = AffineMap::get(bound.operands.size(), 0,
                                 bound.expr.ceilDiv(bound.divisor));
  Value needed = affine::AffineApplyOp::create(b, loc, map, bound.operands);
  Value count = arith::MinSIOp::create(
      b, loc, needed,
      arith::ConstantIndexOp::create(b, loc, steps.getExtent()));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, count, one, steps.getInitArgs());
  Block *body = loop.getBody();
  if (body->mightHaveTerminator())
    body->getTerminator()->erase();
  Block *old = steps.getBody();
  auto yield = cast<dloop::YieldOp>(old->getTerminator());
  b.setInsertionPoint(yield);
  scf::YieldOp::create(b, loc, yield.getValues());
  yield.erase();
  for (auto [from, to] : llvm::zip(old->getArguments(), body->getArguments()))
    from.replaceAllUsesWith(to);
  body->getOperations().splice(body->end(), old->getOperations());
  steps.replaceAllUsesWith(loop.getResults());
  steps.erase();
}

class CausalBound final : public TypedRule<CausalBoundKnobs> {
protected:
  /// One option where the mask ends every row's keys: no fork.
  SmallVector<CausalBoundKnobs> listOptions(KernelOp kernel,
                                            TargetAttr) const override {
    if (!planBound(kernel))
      return {};
    return {{true}};
  }

  size_t heuristic(KernelOp, ArrayRef<CausalBoundKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp kernel, const CausalBoundKnobs &option,
                        TargetAttr) const override {
    if (!option.causalBound)
      return success();
    std::optional<StepBound> bound = planBound(kernel);
    if (!bound)
      return failure();
    applyBound(*bound);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createCausalBoundRule() {
  return std::make_unique<CausalBound>();
}
