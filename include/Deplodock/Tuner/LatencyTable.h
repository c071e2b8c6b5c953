//===- LatencyTable.h - Recorded latencies for the replay backend -*- C++ -*-//
//
// A latency table is a JSON file of the latency of each variant of some
// kernels, keyed by the kernel's structural key and the variant's knobs (as
// `knobs=` option text). `deplodock-tune --record-table` writes one from
// whatever backend it ran; the replay backend reads it back, so search
// strategies can be compared on the same latencies without a GPU.
//
//   {
//     "format": "deplodock-latency-table", "version": 1,
//     "target": "sm_90",
//     "recorded_with": "model", "recorded_context": "model-sm_90-v3",
//     "kernels": {
//       "<structural key>": {
//         "name": "matmul",
//         "variants": {
//           "BK=32,BM=64,BN=64,FM=4,FN=4,stage=[0,1],unroll=4":
//             {"status": "ok", "median_us": 21.5, "min_us": 21.5,
//              "max_us": 21.5, "samples": 1},
//           "BK=16,...": {"status": "launch_fail", "detail": "..."}
//         }}}}
//
// docs/Tuner/Driver.md documents the fields.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_LATENCYTABLE_H
#define DEPLODOCK_TUNER_LATENCYTABLE_H

#include "Deplodock/Tuner/MeasureStatus.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>

namespace deplodock::tuner {

/// The `format` field every table carries.
inline constexpr llvm::StringLiteral kLatencyTableFormat =
    "deplodock-latency-table";
/// The version this build reads and writes.
inline constexpr int64_t kLatencyTableVersion = 1;

/// One recorded variant.
struct LatencyEntry {
  MeasureStatus status = MeasureStatus::Ok;
  /// Required when ok; microseconds.
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  unsigned samples = 0;
  /// Why it failed, if it did.
  std::string detail;
};

/// A table of recorded latencies.
class LatencyTable {
public:
  /// The target the variants were lowered for.
  std::string target;
  /// The backend and context that produced the latencies.
  std::string recordedWith;
  std::string recordedContext;

  /// Reads and checks the table at `path`; fails with a message naming the
  /// file and the bad field.
  static llvm::Expected<LatencyTable> read(llvm::StringRef path);
  /// Parses a table from `text`; `origin` names it in messages.
  static llvm::Expected<LatencyTable> parse(llvm::StringRef text,
                                            llvm::StringRef origin);

  /// The table as JSON text, deterministic (keys sorted, two-space indent).
  std::string print() const;
  /// Writes print() to `path` (atomically: a temporary file, then renamed).
  llvm::Error write(llvm::StringRef path) const;

  /// Adds or replaces the entry of (kernel, knobs).
  void add(llvm::StringRef kernelKey, llvm::StringRef kernelName,
           llvm::StringRef knobs, const LatencyEntry &entry);
  /// The entry of (kernel, knobs), or null.
  const LatencyEntry *lookup(llvm::StringRef kernelKey,
                             llvm::StringRef knobs) const;
  /// The fastest ok median recorded for a kernel, if any.
  std::optional<double> bestUs(llvm::StringRef kernelKey) const;
  /// The name recorded for a kernel, or "".
  llvm::StringRef getKernelName(llvm::StringRef kernelKey) const;

  /// Kernels and variants held.
  size_t getNumKernels() const { return kernels.size(); }
  size_t getNumVariants() const;

private:
  struct Kernel {
    std::string name;
    std::map<std::string, LatencyEntry> variants;
  };
  std::map<std::string, Kernel> kernels;
};

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_LATENCYTABLE_H
