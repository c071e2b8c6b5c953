//===- IndexRange.cpp - Ranges of index values in loop nests ----*- C++ -*-===//
//
// The values an index can take inside a dloop nest, used to check that loads
// and stores stay inside their buffers. Other levels reuse it for the same
// check on their own accesses.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"

#include "Deplodock/Dialect/Common/AxisInterface.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

namespace {
/// Loop variables whose range is narrower than their loop at some use site.
using Narrowed = llvm::SmallDenseMap<Value, Interval, 4>;
} // namespace

/// How deep chains of `affine.apply`s (or of `and`/`or` conditions) are
/// followed; deeper ones are unknown, which only skips a check.
static constexpr unsigned kMaxDepth = 16;

static std::optional<Interval>
getIndexRange(Value value, const Narrowed &narrowed, unsigned depth);

/// The exact range of `expr` over `operands` (dimensions, then symbols):
/// repeated operands become one dimension, so interval arithmetic sees
/// independent variables and its ends are attained.
static std::optional<Interval> boundExpr(AffineExpr expr, unsigned numDims,
                                         ValueRange operands,
                                         const Narrowed &narrowed,
                                         unsigned depth) {
  MLIRContext *ctx = expr.getContext();
  SmallVector<Value> unique;
  SmallVector<AffineExpr> dimReplacements, symReplacements;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    auto it = llvm::find(unique, operand);
    unsigned pos = it - unique.begin();
    if (it == unique.end())
      unique.push_back(operand);
    (i < numDims ? dimReplacements : symReplacements)
        .push_back(getAffineDimExpr(pos, ctx));
  }
  expr = expr.replaceDimsAndSymbols(dimReplacements, symReplacements);
  SmallVector<Interval> ranges;
  bool missing = false;
  for (auto [pos, operand] : llvm::enumerate(unique)) {
    std::optional<Interval> range = getIndexRange(operand, narrowed, depth + 1);
    ranges.push_back(range.value_or(Interval{}));
    if (!range && expr.isFunctionOfDim(pos))
      missing = true;
  }
  if (missing)
    return std::nullopt;
  return boundAffineExprExactly(expr, ranges);
}

static std::optional<Interval>
getIndexRange(Value value, const Narrowed &narrowed, unsigned depth) {
  if (!value.getType().isIndex())
    return std::nullopt;
  if (std::optional<Interval> coord = getCoordRange(value)) {
    auto it = narrowed.find(value);
    return it != narrowed.end() ? it->second : *coord;
  }
  IntegerAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return Interval{constant.getInt(), constant.getInt()};
  auto apply = value.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || depth >= kMaxDepth)
    return std::nullopt;
  // The apply may not be verified yet; only trust a well-formed one.
  AffineMap map = apply.getAffineMap();
  if (map.getNumResults() != 1 ||
      map.getNumInputs() != apply.getMapOperands().size())
    return std::nullopt;
  return boundExpr(map.getResult(0), map.getNumDims(), apply.getMapOperands(),
                   narrowed, depth);
}

/// `lhs pred rhs` becomes `rhs pred' lhs`.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ule:
    return P::uge;
  case P::ugt:
    return P::ult;
  case P::uge:
    return P::ule;
  default:
    return pred; // eq and ne are symmetric.
  }
}

/// Narrows the loop variables that `condition` compares with a constant,
/// knowing that the condition is `holds`. Returns false when part of the
/// condition was not understood: the ranges are then wider than the truth.
static bool narrowByCondition(Value condition, bool holds, Narrowed &narrowed,
                              unsigned depth = 0) {
  if (depth >= kMaxDepth)
    return false;
  // Both sides of a true `and` (or of a false `or`) hold the same way.
  Operation *def = condition.getDefiningOp();
  if ((holds && isa_and_nonnull<arith::AndIOp>(def)) ||
      (!holds && isa_and_nonnull<arith::OrIOp>(def))) {
    bool lhs =
        narrowByCondition(def->getOperand(0), holds, narrowed, depth + 1);
    bool rhs =
        narrowByCondition(def->getOperand(1), holds, narrowed, depth + 1);
    return lhs && rhs;
  }
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
  if (!cmp)
    return false;
  arith::CmpIPredicate pred =
      holds ? cmp.getPredicate() : arith::invertPredicate(cmp.getPredicate());
  Value var = cmp.getLhs();
  IntegerAttr constant;
  if (!matchPattern(cmp.getRhs(), m_Constant(&constant))) {
    var = cmp.getRhs();
    pred = swapOperands(pred);
    if (!matchPattern(cmp.getLhs(), m_Constant(&constant)))
      return false;
  }
  std::optional<Interval> coord = getCoordRange(var);
  if (!coord)
    return false;
  int64_t c = constant.getInt();
  using P = arith::CmpIPredicate;
  bool isUnsigned =
      pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge;
  // A loop variable is never negative, so only a negative constant makes an
  // unsigned comparison differ from the signed one.
  if (isUnsigned && c < 0)
    return false;
  auto it = narrowed.find(var);
  Interval r = it != narrowed.end() ? it->second : *coord;
  switch (pred) {
  case P::slt:
  case P::ult:
    r.hi = std::min(r.hi, c - 1);
    break;
  case P::sle:
  case P::ule:
    r.hi = std::min(r.hi, c);
    break;
  case P::sgt:
  case P::ugt:
    r.lo = std::max(r.lo, c + 1);
    break;
  case P::sge:
  case P::uge:
    r.lo = std::max(r.lo, c);
    break;
  case P::eq:
    r = Interval{std::max(r.lo, c), std::min(r.hi, c)};
    break;
  case P::ne:
    return false;
  }
  narrowed[var] = r;
  return true;
}

std::optional<Interval> deplodock::dloop::getIndexRange(Value value) {
  return ::getIndexRange(value, Narrowed(), /*depth=*/0);
}

/// The narrowing the scf.if conditions around `user` (up to the nearest
/// isolated op) give; none when one is a condition we do not understand,
/// under which ranges may be too wide.
static std::optional<Narrowed> narrowingAt(Operation *user) {
  Narrowed narrowed;
  for (Operation *op = user; op; op = op->getParentOp()) {
    Operation *parent = op->getParentOp();
    if (!parent || parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      if (!narrowByCondition(ifOp.getCondition(),
                             op->getParentRegion() == &ifOp.getThenRegion(),
                             narrowed))
        return std::nullopt;
  }
  return narrowed;
}

std::optional<Interval> deplodock::dloop::getIndexRange(Value value,
                                                        Operation *user) {
  std::optional<Narrowed> narrowed = narrowingAt(user);
  if (!narrowed)
    return std::nullopt;
  return ::getIndexRange(value, *narrowed, /*depth=*/0);
}

std::optional<Interval> deplodock::dloop::getAccessRange(AffineExpr expr,
                                                         unsigned numDims,
                                                         ValueRange operands,
                                                         Operation *user) {
  std::optional<Narrowed> narrowed = narrowingAt(user);
  if (!narrowed)
    return std::nullopt;
  return boundExpr(expr, numDims, operands, *narrowed, /*depth=*/0);
}
