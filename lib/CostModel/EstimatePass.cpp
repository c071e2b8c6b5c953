//===- EstimatePass.cpp - Report the model's estimate of each kernel ------===//

#include "Deplodock/CostModel/Passes.h"
#include "Deplodock/CostModel/RooflineModel.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "llvm/Support/Format.h"

namespace deplodock::costmodel {
#define GEN_PASS_DEF_DKERNELESTIMATE
#include "Deplodock/CostModel/Passes.h.inc"
} // namespace deplodock::costmodel

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

namespace {

/// Every bound, so a reader sees how far the others are from the one that
/// decides.
std::string describeBounds(const RooflineEstimate &e) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("compute %.2f, tensor %.2f, l2 %.2f, dram %.2f, "
                     "shared %.2f, latency %.2f us",
                     e.computeUs, e.tensorUs, e.l2Us, e.dramUs, e.sharedUs,
                     e.latencyUs);
  return text;
}

struct DKernelEstimatePass
    : public costmodel::impl::DKernelEstimateBase<DKernelEstimatePass> {
  using DKernelEstimateBase::DKernelEstimateBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<dkernel::TargetAttr> resolved =
        dkernel::resolveTarget(module, target);
    if (failed(resolved))
      return signalPassFailure();
    FailureOr<DeviceModel> device = getDeviceModel(resolved->getName());
    if (failed(device)) {
      module.emitError() << "the cost model has no reference GPU for target '"
                         << resolved->getName() << "'";
      return signalPassFailure();
    }
    module.walk([&](dkernel::FuncOp kernel) {
      RooflineEstimate e = estimateLatency(profileKernel(kernel), *device);
      if (!e.launchable) {
        kernel.emitRemark()
            << "estimate of @" << kernel.getSymName() << ": " << e.describe();
        return;
      }
      kernel.emitRemark() << "estimate of @" << kernel.getSymName() << ": "
                          << e.describe() << "; " << describeBounds(e);
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
