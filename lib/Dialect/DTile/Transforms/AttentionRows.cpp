//===- AttentionRows.cpp - Several query rows a thread ----------*- C++ -*-===//
//
// attention_rows: after attention_blocks (and attention_split_d), every
// thread of an online-softmax kernel owns one query row, so each key and
// value element it reads from a slab feeds one multiply-add: one shared load
// a multiply-add, a quarter of what the FP32 pipes could do. With R rows a
// thread, the block's rows axis shrinks R times and the tile body is
// unrolled and jammed over the R rows: thread t owns rows t, t + BQ / R, ...;
// every loop is one loop whose body holds the R rows' bodies, its carried
// values (a row's running maximum and sum, a q.k partial sum) R times over,
// and an operation that computes the same for every row (a key or value
// element's load, an index) is emitted once, so that one load feeds R
// multiply-adds. Each row's values and their order are unchanged.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Error.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Unrolls and jams ops over R rows, each with its own mapping. The rows
/// were other threads' work, which nothing ordered: any interleaving of
/// their operations is as valid, so every loop can hold all of them.
class RowJammer {
public:
  RowJammer(OpBuilder &b, MutableArrayRef<IRMapping> rows) : b(b), rows(rows) {}

  void jam(Operation *op) {
    if (isShared(op)) {
      Operation *once = b.clone(*op, rows[0]);
      for (IRMapping &row : rows.drop_front())
        row.map(op->getResults(), once->getResults());
      return;
    }
    if (auto loop = dyn_cast<dloop::ForOp>(op))
      return jamLoop(loop);
    if (auto guard = dyn_cast<scf::IfOp>(op);
        guard && isSame(guard.getCondition()))
      return jamGuard(guard);
    for (IRMapping &row : rows)
      b.clone(*op, row);
  }

private:
  /// Whether `value` stands for the same value in every row.
  bool isSame(Value value) {
    Value first = rows[0].lookupOrDefault(value);
    return llvm::all_of(rows.drop_front(), [&](IRMapping &row) {
      return row.lookupOrDefault(value) == first;
    });
  }

  /// Whether `op` computes the same in every row: no region, no private
  /// buffer of its own, and the same operands.
  bool isShared(Operation *op) {
    return op->getNumRegions() == 0 && op->getNumResults() > 0 &&
           !isa<memref::AllocaOp, CombineOp>(op) &&
           llvm::all_of(op->getOperands(), [&](Value v) { return isSame(v); });
  }

  /// Values of `values` in every row, one row after another.
  SmallVector<Value> inEveryRow(ValueRange values) {
    SmallVector<Value> result;
    for (IRMapping &row : rows)
      for (Value v : values)
        result.push_back(row.lookupOrDefault(v));
    return result;
  }

  void jamLoop(dloop::ForOp loop) {
    size_t n = loop.getIterArgs().size();
    auto fused = dloop::ForOp::create(
        b, loop.getLoc(), loop.getExtent(), loop.getKind(), loop.getAxis(),
        inEveryRow(loop.getInitArgs()),
        [&](OpBuilder &, Location loc, Value iv, ValueRange iters) {
          for (auto [r, row] : llvm::enumerate(rows)) {
            row.map(loop.getInductionVar(), iv);
            row.map(loop.getIterArgs(), iters.slice(r * n, n));
          }
          for (Operation &inner : loop.getBody()->without_terminator())
            jam(&inner);
          if (n)
            dloop::YieldOp::create(b, loc,
                                   inEveryRow(loop.getYield().getValues()));
        });
    b.setInsertionPointAfter(fused);
    for (auto [r, row] : llvm::enumerate(rows))
      row.map(loop.getResults(), fused.getResults().slice(r * n, n));
  }

  void jamGuard(scf::IfOp guard) {
    size_t n = guard.getNumResults();
    SmallVector<Type> types;
    for (size_t r = 0; r < rows.size(); ++r)
      llvm::append_range(types, guard.getResultTypes());
    bool hasElse = !guard.getElseRegion().empty();
    auto fused = scf::IfOp::create(
        b, guard.getLoc(), types, rows[0].lookupOrDefault(guard.getCondition()),
        hasElse);
    auto fill = [&](Block &from, Block &to) {
      OpBuilder::InsertionGuard g(b);
      if (to.empty() || !to.back().hasTrait<OpTrait::IsTerminator>())
        b.setInsertionPointToEnd(&to);
      else
        b.setInsertionPoint(to.getTerminator());
      for (Operation &inner : from.without_terminator())
        jam(&inner);
      if (n)
        scf::YieldOp::create(
            b, guard.getLoc(),
            inEveryRow(cast<scf::YieldOp>(from.getTerminator()).getResults()));
    };
    fill(guard.getThenRegion().front(), fused.getThenRegion().front());
    if (hasElse)
      fill(guard.getElseRegion().front(), fused.getElseRegion().front());
    b.setInsertionPointAfter(fused);
    for (auto [r, row] : llvm::enumerate(rows))
      row.map(guard.getResults(), fused.getResults().slice(r * n, n));
  }

  OpBuilder &b;
  MutableArrayRef<IRMapping> rows;
};

/// Why `kernel` cannot take `perThread` rows a thread on `target`, if it
/// cannot (see the rule).
llvm::Error checkRows(KernelOp kernel, TargetAttr target, int64_t perThread) {
  TileOp tile = kernel.getTile();
  if (!tile)
    return llvm::createStringError("it has no tile");
  ArrayRef<int64_t> extents = tile.getThreadExtents();
  if (tile.isThreadAxis("kv"))
    return llvm::createStringError(
        "its rows' keys are split over threads (split_kv)");
  if (extents.empty() || !getOnlineSoftmaxLoop(tile))
    return llvm::createStringError("it is no online softmax dealt to threads");
  for (Attribute name : tile.getThreadAxes().getValue().drop_front())
    if (cast<StringAttr>(name).getValue() != "hd")
      return llvm::createStringError(
          "its threads are not one a row (with split_d's lanes)");
  if (extents.front() % perThread != 0)
    return llvm::createStringError(llvm::Twine(extents.front()) +
                                   " rows a block are no multiple of " +
                                   llvm::Twine(perThread));
  int64_t threads = tile.getNumThreads() / perThread;
  if (threads % 32 != 0)
    return llvm::createStringError(llvm::Twine(threads) +
                                   " threads a block are no whole "
                                   "number of warps");
  int64_t words = getPrivateWords(tile);
  int64_t budget = getRegisterBudget(target, threads);
  if (kBaseThreadRegisters + perThread * words > budget)
    return llvm::createStringError(
        llvm::Twine(perThread) + " rows of " + llvm::Twine(words) +
        " words pass a thread's " + llvm::Twine(budget) + " registers");
  return llvm::Error::success();
}

/// Deals `perThread` rows to each thread of `kernel`'s rows axis (checked).
void jamRows(KernelOp kernel, int64_t perThread) {
  TileOp tile = kernel.getTile();
  SmallVector<Axis> threadAxes = getThreadAxes(tile);
  int64_t stride = threadAxes.front().extent / perThread;
  threadAxes.front().extent = stride;
  tile = rebuildTile(tile, getBlockAxes(tile), threadAxes,
                     [&](OpBuilder &b, Location, ValueRange blockCoords,
                         ValueRange threadCoords) {
                       SmallVector<Value> old(blockCoords);
                       llvm::append_range(old, threadCoords);
                       return std::make_pair(b.getBlock(), old);
                     });
  Block &body = tile.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  OpBuilder b(body.getTerminator());
  Value thread = tile.getThreadCoord(0);
  SmallVector<IRMapping> rows(perThread);
  for (int64_t r = 1; r < perThread; ++r) {
    AffineMap map =
        AffineMap::get(1, 0, getAffineDimExpr(0, b.getContext()) + r * stride);
    rows[r].map(thread, affine::AffineApplyOp::create(b, tile.getLoc(), map,
                                                      ValueRange{thread}));
  }
  RowJammer jammer(b, rows);
  for (Operation *op : ops)
    jammer.jam(op);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
}

class AttentionRows final : public TypedRule<AttentionRowsKnobs> {
public:
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    if (llvm::Error why = checkRows(kernel, target, 2))
      return llvm::toString(std::move(why));
    return {};
  }

  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    std::optional<int64_t> perThread = requested.getRowsPerThread();
    if (!perThread || *perThread == 1 || !kernel.getTile() ||
        hasDecided(*this, kernel))
      return success();
    if (llvm::Error why = checkRows(kernel, target, *perThread))
      return kernel.emitOpError("knob rows_per_thread=")
             << *perThread << ": attention_rows cannot deal rows of @"
             << kernel.getSymName() << ": " << llvm::toString(std::move(why));
    return success();
  }

protected:
  /// 1, then 2 and 4 where the rule can take them.
  SmallVector<AttentionRowsKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    if (!kernel.getTile() || hasDecided(*this, kernel))
      return {};
    SmallVector<AttentionRowsKnobs> options;
    for (int64_t perThread : {2, 4})
      if (!llvm::errorToBool(checkRows(kernel, target, perThread)))
        options.push_back({perThread});
    if (!options.empty())
      options.insert(options.begin(), AttentionRowsKnobs{1});
    return options;
  }

  /// 1, until a GPU measures the others.
  size_t heuristic(KernelOp, ArrayRef<AttentionRowsKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp kernel, const AttentionRowsKnobs &option,
                        TargetAttr target) const override {
    if (option.rowsPerThread == 1)
      return success();
    if (llvm::errorToBool(checkRows(kernel, target, option.rowsPerThread)))
      return failure();
    jamRows(kernel, option.rowsPerThread);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createAttentionRowsRule() {
  return std::make_unique<AttentionRows>();
}
