//===- Barriers.cpp - Barriers around stage copies --------------*- C++ -*-===//
//
// A stage overwrites its slab: it needs a barrier before its copies unless
// nothing since the last one can still read the slab, and one after them
// unless the next stage puts it after both.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

/// Whether `stage`, directly in the body of `loop`, fills slot (k + c) mod N
/// of its N >= 2 slabs at iteration k, and a barrier follows it in every
/// iteration (its own after a sync copy, an async wait's otherwise). Then
/// the readers of the slot it fills (iteration k - N or earlier) all passed
/// the previous iteration's barrier, and only what precedes the loop can
/// still conflict with the copy.
static bool isFencedRotation(dtile::StageOp stage, dloop::ForOp loop) {
  int64_t buffers = stage.getBuffers();
  auto apply = stage.getSlot()
                   ? stage.getSlot().getDefiningOp<affine::AffineApplyOp>()
                   : nullptr;
  if (buffers < 2 || stage->getParentOp() != loop || !apply ||
      apply.getMapOperands().size() != 1 ||
      apply.getMapOperands()[0] != loop.getInductionVar())
    return false;
  // (d0 + c) mod N
  auto mod = dyn_cast<AffineBinaryOpExpr>(apply.getAffineMap().getResult(0));
  auto divisor =
      mod ? dyn_cast<AffineConstantExpr>(mod.getRHS()) : AffineConstantExpr();
  if (!mod || mod.getKind() != AffineExprKind::Mod || !divisor ||
      divisor.getValue() != buffers)
    return false;
  AffineExpr k = mod.getLHS();
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(k);
      sum && sum.getKind() == AffineExprKind::Add &&
      isa<AffineConstantExpr>(sum.getRHS()))
    k = sum.getLHS();
  if (k != getAffineDimExpr(0, stage.getContext()))
    return false;
  if (dtile::isSynchronous(stage.getTransport()))
    return true;
  for (Operation *next = stage->getNextNode(); next; next = next->getNextNode())
    if (isa<dtile::AsyncWaitOp>(next))
      return waitEndsWithBarrier(next);
  return false;
}

/// Whether the block must synchronise before the stage `op` overwrites its
/// slab: some thread may still read it, or read global memory written before.
/// Walking back in program order, nothing but pure ops and other stages'
/// copies since the last barrier (or the start of the tile) means no.
bool lowering::needsBarrierBefore(Operation *op) {
  Operation *cursor = op;
  while (true) {
    if (Operation *prev = cursor->getPrevNode()) {
      cursor = prev;
      // A stage just before either needed no barrier (then neither do we:
      // the walk back from it is ours) or put one before its copies.
      if (isa<dtile::StageOp>(prev))
        return false;
      // An async wait ends with a barrier, but before warpgroup MMAs.
      if (isa<dtile::AsyncWaitOp>(prev))
        return !waitEndsWithBarrier(prev);
      if (isMemoryEffectFree(prev))
        continue;
      return true;
    }
    Operation *parent = cursor->getParentOp();
    // Nothing ran before the tile body but constants.
    if (isa<dtile::TileOp>(parent))
      return false;
    // A loop: the previous iteration may still read, unless the stage's
    // slots rotate behind a barrier; then what precedes the loop decides.
    auto loop = dyn_cast<dloop::ForOp>(parent);
    auto stage = dyn_cast<dtile::StageOp>(op);
    if (!isa<scf::IfOp>(parent) &&
        !(loop && stage && isFencedRotation(stage, loop)))
      return true;
    cursor = parent;
  }
}

/// Whether the next op after `op`, past pure ops, is a sync stage: it then
/// puts the barrier after both copies.
bool lowering::nextIsSyncStage(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto stage = dyn_cast<dtile::StageOp>(next))
      return dtile::isSynchronous(stage.getTransport());
    if (!isMemoryEffectFree(next))
      return false;
  }
  return false;
}

bool lowering::waitEndsWithBarrier(Operation *wait) {
  for (Operation *next = wait->getNextNode(); next;
       next = next->getNextNode()) {
    if (isa<dkernel::WgmmaFenceOp>(next))
      return false;
    if (!isMemoryEffectFree(next))
      return true;
  }
  return true;
}
