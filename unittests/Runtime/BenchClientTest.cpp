//===- BenchClientTest.cpp - The client against a real worker process -----===//
//
// Starts deplodock-bench-worker --fake-device and drives it through
// BenchClient: the round trip, and every way a worker can fail (abort,
// segfault, exit, hang, a sticky error, a hung kernel, garbage on the wire):
// the client reports the failure with its status, replaces the worker and
// the next request succeeds. Also workers that cannot start, and a machine
// without a GPU.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/BenchClient.h"

#include "gtest/gtest.h"

#include <chrono>
#include <csignal>
#include <cstdlib>

using namespace deplodock::runtime;
using llvm::json::Object;

namespace {

BenchClientOptions fakeOptions() {
  BenchClientOptions options;
  options.workerPath = DEPLODOCK_BENCH_WORKER;
  options.workerArgs = {"--fake-device"};
  options.startTimeoutS = 20;
  return options;
}

/// One kernel, y = f(x), whose output must equal `expected`.
BenchRequest request(Object fake = {}) {
  BenchRequest request;
  request.source = "extern \"C\" __global__ void f(const float* x, float* y) "
                   "{}";
  BufferSpec x, y;
  x.name = "x";
  x.shape = {256};
  x.init = InitKind::Seeded;
  y.name = "y";
  y.shape = {256};
  request.buffers = {x, y};
  LaunchSpec launch;
  launch.kernel = "f";
  launch.block = {256, 1, 1};
  launch.params = {{0, std::nullopt}, {1, std::nullopt}};
  launch.writes = {1};
  request.launches = {launch};
  request.outputs.push_back(
      {1, std::nullopt, std::vector<uint8_t>(256 * 4, 0)});
  request.timing.warmupMs = 0;
  request.timing.minTimeMs = 0;
  request.fake = std::move(fake);
  return request;
}

std::unique_ptr<BenchClient> startClient() {
  llvm::Expected<std::unique_ptr<BenchClient>> client =
      BenchClient::create(fakeOptions());
  EXPECT_TRUE(bool(client)) << llvm::toString(client.takeError());
  return std::move(*client);
}

TEST(BenchClient, RoundTrip) {
  std::unique_ptr<BenchClient> client = startClient();
  EXPECT_TRUE(client->getDevice().fake);
  EXPECT_EQ(client->getDevice().arch(), "sm_90");
  BenchRequest r = request(Object{{"kernel_us", Object{{"f", 12.0}}}});
  r.id = 77;
  llvm::Expected<BenchResult> result = client->measure(r);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, BenchStatus::Ok) << result->detail;
  EXPECT_EQ(result->id, 77u);
  EXPECT_TRUE(result->verified);
  ASSERT_TRUE(result->timing(-1));
  EXPECT_NEAR(result->timing(-1)->stats.medianUs, 12, 0.05);
  EXPECT_EQ(client->getRestarts(), 0u);
}

/// The fault, the status it gives, and a part of the detail.
struct Fault {
  const char *fault;
  const char *phase;
  BenchStatus status;
  const char *detail;
};

/// Names the fault in test listings (the default prints its pointers, which
/// differ from run to run).
void PrintTo(const Fault &f, std::ostream *os) {
  *os << f.fault << "@" << f.phase;
}

class BenchClientFaults : public testing::TestWithParam<Fault> {};

TEST_P(BenchClientFaults, TheNextRequestRunsInAFreshWorker) {
  const Fault &f = GetParam();
  std::unique_ptr<BenchClient> client = startClient();
  int pid = client->getWorkerPid();
  Object fake{{"fault", f.fault}};
  if (*f.phase)
    fake["phase"] = f.phase;
  BenchRequest bad = request(std::move(fake));
  // The hang needs a deadline; every other fault keeps the default, so that
  // a slow crash (a stack dump on a busy machine) is never a timeout. 5 s
  // leaves a busy machine ample time to reach the hanging phase.
  if (llvm::StringRef(f.fault) == "hang")
    bad.timeoutS = 5;
  llvm::Expected<BenchResult> result = client->measure(bad);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, f.status) << result->detail;
  EXPECT_NE(result->detail.find(f.detail), std::string::npos) << result->detail;
  llvm::Expected<BenchResult> next = client->measure(request());
  ASSERT_TRUE(bool(next)) << llvm::toString(next.takeError());
  EXPECT_EQ(next->status, BenchStatus::Ok) << next->detail;
  EXPECT_EQ(client->getRestarts(), 1u);
  EXPECT_NE(client->getWorkerPid(), pid);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, BenchClientFaults,
    testing::Values(
        Fault{"crash", "verify", BenchStatus::LaunchFail,
              "the worker was killed by signal 6 (Aborted) during verify; it "
              "said: crashed during verify of request 1; the parent records "
              "the failure and starts a new worker; its stderr ends:"},
        Fault{"segfault", "time", BenchStatus::LaunchFail,
              "killed by signal 11 (Segmentation fault) during time"},
        Fault{"crash", "compile", BenchStatus::CompileFail, "during compile"},
        Fault{"exit", "verify", BenchStatus::LaunchFail,
              "the worker exited with code 7 during verify"},
        Fault{"hang", "verify", BenchStatus::Timeout,
              "no answer within 5 s (during verify); the worker was killed"},
        Fault{"sticky", "", BenchStatus::LaunchFail,
              "CUDA_ERROR_ILLEGAL_ADDRESS"},
        Fault{"kernel_hang", "", BenchStatus::Timeout,
              "the GPU was still busy after 10 s"}),
    [](const testing::TestParamInfo<Fault> &info) {
      return std::string(info.param.fault) + "_" +
             (*info.param.phase ? info.param.phase : "device");
    });

TEST(BenchClient, FailuresThatKeepTheWorker) {
  std::unique_ptr<BenchClient> client = startClient();
  int pid = client->getWorkerPid();
  for (auto [fault, status] :
       {std::pair{"wrong", BenchStatus::WrongResult},
        std::pair{"compile_fail", BenchStatus::CompileFail},
        std::pair{"launch_fail", BenchStatus::LaunchFail}}) {
    llvm::Expected<BenchResult> result =
        client->measure(request(Object{{"fault", fault}}));
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ(result->status, status) << fault;
  }
  EXPECT_EQ(client->getWorkerPid(), pid);
  EXPECT_EQ(client->getRestarts(), 0u);
}

TEST(BenchClient, GarbageFromTheWorkerIsAnError) {
  std::unique_ptr<BenchClient> client = startClient();
  llvm::Expected<BenchResult> result =
      client->measure(request(Object{{"fault", "garbage"}}));
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "malformed message from the bench worker: malformed frame header "
            "'this is not a frame' (expected 'DPLK1 <json bytes> <blob "
            "bytes>')");
  llvm::Expected<BenchResult> next = client->measure(request());
  ASSERT_TRUE(bool(next)) << llvm::toString(next.takeError());
  EXPECT_EQ(next->status, BenchStatus::Ok);
}

TEST(BenchClient, MalformedRequestsAreTheCallersError) {
  std::unique_ptr<BenchClient> client = startClient();
  BenchRequest bad = request();
  bad.launches[0].params[1].buffer = 5;
  llvm::Expected<BenchResult> result = client->measure(bad);
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "invalid request: the request launch #0 (@f): parameter #1 names "
            "buffer #5, but there are 2");
  // The worker was never bothered.
  EXPECT_EQ(client->getRestarts(), 0u);
}

TEST(BenchClient, RequestsTheWorkerRejectsAreErrors) {
  std::unique_ptr<BenchClient> client = startClient();
  int pid = client->getWorkerPid();
  llvm::Expected<BenchResult> result =
      client->measure(request(Object{{"fault", "no_such_fault"}}));
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError())
                .rfind("the bench worker rejected the request: the fake device "
                       "knows no fault 'no_such_fault'",
                       0),
            0u);
  result =
      client->measure(request(Object{{"fault", "crash"}, {"phase", "later"}}));
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "the bench worker rejected the request: the fake device knows no "
            "phase 'later' (compile, verify, time)");
  // A rejected request costs no worker.
  result = client->measure(request());
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, BenchStatus::Ok);
  EXPECT_EQ(client->getWorkerPid(), pid);
}

TEST(BenchClient, WorkersThatCannotStart) {
  BenchClientOptions options = fakeOptions();
  options.workerPath = "/nonexistent/deplodock-bench-worker";
  llvm::Expected<std::unique_ptr<BenchClient>> client =
      BenchClient::create(options);
  ASSERT_FALSE(bool(client));
  EXPECT_EQ(llvm::toString(client.takeError()),
            "cannot start the bench worker "
            "/nonexistent/deplodock-bench-worker: No such file or directory");

  // A program that exits at once without a hello.
  options.workerPath = "/bin/false";
  options.workerArgs.clear();
  client = BenchClient::create(options);
  ASSERT_FALSE(bool(client));
  EXPECT_EQ(llvm::toString(client.takeError()),
            "the bench worker /bin/false exited with code 1 before saying "
            "hello (it closed the connection)");

  // A program that never says anything.
  options.workerPath = "/bin/sleep";
  options.workerArgs = {"30"};
  options.startTimeoutS = 0.5;
  auto start = std::chrono::steady_clock::now();
  client = BenchClient::create(options);
  ASSERT_FALSE(bool(client));
  EXPECT_EQ(llvm::toString(client.takeError()),
            "the bench worker /bin/sleep did not say hello within 0.5 s");
  // Killed at the deadline, not left to run its 30 s (with room for a busy
  // machine).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(BenchClient, NoGpuIsAClearError) {
  BenchClientOptions options = fakeOptions();
  options.workerArgs.clear();
  // The worker inherits the environment: make sure no driver loads, even on
  // a machine with a GPU.
  setenv("DEPLODOCK_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  llvm::Expected<std::unique_ptr<BenchClient>> client =
      BenchClient::create(options);
  unsetenv("DEPLODOCK_CUDA_DRIVER");
  ASSERT_FALSE(bool(client));
  std::string error = llvm::toString(client.takeError());
  EXPECT_EQ(error.rfind("no CUDA driver: cannot load "
                        "/nonexistent/libcuda.so.1",
                        0),
            0u)
      << error;
}

} // namespace
