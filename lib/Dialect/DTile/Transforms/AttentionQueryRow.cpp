//===- AttentionQueryRow.cpp - An attention row's query in registers ------===//
//
// In the online-softmax kernel each key's score q.k reads the whole query
// row again from global memory: a strided, uncoalesced load per head
// element per key. FlashAttention keeps the row in registers; here it goes
// to a private buffer over the head dimension, filled once before the key
// loop, which mark_unroll's full unroll of the loops indexing it keeps in
// registers. The values and the order of the arithmetic are unchanged.
//
//===----------------------------------------------------------------------===//

#include "AttentionQueryRow.h"
#include "TileUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Whether anything in `root` writes `memref`.
bool isWritten(Operation *root, Value memref) {
  return root
      ->walk([&](dloop::StoreOp store) {
        return store.getMemRef() == memref ? WalkResult::interrupt()
                                           : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op`, directly in the body of `inner` (inside `keys`), computes
/// the same value for every key: it reads memory only by dloop.load of a
/// buffer nothing writes, and every value it uses is `inner`'s variable,
/// defined outside `keys`, or computed inside `op`; and it reads at least
/// once through `inner`'s variable.
bool isKeyInvariantRow(Operation *op, dloop::ForOp inner, dloop::ForOp keys,
                       Operation *kernel) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrFloat())
    return false;
  bool readsRow = false;
  WalkResult result = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Operation *def = operand.getDefiningOp();
      Region *region = operand.getParentRegion();
      bool inside = def ? op->isAncestor(def)
                        : op->isProperAncestor(region->getParentOp());
      if (operand != inner.getInductionVar() &&
          !keys.isDefinedOutsideOfLoop(operand) && !inside)
        return WalkResult::interrupt();
    }
    if (auto load = dyn_cast<dloop::LoadOp>(nested)) {
      if (load.getMemRef().getDefiningOp<memref::AllocaOp>() ||
          isWritten(kernel, load.getMemRef()))
        return WalkResult::interrupt();
      readsRow |=
          llvm::is_contained(load.getIndices(), inner.getInductionVar());
      return WalkResult::advance();
    }
    if (isa<scf::IfOp, scf::YieldOp>(nested) || isMemoryEffectFree(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted() || !readsRow)
    return false;
  // A guard around `op` inside `keys` that does not depend on the key (a row
  // mask) may be what keeps the read in bounds: the fill before `keys`
  // would drop it. Guards on the key do not: the read does not use the key.
  for (Operation *parent = op->getParentOp(); parent != keys;
       parent = parent->getParentOp())
    if (auto guard = dyn_cast<scf::IfOp>(parent);
        guard && keys.isDefinedOutsideOfLoop(guard.getCondition()))
      return false;
  return true;
}

} // namespace

unsigned dtile::hoistKeyInvariantRows(dloop::ForOp keys) {
  Operation *kernel = keys->getParentOfType<KernelOp>();
  if (!kernel)
    return 0;
  SmallVector<std::pair<Operation *, dloop::ForOp>> rows;
  keys->walk([&](dloop::ForOp inner) {
    if (inner == keys || inner.getExtent() > kMaxPrivateUnroll)
      return;
    for (Operation &op : inner.getBody()->without_terminator())
      if (op.getNumRegions() > 0 || isa<dloop::LoadOp>(op))
        if (isKeyInvariantRow(&op, inner, keys, kernel))
          rows.push_back({&op, inner});
  });
  for (auto [rowOp, rowLoop] : rows) {
    Operation *op = rowOp;
    dloop::ForOp inner = rowLoop;
    OpBuilder b(keys);
    Location loc = op->getLoc();
    Value result = op->getResult(0);
    auto type = MemRefType::get({inner.getExtent()}, result.getType());
    Value buffer = memref::AllocaOp::create(b, loc, type);
    dloop::ForOp::create(b, loc, inner.getExtent(), LoopKind::free,
                         (inner.getAxis() + "_row").str(), ValueRange{},
                         [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
                           IRMapping map;
                           map.map(inner.getInductionVar(), i);
                           Operation *copy = fb.clone(*op, map);
                           dloop::StoreOp::create(fb, fl, copy->getResult(0),
                                                  buffer, ValueRange{i});
                           dloop::YieldOp::create(fb, fl, ValueRange{});
                         });
    b.setInsertionPoint(op);
    Value read = dloop::LoadOp::create(b, loc, buffer,
                                       ValueRange{inner.getInductionVar()});
    result.replaceAllUsesWith(read);
    op->erase();
  }
  return rows.size();
}
