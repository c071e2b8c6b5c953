//===- AttentionSplit.cpp - A query row's keys over several threads -*- C++
//-*-//
//
// attention_blocks' split_kv: with few query rows (decoding), one thread per
// row leaves most of a block idle while it walks every key. Instead S threads
// share each row, thread s taking keys s, s + S, ... of every key step: each
// keeps its own running maximum m_s, sum l_s and accumulators a_s (the
// online softmax of its keys), and after the key loop they merge exactly, as
// the online softmax merges any two partial results:
//
//   M = max_s m_s,   c_s = exp(m_s - M) (0 where m_s = -inf),
//   L = sum_s l_s c_s,   A[d] = sum_s a_s[d] c_s,
//
// in f32 (the accumulators'), through dtile.combine over the new innermost
// thread axis, so the S threads of a row are neighbouring lanes. The output
// is then A[d] / L as before, stored by the row's first thread.
//
//===----------------------------------------------------------------------===//

#include "AttentionSplit.h"
#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The loop over the keys of one step: the first loop in the step loop's
/// body, or the key loop itself when it was not stepped.
static dloop::ForOp getKeyLoop(dloop::ForOp keys, bool stepped) {
  if (!stepped)
    return keys;
  auto inner = keys.getBody()->getOps<dloop::ForOp>();
  return inner.empty() ? dloop::ForOp() : *inner.begin();
}

/// Whether `cmp` asks whether `m` is -inf.
static bool isNegInfTest(arith::CmpFOp cmp, Value m) {
  if (cmp.getPredicate() != arith::CmpFPredicate::OEQ)
    return false;
  Value other = cmp.getLhs() == m   ? cmp.getRhs()
                : cmp.getRhs() == m ? cmp.getLhs()
                                    : Value();
  return other && matchPattern(other, m_NegInfFloat());
}

/// Whether `select` is the guard of an all -inf row: m == -inf ? 0 : m.
static bool isNegInfGuard(arith::SelectOp select, Value m) {
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  return cmp && isNegInfTest(cmp, m) && select.getFalseValue() == m &&
         matchPattern(select.getTrueValue(), m_PosZeroFloat());
}

/// Whether the new maximum `max` only rescales: its uses (through the
/// select that guards an all -inf row) are the yield, that guard, and the
/// subtrahend of differences taken only by math.exp, the exp(x - m) terms
/// whose exact merge splitKeysOverThreads writes.
static bool onlyRescales(Value max) {
  SmallVector<Value> values = {max};
  while (!values.empty()) {
    Value v = values.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<dloop::YieldOp, scf::YieldOp>(user))
        continue;
      // Only the guard's test and the guard itself: another select (a
      // guard that drops the maximum where the row has one) changes what
      // is subtracted (fuzz seed 24, ir #2262).
      if (auto cmp = dyn_cast<arith::CmpFOp>(user)) {
        if (!isNegInfTest(cmp, v))
          return false;
        continue;
      }
      if (auto select = dyn_cast<arith::SelectOp>(user)) {
        if (!isNegInfGuard(select, v))
          return false;
        values.push_back(select.getResult());
        continue;
      }
      auto sub = dyn_cast<arith::SubFOp>(user);
      if (!sub || use.getOperandNumber() != 1 ||
          !llvm::all_of(sub->getUsers(), llvm::IsaPred<math::ExpOp>))
        return false;
    }
  }
  return true;
}

/// Whether `v` is a * c + rest (an addf of a mulf, in either order); sets
/// `rest`.
static bool isRescaledPlus(Value v, Value a, Value c, Value &rest) {
  auto add = v.getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    auto mul = add->getOperand(i).getDefiningOp<arith::MulFOp>();
    if (mul && ((mul.getLhs() == a && mul.getRhs() == c) ||
                (mul.getLhs() == c && mul.getRhs() == a))) {
      rest = add->getOperand(1 - i);
      return true;
    }
  }
  return false;
}

/// Whether the sum and the private accumulators of `inner` follow the
/// online softmax: l' = l * c + p and a' = a * c + p * v, with
/// c = exp(m - m') and p = exp(s - m'), m' the new maximum `max` (or its
/// guard against an all -inf row).
static bool rescalesSumAndAccumulators(dloop::ForOp inner, Value running,
                                       Value max, Value sumArg, Value sumNext) {
  auto isMax = [&](Value v) {
    auto select = v.getDefiningOp<arith::SelectOp>();
    return v == max || (select && isNegInfGuard(select, max));
  };
  // exp(x - m'): the difference the merge rescales (fuzz seed 49, ir #4784:
  // a p of exp(s - s * scale) is no partial softmax).
  auto isExpMinusMax = [&](Value v) {
    auto exp = v.getDefiningOp<math::ExpOp>();
    auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>() : nullptr;
    return sub && isMax(sub.getRhs());
  };
  // c: the exp of the old maximum minus the new one.
  Value c;
  for (Operation *user : running.getUsers())
    if (auto sub = dyn_cast<arith::SubFOp>(user);
        sub && sub.getLhs() == running && isMax(sub.getRhs()))
      for (Operation *e : sub->getUsers())
        if (isa<math::ExpOp>(e))
          c = e->getResult(0);
  Value p;
  if (!c || !isRescaledPlus(sumNext, sumArg, c, p) || !isExpMinusMax(p))
    return false;
  bool ok = true;
  inner.walk([&](dloop::StoreOp store) {
    Value acc = store.getMemRef();
    if (!acc.getDefiningOp<memref::AllocaOp>())
      return;
    // a' = a * c + p * v, a loaded from the accumulator it is stored to.
    bool matched = false;
    for (Operation *user : acc.getUsers()) {
      auto load = dyn_cast<dloop::LoadOp>(user);
      Value rest;
      if (!load || !isRescaledPlus(store.getValue(), load.getResult(), c, rest))
        continue;
      auto mul = rest.getDefiningOp<arith::MulFOp>();
      // p may be rounded to the inputs' half type first.
      auto isP = [&](Value v) {
        if (auto ext = v.getDefiningOp<arith::ExtFOp>())
          if (auto trunc = ext.getIn().getDefiningOp<arith::TruncFOp>())
            v = trunc.getIn();
        return v == p;
      };
      matched |= mul && llvm::any_of(mul->getOperands(), isP);
    }
    ok &= matched;
  });
  return ok;
}

std::optional<unsigned> dtile::getRunningMaxIndex(dloop::ForOp keys,
                                                  bool stepped) {
  dloop::ForOp inner = getKeyLoop(keys, stepped);
  if (!inner || inner.getIterArgs().size() != 2 ||
      keys.getIterArgs().size() != 2)
    return std::nullopt;
  std::optional<unsigned> max;
  for (auto [i, arg] : llvm::enumerate(inner.getIterArgs()))
    if (llvm::any_of(arg.getUsers(),
                     llvm::IsaPred<arith::MaxNumFOp, arith::MaximumFOp>)) {
      if (max)
        return std::nullopt;
      max = i;
    }
  if (!max)
    return std::nullopt;
  // The merge after the split is exact only for the online softmax itself:
  // a maximum starting at -inf and a sum at 0, the maximum folded by max
  // and used only to rescale by exp(x - m).
  unsigned sum = 1 - *max;
  if (!matchPattern(keys.getInitArgs()[*max], m_NegInfFloat()) ||
      !matchPattern(keys.getInitArgs()[sum], m_PosZeroFloat()))
    return std::nullopt;
  auto yield = cast<dloop::YieldOp>(inner.getBody()->getTerminator());
  Value running = inner.getIterArgs()[*max];
  // A masked last step keeps the old maximum for keys past the end (an
  // scf.if whose else-side yields it).
  Value folded = yield->getOperand(*max);
  if (auto guard = folded.getDefiningOp<scf::IfOp>()) {
    unsigned i = cast<OpResult>(folded).getResultNumber();
    if (guard.getElseRegion().empty() ||
        guard.elseYield()->getOperand(i) != running)
      return std::nullopt;
    folded = guard.thenYield()->getOperand(i);
  }
  Operation *fold = folded.getDefiningOp();
  if (!isa_and_nonnull<arith::MaxNumFOp, arith::MaximumFOp>(fold) ||
      !llvm::is_contained(fold->getOperands(), running) ||
      !onlyRescales(fold->getResult(0)))
    return std::nullopt;
  Value sumNext = yield->getOperand(sum);
  if (auto guard = sumNext.getDefiningOp<scf::IfOp>())
    sumNext = guard.thenYield()->getOperand(
        cast<OpResult>(sumNext).getResultNumber());
  if (!rescalesSumAndAccumulators(inner, running, fold->getResult(0),
                                  inner.getIterArgs()[sum], sumNext))
    return std::nullopt;
  return max;
}

Value dtile::buildPartialScale(OpBuilder &b, Location loc, Value m, Value max) {
  auto type = cast<FloatType>(m.getType());
  Value ninf = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(),
                                           /*Negative=*/true)));
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
  Value diff = arith::SubFOp::create(b, loc, m, max);
  Value exp = math::ExpOp::create(b, loc, diff);
  Value empty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, ninf);
  return arith::SelectOp::create(b, loc, empty, zero, exp);
}

LogicalResult dtile::splitKeysOverThreads(KernelOp kernel, dloop::ForOp keys,
                                          bool stepped, int64_t splits) {
  std::optional<unsigned> maxIndex = getRunningMaxIndex(keys, stepped);
  dloop::ForOp inner = getKeyLoop(keys, stepped);
  if (!maxIndex || !inner)
    return failure();
  unsigned sumIndex = 1 - *maxIndex;
  // What reads the accumulators and stores after the key loop.
  Block &body = *keys->getBlock();
  SmallVector<dloop::LoadOp> loads;
  SmallVector<dloop::StoreOp> stores;
  for (Operation &op : llvm::make_range(std::next(Block::iterator(keys)),
                                        body.without_terminator().end())) {
    op.walk([&](dloop::LoadOp load) {
      if (load.getMemRef().getDefiningOp<memref::AllocaOp>())
        loads.push_back(load);
    });
    op.walk([&](dloop::StoreOp store) {
      if (!store.getMemRef().getDefiningOp<memref::AllocaOp>())
        stores.push_back(store);
    });
  }
  // Every thread of the block must reach a combine: none under a guard.
  for (dloop::LoadOp load : loads)
    for (Operation *parent = load->getParentOp(); !isa<TileOp>(parent);
         parent = parent->getParentOp())
      if (isa<scf::IfOp>(parent))
        return load.emitOpError("reads the accumulators of an online softmax "
                                "under a condition; split_kv cannot merge "
                                "them there");
  TileOp tile = kernel.getTile();
  Value kv = addInnermostThreadAxis(tile, "kv", splits);

  // Thread kv takes keys kv, kv + S, ... of each step.
  OpBuilder b(inner);
  Location loc = inner.getLoc();
  auto strided = StridedForOp::create(b, loc, kv, inner.getExtent(), splits,
                                      inner.getKind(), inner.getAxis(),
                                      inner.getInitArgs());
  {
    IRMapping mapping;
    mapping.map(inner.getInductionVar(), strided.getInductionVar());
    mapping.map(inner.getIterArgs(), strided.getIterArgs());
    Block *body = &strided.getBody().front();
    b.setInsertionPointToStart(body);
    if (!body->empty())
      b.setInsertionPoint(body->getTerminator());
    for (Operation &op : inner.getBody()->without_terminator())
      b.clone(op, mapping);
    SmallVector<Value> next;
    for (Value v : inner.getYield().getValues())
      next.push_back(mapping.lookupOrDefault(v));
    YieldOp::create(b, loc, next);
  }
  inner.replaceAllUsesWith(strided.getResults());
  if (inner == keys)
    keys = {};
  inner.erase();
  Operation *top = keys ? keys.getOperation() : strided.getOperation();

  // The exact merge of the S partial softmaxes, after the key loop.
  b.setInsertionPointAfter(top);
  loc = top->getLoc();
  ArrayAttr over = b.getStrArrayAttr({"kv"});
  Value m = top->getResult(*maxIndex), l = top->getResult(sumIndex);
  Value rowMax = CombineOp::create(b, loc, m, ReduceKind::max, over);
  m.replaceAllUsesExcept(rowMax, rowMax.getDefiningOp());
  Value scale = buildPartialScale(b, loc, m, rowMax);
  Value scaledSum = arith::MulFOp::create(b, loc, l, scale);
  Value rowSum = CombineOp::create(b, loc, scaledSum, ReduceKind::add, over);
  l.replaceUsesWithIf(rowSum, [&](OpOperand &use) {
    return use.getOwner() != scaledSum.getDefiningOp();
  });

  // Reads of the accumulators after the loop read the merged ones; stores
  // after it are the first thread's.
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kv,
                            arith::ConstantIndexOp::create(b, loc, 0));
  for (dloop::LoadOp load : loads) {
    b.setInsertionPointAfter(load);
    Value scaled = arith::MulFOp::create(b, loc, load.getResult(), scale);
    Value merged = CombineOp::create(b, loc, scaled, ReduceKind::add, over);
    load.getResult().replaceAllUsesExcept(merged, scaled.getDefiningOp());
  }
  for (dloop::StoreOp store : stores) {
    b.setInsertionPoint(store);
    auto guard = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    store->moveBefore(guard.thenBlock()->getTerminator());
  }
  return success();
}
