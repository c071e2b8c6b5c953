//===- DeviceInfo.cpp - The fingerprint of a GPU and its toolchain --------===//

#include "Deplodock/Runtime/DeviceInfo.h"
#include "Deplodock/Tuner/TuneDb.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace deplodock::runtime;
using llvm::json::Object;
using llvm::json::Value;

std::string DeviceInfo::arch() const {
  return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
}

Value deplodock::runtime::toJSON(const DeviceInfo &info) {
  return Object{{"name", info.name},
                {"ordinal", info.ordinal},
                {"cc_major", info.ccMajor},
                {"cc_minor", info.ccMinor},
                {"arch", info.arch()},
                {"sm_count", info.smCount},
                {"l2_bytes", info.l2Bytes},
                {"memory_bytes", info.memoryBytes},
                {"smem_per_block_optin", info.smemPerBlockOptin},
                {"driver_version", info.driverVersion},
                {"cuda_version", info.cudaVersion},
                {"nvrtc_version", info.nvrtcVersion},
                {"uuid", info.uuid},
                {"fake", info.fake}};
}

bool deplodock::runtime::fromJSON(const Value &value, DeviceInfo &info,
                                  llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  return map && map.map("name", info.name) &&
         map.mapOptional("ordinal", info.ordinal) &&
         map.map("cc_major", info.ccMajor) &&
         map.map("cc_minor", info.ccMinor) &&
         map.map("sm_count", info.smCount) &&
         map.map("l2_bytes", info.l2Bytes) &&
         map.mapOptional("memory_bytes", info.memoryBytes) &&
         map.mapOptional("smem_per_block_optin", info.smemPerBlockOptin) &&
         map.mapOptional("driver_version", info.driverVersion) &&
         map.mapOptional("cuda_version", info.cudaVersion) &&
         map.mapOptional("nvrtc_version", info.nvrtcVersion) &&
         map.mapOptional("uuid", info.uuid) &&
         map.mapOptional("fake", info.fake);
}

deplodock::tuner::DeviceContext deplodock::runtime::makeDeviceContext(
    const DeviceInfo &info, llvm::StringRef compilerVersion, Object extra) {
  tuner::DeviceContext context;
  context.gpuName = info.name;
  context.ccMajor = info.ccMajor;
  context.ccMinor = info.ccMinor;
  context.smCount = info.smCount;
  context.l2Bytes = info.l2Bytes;
  context.driverVersion = info.driverVersion;
  context.cudaVersion = info.cudaVersion;
  context.nvrtcVersion = info.nvrtcVersion;
  context.compilerVersion = compilerVersion.str();
  if (info.fake)
    extra["fake_device"] = true;
  context.extra = std::move(extra);
  context.key = computeContextKey(context);
  return context;
}

std::string
deplodock::runtime::computeContextKey(const tuner::DeviceContext &context) {
  // llvm::json prints object keys sorted, so the text is canonical.
  Object fields{{"gpu_name", context.gpuName},
                {"cc_major", context.ccMajor},
                {"cc_minor", context.ccMinor},
                {"sm_count", context.smCount},
                {"l2_bytes", context.l2Bytes},
                {"driver_version", context.driverVersion},
                {"cuda_version", context.cudaVersion},
                {"nvrtc_version", context.nvrtcVersion},
                {"compiler_version", context.compilerVersion},
                {"extra", Object(context.extra)}};
  std::string text;
  llvm::raw_string_ostream(text) << Value(std::move(fields));
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}
