//===- GpuTarget.cpp - The GPUs the compiler targets ------------*- C++ -*-===//

#include "Deplodock/Dialect/Common/GpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace deplodock;

namespace {
#define GET_GPU_FEATURE_TABLE
#define GET_GPU_TARGET_TABLE
#include "Deplodock/Dialect/Common/GpuTargets.h.inc"
} // namespace

llvm::ArrayRef<GpuTargetSpec> deplodock::getGpuTargets() {
  return kGpuTargetTable;
}

const GpuTargetSpec *deplodock::lookupGpuTarget(llvm::StringRef name) {
  const GpuTargetSpec *it = llvm::find_if(
      kGpuTargetTable, [&](const GpuTargetSpec &t) { return t.name == name; });
  return it == std::end(kGpuTargetTable) ? nullptr : it;
}

std::optional<std::string> deplodock::getArchOption(llvm::StringRef target) {
  const GpuTargetSpec *spec = lookupGpuTarget(target);
  if (!spec || !spec->archSpecific)
    return std::nullopt;
  return ("--gpu-architecture=" + llvm::Twine(target)).str();
}

std::string deplodock::listGpuTargets() {
  std::string text;
  for (auto [i, target] : llvm::enumerate(kGpuTargetTable)) {
    if (i > 0)
      text += i + 1 == std::size(kGpuTargetTable) ? " or " : ", ";
    text += target.name;
  }
  return text;
}

llvm::ArrayRef<GpuFeatureInfo> deplodock::getGpuFeatures() {
  return kGpuFeatureTable;
}

llvm::StringRef deplodock::stringifyGpuFeature(GpuFeature feature) {
  for (const GpuFeatureInfo &info : kGpuFeatureTable)
    if (info.feature == feature)
      return info.name;
  return "";
}

std::optional<GpuFeature> deplodock::symbolizeGpuFeature(llvm::StringRef name) {
  for (const GpuFeatureInfo &info : kGpuFeatureTable)
    if (info.name == name)
      return info.feature;
  return std::nullopt;
}
