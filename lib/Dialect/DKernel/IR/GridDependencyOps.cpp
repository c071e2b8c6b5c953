//===- GridDependencyOps.cpp - Programmatic dependent launch ----*- C++ -*-===//
//
// The ops that let a kernel start while the grid before it on the stream
// still runs (sm_90): its wait, and the signal that lets the next start.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

/// Fails unless the target of `op` can launch grids as dependents.
static LogicalResult verifyDependentLaunchTarget(Operation *op) {
  TargetAttr target = getTargetOrDefault(op);
  if (!target.has(GpuFeature::dependent_launch))
    return op->emitOpError("needs a target with programmatic dependent "
                           "launch, not ")
           << target.getName();
  return success();
}

LogicalResult WaitPriorGridsOp::verify() {
  // Every access before the wait could race with the grid before.
  for (Operation &before :
       llvm::make_range((*this)->getBlock()->begin(), (*this)->getIterator()))
    if (!isMemoryEffectFree(&before))
      return emitOpError("must come before every op that touches memory")
                 .attachNote(before.getLoc())
             << "this op touches memory before it";
  return verifyDependentLaunchTarget(*this);
}

LogicalResult LaunchDependentsOp::verify() {
  return verifyDependentLaunchTarget(*this);
}

bool FuncOp::waitsForPriorGrids() {
  return llvm::any_of(getBody().front(),
                      [](Operation &op) { return isa<WaitPriorGridsOp>(op); });
}
