//===- ModelBackend.cpp - Roofline estimates as a backend -----------------===//

#include "Deplodock/Tuner/Backend.h"

#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Tuner/Replay.h"
#include "Deplodock/CostModel/RooflineModel.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;
using namespace deplodock::tuner;

namespace {

class ModelBackend : public Backend {
public:
  ModelBackend(DeviceModel device, bool tf32) : device(std::move(device)) {
    context.key = modelContextKey(this->device.target, tf32);
    context.gpuName = this->device.gpuName;
    context.ccMajor = this->device.capability / 10;
    context.ccMinor = this->device.capability % 10;
    context.smCount = this->device.numSMs;
    context.l2Bytes = this->device.l2Bytes;
    // Nothing ran: no driver, toolkit or compiler was involved.
    context.driverVersion = "none";
    context.cudaVersion = "none";
    context.nvrtcVersion = "none";
    context.compilerVersion = "deplodock roofline model";
    context.extra = llvm::json::Object{{"backend", "model"},
                                       {"model_version", kModelVersion},
                                       {"target", this->device.target}};
    if (tf32)
      markTf32(context.extra);
  }

  llvm::StringRef getName() const override { return "model"; }
  bool isEstimate() const override { return true; }
  const DeviceContext &getContext() const override { return context; }

  llvm::Expected<BackendResult> measure(const Variant &variant) override {
    // Several kernels (a split through a workspace) run one after another.
    RooflineEstimate estimate = estimateKernels(variant.kernels, device);
    if (!estimate.launchable)
      return BackendResult::failure(MeasureStatus::LaunchFail,
                                    estimate.describe());
    return BackendResult::single(estimate.us,
                                 "estimated: " + estimate.describe());
  }

private:
  DeviceModel device;
  DeviceContext context;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>>
deplodock::tuner::createModelBackend(StringRef target, bool tf32) {
  FailureOr<DeviceModel> device = getDeviceModel(target);
  if (failed(device))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the model knows no target '" + target +
                                       "' (expected " + listGpuTargets() + ")");
  return std::unique_ptr<Backend>(new ModelBackend(std::move(*device), tf32));
}
