//===- WorkerTest.cpp - One request on the fake device, in process --------===//
//
// runBench's order of work (compile, verify, then time), the status of every
// kind of failure, and the timing loop's choices, on the fake device: its
// results are the reference it is told to expect, its latencies those the
// request gives, on a simulated clock, so every number here is exact.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Worker.h"
#include "Deplodock/Runtime/Timing.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;
using llvm::json::Object;

namespace {

constexpr const char *kSource =
    "extern \"C\" __global__ void scale(const float* in0, float* out0) {}\n"
    "extern \"C\" __global__ void add(const float* in0, float* out0) {}\n";

/// scale(x) -> y, then add(y) -> z; z is checked against `expected`.
BenchRequest twoKernels() {
  BenchRequest request;
  request.source = kSource;
  for (const char *name : {"x", "y", "z"}) {
    BufferSpec buffer;
    buffer.name = name;
    buffer.shape = {64};
    request.buffers.push_back(buffer);
  }
  request.buffers[0].init = InitKind::Seeded;
  for (auto [kernel, in, out] :
       {std::tuple{"scale", 0u, 1u}, std::tuple{"add", 1u, 2u}}) {
    LaunchSpec launch;
    launch.kernel = kernel;
    launch.grid = {1, 1, 1};
    launch.block = {64, 1, 1};
    launch.params = {{in, std::nullopt}, {out, std::nullopt}};
    launch.writes = {out};
    request.launches.push_back(launch);
  }
  std::vector<uint8_t> expected(64 * 4);
  for (int i = 0; i < 64; ++i)
    writeElement(DType::F32, expected.data(), i, i * 0.5);
  request.outputs.push_back({2, std::nullopt, expected});
  request.fake = Object{{"kernel_us", Object{{"scale", 4.0}, {"add", 30.0}}}};
  request.timing.warmupMs = 1;
  request.timing.minTimeMs = 0;
  return request;
}

std::unique_ptr<Device> fakeDevice() {
  llvm::Expected<std::unique_ptr<Device>> device = createFakeDevice({});
  EXPECT_TRUE(bool(device));
  return std::move(*device);
}

/// Runs `request`; records the phases and whether the device is lost.
struct Outcome {
  std::vector<std::string> phases;
  bool fatal = false;
  BenchResult result;
  std::string error;
};

Outcome run(Device &device, const BenchRequest &request) {
  Outcome out;
  llvm::Expected<BenchResult> result = runBench(
      device, request,
      [&](llvm::StringRef phase) { out.phases.push_back(phase.str()); },
      out.fatal);
  if (result)
    out.result = std::move(*result);
  else
    out.error = llvm::toString(result.takeError());
  return out;
}

TEST(Worker, VerifiesThenTimesEveryLaunchAndTheWhole) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  request.returnOutputs = true;
  Outcome r = run(*device, request);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.phases, (std::vector<std::string>{"compile", "verify", "time"}));
  EXPECT_EQ(r.result.status, BenchStatus::Ok) << r.result.detail;
  EXPECT_TRUE(r.result.verified);
  ASSERT_EQ(r.result.checks.size(), 1u);
  EXPECT_TRUE(r.result.checks[0].ok);
  ASSERT_EQ(r.result.kernels.size(), 2u);
  EXPECT_EQ(r.result.kernels[0].name, "scale");
  EXPECT_EQ(r.result.kernels[0].registers, 32);
  ASSERT_EQ(r.result.timings.size(), 3u);
  // The fake latencies: 4 and 30 µs, 34 together, within the ±0.4% jitter.
  EXPECT_NEAR(r.result.timing(0)->stats.medianUs, 4, 0.02);
  EXPECT_NEAR(r.result.timing(1)->stats.medianUs, 30, 0.12);
  EXPECT_NEAR(r.result.timing(-1)->stats.medianUs, 34, 0.14);
  EXPECT_TRUE(r.result.timing(-1)->stats.flushedL2);
  // The small unit is replayed as a graph, the others are not.
  EXPECT_TRUE(r.result.timing(0)->stats.graph);
  EXPECT_FALSE(r.result.timing(1)->stats.graph);
  ASSERT_EQ(r.result.outputs.size(), 1u);
  EXPECT_EQ(r.result.outputs[0], *request.outputs[0].expected);
  EXPECT_FALSE(r.result.compileCached);
  // The same source again comes from the compile cache.
  EXPECT_TRUE(run(*device, request).result.compileCached);
}

TEST(Worker, KeepsTheInitialContentsForTheNextRequest) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  // x, which no launch writes, comes back as it was uploaded.
  request.outputs.push_back({0, std::nullopt, std::nullopt});
  request.returnOutputs = true;
  WorkerCaches caches;
  for (int i = 0; i < 2; ++i) {
    bool fatal = false;
    llvm::Expected<BenchResult> result = runBench(
        *device, request, [](llvm::StringRef) {}, fatal, &caches);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ(result->status, BenchStatus::Ok) << result->detail;
    ASSERT_EQ(result->outputs.size(), 2u);
    EXPECT_EQ(result->outputs[1], request.buffers[0].initialContents());
  }
  // Made once: the seeded x and the poison of y (z is poison of the same
  // size); every later upload came from the cache.
  EXPECT_EQ(caches.contents.getNumMisses(), 2u);
  EXPECT_EQ(caches.contents.getNumHits(), 4u);
}

TEST(Worker, WrongResultsAreNeverTimed) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  request.fake["fault"] = "wrong";
  request.fake["fault_kernel"] = "add";
  Outcome r = run(*device, request);
  EXPECT_EQ(r.result.status, BenchStatus::WrongResult);
  EXPECT_EQ(r.phases, (std::vector<std::string>{"compile", "verify"}));
  EXPECT_TRUE(r.result.timings.empty());
  EXPECT_EQ(r.result.detail, "output z: 1 of 64 elements differ (max abs "
                             "error 1), element 0: expected 0 got 1");
  EXPECT_FALSE(r.fatal);
}

TEST(Worker, WithoutAReferenceNothingIsVerified) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  request.outputs[0].expected.reset();
  Outcome r = run(*device, request);
  EXPECT_EQ(r.result.status, BenchStatus::Ok);
  EXPECT_FALSE(r.result.verified);
  EXPECT_TRUE(r.result.checks.empty());
}

/// twoKernels() checked against a reference program, `naive`.
BenchRequest withReference() {
  BenchRequest request = twoKernels();
  request.outputs[0].expected.reset();
  request.reference = ReferenceProgram{
      "extern \"C\" __global__ void naive(const float* a, float* b) {}",
      {},
      {}};
  LaunchSpec naive;
  naive.kernel = "naive";
  naive.params = {{0, std::nullopt}, {2, std::nullopt}};
  naive.writes = {2};
  request.reference->launches.push_back(naive);
  return request;
}

TEST(Worker, AReferenceProgramOnTheSameInputs) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = withReference();
  Outcome r = run(*device, request);
  EXPECT_EQ(r.result.status, BenchStatus::Ok) << r.result.detail;
  EXPECT_TRUE(r.result.verified);

  request.fake["fault"] = "wrong";
  request.fake["fault_kernel"] = "add";
  EXPECT_EQ(run(*device, request).result.status, BenchStatus::WrongResult);

  // A reference program that does not load is the request's error.
  request.fake.erase("fault");
  request.reference->launches[0].kernel = "missing";
  r = run(*device, request);
  EXPECT_EQ(r.error, "the reference program failed: looking up kernel "
                     "'missing' failed: CUDA_ERROR_NOT_FOUND (named symbol "
                     "not found)");
}

TEST(Worker, RunsAReferenceAgainOnlyWhenItsOutputsCanDiffer) {
  std::unique_ptr<Device> device = fakeDevice();
  WorkerCaches caches;
  auto runCached = [&](const BenchRequest &request) {
    Outcome out;
    llvm::Expected<BenchResult> result = runBench(
        *device, request, [](llvm::StringRef) {}, out.fatal, &caches);
    if (result)
      out.result = std::move(*result);
    else
      out.error = llvm::toString(result.takeError());
    return out;
  };
  BenchRequest request = withReference();
  Outcome first = runCached(request);
  ASSERT_EQ(first.error, "");
  EXPECT_EQ(first.result.status, BenchStatus::Ok) << first.result.detail;
  EXPECT_EQ(caches.references.getNumEntries(), 1u);

  // The reference would fail now; the outputs it gave on these inputs are
  // known, so it is not run, and the variant is still checked against them.
  BenchRequest again = request;
  again.fake["fault"] = "launch_fail";
  again.fake["fault_kernel"] = "naive";
  Outcome second = runCached(again);
  ASSERT_EQ(second.error, "");
  EXPECT_EQ(second.result.status, BenchStatus::Ok) << second.result.detail;
  EXPECT_TRUE(second.result.verified);
  again.fake["fault"] = "wrong";
  again.fake["fault_kernel"] = "add";
  EXPECT_EQ(runCached(again).result.status, BenchStatus::WrongResult);

  // Other inputs, another reference launch or source: it runs (and fails).
  BenchRequest seeded = request, launched = request, source = request;
  seeded.buffers[0].seed = 5;
  launched.reference->launches[0].grid = {2, 1, 1};
  source.reference->source += "\n";
  for (BenchRequest *changed : {&seeded, &launched, &source}) {
    changed->fake["fault"] = "launch_fail";
    changed->fake["fault_kernel"] = "naive";
    EXPECT_NE(runCached(*changed).error.find("the reference program failed"),
              std::string::npos);
  }
  // A buffer the reference does not touch (a variant's workspace) does not
  // matter.
  BenchRequest workspace = request;
  workspace.buffers.push_back(workspace.buffers[1]);
  workspace.fake["fault"] = "launch_fail";
  workspace.fake["fault_kernel"] = "naive";
  EXPECT_EQ(runCached(workspace).result.status, BenchStatus::Ok);
}

TEST(Worker, FailuresHaveTheirStatus) {
  std::unique_ptr<Device> device = fakeDevice();
  struct Case {
    const char *fault;
    BenchStatus status;
    bool fatal;
    std::vector<std::string> phases;
  };
  for (const Case &c : std::vector<Case>{
           {"compile_fail", BenchStatus::CompileFail, false, {"compile"}},
           {"launch_fail",
            BenchStatus::LaunchFail,
            false,
            {"compile", "verify"}},
           {"sticky", BenchStatus::LaunchFail, true, {"compile", "verify"}},
           {"kernel_hang", BenchStatus::Timeout, true, {"compile", "verify"}},
       }) {
    BenchRequest request = twoKernels();
    request.fake["fault"] = c.fault;
    Outcome r = run(*device, request);
    EXPECT_EQ(r.error, "") << c.fault;
    EXPECT_EQ(r.result.status, c.status) << c.fault;
    EXPECT_EQ(r.fatal, c.fatal) << c.fault;
    EXPECT_EQ(r.result.workerExits, c.fatal) << c.fault;
    EXPECT_EQ(r.phases, c.phases) << c.fault;
    EXPECT_FALSE(r.result.detail.empty()) << c.fault;
  }
}

TEST(Worker, KernelsMustExistAndFit) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  request.launches[1].kernel = "absent";
  Outcome r = run(*device, request);
  EXPECT_EQ(r.result.status, BenchStatus::CompileFail);
  EXPECT_EQ(r.result.detail, "looking up kernel 'absent' failed: "
                             "CUDA_ERROR_NOT_FOUND (named symbol not found)");

  request = twoKernels();
  request.launches[0].smemBytes = 300000;
  r = run(*device, request);
  EXPECT_EQ(r.result.status, BenchStatus::LaunchFail);
  EXPECT_EQ(r.result.detail, "kernel 'scale' needs 300000 bytes of dynamic "
                             "shared memory; the device allows 232448");
}

TEST(Worker, ZeroedBuffersAndTmaParameters) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  request.launches[1].zero = {2};
  request.launches[1].params.push_back({0, TmaSpec{0, {16}, 0}});
  Outcome r = run(*device, request);
  EXPECT_EQ(r.result.status, BenchStatus::Ok) << r.result.detail;
  // Zeroing counts in the launch's time: half a microsecond on the fake.
  EXPECT_NEAR(r.result.timing(1)->stats.medianUs, 30.5, 0.13);
}

TEST(Timing, BudgetsAndStoppingRules) {
  std::unique_ptr<Device> device = fakeDevice();
  BenchRequest request = twoKernels();
  ASSERT_FALSE(device->beginRequest(request));
  Step step;
  step.kernel.info.name = "add";
  std::unique_ptr<Unit> unit = device->makeUnit({step});

  // Stable samples: exactly the minimum count once the minimum time is
  // spent.
  TimingOptions options;
  options.warmupMs = 0;
  options.minTimeMs = 0;
  options.minSamples = 12;
  llvm::Expected<Stats> stats = measureUnit(*device, *unit, options, 1);
  ASSERT_TRUE(bool(stats));
  EXPECT_EQ(stats->samples, 12);
  EXPECT_EQ(stats->repeats, 1);

  // A spread target no run can meet: sampling stops at maxSamples.
  options.targetSpread = 0;
  options.maxSamples = 40;
  stats = measureUnit(*device, *unit, options, 1);
  ASSERT_TRUE(bool(stats));
  EXPECT_EQ(stats->samples, 40);

  // A time budget smaller than a sample: one sample all the same.
  options.maxTimeMs = 0.001;
  stats = measureUnit(*device, *unit, options, 1);
  ASSERT_TRUE(bool(stats));
  EXPECT_EQ(stats->samples, 1);

  // Without L2 flushes a sample repeats the 30 µs unit to fill 200 µs.
  options = TimingOptions();
  options.flushL2 = false;
  options.minTimeMs = 0;
  stats = measureUnit(*device, *unit, options, 1);
  ASSERT_TRUE(bool(stats));
  EXPECT_EQ(stats->repeats, 7);
  EXPECT_FALSE(stats->flushedL2);
  EXPECT_NEAR(stats->medianUs, 30, 0.12);

  // Measuring for at least 20 ms of 30 µs samples (plus flushes) takes
  // hundreds of them; the same every time on the simulated clock.
  options = TimingOptions();
  stats = measureUnit(*device, *unit, options, 1);
  ASSERT_TRUE(bool(stats));
  llvm::Expected<Stats> again = measureUnit(*device, *unit, options, 1);
  ASSERT_TRUE(bool(again));
  EXPECT_GT(stats->samples, 100);
  EXPECT_EQ(stats->samples, again->samples);
}

} // namespace
