//===- DeviceInfoTest.cpp - Fingerprints, context keys, the driver --------===//

#include "Deplodock/Runtime/DeviceInfo.h"
#include "Deplodock/Runtime/CudaDriver.h"
#include "Deplodock/Tuner/TuneDb.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;

namespace {

DeviceInfo h100() {
  DeviceInfo info;
  info.name = "NVIDIA H100 80GB HBM3";
  info.ccMajor = 9;
  info.ccMinor = 0;
  info.smCount = 132;
  info.l2Bytes = 50 << 20;
  info.memoryBytes = int64_t(80) << 30;
  info.driverVersion = "580.65.06";
  info.cudaVersion = "13.0";
  info.nvrtcVersion = "13.0";
  info.uuid = "GPU-1";
  return info;
}

TEST(DeviceInfo, JsonRoundTrip) {
  DeviceInfo info = h100();
  llvm::json::Value json = toJSON(info);
  EXPECT_EQ(*json.getAsObject()->getString("arch"), "sm_90");
  DeviceInfo back;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(json, back, root));
  EXPECT_EQ(back.name, info.name);
  EXPECT_EQ(back.l2Bytes, info.l2Bytes);
  EXPECT_EQ(back.driverVersion, info.driverVersion);
  EXPECT_EQ(back.uuid, info.uuid);
}

TEST(DeviceInfo, ContextKeysHashEveryFingerprintField) {
  deplodock::tuner::DeviceContext base = makeDeviceContext(h100(), "dd 1");
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

TEST(CudaDriver, StickyErrors) {
  EXPECT_TRUE(CudaDriver::isSticky(700));  // illegal address
  EXPECT_TRUE(CudaDriver::isSticky(719));  // launch failed
  EXPECT_FALSE(CudaDriver::isSticky(1));   // invalid value
  EXPECT_FALSE(CudaDriver::isSticky(701)); // too many resources requested
}

TEST(CudaDriver, DriverVersions) {
  llvm::SmallString<128> proc;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("nvidia", "version", proc));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(proc, ec);
    os << "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun "
          "Jul 27 07:09:58 UTC 2025\nGCC version:  gcc version 12.2.0\n";
  }
  EXPECT_EQ(readNvidiaDriverVersion("/usr/lib/libcuda.so.1", proc),
            "580.65.06");
  llvm::sys::fs::remove(proc);
  EXPECT_EQ(readNvidiaDriverVersion("/usr/lib/libcuda.so.570.86.15", proc),
            "570.86.15");
  EXPECT_EQ(readNvidiaDriverVersion("/usr/lib/libcuda.so.1", proc), "");
  EXPECT_EQ(readNvidiaDriverVersion("libcuda.so", proc), "");
}

} // namespace
