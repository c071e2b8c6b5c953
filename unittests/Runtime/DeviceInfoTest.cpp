//===- DeviceInfoTest.cpp - Fingerprints and the driver -------------------===//

#include "Deplodock/Runtime/DeviceInfo.h"
#include "Deplodock/Runtime/CudaDriver.h"

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
