//===- DeviceInfo.cpp - The fingerprint of a GPU and its toolchain --------===//

#include "Deplodock/Runtime/DeviceInfo.h"

#include "llvm/ADT/StringExtras.h"
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
