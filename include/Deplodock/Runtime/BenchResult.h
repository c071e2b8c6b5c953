//===- BenchResult.h - What the bench worker answers ------------*- C++ -*-===//
//
// The outcome of one BenchRequest: a status (the tuner's five outcomes, with
// the spellings of its database), the kernels' register and shared-memory
// use, how each output compared with the reference, and latency statistics
// per timed unit, in microseconds.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_BENCHRESULT_H
#define DEPLODOCK_RUNTIME_BENCHRESULT_H

#include "Deplodock/Runtime/BenchRequest.h"

#include <optional>
#include <string>
#include <vector>

namespace deplodock::runtime {

/// How a benchmark ended; everything but Ok is a failed variant. The names
/// are those of tuner::MeasureStatus and of the tune database.
enum class BenchStatus { Ok, CompileFail, LaunchFail, Timeout, WrongResult };

/// "ok", "compile_fail", "launch_fail", "timeout" or "wrong_result".
llvm::StringRef benchStatusName(BenchStatus status);

/// The status spelled `name`, if any.
std::optional<BenchStatus> parseBenchStatus(llvm::StringRef name);

/// What the driver reports about a compiled kernel (cuFuncGetAttribute).
struct KernelInfo {
  std::string name;
  int64_t registers = 0;
  /// Static shared memory per block, in bytes (the dynamic pool is the
  /// launch's smemBytes).
  int64_t staticSmemBytes = 0;
  /// Local memory per thread (spills and local arrays), in bytes.
  int64_t localBytes = 0;
  int64_t constBytes = 0;
  /// The most threads per block the kernel can be launched with.
  int64_t maxThreadsPerBlock = 0;
};

/// Latency statistics of one timed unit, in microseconds.
struct Stats {
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  double meanUs = 0;
  /// Variance of the samples, in µs².
  double varianceUs2 = 0;
  /// Interquartile range over the median: the noise of the measurement.
  double spread = 0;
  int64_t samples = 0;
  /// Runs of the unit per sample (> 1 only without L2 flushes).
  int64_t repeats = 1;
  /// Whether the unit was replayed as a CUDA graph.
  bool graph = false;
  /// Whether the L2 cache was flushed before every sample.
  bool flushedL2 = false;
};

/// Statistics over `samplesUs` (not empty).
Stats computeStats(llvm::ArrayRef<double> samplesUs);

/// The timing of one unit: a launch, or the whole program.
struct UnitTiming {
  /// The launch's index, or -1 for all launches together.
  int64_t launch = -1;
  Stats stats;
};

/// How one output compared with its reference.
struct OutputCheck {
  unsigned buffer = 0;
  bool ok = true;
  double maxAbsError = 0;
  double maxRelError = 0;
  /// Elements outside the tolerance.
  int64_t mismatches = 0;
  /// The first worst element, with its expected and actual values.
  int64_t worst = -1;
  double expected = 0;
  double actual = 0;
  Tolerance tolerance;
};

/// The answer to one BenchRequest.
struct BenchResult {
  uint64_t id = 0;
  BenchStatus status = BenchStatus::Ok;
  /// Why it failed: the compile log, the CUDA error, the first mismatch, how
  /// the worker died...
  std::string detail;
  /// Whether the outputs were checked (false when the request had no
  /// reference).
  bool verified = false;
  std::vector<OutputCheck> checks;
  /// One per distinct kernel name, in launch order.
  std::vector<KernelInfo> kernels;
  /// One per launch (when timed each), then the total (when timed).
  std::vector<UnitTiming> timings;
  /// The outputs' contents, in request order, when asked for.
  std::vector<std::vector<uint8_t>> outputs;
  /// Whether the compiled module came from the worker's cache.
  bool compileCached = false;
  double compileMs = 0;
  /// Whether the worker exits after answering (a sticky CUDA error, a hung
  /// kernel): the client starts a new one for the next request.
  bool workerExits = false;

  /// The timing of launch `i`, or of the whole program for -1, if timed.
  const UnitTiming *timing(int64_t launch) const;
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_BENCHRESULT_H
