//===- Backend.h - Where the latency of a variant comes from ----*- C++ -*-===//
//
// The tuner asks a backend for the latency of each finished variant. All
// backends answer the same question behind one interface:
//
//  * `model`  — an analytic roofline estimate on the Kernel IR
//  (RooflineModel.h).
//               It never pretends to be a measurement: its results are
//               recorded under backend "model" in a context of its own
//               (modelContextKey), and tools call them estimates.
//  * `replay` — latencies read from a recorded table (LatencyTable.h), so
//               strategies can be compared deterministically.
//  * `cuda`   — the GPU bench worker (CudaBackend.h): compile
//               `Variant::cuda` with NVRTC, launch `Variant::kernel`'s
//               geometry on seeded inputs, check, time; its context is the
//               device fingerprint (extra.backend = "cuda").
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_BACKEND_H
#define DEPLODOCK_TUNER_BACKEND_H

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"
#include "Deplodock/Tuner/SearchSpace.h"
#include "Deplodock/Tuner/TuneDb.h"
#include "Deplodock/Tuner/Variant.h"

#include <memory>
#include <string>

namespace deplodock::dloop {
class KernelOp;
} // namespace deplodock::dloop

namespace deplodock::tuner {

/// What a backend says about one variant.
struct BackendResult {
  Measurement measurement;
  /// Mean and variance of the samples; a single estimate has mean = median
  /// and no variance.
  double meanUs = 0;
  double varianceUs2 = 0;
  /// Why it failed, or how an estimate was bounded ("memory-bound, ...").
  std::string detail;

  /// A single latency (an estimate or a recorded median).
  static BackendResult single(double us, std::string detail = "");
  /// A failed variant.
  static BackendResult failure(MeasureStatus status, std::string detail);
};

/// A source of latencies.
class Backend {
public:
  virtual ~Backend();
  /// The name its perf rows carry: "model", "replay", "cuda".
  virtual llvm::StringRef getName() const = 0;
  /// Whether its latencies are estimates rather than measurements.
  virtual bool isEstimate() const { return false; }
  /// Whether a measurement costs wall time on a device (about a second of
  /// compiling, checking and timing), so the search should spend less on
  /// ranking candidates before each.
  virtual bool measuresOnDevice() const { return false; }
  /// The context its rows are recorded under.
  virtual const DeviceContext &getContext() const = 0;
  /// Called before the first variant of the Loop IR `kernel` is measured
  /// (the default variant comes first), e.g. to compute what its variants
  /// are checked against.
  virtual llvm::Error beginKernel(dloop::KernelOp kernel,
                                  llvm::StringRef loopKey) {
    return llvm::Error::success();
  }
  /// The latency of `variant`. A variant that fails (to compile, launch,
  /// check) is a BackendResult with that status; an Error means the backend
  /// cannot answer at all (a table without the variant, a lost device), and
  /// the tuner stops.
  virtual llvm::Expected<BackendResult> measure(const Variant &variant) = 0;

  /// How many variants it measures at once (one per GPU): what measureBatch
  /// is worth calling with.
  virtual unsigned getParallelism() const { return 1; }
  /// The latencies of `variants`, in order, measured concurrently where the
  /// backend can (default: one after the other). Stops at the first Error.
  virtual llvm::Expected<std::vector<BackendResult>>
  measureBatch(llvm::ArrayRef<const Variant *> variants);
};

/// The roofline model of `target`'s reference GPU (sm_80: A100, sm_90:
/// H100). With `tf32` (the kernels were lowered with precision=tf32), its
/// context is the TF32 one (modelContextKey).
llvm::Expected<std::unique_ptr<Backend>>
createModelBackend(llvm::StringRef target, bool tf32 = false);

/// Latencies from the table at `path` (LatencyTable.h), which must have been
/// recorded for `target`; `tf32` as for createModelBackend.
llvm::Expected<std::unique_ptr<Backend>>
createReplayBackend(llvm::StringRef path, llvm::StringRef target,
                    bool tf32 = false);

/// The names createBackend accepts.
llvm::ArrayRef<llvm::StringRef> backendNames();

struct CudaBackendOptions;

/// The backend called `name` for `target`; `tablePath` is the replay table,
/// `cuda` how the cuda backend starts its worker (it needs them). With
/// `tf32` the variants were lowered with precision=tf32: the backend records
/// them in a context of that precision, apart from IEEE f32 ones.
llvm::Expected<std::unique_ptr<Backend>>
createBackend(llvm::StringRef name, llvm::StringRef target,
              llvm::StringRef tablePath,
              const CudaBackendOptions *cuda = nullptr, bool tf32 = false);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_BACKEND_H
