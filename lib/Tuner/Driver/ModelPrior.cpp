//===- ModelPrior.cpp - The roofline model as a search prior --------------===//

#include "ModelPrior.h"

#include "Deplodock/CostModel/RooflineModel.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/Variant.h"

#include <cmath>

using namespace deplodock;
using namespace deplodock::costmodel;
using namespace deplodock::tuner;

/// A standard normal number determined by `text` and `seed` (Box-Muller on
/// two uniforms taken from a SHA-256).
static double normalFrom(llvm::StringRef text, uint64_t seed) {
  std::string digest = sha256Hex(text.str() + "#" + std::to_string(seed));
  uint64_t a = std::stoull(digest.substr(0, 13), nullptr, 16);
  uint64_t b = std::stoull(digest.substr(13, 13), nullptr, 16);
  double u1 = (double(a) + 0.5) / double(uint64_t(1) << 52);
  double u2 = double(b) / double(uint64_t(1) << 52);
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

std::function<ForkTreeSpace::PriorTask(NodeId, const dtile::ForkCursor &)>
tuner::detail::makeModelPrior(const dtile::Target &target,
                              llvm::StringRef loopKey, double noise,
                              uint64_t seed) {
  mlir::FailureOr<DeviceModel> device = getDeviceModel(target.getName());
  if (mlir::failed(device))
    return nullptr;
  auto shared = std::make_shared<const DeviceModel>(std::move(*device));
  return [shared, target, loopKey = loopKey.str(), noise,
          seed](NodeId, const dtile::ForkCursor &cursor) {
    // The copy is taken here; the rest may run on a pool thread.
    auto variant = std::make_shared<Variant>(beginVariant(cursor, loopKey));
    return [shared, target, variant, noise, seed]() -> std::optional<double> {
      if (llvm::Error e = finishVariant(*variant, target)) {
        llvm::consumeError(std::move(e));
        return std::nullopt;
      }
      RooflineEstimate estimate = estimateKernels(variant->kernels, *shared);
      if (!estimate.launchable)
        return std::nullopt;
      double us = estimate.us;
      if (noise > 0)
        us *= std::exp(noise * normalFrom(variant->knobsText, seed));
      return us;
    };
  };
}
