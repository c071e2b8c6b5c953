//===- GpuTarget.h - The GPUs the compiler targets --------------*- C++ -*-===//
//
// The table GpuTargets.td declares, in plain C++ so that the runtime (which
// links no MLIR) reads the same description as the compiler. In IR a target
// is the `#dkernel.target` attribute on the module (DKernel/IR/Target.h),
// built from an entry of this table.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_GPUTARGET_H
#define DEPLODOCK_DIALECT_COMMON_GPUTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace deplodock {

#define GET_GPU_FEATURE_ENUM
#include "Deplodock/Dialect/Common/GpuTargets.h.inc"

/// A feature: its name (`cp_async`) and what it offers.
struct GpuFeatureInfo {
  GpuFeature feature;
  llvm::StringLiteral name;
  llvm::StringLiteral summary;
};

/// One GPU target: see GpuTarget in GpuTargets.td for each field.
struct GpuTargetSpec {
  llvm::StringLiteral name;
  llvm::StringLiteral referenceGpu;
  int64_t capability;
  int64_t smCount;
  int64_t smemPerBlock;
  int64_t smemPerSM;
  int64_t threadsPerBlock;
  int64_t threadsPerSM;
  int64_t blocksPerSM;
  int64_t registersPerSM;
  int64_t registersPerThread;
  int64_t warpSize;
  int64_t l2Bytes;
  /// Code for it runs only on this capability: compilers are given the
  /// target's name (sm_90a), not the device's sm_NN.
  bool archSpecific;
  /// The GpuFeature bits of the target.
  uint32_t features;

  bool has(GpuFeature feature) const {
    return features & static_cast<uint32_t>(feature);
  }
};

/// The target the tools lower for when told none.
inline constexpr llvm::StringLiteral kDefaultGpuTarget = "sm_90";

/// Registers a thread holds besides its private arrays (indices, pointers,
/// running values): an assumption the cost model and the Tile rules that
/// size private rows to the register file share.
inline constexpr int64_t kBaseThreadRegisters = 24;

/// Every target, by name.
llvm::ArrayRef<GpuTargetSpec> getGpuTargets();
/// The target called `name` (`sm_90`), or null.
const GpuTargetSpec *lookupGpuTarget(llvm::StringRef name);
/// The `--gpu-architecture=` NVRTC compiles `target` with when it differs
/// from the device's plain one (an arch-specific target: sm_90a), else
/// nothing.
std::optional<std::string> getArchOption(llvm::StringRef target);
/// "sm_80, sm_90 or sm_90a": the names, for diagnostics.
std::string listGpuTargets();

/// Every feature, in bit order.
llvm::ArrayRef<GpuFeatureInfo> getGpuFeatures();
/// The name of `feature` (`cp_async`).
llvm::StringRef stringifyGpuFeature(GpuFeature feature);
/// The feature called `name`, if any.
std::optional<GpuFeature> symbolizeGpuFeature(llvm::StringRef name);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_GPUTARGET_H
