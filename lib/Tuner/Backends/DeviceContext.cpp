//===- DeviceContext.cpp - The tuner's context of a real GPU ----*- C++ -*-===//

#include "Deplodock/Tuner/DeviceContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace deplodock;
using namespace deplodock::tuner;
using llvm::json::Object;
using llvm::json::Value;

DeviceContext tuner::makeDeviceContext(const runtime::DeviceInfo &info,
                                       llvm::StringRef compilerVersion,
                                       Object extra) {
  DeviceContext context;
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

std::string tuner::computeContextKey(const DeviceContext &context) {
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
