//===- BenchRequest.h - What the bench worker is asked to run ---*- C++ -*-===//
//
// One benchmark request: a CUDA source, the buffers its kernels use (shape,
// element type, how to fill them), the launches in order, the outputs to
// verify and what to verify them against, and how to time. The parent builds
// it (runtime::programFromKernelIR does from Kernel IR), BenchClient sends it
// to a worker process, and the worker answers with a BenchResult.
// docs/Runtime.md describes the wire format.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_BENCHREQUEST_H
#define DEPLODOCK_RUNTIME_BENCHREQUEST_H

#include "Deplodock/Runtime/DType.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace deplodock::runtime {

/// How a buffer is filled before the kernels run.
enum class InitKind {
  /// interp::randomInputs' values for (seed, stream): see fillSeeded.
  Seeded,
  /// The bytes in `data`.
  Data,
  /// All zero bytes.
  Zero,
  /// All 0xff bytes (NaN in every float type), so that elements a kernel
  /// forgets to write fail verification.
  Poison,
};

/// One device buffer.
struct BufferSpec {
  std::string name;
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  InitKind init = InitKind::Poison;
  uint64_t seed = 0;
  /// The argument index the seeded values are drawn for.
  uint64_t stream = 0;
  /// The contents when `init` is Data: numElements() * dtypeSize(dtype)
  /// bytes, little-endian, row-major.
  std::vector<uint8_t> data;

  int64_t numElements() const;
  uint64_t numBytes() const { return numElements() * dtypeSize(dtype); }
  /// The bytes the buffer starts with: its data, zeros, 0xff or the seeded
  /// values.
  std::vector<uint8_t> initialContents() const;
};

/// A TMA descriptor parameter, encoded by the worker from a buffer with
/// cuTensorMapEncodeTiled (see !dkernel.tma_descriptor).
struct TmaSpec {
  unsigned buffer = 0;
  /// The box one copy moves, outermost dimension first.
  llvm::SmallVector<int64_t, 4> box;
  /// Shared-memory swizzle in bytes: 0, 32, 64 or 128.
  unsigned swizzle = 0;
};

/// One kernel parameter: a buffer's address or a TMA descriptor.
struct LaunchParam {
  /// The buffer passed, when `tma` is not set.
  unsigned buffer = 0;
  std::optional<TmaSpec> tma;

  /// The buffer the parameter names, directly or through its descriptor.
  unsigned getBuffer() const { return tma ? tma->buffer : buffer; }
};

/// One kernel launch.
struct LaunchSpec {
  std::string kernel;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  /// Dynamic shared memory in bytes.
  uint32_t smemBytes = 0;
  llvm::SmallVector<LaunchParam, 4> params;
  /// Buffers zeroed right before the launch (split-K atomics accumulate into
  /// them); zeroing counts as part of the launch when timed.
  llvm::SmallVector<unsigned, 2> zero;
  /// Buffers the kernel writes. A real GPU does not need them; the fake
  /// device writes its results there.
  llvm::SmallVector<unsigned, 2> writes;
  /// The kernel waits for the grids before it before touching memory
  /// (dkernel.wait_prior_grids), so it may be launched as a programmatic
  /// dependent of the launch before it.
  bool early = false;
};

/// When an output element passes: |got - want| <= atol + rtol * |want| +
/// scale * max|want| (the last term allows for rounding errors that grow
/// with the size of the values summed, not of the element). NaNs must match
/// NaNs and infinities the same infinities; integers must match exactly.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
  double scale = 0;
};

/// The default tolerance of a dtype: exact for integers, looser as floats
/// get narrower (docs/Runtime.md lists them).
Tolerance defaultTolerance(DType dtype);

/// The tolerance of f32 outputs computed with TF32 contractions
/// (precision=tf32): their operands keep f16's 10 mantissa bits, so f16's.
Tolerance tf32Tolerance();

/// An output to verify.
struct OutputSpec {
  unsigned buffer = 0;
  /// The dtype's default when not set.
  std::optional<Tolerance> tolerance;
  /// The expected contents, when the reference is data (computed by the
  /// parent, say on the CPU interpreter).
  std::optional<std::vector<uint8_t>> expected;
};

/// A reference program run on the same GPU and the same inputs: its results
/// in the output buffers are what the request's kernels must reproduce.
struct ReferenceProgram {
  std::string source;
  llvm::SmallVector<std::string> compileOptions;
  llvm::SmallVector<LaunchSpec, 2> launches;
};

/// How to time. docs/Runtime.md explains the method.
struct TimingOptions {
  /// Run the unit for at least this long before measuring.
  double warmupMs = 25;
  /// Stop once this many samples agree (relative spread <= targetSpread)...
  unsigned minSamples = 10;
  /// ...but take no more than this many.
  unsigned maxSamples = 500;
  double targetSpread = 0.02;
  /// Measure at least this long (after warm-up), unless maxSamples is
  /// reached first...
  double minTimeMs = 20;
  /// ...and no longer than this, even with fewer than minSamples samples
  /// (at least one is always taken).
  double maxTimeMs = 1000;
  /// Flush the L2 cache before every sample (outside the timed region): cold
  /// numbers, as a kernel sees them between other kernels.
  bool flushL2 = true;
  /// Units estimated faster than this are replayed as a CUDA graph.
  double graphBelowUs = 10;
  /// Without L2 flushes, a sample repeats the unit until it lasts this long.
  double batchUs = 200;
};

/// What to time.
struct TimeSpec {
  /// Every launch alone (with its zeroing), in order.
  bool eachLaunch = true;
  /// All launches in order, as the host function runs them.
  bool total = true;
};

/// One benchmark: verify, then time.
struct BenchRequest {
  /// Echoed in the result.
  uint64_t id = 0;
  std::string source;
  /// NVRTC options beyond the worker's (architecture, include path).
  llvm::SmallVector<std::string> compileOptions;
  std::vector<BufferSpec> buffers;
  std::vector<LaunchSpec> launches;
  std::vector<OutputSpec> outputs;
  /// When set, the outputs are checked against this program's results
  /// instead of their `expected` data.
  std::optional<ReferenceProgram> reference;
  TimingOptions timing;
  TimeSpec time;
  /// Send the outputs' contents (after the verified run) back.
  bool returnOutputs = false;
  /// A single wait for the GPU longer than this is a hung kernel: the worker
  /// answers timeout and exits.
  double kernelTimeoutS = 10;
  /// The parent's deadline for the whole request; 0 chooses one from the
  /// timing budget.
  double timeoutS = 0;
  /// Instructions for the fake device (faults, latencies); a real device
  /// ignores them. See docs/Runtime.md.
  llvm::json::Object fake;
};

/// The longest any one timing budget (warm-up, measuring) may be, in
/// milliseconds: an hour. Longer ones are refused, not clamped, so that a
/// typo is an error.
constexpr double kMaxTimingMs = 3.6e6;
/// The most samples a unit may take.
constexpr unsigned kMaxSamples = 1000000;
/// The longest kernel_timeout_s and timeout_s, in seconds: a day.
constexpr double kMaxTimeoutS = 86400;

/// Checks that `request` is consistent (indices in range, data sizes match
/// shapes, launch geometry positive...). The worker runs this first; the
/// client too, so that a malformed request is the caller's error and not a
/// failed variant.
llvm::Error validateRequest(const BenchRequest &request);

/// Checks `buffer`'s shape: every dimension from 1 to 2^40, at most 2^40
/// elements. Messages name it buffer #`index`.
llvm::Error checkBufferShape(const BufferSpec &buffer, size_t index);

/// Checks `launches` (at least one) against `buffers`: kernel names are C
/// identifiers, geometry is positive with at most 1024 threads a block,
/// every buffer index is in range, TMA boxes fit their buffers. Messages
/// start with `what` ("the request").
llvm::Error checkLaunches(llvm::ArrayRef<LaunchSpec> launches,
                          llvm::ArrayRef<BufferSpec> buffers,
                          llvm::StringRef what);

/// The deadline the client applies to `request`: its timeoutS, else a
/// generous bound from the timing budget.
double requestDeadlineS(const BenchRequest &request);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_BENCHREQUEST_H
