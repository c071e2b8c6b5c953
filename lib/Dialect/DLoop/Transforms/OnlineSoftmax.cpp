//===- OnlineSoftmax.cpp - Softmax and its contraction in one pass -*- C++ -*-//
//
// Inside one kernel, rewrites
//
//   M = max_j s(j)
//   L = sum_j exp(s(j) - M)
//   for d: O[d] = sum_j (exp(s(j) - M) / L) * v(j, d)
//
// into one loop over the keys j that carries the running maximum m, the
// running sum l, and the sums over d in a private buffer acc[d], each
// multiplied by exp(m_old - m_new) whenever the maximum grows (the online
// softmax of FlashAttention), followed by O[d] = acc[d] / l. Since
// exp(a - c) = exp(a - b) * exp(b - c), after the last key every sum holds
// exactly its terms relative to the final maximum.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

namespace {

/// Ops of a term that pass one operand through (the others being the
/// factor), by the operand's position.
using PassThrough = DenseMap<Operation *, unsigned>;

/// A sum over the keys of rescaled exponentials: `loop` folds
/// `term(exp(s(j) - M))` into its only iter arg.
struct Accumulator {
  ForOp loop;
  /// The free loops between the row block and `loop`, outermost first; none
  /// for a scalar sum (the softmax denominator).
  SmallVector<ForOp> nest;
  math::ExpOp exp;
  /// The ops of the term that scale by a value computed from a sum, with
  /// the operand the term passes through: applied once to the final sum,
  /// in order, while the other ops stay per key.
  SmallVector<std::pair<Operation *, unsigned>> late;
  arith::AddFOp add;
  /// The ops the per-key term needs, in `loop` and in `nest`.
  llvm::SetVector<Operation *> slice;
};

/// What the rewrite needs: the maximum, the sums it rescales and the other
/// reductions over the same keys.
struct Chain {
  ForOp maxLoop;
  Value score;
  SmallVector<Accumulator> sums;
  SmallVector<ForOp> sides;
  /// The op of the row block the merged loop goes before.
  Operation *insertBefore = nullptr;
};

} // namespace

/// The value `loop` takes the maximum of, when it is a max reduction from
/// its identity (-inf, or NaN for maxnumf); null otherwise.
static Value maximisedValue(ForOp loop) {
  if (!loop.isReduction() || loop.getNumResults() != 1 ||
      !isa<FloatType>(loop.getResult(0).getType()))
    return {};
  BlockArgument acc = loop.getIterArgs()[0];
  Operation *combine = loop.getYield().getValues()[0].getDefiningOp();
  if (!isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp>(combine) ||
      combine->getBlock() != loop.getBody() || !acc.hasOneUse() ||
      acc.use_begin()->getOwner() != combine)
    return {};
  Value x = combine->getOperand(combine->getOperand(0) == acc ? 1 : 0);
  if (x == acc || !x.getDefiningOp() ||
      x.getDefiningOp()->getBlock() != loop.getBody())
    return {};
  Value init = loop.getInitArgs()[0];
  bool identity =
      matchPattern(init, m_NegInfFloat()) ||
      (isa<arith::MaxNumFOp>(combine) && matchPattern(init, m_NaNFloat()));
  return identity ? x : Value();
}

/// The exponentials `exp(y - max)` of the maximum `max`, if every use of it
/// is one; none otherwise.
static SmallVector<math::ExpOp> exponentialsOf(Value max) {
  SmallVector<math::ExpOp> exps;
  for (OpOperand &use : max.getUses()) {
    auto sub = dyn_cast<arith::SubFOp>(use.getOwner());
    if (!sub || use.getOperandNumber() != 1 || sub.getLhs() == max ||
        !sub->hasOneUse())
      return {};
    auto exp = dyn_cast<math::ExpOp>(*sub->user_begin());
    if (!exp)
      return {};
    exps.push_back(exp);
  }
  return exps;
}

static bool sameValue(Value a, Value b, DenseMap<Value, Value> &pairs);

/// Whether two loads read the same element: the same buffer at equal
/// indices, however fusion ordered the operands of their maps.
static bool sameAccess(LoadOp x, LoadOp y, DenseMap<Value, Value> &pairs) {
  if (!sameValue(x.getMemRef(), y.getMemRef(), pairs) ||
      x.getMap().getNumSymbols() != 0 || y.getMap().getNumSymbols() != 0)
    return false;
  // Number y's operands after x's, sharing the numbers of equal ones.
  unsigned numDims = x.getIndices().size();
  SmallVector<AffineExpr> dims;
  for (Value index : y.getIndices()) {
    auto equal = llvm::find_if(x.getIndices(), [&](Value other) {
      return sameValue(other, index, pairs);
    });
    unsigned position = equal != x.getIndices().end()
                            ? equal - x.getIndices().begin()
                            : numDims++;
    dims.push_back(getAffineDimExpr(position, x.getContext()));
  }
  AffineMap xMap = x.getMap(), yMap = y.getMap();
  for (auto [xe, ye] : llvm::zip(xMap.getResults(), yMap.getResults()))
    if (simplifyAffineExpr(xe, numDims, 0) !=
        simplifyAffineExpr(ye.replaceDims(dims), numDims, 0))
      return false;
  return true;
}

/// Whether `a` and `b` compute the same value, given pairs of values
/// already known equal (two loops' induction variables).
static bool sameValue(Value a, Value b, DenseMap<Value, Value> &pairs) {
  if (a == b)
    return true;
  if (auto it = pairs.find(a); it != pairs.end())
    return it->second == b;
  auto ra = dyn_cast<OpResult>(a), rb = dyn_cast<OpResult>(b);
  if (!ra || !rb || ra.getResultNumber() != rb.getResultNumber())
    return false;
  Operation *x = ra.getOwner(), *y = rb.getOwner();
  auto lx = dyn_cast<LoadOp>(x), ly = dyn_cast<LoadOp>(y);
  if (lx && ly) {
    bool same = sameAccess(lx, ly, pairs);
    if (same)
      pairs[a] = b;
    return same;
  }
  bool same = OperationEquivalence::isEquivalentTo(
      x, y, [&](Value l, Value r) { return success(sameValue(l, r, pairs)); },
      [&](Value l, Value r) { pairs[l] = r; },
      OperationEquivalence::IgnoreLocations);
  if (same)
    for (auto [l, r] : llvm::zip(x->getResults(), y->getResults()))
      pairs[l] = r;
  return same;
}

/// The operand of `op` (a step of a term) that is not the term `term`: the
/// factor it scales by, null for ops without one (negf, truncf, extf);
/// failure for an op that does not commute with scaling its term by a
/// positive factor.
static FailureOr<Value> termFactor(Operation *op, Value term) {
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case([&](arith::MulFOp mul) -> FailureOr<Value> {
        if (mul.getLhs() == mul.getRhs())
          return failure();
        return mul.getLhs() == term ? mul.getRhs() : mul.getLhs();
      })
      .Case([&](arith::DivFOp div) -> FailureOr<Value> {
        if (div.getLhs() != term || div.getRhs() == term)
          return failure();
        return div.getRhs();
      })
      .Case([&](arith::SelectOp select) -> FailureOr<Value> {
        Value other = select.getTrueValue() == term ? select.getFalseValue()
                                                    : select.getTrueValue();
        if (other == term || select.getCondition() == term ||
            !matchPattern(other, m_AnyZeroFloat()))
          return failure();
        return select.getCondition();
      })
      .Case<arith::NegFOp, arith::TruncFOp, arith::ExtFOp>(
          [](Operation *) { return Value(); })
      .Default([](Operation *) { return failure(); });
}

namespace {

/// Finds the chain around one max loop and proves the rewrite legal.
class Matcher {
public:
  Matcher(KernelOp kernel, ForOp maxLoop, Value score, bool remarks)
      : kernel(kernel), dominance(kernel), remarks(remarks) {
    chain.maxLoop = maxLoop;
    chain.score = score;
  }

  FailureOr<Chain> match();

private:
  /// Fails, with a remark at `at` when asked for.
  LogicalResult refuse(Operation *at, const Twine &why) {
    if (remarks)
      at->emitRemark("online softmax not applied: ") << why;
    return failure();
  }
  LogicalResult matchSum(math::ExpOp exp);
  LogicalResult matchTerm(Accumulator &sum);
  bool isSide(ForOp loop);
  bool dependsOnMerged(Value value);
  LogicalResult collectSlice(Value root, Operation *scope,
                             const DenseSet<Value> &mapped,
                             const PassThrough &passThrough,
                             llvm::SetVector<Operation *> &slice);

  KernelOp kernel;
  DominanceInfo dominance;
  bool remarks;
  Chain chain;
  /// The loops merged into one: their results are known only after it.
  DenseSet<Operation *> merged;
  DenseMap<Value, bool> dependence;
};

} // namespace

LogicalResult Matcher::matchSum(math::ExpOp exp) {
  ForOp maxLoop = chain.maxLoop;
  auto loop = exp->getParentOfType<ForOp>();
  if (!loop || !loop.isReduction() || loop.getExtent() != maxLoop.getExtent())
    return refuse(exp, "an exponential of the maximum is not summed over "
                       "the keys");
  if (exp->getBlock() != loop.getBody())
    return refuse(exp, "an exponential of the maximum is computed under a "
                       "condition");
  Accumulator sum;
  sum.loop = loop;
  sum.exp = exp;
  for (Operation *op = loop; op->getBlock() != maxLoop->getBlock();) {
    op = op->getParentOp();
    auto free = dyn_cast<ForOp>(op);
    if (!free || free.isReduction())
      return refuse(loop, "a sum of exponentials is nested in something "
                          "other than free loops");
    sum.nest.insert(sum.nest.begin(), free);
  }
  if (loop.getNumResults() != 1)
    return refuse(loop, "a sum of exponentials carries other values");
  if (merged.contains(loop))
    return refuse(loop, "a loop sums two exponentials of the maximum");
  if (loop.getResult(0).getType() != maxLoop.getResult(0).getType())
    return refuse(loop, "a sum of exponentials has another type than the "
                        "maximum");
  if (!isReadOnlyComputation(loop, kernel))
    return refuse(loop, "a sum of exponentials writes memory");
  // The exponential must be of the maximised value itself: only then does
  // the running maximum bound it, so that no rescaled term overflows.
  DenseMap<Value, Value> pairs{
      {maxLoop.getInductionVar(), loop.getInductionVar()}};
  auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>();
  if (!sameValue(chain.score, sub.getLhs(), pairs))
    return refuse(sub, "the maximum is subtracted from another value than "
                       "the one it maximises");
  merged.insert(loop);
  chain.sums.push_back(std::move(sum));
  return success();
}

bool Matcher::dependsOnMerged(Value value) {
  if (auto it = dependence.find(value); it != dependence.end())
    return it->second;
  dependence[value] = false; // Values do not depend on themselves.
  bool depends = false;
  if (Operation *def = value.getDefiningOp()) {
    SmallVector<Value> operands(def->getOperands());
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(def->getRegions(), above);
    llvm::append_range(operands, above.getArrayRef());
    depends = merged.contains(def) || llvm::any_of(operands, [&](Value v) {
                return dependsOnMerged(v);
              });
  }
  dependence[value] = depends;
  return depends;
}

/// Whether `loop`, a reduction over the keys in the row block, can join the
/// merged loop: it reads only inputs, needs nothing the merged loops
/// compute, and reads the scores (else there is nothing to share).
bool Matcher::isSide(ForOp loop) {
  ForOp maxLoop = chain.maxLoop;
  if (loop == maxLoop || merged.contains(loop) || !loop.isReduction() ||
      loop.getExtent() != maxLoop.getExtent() || loop.getNumResults() == 0 ||
      !isReadOnlyComputation(loop, kernel))
    return false;
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  for (Value init : loop.getInitArgs())
    above.insert(init);
  if (llvm::any_of(above, [&](Value v) { return dependsOnMerged(v); }))
    return false;
  unsigned number = cast<OpResult>(chain.score).getResultNumber();
  return llvm::any_of(loop.getBody()->without_terminator(), [&](Operation &op) {
    DenseMap<Value, Value> pairs{
        {maxLoop.getInductionVar(), loop.getInductionVar()}};
    return op.getNumResults() > number &&
           sameValue(chain.score, op.getResult(number), pairs);
  });
}

LogicalResult Matcher::matchTerm(Accumulator &sum) {
  ForOp loop = sum.loop;
  BlockArgument acc = loop.getIterArgs()[0];
  PassThrough late;
  Value v = sum.exp.getResult();
  while (true) {
    if (!v.hasOneUse())
      return refuse(v.getDefiningOp(), "an exponential of the maximum is "
                                       "used twice");
    Operation *user = *v.user_begin();
    if (user->getBlock() != loop.getBody())
      return refuse(user, "an exponential of the maximum leaves its loop");
    if (auto add = dyn_cast<arith::AddFOp>(user)) {
      Value other = add.getLhs() == v ? add.getRhs() : add.getLhs();
      if (other != acc || !acc.hasOneUse() || !add->hasOneUse() ||
          loop.getYield().getValues()[0] != add.getResult())
        return refuse(add, "exponentials are added to something other than "
                           "their sum");
      if (!matchPattern(loop.getInitArgs()[0], m_AnyZeroFloat()))
        return refuse(loop, "a sum of exponentials does not start at zero");
      sum.add = add;
      break;
    }
    FailureOr<Value> factor = termFactor(user, v);
    if (failed(factor))
      return refuse(user, Twine("'") + user->getName().getStringRef() +
                              "' of the exponentials does not commute with "
                              "rescaling them");
    if (*factor && dependsOnMerged(*factor)) {
      // Known only after the merged loop: applied to the final sum, where
      // the factor must already be computed.
      if (loop->isAncestor((*factor).getParentBlock()->getParentOp()))
        return refuse(user, "a factor computed from a sum is recomputed "
                            "per key");
      unsigned input = user->getOperand(0) == v   ? 0
                       : user->getOperand(1) == v ? 1
                                                  : 2;
      sum.late.emplace_back(user, input);
      late[user] = input;
    }
    v = user->getResult(0);
  }
  // The per-key term, given the key, the exponential, the scaled sum and
  // the free loop variables.
  DenseSet<Value> mapped{loop.getInductionVar(), acc, sum.exp.getResult()};
  for (ForOp free : sum.nest)
    mapped.insert(free.getInductionVar());
  Operation *scope = sum.nest.empty() ? loop : sum.nest.front();
  return collectSlice(sum.add.getResult(), scope, mapped, late, sum.slice);
}

LogicalResult Matcher::collectSlice(Value root, Operation *scope,
                                    const DenseSet<Value> &mapped,
                                    const PassThrough &passThrough,
                                    llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> worklist{root};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (mapped.contains(v) || !seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def) {
      Operation *owner = cast<BlockArgument>(v).getOwner()->getParentOp();
      if (scope->isAncestor(owner))
        return refuse(owner, "a sum of exponentials reads a value that "
                             "depends on it");
    }
    if (!def || !scope->isProperAncestor(def)) {
      if (!dominance.properlyDominates(v, chain.insertBefore))
        return refuse(def ? def : scope, "a value the merged loop needs is "
                                         "computed after it");
      continue;
    }
    if (!isReadOnlyComputation(def, kernel))
      return refuse(def, "a sum of exponentials needs a value that is not "
                         "a read-only computation");
    slice.insert(def);
    if (auto it = passThrough.find(def); it != passThrough.end()) {
      worklist.push_back(def->getOperand(it->second));
      continue;
    }
    llvm::append_range(worklist, def->getOperands());
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(def->getRegions(), above);
    llvm::append_range(worklist, above.getArrayRef());
  }
  return success();
}

FailureOr<Chain> Matcher::match() {
  ForOp maxLoop = chain.maxLoop;
  Block *row = maxLoop->getBlock();
  SmallVector<math::ExpOp> exps = exponentialsOf(maxLoop.getResult(0));
  // Only a maximum whose exponentials reach a contraction (a sum nested in
  // a free loop) is attention; anything else is left alone quietly.
  bool contraction = llvm::any_of(exps, [&](math::ExpOp exp) {
    auto loop = exp->getParentOfType<ForOp>();
    return loop && loop.isReduction() && loop->getBlock() != row &&
           row->getParentOp()->isProperAncestor(loop);
  });
  if (!contraction)
    return failure();
  remarks = remarks && contraction;
  if (!isReadOnlyComputation(maxLoop, kernel))
    return refuse(maxLoop, "the maximum writes memory");
  merged.insert(maxLoop);
  for (math::ExpOp exp : exps)
    if (failed(matchSum(exp)))
      return failure();
  // In program order, so that the merged loop reads like the original.
  DenseMap<Operation *, unsigned> order;
  row->walk([&](ForOp loop) { order[loop] = order.size(); });
  llvm::sort(chain.sums, [&](const Accumulator &a, const Accumulator &b) {
    return order.lookup(a.loop) < order.lookup(b.loop);
  });
  for (ForOp loop : row->getOps<ForOp>())
    if (isSide(loop))
      chain.sides.push_back(loop);
  for (ForOp side : chain.sides)
    merged.insert(side);
  dependence.clear();

  // The merged loop goes before the first loop it replaces that uses the
  // maximum or is a side reduction, and before every use of their results.
  auto rowAncestor = [&](Operation *op) {
    return row->findAncestorOpInBlock(*op);
  };
  SmallVector<Operation *> placed;
  for (const Accumulator &sum : chain.sums)
    placed.push_back(rowAncestor(sum.loop));
  llvm::append_range(placed, chain.sides);
  chain.insertBefore = *llvm::min_element(
      placed, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // What the merged loop reads from around it must be computed before it.
  auto available = [&](Operation *loop) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(loop->getRegion(0), above);
    for (Value init : cast<ForOp>(loop).getInitArgs())
      above.insert(init);
    for (Value v : above)
      if (!dominance.properlyDominates(v, chain.insertBefore))
        return refuse(loop, "a value the merged loop needs is computed "
                            "after it");
    return success();
  };
  if (failed(available(maxLoop)))
    return failure();
  for (ForOp side : chain.sides)
    if (failed(available(side)))
      return failure();
  for (Accumulator &sum : chain.sums)
    if (failed(matchTerm(sum)))
      return failure();
  return chain;
}

/// Builds free loops with the extents and names of `like` around what
/// `body` builds from their variables.
static void buildFreeNest(OpBuilder &b, Location loc, ArrayRef<ForOp> like,
                          SmallVectorImpl<Value> &ivs,
                          function_ref<void(OpBuilder &)> body) {
  if (like.empty())
    return body(b);
  ForOp outer = like.front();
  ForOp::create(b, loc, outer.getExtent(), LoopKind::free, outer.getAxis(),
                ValueRange(),
                [&](OpBuilder &nested, Location, Value iv, ValueRange) {
                  ivs.push_back(iv);
                  buildFreeNest(nested, loc, like.drop_front(), ivs, body);
                });
}

/// Clones the ops of `slice` that `scope` holds, in program order, through
/// `mapping`; a pass-through op maps its result to the term it passes.
static void cloneSlice(OpBuilder &b, Operation *scope,
                       const llvm::SetVector<Operation *> &slice,
                       const PassThrough &passThrough, IRMapping &mapping) {
  scope->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!slice.contains(op))
      return WalkResult::advance();
    if (auto it = passThrough.find(op); it != passThrough.end())
      mapping.map(op->getResult(0),
                  mapping.lookupOrDefault(op->getOperand(it->second)));
    else
      b.clone(*op, mapping);
    return WalkResult::skip();
  });
}

/// Rewrites `chain` (see the file comment).
static void rewrite(Chain &chain) {
  ForOp maxLoop = chain.maxLoop;
  Location loc = maxLoop.getLoc();
  auto type = cast<FloatType>(maxLoop.getResult(0).getType());
  OpBuilder b(chain.insertBefore);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
  Value ninf = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(),
                                           /*Negative=*/true)));

  // A private buffer for each sum nested in free loops, zeroed.
  DenseMap<Operation *, Value> buffers;
  SmallVector<Value> inits{ninf};
  for (Accumulator &sum : chain.sums) {
    if (sum.nest.empty()) {
      inits.push_back(zero);
      continue;
    }
    SmallVector<int64_t> shape;
    for (ForOp free : sum.nest)
      shape.push_back(free.getExtent());
    Value buffer =
        memref::AllocaOp::create(b, loc, MemRefType::get(shape, type));
    SmallVector<Value> ivs;
    buildFreeNest(b, loc, sum.nest, ivs, [&](OpBuilder &nested) {
      StoreOp::create(nested, loc, zero, buffer, ivs);
    });
    buffers[sum.loop] = buffer;
  }
  for (ForOp side : chain.sides)
    llvm::append_range(inits, side.getInitArgs());

  auto online = ForOp::create(
      b, loc, maxLoop.getExtent(), LoopKind::reduce, maxLoop.getAxis(), inits,
      [&](OpBuilder &body, Location, Value key, ValueRange iters) {
        Value m = iters.front();
        IRMapping mapping;
        mapping.map(maxLoop.getInductionVar(), key);
        mapping.map(maxLoop.getIterArgs()[0], m);
        for (Operation &op : maxLoop.getBody()->without_terminator())
          body.clone(op, mapping);
        Value next = mapping.lookup(maxLoop.getYield().getValues()[0]);
        Value score = mapping.lookup(chain.score);
        // A maximum still at -inf (every key so far masked) rescales from
        // 0 instead, so that exp(-inf - -inf) never makes a NaN.
        Value masked = arith::CmpFOp::create(
            body, loc, arith::CmpFPredicate::OEQ, next, ninf);
        Value safe = arith::SelectOp::create(body, loc, masked, zero, next);
        Value alpha = math::ExpOp::create(
            body, loc, arith::SubFOp::create(body, loc, m, safe));
        Value e = math::ExpOp::create(
            body, loc, arith::SubFOp::create(body, loc, score, safe));

        SmallVector<Value> yields{next};
        unsigned iter = 1;
        for (Accumulator &sum : chain.sums) {
          PassThrough passThrough;
          for (auto [op, input] : sum.late)
            passThrough[op] = input;
          IRMapping term;
          term.map(sum.loop.getInductionVar(), key);
          term.map(sum.exp.getResult(), e);
          if (sum.nest.empty()) {
            term.map(sum.loop.getIterArgs()[0],
                     arith::MulFOp::create(body, loc, iters[iter++], alpha));
            cloneSlice(body, sum.loop, sum.slice, passThrough, term);
            yields.push_back(term.lookup(sum.add.getResult()));
            continue;
          }
          Value buffer = buffers.lookup(sum.loop);
          SmallVector<Value> ivs;
          buildFreeNest(body, loc, sum.nest, ivs, [&](OpBuilder &inner) {
            for (auto [free, iv] : llvm::zip(sum.nest, ivs))
              term.map(free.getInductionVar(), iv);
            Value old = LoadOp::create(inner, loc, buffer, ivs);
            term.map(sum.loop.getIterArgs()[0],
                     arith::MulFOp::create(inner, loc, old, alpha));
            cloneSlice(inner, sum.nest.front(), sum.slice, passThrough, term);
            StoreOp::create(inner, loc, term.lookup(sum.add.getResult()),
                            buffer, ivs);
          });
        }
        for (ForOp side : chain.sides) {
          IRMapping sideMapping;
          sideMapping.map(side.getInductionVar(), key);
          for (BlockArgument arg : side.getIterArgs())
            sideMapping.map(arg, iters[iter++]);
          for (Operation &op : side.getBody()->without_terminator())
            body.clone(op, sideMapping);
          for (Value v : side.getYield().getValues())
            yields.push_back(sideMapping.lookupOrDefault(v));
        }
        YieldOp::create(body, loc, yields);
      });

  // Each sum ends as its final value with the late factors applied.
  unsigned result = 1;
  for (Accumulator &sum : chain.sums) {
    b.setInsertionPoint(sum.loop);
    Value value;
    if (sum.nest.empty()) {
      value = online.getResult(result++);
    } else {
      SmallVector<Value> ivs;
      for (ForOp free : sum.nest)
        ivs.push_back(free.getInductionVar());
      value = LoadOp::create(b, loc, buffers.lookup(sum.loop), ivs);
    }
    for (auto [op, input] : sum.late) {
      IRMapping mapping;
      mapping.map(op->getOperand(input), value);
      value = b.clone(*op, mapping)->getResult(0);
    }
    sum.loop.getResult(0).replaceAllUsesWith(value);
  }
  for (ForOp side : chain.sides) {
    side.replaceAllUsesWith(
        online.getResults().slice(result, side.getNumResults()));
    result += side.getNumResults();
  }
  for (Accumulator &sum : chain.sums)
    sum.loop.erase();
  for (ForOp side : chain.sides)
    side.erase();
  maxLoop.erase();
}

/// Folds the new accesses of `kernel`, hoists what the merged loop does
/// not need per key, and shares what its parts computed twice (the scores).
static void cleanUp(KernelOp kernel) {
  RewritePatternSet patterns(kernel.getContext());
  LoadOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  StoreOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns,
                                                     kernel.getContext());
  (void)applyPatternsGreedily(kernel, std::move(patterns));
  hoistLoopInvariants(kernel);
  dedupeComputations(kernel);
  renameAxes(kernel);
}

LogicalResult deplodock::dloop::fuseOnlineSoftmax(KernelOp kernel,
                                                  bool remarks) {
  auto candidates = [&] {
    SmallVector<std::pair<ForOp, Value>> found;
    kernel.walk([&](ForOp loop) {
      if (Value score = maximisedValue(loop))
        found.emplace_back(loop, score);
    });
    return found;
  };
  // Rewrite chains until none is left, then say why the others were not.
  bool changed = false;
  for (bool rewrote = true; rewrote;) {
    rewrote = false;
    for (auto [loop, score] : candidates()) {
      FailureOr<Chain> chain =
          Matcher(kernel, loop, score, /*remarks=*/false).match();
      if (failed(chain))
        continue;
      rewrite(*chain);
      cleanUp(kernel);
      rewrote = changed = true;
      break;
    }
  }
  if (remarks)
    for (auto [loop, score] : candidates())
      (void)Matcher(kernel, loop, score, /*remarks=*/true).match();
  return success(changed);
}
