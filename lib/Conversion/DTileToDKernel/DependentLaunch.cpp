//===- DependentLaunch.cpp - Kernels that start before the last ends ------===//
//
// dkernel-dependent-launch: every kernel on a target with programmatic
// dependent launch waits for the grids before it first thing, and then lets
// the next grid start. The runtime launches such a kernel as a dependent of
// the one before, which hides most of the launch gap between the kernels of
// a layer without changing what any of them reads.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Conversion/Passes.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"

namespace deplodock {
#define GEN_PASS_DEF_DKERNELDEPENDENTLAUNCH
#include "Deplodock/Conversion/Passes.h.inc"
} // namespace deplodock

using namespace mlir;
using namespace deplodock;

namespace {
struct DKernelDependentLaunchPass
    : deplodock::impl::DKernelDependentLaunchBase<DKernelDependentLaunchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!dkernel::getTargetOrDefault(module).has(GpuFeature::dependent_launch))
      return;
    module.walk([](dkernel::FuncOp kernel) {
      if (kernel.waitsForPriorGrids())
        return;
      Block &body = kernel.getBody().front();
      auto b = OpBuilder::atBlockBegin(&body);
      Location loc = kernel.getLoc();
      dkernel::WaitPriorGridsOp::create(b, loc);
      dkernel::LaunchDependentsOp::create(b, loc);
    });
  }
};
} // namespace
