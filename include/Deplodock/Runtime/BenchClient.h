//===- BenchClient.h - Measure kernels in a worker process ------*- C++ -*-===//
//
// The parent's side: BenchClient starts deplodock-bench-worker, learns the
// device from its hello, and sends it one request at a time. A kernel that
// crashes the worker, leaves a sticky CUDA error or hangs costs only the
// worker: the client records the failure in the result (launch_fail,
// compile_fail when it died compiling, timeout when it did not answer in
// time and was killed), starts a fresh worker for the next request and goes
// on. This is what the tuner's cuda backend and deplodock-run --bench call:
//
//   auto client = BenchClient::create(options);   // fails: no GPU, no worker
//   BenchResult r = *(*client)->measure(request); // r.status, r.timing(-1)
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_BENCHCLIENT_H
#define DEPLODOCK_RUNTIME_BENCHCLIENT_H

#include "Deplodock/Runtime/BenchRequest.h"
#include "Deplodock/Runtime/BenchResult.h"
#include "Deplodock/Runtime/DeviceInfo.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace deplodock::runtime {

/// How to start and drive the worker.
struct BenchClientOptions {
  /// The worker executable (see findBenchWorker).
  std::string workerPath;
  /// Its arguments: --fake-device, --cache-dir=DIR, --device=N...
  std::vector<std::string> workerArgs;
  /// How long a worker may take to say hello (context creation, loading
  /// NVRTC).
  double startTimeoutS = 60;
};

/// The worker executable: $DEPLODOCK_BENCH_WORKER when set, else
/// deplodock-bench-worker beside `argv0` (the running tool), else on PATH.
llvm::Expected<std::string> findBenchWorker(const char *argv0);

class BenchClient {
public:
  /// Starts a worker and reads its hello. Fails when it cannot be started,
  /// does not answer, or has no device (the message says why: "no CUDA
  /// driver: ...").
  static llvm::Expected<std::unique_ptr<BenchClient>>
  create(const BenchClientOptions &options);
  ~BenchClient();
  BenchClient(const BenchClient &) = delete;
  BenchClient &operator=(const BenchClient &) = delete;

  /// The worker's device.
  const DeviceInfo &getDevice() const { return device; }

  /// Runs `request` in the worker. A failed variant is a result with its
  /// status and detail; the worker is replaced if it died, hung or lost its
  /// device. An Error means the request is malformed (validateRequest, or
  /// the worker rejected it), the worker broke the protocol, or no worker
  /// could be started again.
  llvm::Expected<BenchResult> measure(const BenchRequest &request);

  /// How many times a worker was replaced.
  unsigned getRestarts() const { return restarts; }
  /// The running worker's process id, or 0.
  int getWorkerPid() const;

private:
  explicit BenchClient(BenchClientOptions options);
  llvm::Error start();
  /// Kills the worker (if running) and reaps it; returns how it ended.
  std::string stop(bool kill);
  /// The same, but keeps its connection open to read what is left.
  std::string reap(bool kill);

  BenchClientOptions options;
  DeviceInfo device;
  struct Process;
  std::unique_ptr<Process> process;
  uint64_t nextId = 1;
  unsigned restarts = 0;
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_BENCHCLIENT_H
