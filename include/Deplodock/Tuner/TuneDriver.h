//===- TuneDriver.h - deplodock-tune as a library function ------*- C++ -*-===//
//
// Everything deplodock-tune does, behind one options struct: tune the
// kernels of a layer (or compare strategies on them, or time their
// lowering), and inspect or prune the tune database. The tool only turns
// its flags into TuneDriverOptions; embedders call runTuneDriver directly.
// docs/Tuner/Driver.md describes the flags and the output.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_TUNEDRIVER_H
#define DEPLODOCK_TUNER_TUNEDRIVER_H

#include "Deplodock/Tuner/CudaBackend.h"
#include "Deplodock/Tuner/Search.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace deplodock::tuner {

/// What runTuneDriver does.
enum class TuneMode : uint8_t {
  /// Tune the input's kernels (the default).
  Tune,
  /// Compare strategies on every kernel; record nothing.
  Compare,
  /// Time the lowering of seeded random variants of every kernel.
  TimeLowering,
  /// Estimate the variants of every kernel's fork tree.
  CountVariants,
  /// List the database: contexts, row counts, each kernel's best.
  ListDb,
  /// Show one kernel's measured variants, in every context.
  ShowKernel,
  /// Delete one context and its rows.
  PruneContext,
};

struct TuneDriverOptions {
  TuneMode mode = TuneMode::Tune;
  /// The layer (MLIR at the Tensor level or below); "-" is stdin.
  std::string inputFile;
  std::string target = "sm_90";
  /// Precision of FP32 contractions: "ieee", "tf32" (TF32 tensor cores), or
  /// "" for the input module's own (its `dtile.tf32`). Variants of each
  /// precision are recorded in a context of their own.
  std::string precision;
  /// Only the kernel with this name (empty: all).
  std::string kernel;

  /// The tune database: unset, $DEPLODOCK_TUNE_DB or the default path; an
  /// empty path is refused. `noDb` records nothing.
  std::optional<std::string> dbPath;
  bool noDb = false;

  std::string strategy = "mcts";
  /// Budgets, patience, exploration and seed of each kernel's search.
  SearchOptions search;
  /// TuneOptions::resume, warmStart, totalVariants, killAfter.
  bool resume = true;
  /// Threads lowering variants at once (TuneOptions::jobs; 0: one per
  /// hardware thread).
  unsigned jobs = 0;
  bool warmStart = true;
  /// TuneOptions::prior and priorNoise.
  std::string prior;
  double priorNoise = 0;
  size_t totalVariants = 0;
  size_t killAfter = 0;

  /// "model", "replay" or "cuda".
  std::string backend = "model";
  std::string replayTable;
  /// The cuda backend's workers; an empty worker path is found beside
  /// `programName` (findBenchWorker).
  CudaBackendOptions cuda;
  std::string programName;

  /// Write every measured latency to this table; the winners as a knobs=
  /// option to this file.
  std::string recordTable;
  std::string knobsOut;
  /// Output: none but the table, per variant details, JSON instead of text.
  bool quiet = false;
  bool verbose = false;
  bool json = false;

  /// TuneMode::Compare: the strategies and how to compare them, and a
  /// latency table whose fastest variant per kernel is the best known (the
  /// reference when no run finds better).
  std::vector<std::string> compare;
  CompareOptions compareOptions;
  std::string referenceTable;
  /// TuneMode::TimeLowering: variants per kernel; TuneMode::CountVariants:
  /// random walks per kernel.
  unsigned timeLowering = 0;
  unsigned countWalks = 0;
  /// TuneMode::ShowKernel: a kernel name or a prefix of its key;
  /// TuneMode::PruneContext: a context key or a prefix of it.
  std::string subject;
};

/// Checks what can be checked without the input; the message names the flag.
llvm::Error validateTuneOptions(const TuneDriverOptions &options);

/// Runs `options`: the report on `out`, progress and diagnostics on `err`.
/// An error is returned with its message (the input's diagnostics are
/// already on `err`).
llvm::Error runTuneDriver(mlir::MLIRContext &context,
                          const TuneDriverOptions &options,
                          llvm::raw_ostream &out, llvm::raw_ostream &err);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_TUNEDRIVER_H
