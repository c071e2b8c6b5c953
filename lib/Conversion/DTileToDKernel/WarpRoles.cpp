//===- WarpRoles.cpp - Producer and consumer warpgroups ---------*- C++ -*-===//
//
// warp_specialize (the Tile rule of that name decides it): the block gets a
// producer warpgroup after the consumer warpgroups, whose thread ids stay
// those of the Tile IR. The tile body is lowered twice under a branch on
// the thread id. The consumers run it all but the copies: a TMA stage
// becomes each warp's release of its slot, a warp sync and one thread's
// arrival on the "empty" mbarrier (they are done with the slab there, as
// the lock-step kernel refills it there; TmaCopies.cpp) and an async wait
// the wait on the slot's "full" one, with no barrier. The producer runs
// only the stages and the loops and branches around them: its first thread
// waits for "empty" and issues the boxes (TmaCopies.cpp); everything that
// computes or stores is left to the consumers, its results zeros nobody
// reads. A barrier either role would need is an error: the other role
// never reaches it.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

LogicalResult KernelLowering::lowerRoles(dtile::TileOp tileOp) {
  Location loc = tileOp.getLoc();
  if (!mbarriers)
    return kernel.emitOpError("knob warp_specialize=true needs TMA stages; "
                              "the kernel has none");
  if (numThreads % kProducerThreads != 0)
    return kernel.emitOpError("knob warp_specialize=true needs whole "
                              "warpgroups; the block has ")
           << numThreads << " threads";
  std::optional<int64_t> registers = kernel.getKnobs().getSetmaxnreg();
  auto split =
      scf::IfOp::create(b, loc, TypeRange{}, cmpLt(loc, tid, numThreads),
                        /*withElseRegion=*/true);
  auto lowerAs = [&](Role as, Region &region) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(region.front().getTerminator());
    role = as;
    if (registers)
      dkernel::SetMaxNRegOp::create(
          b, loc,
          as == Role::Consumer ? dkernel::RegisterChange::inc
                               : dkernel::RegisterChange::dec,
          as == Role::Consumer ? *registers : kProducerRegisters);
    LogicalResult lowered = lowerOps(tileOp.getBody().front());
    role = Role::Block;
    return lowered;
  };
  if (failed(lowerAs(Role::Consumer, split.getThenRegion())) ||
      failed(lowerAs(Role::Producer, split.getElseRegion())))
    return failure();
  if (roleBarrier)
    return emitError(*roleBarrier)
           << "needs a block barrier, which a warp-specialised kernel "
              "(warp_specialize=true) cannot have: its producer and consumer "
              "warpgroups never meet there";
  return success();
}

FailureOr<bool> KernelLowering::leaveToConsumers(Operation *op) {
  // Control flow, index arithmetic and the stages are the producer's.
  if (isa<dtile::StageOp, dloop::ForOp, dtile::StridedForOp, scf::ForOp,
          scf::IfOp, affine::AffineApplyOp, arith::ConstantOp>(op))
    return false;
  if (isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) &&
      isMemoryEffectFree(op))
    return false;
  for (Value result : op->getResults()) {
    if (!isa<IntegerType, IndexType, FloatType>(result.getType()))
      return op->emitOpError("has a result of type ")
             << result.getType()
             << " the producer warpgroup of a warp-specialised kernel "
                "cannot stand in for";
    values.map(result,
               constant(cast<TypedAttr>(b.getZeroAttr(result.getType()))));
  }
  return true;
}
