//===- CudaBackend.h - Latencies measured on the GPU ------------*- C++ -*-===//
//
// The `cuda` backend: every variant is compiled, run, checked and timed on
// the GPU by deplodock-bench-worker (lib/Runtime, docs/Runtime.md). Its
// context is the device fingerprint the worker reports, so results from
// another GPU, driver, toolkit or compiler are never replayed as these.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_CUDABACKEND_H
#define DEPLODOCK_TUNER_CUDABACKEND_H

#include "Deplodock/Runtime/BenchRequest.h"
#include "Deplodock/Tuner/Backend.h"

namespace deplodock::tuner {

struct CudaBackendOptions {
  /// The worker executable and its arguments (--fake-device,
  /// --cache-dir=DIR); each worker also gets --device=N.
  std::string workerPath;
  std::vector<std::string> workerArgs;
  /// The GPUs to measure on, one worker each, in parallel. They must be
  /// alike (one context): their rows go to the same records.
  std::vector<unsigned> devices = {0};
  /// The seed of the inputs every variant runs on.
  uint64_t seed = 0;
  runtime::TimingOptions timing;
  /// Kernels whose Loop IR executes at most this many loads are checked
  /// against the CPU interpreter; larger ones against their simplest
  /// lowering on the GPU.
  int64_t cpuReferenceLoads = int64_t(1) << 24;
  /// Instructions for the worker's fake device, sent with every request
  /// (tests: faults, latencies; docs/Runtime.md).
  llvm::json::Object fake;
};

/// Starts a worker per device; fails when there is no GPU (the message says
/// why), the GPU cannot run `target` (sm_80, sm_90, sm_90a), or the GPUs
/// differ. With `tf32` (variants lowered with precision=tf32) the context
/// says so, and f32 outputs are checked with the TF32 tolerance against the
/// IEEE f32 reference.
llvm::Expected<std::unique_ptr<Backend>>
createCudaBackend(const CudaBackendOptions &options, llvm::StringRef target,
                  bool tf32 = false);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_CUDABACKEND_H
