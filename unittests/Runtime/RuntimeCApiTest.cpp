//===- RuntimeCApiTest.cpp - The C runtime API ----------------------------===//
//
// Deplodock/Runtime.h on the fake device (everywhere): loading, bindings,
// launches with host buffers, and every error with its status and message;
// and on a GPU where there is one (skipped otherwise): the kernels compute
// the right values on the caller's stream, with the zeroing before each
// launch.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime.h"
#include "Deplodock/Runtime/CudaDriver.h"
#include "Deplodock/Runtime/LayerManifest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace deplodock::runtime;

namespace {

constexpr int kN = 1000;

/// tmp = 2 * x; y = tmp * w[i % 4] + bias[i % 4] (bias a constant of the
/// layer); acc[j] = sum of tmp[i] with i % 4 == j (split-K style: atomics
/// into a buffer zeroed before the launch).
constexpr const char *kSource = R"cuda(
extern "C" __global__ void scale(const float* x, float* tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000) tmp[i] = 2.0f * x[i];
}
extern "C" __global__ void combine(const float* tmp, const float* w,
                                   const float* bias, float* y, float* acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000) {
    y[i] = tmp[i] * w[i % 4] + bias[i % 4];
    atomicAdd(&acc[i % 4], tmp[i]);
  }
}
)cuda";

BufferSpec buffer(std::string name, int64_t size) {
  BufferSpec spec;
  spec.name = std::move(name);
  spec.shape = {size};
  return spec;
}

/// The bias constant's contents.
constexpr float kBias[4] = {0.5f, -1, 2, 0};

/// Buffers x, w (arguments), acc, tmp, y (allocations; the function returns
/// y then acc, tmp is scratch) and bias (a constant): bindings x, w, y, acc.
LayerManifest sampleManifest() {
  LayerManifest manifest;
  manifest.function = "layer";
  BufferSpec bias = buffer("bias", 4);
  bias.init = InitKind::Data;
  bias.data.resize(sizeof(kBias));
  std::memcpy(bias.data.data(), kBias, sizeof(kBias));
  manifest.buffers = {buffer("x", kN),   buffer("w", 4),  buffer("acc", 4),
                      buffer("tmp", kN), buffer("y", kN), bias};
  manifest.numArguments = 2;
  manifest.results = {4, 2};
  LaunchSpec scale;
  scale.kernel = "scale";
  scale.grid = {8, 1, 1};
  scale.block = {128, 1, 1};
  scale.params = {{0, std::nullopt}, {3, std::nullopt}};
  scale.writes = {3};
  LaunchSpec combine;
  combine.kernel = "combine";
  combine.grid = {8, 1, 1};
  combine.block = {128, 1, 1};
  combine.params = {{3, std::nullopt},
                    {1, std::nullopt},
                    {5, std::nullopt},
                    {4, std::nullopt},
                    {2, std::nullopt}};
  combine.zero = {2};
  combine.writes = {4, 2};
  manifest.launches = {scale, combine};
  return manifest;
}

std::string manifestText(const LayerManifest &manifest = sampleManifest()) {
  return llvm::formatv("{0}", encodeManifest(manifest)).str();
}

/// The layer of `manifest` and `code` on `device`, or null (with the
/// status and message).
struct Loaded {
  DeplodockStatus status;
  std::string message;
  DeplodockLayer *layer = nullptr;
};
Loaded load(DeplodockDevice *device, const std::string &manifest,
            llvm::StringRef code) {
  Loaded loaded;
  loaded.status = deplodockLayerLoad(device, manifest.data(), manifest.size(),
                                     code.data(), code.size(), &loaded.layer);
  loaded.message = deplodockLastError();
  return loaded;
}

class FakeRuntime : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(deplodockFakeDeviceCreate(&device), DEPLODOCK_SUCCESS)
        << deplodockLastError();
  }
  void TearDown() override { deplodockDeviceDestroy(device); }
  DeplodockDevice *device = nullptr;
};

TEST(RuntimeCApi, Version) {
  EXPECT_TRUE(llvm::StringRef(deplodockVersion()).starts_with("Deplodock "))
      << deplodockVersion();
}

TEST_F(FakeRuntime, Bindings) {
  EXPECT_EQ(deplodockDeviceIsFake(device), 1);
  Loaded loaded = load(device, manifestText(), kSource);
  ASSERT_EQ(loaded.status, DEPLODOCK_SUCCESS) << loaded.message;
  DeplodockLayer *layer = loaded.layer;
  EXPECT_STREQ(deplodockLayerFunction(layer), "layer");
  ASSERT_EQ(deplodockLayerNumBindings(layer), 4u);
  const char *names[] = {"x", "w", "y", "acc"};
  for (size_t i = 0; i < 4; ++i) {
    DeplodockBinding binding;
    ASSERT_EQ(deplodockLayerGetBinding(layer, i, &binding), DEPLODOCK_SUCCESS);
    EXPECT_STREQ(binding.name, names[i]);
    EXPECT_STREQ(binding.dtype, "f32");
    EXPECT_EQ(binding.isOutput, i >= 2) << i;
    ASSERT_EQ(binding.rank, 1u);
    int64_t size = i == 1 || i == 3 ? 4 : kN;
    EXPECT_EQ(binding.shape[0], size);
    EXPECT_EQ(binding.bytes, uint64_t(size) * 4);
  }
  ASSERT_EQ(deplodockLayerNumResults(layer), 2u);
  size_t result = 99;
  ASSERT_EQ(deplodockLayerGetResult(layer, 0, &result), DEPLODOCK_SUCCESS);
  EXPECT_EQ(result, 2u);
  ASSERT_EQ(deplodockLayerGetResult(layer, 1, &result), DEPLODOCK_SUCCESS);
  EXPECT_EQ(result, 3u);

  DeplodockBinding binding;
  EXPECT_EQ(deplodockLayerGetBinding(layer, 4, &binding),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(deplodockLastError(),
               "deplodockLayerGetBinding: binding #4 of a layer with 4");
  EXPECT_EQ(deplodockLayerGetResult(layer, 2, &result),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(deplodockLastError(),
               "deplodockLayerGetResult: result #2 of a function with 2");
  deplodockLayerDestroy(layer);
}

/// Host buffers for the fake device: x and w filled, the outputs NaN.
struct HostBuffers {
  std::vector<float> x = std::vector<float>(kN), w = {1, 2, 3, 4},
                     y = std::vector<float>(kN, NAN),
                     acc = std::vector<float>(4, NAN);
  HostBuffers() {
    for (int i = 0; i < kN; ++i)
      x[i] = i * 0.25f;
  }
  std::vector<uint64_t> pointers() {
    return {reinterpret_cast<uint64_t>(x.data()),
            reinterpret_cast<uint64_t>(w.data()),
            reinterpret_cast<uint64_t>(y.data()),
            reinterpret_cast<uint64_t>(acc.data())};
  }
};

bool anyNaN(const std::vector<float> &values) {
  return llvm::any_of(values, [](float v) { return std::isnan(v); });
}

TEST_F(FakeRuntime, LaunchWritesTheOutputsFromTheInputs) {
  Loaded loaded = load(device, manifestText(), kSource);
  ASSERT_EQ(loaded.status, DEPLODOCK_SUCCESS) << loaded.message;
  HostBuffers first;
  std::vector<uint64_t> pointers = first.pointers();
  ASSERT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, pointers.data(), 4),
            DEPLODOCK_SUCCESS)
      << deplodockLastError();
  // The fake kernels write every output element, and no input.
  EXPECT_FALSE(anyNaN(first.y));
  EXPECT_FALSE(anyNaN(first.acc));
  HostBuffers untouched;
  EXPECT_EQ(first.x, untouched.x);
  EXPECT_EQ(first.w, untouched.w);

  // The same inputs give the same outputs, in other buffers too...
  HostBuffers second;
  pointers = second.pointers();
  ASSERT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, pointers.data(), 4),
            DEPLODOCK_SUCCESS)
      << deplodockLastError();
  EXPECT_EQ(second.y, first.y);
  EXPECT_EQ(second.acc, first.acc);
  // ...and other inputs other outputs: what a kernel writes depends on what
  // it reads, through the scratch buffer.
  second.x[7] += 1;
  ASSERT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, pointers.data(), 4),
            DEPLODOCK_SUCCESS)
      << deplodockLastError();
  EXPECT_NE(second.y, first.y);
  deplodockLayerDestroy(loaded.layer);

  // The constant is uploaded at load: other contents, other outputs.
  LayerManifest other = sampleManifest();
  other.buffers[5].data[0] ^= 1;
  Loaded changed = load(device, manifestText(other), kSource);
  ASSERT_EQ(changed.status, DEPLODOCK_SUCCESS) << changed.message;
  HostBuffers third;
  pointers = third.pointers();
  ASSERT_EQ(deplodockLayerLaunch(changed.layer, nullptr, pointers.data(), 4),
            DEPLODOCK_SUCCESS)
      << deplodockLastError();
  EXPECT_NE(third.y, first.y);
  deplodockLayerDestroy(changed.layer);
}

TEST_F(FakeRuntime, LaunchErrors) {
  Loaded loaded = load(device, manifestText(), kSource);
  ASSERT_EQ(loaded.status, DEPLODOCK_SUCCESS) << loaded.message;
  HostBuffers host;
  std::vector<uint64_t> pointers = host.pointers();
  EXPECT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, pointers.data(), 3),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(deplodockLastError(),
               "deplodockLayerLaunch: 3 buffers for a layer of 4");
  pointers[2] = 0;
  EXPECT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, pointers.data(), 4),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(deplodockLastError(), "deplodockLayerLaunch: buffer #2 is NULL");
  EXPECT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, nullptr, 4),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(deplodockLayerLaunch(nullptr, nullptr, pointers.data(), 4),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  deplodockLayerDestroy(loaded.layer);
  // Destroying nothing is fine.
  deplodockLayerDestroy(nullptr);
  deplodockDeviceDestroy(nullptr);
}

TEST_F(FakeRuntime, LoadErrors) {
  Loaded bad = load(device, "{\"format\": \"deplodock-layer\"}", kSource);
  EXPECT_EQ(bad.status, DEPLODOCK_ERROR_INVALID_MANIFEST);
  EXPECT_EQ(bad.message, "manifest version (none); this runtime reads "
                         "version 1");
  EXPECT_EQ(bad.layer, nullptr);

  // A kernel the source does not define.
  std::string source = kSource;
  source.replace(source.find("combine"), 7, "combina");
  Loaded missing = load(device, manifestText(), source);
  EXPECT_EQ(missing.status, DEPLODOCK_ERROR_COMPILE);
  EXPECT_EQ(missing.message, "looking up kernel 'combine' failed: "
                             "CUDA_ERROR_NOT_FOUND (named symbol not found)");

  // Kernels need code.
  Loaded empty = load(device, manifestText(), "");
  EXPECT_EQ(empty.status, DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(empty.message, "deplodockLayerLoad: the layer launches kernels, "
                           "but its code is empty");

  // More shared memory than the device has.
  LayerManifest greedy = sampleManifest();
  greedy.launches[1].smemBytes = 1 << 20;
  Loaded big = load(device, manifestText(greedy), kSource);
  EXPECT_EQ(big.status, DEPLODOCK_ERROR_LAUNCH);
  EXPECT_EQ(big.message, "kernel 'combine' needs 1048576 bytes of dynamic "
                         "shared memory; the device allows 232448");

  DeplodockLayer *layer = nullptr;
  EXPECT_EQ(deplodockLayerLoad(nullptr, "{}", 2, "", 0, &layer),
            DEPLODOCK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(deplodockLayerLoadFiles(device, "/nonexistent/layer.json",
                                    "/nonexistent/layer.cu", &layer),
            DEPLODOCK_ERROR_IO);
  EXPECT_STREQ(deplodockLastError(), "cannot read /nonexistent/layer.json: No "
                                     "such file or directory");
}

TEST_F(FakeRuntime, CompiledImages) {
  // An ELF image defines its kernels as NUL-terminated symbol names.
  static const char elf[] = "\x7f"
                            "ELF\2\1\1\0.text.scale\0scale\0combine";
  std::string image(elf, sizeof(elf));
  Loaded loaded = load(device, manifestText(), image);
  ASSERT_EQ(loaded.status, DEPLODOCK_SUCCESS) << loaded.message;
  deplodockLayerDestroy(loaded.layer);
  // Not a symbol of its own: "scaled" does not define "scale".
  static const char scaled[] = "\x7f"
                               "ELF\2\1\1\0scaled\0combine";
  std::string other(scaled, sizeof(scaled));
  Loaded missing = load(device, manifestText(), other);
  EXPECT_EQ(missing.status, DEPLODOCK_ERROR_COMPILE);
  EXPECT_EQ(missing.message, "looking up kernel 'scale' failed: "
                             "CUDA_ERROR_NOT_FOUND (named symbol not found)");
}

TEST_F(FakeRuntime, LoadFromFiles) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("capi", dir));
  std::string manifestPath = (dir + "/layer.json").str();
  std::string codePath = (dir + "/layer.cu").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream(manifestPath, ec) << manifestText();
    ASSERT_FALSE(ec);
    llvm::raw_fd_ostream(codePath, ec) << kSource;
    ASSERT_FALSE(ec);
  }
  DeplodockLayer *layer = nullptr;
  EXPECT_EQ(deplodockLayerLoadFiles(device, manifestPath.c_str(),
                                    codePath.c_str(), &layer),
            DEPLODOCK_SUCCESS)
      << deplodockLastError();
  EXPECT_EQ(deplodockLayerNumBindings(layer), 4u);
  deplodockLayerDestroy(layer);
  llvm::sys::fs::remove_directories(dir);
}

TEST_F(FakeRuntime, NothingToLaunch) {
  LayerManifest identity;
  identity.function = "identity";
  identity.buffers = {buffer("x", 4)};
  identity.numArguments = 1;
  identity.results = {0};
  Loaded loaded = load(device, manifestText(identity), "");
  ASSERT_EQ(loaded.status, DEPLODOCK_SUCCESS) << loaded.message;
  float x[4] = {1, 2, 3, 4};
  uint64_t pointer = reinterpret_cast<uint64_t>(x);
  EXPECT_EQ(deplodockLayerLaunch(loaded.layer, nullptr, &pointer, 1),
            DEPLODOCK_SUCCESS);
  size_t result = 9;
  ASSERT_EQ(deplodockLayerGetResult(loaded.layer, 0, &result),
            DEPLODOCK_SUCCESS);
  EXPECT_EQ(result, 0u);
  EXPECT_EQ(x[3], 4);
  deplodockLayerDestroy(loaded.layer);
}

//===----------------------------------------------------------------------===//
// On a GPU
//===----------------------------------------------------------------------===//

TEST(RuntimeCApiGpu, ComputesOnTheCallersStream) {
  DeplodockDevice *device = nullptr;
  if (deplodockDeviceCreate(0, nullptr, &device) != DEPLODOCK_SUCCESS)
    GTEST_SKIP() << deplodockLastError();
  EXPECT_EQ(deplodockDeviceIsFake(device), 0);
  Loaded loaded = load(device, manifestText(), kSource);
  ASSERT_EQ(loaded.status, DEPLODOCK_SUCCESS) << loaded.message;

  // The test's own buffers, through the same driver (the device's primary
  // context is current on this thread).
  llvm::Expected<const CudaDriver &> driver = CudaDriver::get();
  ASSERT_TRUE(bool(driver)) << llvm::toString(driver.takeError());
  HostBuffers host;
  std::vector<uint64_t> pointers(4);
  std::vector<float> *arrays[] = {&host.x, &host.w, &host.y, &host.acc};
  for (size_t i = 0; i < 4; ++i) {
    size_t bytes = arrays[i]->size() * sizeof(float);
    cuda::CUdeviceptr pointer = 0;
    ASSERT_EQ(driver->cuMemAlloc(&pointer, bytes), cuda::CUDA_SUCCESS);
    ASSERT_EQ(driver->cuMemcpyHtoD(pointer, arrays[i]->data(), bytes),
              cuda::CUDA_SUCCESS);
    pointers[i] = pointer;
  }
  cuda::CUstream stream = nullptr;
  ASSERT_EQ(driver->cuStreamCreate(&stream, cuda::CU_STREAM_NON_BLOCKING),
            cuda::CUDA_SUCCESS);
  // Twice: the accumulator is zeroed before each launch, not summed twice.
  for (int run = 0; run < 2; ++run)
    ASSERT_EQ(deplodockLayerLaunch(loaded.layer, stream, pointers.data(), 4),
              DEPLODOCK_SUCCESS)
        << deplodockLastError();
  ASSERT_EQ(driver->cuStreamSynchronize(stream), cuda::CUDA_SUCCESS);
  ASSERT_EQ(driver->cuMemcpyDtoH(host.y.data(), pointers[2], kN * 4),
            cuda::CUDA_SUCCESS);
  ASSERT_EQ(driver->cuMemcpyDtoH(host.acc.data(), pointers[3], 16),
            cuda::CUDA_SUCCESS);
  // Halves summed in f32 are exact, whatever the order of the atomics.
  float sums[4] = {0, 0, 0, 0};
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(host.y[i], 2 * host.x[i] * host.w[i % 4] + kBias[i % 4]) << i;
    sums[i % 4] += 2 * host.x[i];
  }
  for (int j = 0; j < 4; ++j)
    EXPECT_EQ(host.acc[j], sums[j]) << j;

  driver->cuStreamDestroy(stream);
  for (uint64_t pointer : pointers)
    driver->cuMemFree(pointer);
  deplodockLayerDestroy(loaded.layer);
  deplodockDeviceDestroy(device);
}

} // namespace
