//===- VectorRuns.cpp - Accesses that make one aligned vector ---*- C++ -*-===//

#include "VectorRuns.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// An access as a run member: its buffer, map and operands.
struct Access {
  Operation *op;
  Value buffer;
  AffineMap map;
  OperandRange indices;
};

std::optional<Access> getAccess(Operation *op, bool stores) {
  if (!stores)
    if (auto load = dyn_cast<dloop::LoadOp>(op))
      return Access{op, load.getMemref(), load.getMap(), load.getIndices()};
  if (stores)
    if (auto store = dyn_cast<dloop::StoreOp>(op); store && !store.isReducing())
      return Access{op, store.getMemref(), store.getMap(), store.getIndices()};
  return std::nullopt;
}

/// What the members of one run share: the block, buffer, operands, the
/// outer index expressions and the innermost coefficients.
using RunKey = std::vector<std::pair<const void *, int64_t>>;

/// The guard of a store that is alone in an `scf.if` but for effect-free
/// ops (as masking leaves each store of a tile that overhangs its extent,
/// with the conversion of its value): stores under the same condition in
/// one block may make one run, placed under the last one's guard once the
/// others' effect-free ops moved out of theirs.
scf::IfOp soleGuard(Operation *store) {
  auto guard = dyn_cast_or_null<scf::IfOp>(store->getParentOp());
  if (!guard || guard.elseBlock() || guard.getNumResults() != 0 ||
      store->getNextNode() != guard.thenBlock()->getTerminator())
    return {};
  for (Operation &op : *guard.thenBlock())
    if (&op != store && !op.hasTrait<OpTrait::IsTerminator>() &&
        (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
      return {};
  return guard;
}

/// Whether `op` is a load of one of `kernel`'s inputs.
bool readsInput(KernelOp kernel, Operation *op) {
  auto load = dyn_cast<dloop::LoadOp>(op);
  return load && llvm::is_contained(kernel.getInputArgs(), load.getMemref());
}

/// Where a run member sits in its run's block: its guard, or itself.
Operation *anchorOf(Operation *op) {
  if (isa<dloop::StoreOp>(op))
    if (scf::IfOp guard = soleGuard(op))
      return guard;
  return op;
}

} // namespace

SmallVector<int64_t, 3> dtile::vectorWidths(Type element, int64_t minBytes) {
  int64_t bytes = dkernel::getScalarBytes(element);
  SmallVector<int64_t, 3> widths;
  for (int64_t run : {16, 8, 4})
    if (run >= minBytes && bytes > 0 && run % bytes == 0 && run / bytes >= 2)
      widths.push_back(run / bytes);
  return widths;
}

bool dtile::isAlignedGlobalBuffer(KernelOp kernel, Value buffer, int64_t width,
                                  int64_t minBytes) {
  auto arg = dyn_cast<BlockArgument>(buffer);
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return arg && arg.getOwner()->getParentOp() == kernel.getOperation() &&
         type && type.hasStaticShape() && type.getLayout().isIdentity() &&
         dkernel::isGlobalMemory(type) && type.getRank() > 0 &&
         type.getShape().back() % width == 0 &&
         llvm::is_contained(vectorWidths(type.getElementType(), minBytes),
                            width);
}

SmallVector<VectorRun> dtile::findVectorRuns(KernelOp kernel, bool stores,
                                             int64_t width,
                                             function_ref<bool(Value)> accept) {
  // Members by key, then by innermost constant (the first of duplicates).
  std::map<RunKey, std::map<int64_t, Operation *>> byKey;
  kernel.walk([&](Operation *op) {
    std::optional<Access> access = getAccess(op, stores);
    if (!access || !accept(access->buffer) || access->map.getNumResults() == 0)
      return;
    AffineMap map = access->map;
    std::optional<AffineTerms> terms = splitAffineExpr(
        map.getResults().back(), map.getNumDims(), map.getNumSymbols());
    if (!terms)
      return;
    // Coefficients by operand value: one value may fill several positions.
    // A non-linear term is keyed by its expression (the operands, also in
    // the key, give it its value).
    std::map<const void *, int64_t> byValue;
    for (auto [term, coeff] : terms->nonlinear)
      byValue[term.getAsOpaquePointer()] += coeff;
    for (auto [i, operand] : llvm::enumerate(access->indices))
      byValue[operand.getAsOpaquePointer()] += terms->coeffs[i];
    Operation *anchor = anchorOf(op);
    RunKey key{{anchor->getBlock(), 0},
               {access->buffer.getAsOpaquePointer(), 0}};
    if (anchor != op)
      key.push_back(
          {cast<scf::IfOp>(anchor).getCondition().getAsOpaquePointer(), -2});
    for (auto [value, coeff] : byValue) {
      if (coeff % width != 0)
        return;
      key.push_back({value, coeff});
    }
    for (AffineExpr outer : map.getResults().drop_back())
      key.push_back({outer.getAsOpaquePointer(), 0});
    for (Value operand : access->indices)
      key.push_back({operand.getAsOpaquePointer(), -1});
    byKey[key].try_emplace(terms->constant, op);
  });
  SmallVector<VectorRun> runs;
  for (auto &[key, members] : byKey)
    for (auto [constant, first] : members) {
      if (((constant % width) + width) % width != 0)
        continue;
      VectorRun run;
      for (int64_t k = 0; k < width; ++k) {
        auto it = members.find(constant + k);
        if (it == members.end())
          break;
        run.push_back(it->second);
      }
      if (static_cast<int64_t>(run.size()) != width)
        continue;
      // Only effect-free ops and reads of the kernel's inputs (which it
      // never writes: a scaled epilogue's scale factors) between the first
      // and the last member (or their guards).
      SmallVector<Operation *, 8> anchors = llvm::map_to_vector(run, anchorOf);
      auto [lo, hi] = std::minmax_element(
          anchors.begin(), anchors.end(),
          [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
      // (All members share a block: the key holds it.)
      llvm::SmallPtrSet<Operation *, 8> inRun(anchors.begin(), anchors.end());
      bool clean = true;
      for (Operation *op = (*lo)->getNextNode(); op && op != *hi;
           op = op->getNextNode())
        clean &= inRun.contains(op) || isMemoryEffectFree(op) ||
                 readsInput(kernel, op);
      if (clean)
        runs.push_back(std::move(run));
    }
  return runs;
}

/// The indices of `access` as values at `b`'s insertion point: one
/// affine.apply per map result.
static SmallVector<Value> materialize(OpBuilder &b, Location loc,
                                      const Access &access) {
  SmallVector<Value> indices;
  for (AffineExpr expr : access.map.getResults())
    indices.push_back(affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(access.map.getNumDims(), access.map.getNumSymbols(),
                       expr),
        access.indices));
  return indices;
}

void dtile::rewriteVectorRuns(ArrayRef<VectorRun> runs) {
  for (const VectorRun &run : runs) {
    bool stores = isa<dloop::StoreOp>(run.front());
    auto before = [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    };
    // A store run goes where its last member is, under that one's guard
    // when they are guarded alike.
    Operation *at =
        stores ? *llvm::max_element(run,
                                    [&](Operation *a, Operation *b) {
                                      return before(anchorOf(a), anchorOf(b));
                                    })
               : *llvm::min_element(run, before);
    // Guarded stores' values may be computed under their guards: those
    // effect-free ops move out, ahead of the guard, so that the run's
    // values reach the last one.
    if (stores)
      for (Operation *op : run)
        if (scf::IfOp guard = soleGuard(op))
          for (Operation &inner : llvm::make_early_inc_range(
                   guard.thenBlock()->without_terminator()))
            if (&inner != op)
              inner.moveBefore(guard);
    OpBuilder b(at);
    Access first = *getAccess(run.front(), stores);
    SmallVector<Value> indices = materialize(b, at->getLoc(), first);
    if (stores) {
      SmallVector<Value> values;
      for (Operation *op : run)
        values.push_back(cast<dloop::StoreOp>(op).getValue());
      dkernel::VectorStoreOp::create(b, at->getLoc(), values, first.buffer,
                                     indices);
    } else {
      SmallVector<Type> types(run.size(), run.front()->getResult(0).getType());
      auto load = dkernel::VectorLoadOp::create(b, at->getLoc(), types,
                                                first.buffer, indices);
      for (auto [op, result] : llvm::zip(run, load.getResults()))
        op->getResult(0).replaceAllUsesWith(result);
    }
    for (Operation *op : run) {
      // A guard left with nothing to guard goes with its store.
      auto guard = dyn_cast<scf::IfOp>(op->getParentOp());
      op->erase();
      if (guard && guard.thenBlock()->getOperations().size() == 1 &&
          !guard.elseBlock() && guard.getNumResults() == 0)
        guard.erase();
    }
  }
}
