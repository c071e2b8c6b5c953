//===- HoistInvariants.cpp - Loop-invariant code motion in dloop -*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"
#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/DenseSet.h"

namespace deplodock::dloop {
#define GEN_PASS_DEF_DLOOPHOISTINVARIANTS
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"
} // namespace deplodock::dloop

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

bool deplodock::dloop::isReadOnlyComputation(Operation *op, KernelOp kernel) {
  // Loads of buffers the kernel never writes may move or merge: no store in
  // between changes what they read.
  auto inputs = kernel.getInputArgs();
  WalkResult result = op->walk([&](Operation *nested) {
    if (auto load = dyn_cast<LoadOp>(nested))
      return llvm::is_contained(inputs, load.getMemRef())
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    if (isa<ForOp, YieldOp, scf::IfOp, scf::YieldOp>(nested) ||
        isMemoryEffectFree(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

size_t deplodock::dloop::hoistLoopInvariants(KernelOp kernel) {
  auto isHoistable = [&](Operation *op) {
    return isReadOnlyComputation(op, kernel);
  };
  SmallVector<ForOp> loops;
  kernel.walk<WalkOrder::PostOrder>([&](ForOp loop) { loops.push_back(loop); });
  size_t moved = 0;
  for (ForOp loop : loops)
    moved += moveLoopInvariantCode(
        {&loop.getRegion()},
        [&](Value value, Region *) { return loop.isDefinedOutsideOfLoop(value); },
        [&](Operation *op, Region *) { return isHoistable(op); },
        [&](Operation *op, Region *) { loop.moveOutOfLoop(op); });
  return moved;
}

namespace {
struct DLoopHoistInvariantsPass final
    : deplodock::dloop::impl::DLoopHoistInvariantsBase<DLoopHoistInvariantsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([](KernelOp kernel) { hoistLoopInvariants(kernel); });
  }
};
} // namespace
