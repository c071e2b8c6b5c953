//===- DeviceInfo.h - The fingerprint of a GPU and its toolchain -*- C++
//-*-===//
//
// What a measurement depends on besides the kernel: the GPU model and its
// resources, the driver, the CUDA version it supports and the NVRTC that
// compiled the kernel. The tuner keys its database by a hash of it (see
// Tuner/DeviceContext.h); the runtime knows nothing of the tuner.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_DEVICEINFO_H
#define DEPLODOCK_RUNTIME_DEVICEINFO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>

namespace deplodock::runtime {

/// The fingerprint of one GPU, as the worker reports it.
struct DeviceInfo {
  std::string name;
  int64_t ordinal = 0;
  int64_t ccMajor = 0;
  int64_t ccMinor = 0;
  int64_t smCount = 0;
  int64_t l2Bytes = 0;
  int64_t memoryBytes = 0;
  /// The most dynamic shared memory a block can opt into.
  int64_t smemPerBlockOptin = 0;
  /// The kernel driver's version ("580.65.06"), when it can be read.
  std::string driverVersion;
  /// The CUDA version the driver supports ("13.0", cuDriverGetVersion).
  std::string cudaVersion;
  /// The NVRTC that compiles ("13.0"), or empty when none was loaded.
  std::string nvrtcVersion;
  /// The device's UUID; not part of the context key, so that identical
  /// GPUs share tuning results.
  std::string uuid;
  /// Whether this is the fake device of the tests.
  bool fake = false;

  /// "sm_90" for compute capability 9.0.
  std::string arch() const;
};

llvm::json::Value toJSON(const DeviceInfo &info);
bool fromJSON(const llvm::json::Value &value, DeviceInfo &info,
              llvm::json::Path path);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_DEVICEINFO_H
