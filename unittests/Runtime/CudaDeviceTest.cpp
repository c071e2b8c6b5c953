//===- CudaDeviceTest.cpp - One request on a real GPU ---------------------===//
//
// The CUDA device end to end: NVRTC, module loading, buffers, launches,
// verification and timing. Skipped where there is no GPU (the fake device's
// tests cover the logic everywhere).
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Worker.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;

namespace {

/// The GPU, or null (and the reason) where there is none.
std::unique_ptr<Device> cudaDeviceOrSkip(std::string &why) {
  llvm::Expected<std::unique_ptr<Device>> device = createCudaDevice({});
  if (!device) {
    why = llvm::toString(device.takeError());
    return nullptr;
  }
  return std::move(*device);
}

/// y = 2 * x over 1000 elements, in blocks of 128 threads; y is checked
/// against `factor` * x.
BenchRequest scaleRequest(float factor) {
  BenchRequest request;
  request.source =
      "extern \"C\" __global__ void scale(const float* x, float* y) {\n"
      "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < 1000) y[i] = 2.0f * x[i];\n"
      "}\n";
  BufferSpec x, y;
  x.name = "x";
  x.shape = {1000};
  x.init = InitKind::Data;
  y.name = "y";
  y.shape = {1000};
  std::vector<uint8_t> expected(4000);
  x.data.resize(4000);
  for (int i = 0; i < 1000; ++i) {
    writeElement(DType::F32, x.data.data(), i, i * 0.25);
    writeElement(DType::F32, expected.data(), i, factor * i * 0.25);
  }
  request.buffers = {x, y};
  LaunchSpec launch;
  launch.kernel = "scale";
  launch.grid = {8, 1, 1};
  launch.block = {128, 1, 1};
  launch.params = {{0, std::nullopt}, {1, std::nullopt}};
  request.launches = {launch};
  request.outputs.push_back({1, std::nullopt, expected});
  request.timing.warmupMs = 1;
  request.timing.maxTimeMs = 20;
  return request;
}

TEST(CudaDevice, CompilesRunsVerifiesAndTimes) {
  std::string why;
  std::unique_ptr<Device> device = cudaDeviceOrSkip(why);
  if (!device)
    GTEST_SKIP() << why;
  EXPECT_FALSE(device->getInfo().fake);
  EXPECT_GT(device->getInfo().smCount, 0);
  bool fatal = false;
  llvm::Expected<BenchResult> result = runBench(
      *device, scaleRequest(2), [](llvm::StringRef) {}, fatal);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, BenchStatus::Ok) << result->detail;
  EXPECT_TRUE(result->verified);
  ASSERT_EQ(result->kernels.size(), 1u);
  EXPECT_GT(result->kernels[0].registers, 0);
  ASSERT_NE(result->timing(-1), nullptr);
  EXPECT_GT(result->timing(-1)->stats.medianUs, 0);
  EXPECT_FALSE(fatal);
}

TEST(CudaDevice, WrongResultsAreCaught) {
  std::string why;
  std::unique_ptr<Device> device = cudaDeviceOrSkip(why);
  if (!device)
    GTEST_SKIP() << why;
  bool fatal = false;
  llvm::Expected<BenchResult> result = runBench(
      *device, scaleRequest(3), [](llvm::StringRef) {}, fatal);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, BenchStatus::WrongResult);
  EXPECT_TRUE(result->timings.empty());
}

TEST(CudaDevice, CompileErrorsAreTheVariantsFailure) {
  std::string why;
  std::unique_ptr<Device> device = cudaDeviceOrSkip(why);
  if (!device)
    GTEST_SKIP() << why;
  BenchRequest request = scaleRequest(2);
  request.source = "extern \"C\" __global__ void scale(float* x) { nope(); }";
  bool fatal = false;
  llvm::Expected<BenchResult> result = runBench(
      *device, request, [](llvm::StringRef) {}, fatal);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, BenchStatus::CompileFail);
  EXPECT_NE(result->detail.find("nope"), std::string::npos) << result->detail;
}

} // namespace
