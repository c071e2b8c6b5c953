//===- DeviceContextTest.cpp - Context keys of real GPUs ------------------===//

#include "Deplodock/Tuner/DeviceContext.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;
using namespace deplodock::tuner;

namespace {

/// An H100 as the bench worker reports it.
DeviceInfo h100() {
  llvm::json::Value report =
      llvm::json::Object{{"name", "NVIDIA H100 80GB HBM3"},
                         {"cc_major", 9},
                         {"cc_minor", 0},
                         {"sm_count", 132},
                         {"l2_bytes", 50 << 20},
                         {"driver_version", "580.65.06"},
                         {"cuda_version", "13.0"},
                         {"nvrtc_version", "13.0"},
                         {"uuid", "GPU-1"}};
  DeviceInfo info;
  llvm::json::Path::Root root;
  EXPECT_TRUE(fromJSON(report, info, root));
  return info;
}

TEST(DeviceContext, KeysHashEveryFingerprintField) {
  DeviceContext base = makeDeviceContext(h100(), "dd 1");
  EXPECT_EQ(base.key.size(), 64u);
  EXPECT_EQ(base.key, computeContextKey(base));
  EXPECT_EQ(base.gpuName, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(base.compilerVersion, "dd 1");
  // The same fingerprint on another machine (another UUID): the same key.
  DeviceInfo twin = h100();
  twin.uuid = "GPU-2";
  twin.ordinal = 3;
  EXPECT_EQ(makeDeviceContext(twin, "dd 1").key, base.key);
  // Any other field: another key.
  std::vector<std::string> keys = {base.key};
  auto vary = [&](auto edit) {
    DeviceInfo info = h100();
    std::string compiler = "dd 1";
    llvm::json::Object extra;
    edit(info, compiler, extra);
    keys.push_back(makeDeviceContext(info, compiler, std::move(extra)).key);
  };
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.name = "NVIDIA H200";
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.ccMinor = 1;
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.smCount = 114;
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.l2Bytes = 1;
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.driverVersion = "570.1";
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.cudaVersion = "12.8";
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.nvrtcVersion = "12.8";
  });
  vary([](DeviceInfo &, std::string &c, llvm::json::Object &) { c = "dd 2"; });
  vary([](DeviceInfo &, std::string &, llvm::json::Object &e) {
    e["flags"] = "-O3";
  });
  vary([](DeviceInfo &i, std::string &, llvm::json::Object &) {
    i.fake = true;
  });
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end());
  DeviceInfo fake = h100();
  fake.fake = true;
  EXPECT_EQ(makeDeviceContext(fake, "x").extra.getBoolean("fake_device"), true);
}

} // namespace
