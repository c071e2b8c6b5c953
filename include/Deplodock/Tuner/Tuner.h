//===- Tuner.h - Tuning the kernels of a module -----------------*- C++ -*-===//
//
// The driver behind `deplodock-tune`: every distinct fused kernel of a Loop
// IR module (kernels with equal structural keys once) is searched on its own
// fork tree with a strategy, each finished variant is lowered to CUDA and
// measured by a backend, and what was learnt goes to the tune database (op
// inventories, the lowering hops of every measured path, perf and best
// rows, the context) and, if asked, to a latency table. docs/Tuner/Driver.md
// describes the records.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_TUNER_H
#define DEPLODOCK_TUNER_TUNER_H

#include "Deplodock/Tuner/Backend.h"
#include "Deplodock/Tuner/LatencyTable.h"
#include "Deplodock/Tuner/Search.h"
#include "Deplodock/Tuner/TuneDb.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace deplodock::tuner {

/// A variant the tuner has just measured.
struct TuneProgress {
  /// The kernel and the variant's 1-based number in its tuning.
  llvm::StringRef kernel;
  size_t variant = 0;
  llvm::StringRef knobs;
  const BackendResult &result;
  /// The best valid latency of the kernel so far (this one included).
  std::optional<double> bestUs;
  bool improved = false;
  /// Seconds spent building the variant's Tile IR, then lowering it to CUDA.
  double materializeSeconds = 0;
  double lowerSeconds = 0;
};

struct TuneOptions {
  /// The search strategy (searchStrategyNames()).
  std::string strategy = "mcts";
  /// Budgets, patience, exploration constant and seed of every kernel's
  /// search. `onMeasured` is the tuner's own; use `onProgress`.
  SearchOptions search;
  /// Called after every measured variant.
  std::function<void(const TuneProgress &)> onProgress;
  /// Cursors each kernel's fork tree keeps (ForkTreeSpace).
  size_t cacheCapacity = 8;
};

/// What tuning found for one distinct kernel.
struct KernelTuneResult {
  /// The kernel tuned, and the other kernels with its structural key.
  std::string name;
  std::vector<std::string> sameAs;
  std::string loopKey;
  /// The heuristic default (option 0 at every fork) and the best variant;
  /// latencies are missing when no measurement was valid.
  std::string defaultKnobs;
  std::optional<double> defaultUs;
  std::string bestKnobs;
  std::optional<double> bestUs;
  /// Distinct variants measured (the default included) and failed.
  size_t measured = 0;
  size_t failed = 0;
  /// Nodes of the fork tree created, and the most cursors held at once.
  size_t treeNodes = 0;
  size_t cachedCursors = 0;
  StopReason stopReason = StopReason::Exhausted;
  /// Wall time of the whole tuning, and the parts spent building Tile IR,
  /// lowering it to CUDA and in the backend.
  double seconds = 0;
  double materializeSeconds = 0;
  double lowerSeconds = 0;
  double backendSeconds = 0;

  /// The speed-up of the best over the default, when both are known.
  std::optional<double> speedup() const;
};

/// Tunes kernels with one backend for one target, recording into a database
/// and a latency table when given.
class Tuner {
public:
  /// `db` and `table` may be null. Records the backend's context in `db`.
  static mlir::FailureOr<Tuner> create(Backend &backend,
                                       const dtile::Target &target, TuneDb *db,
                                       LatencyTable *table, std::string &error);

  /// Tunes the Loop IR kernel `kernel` whose structural key is `loopKey`.
  /// Fails with a message when the tree cannot be built, the backend cannot
  /// answer or the database cannot be written; a variant that fails to
  /// lower or run is a failed measurement, not an error.
  mlir::FailureOr<KernelTuneResult> tuneKernel(dloop::KernelOp kernel,
                                               llvm::StringRef loopKey,
                                               const TuneOptions &options,
                                               std::string &error);

  /// Tunes every distinct kernel of `kernels` (Loop IR) in order; kernels
  /// whose structural key was seen are listed in the first one's `sameAs`.
  mlir::FailureOr<std::vector<KernelTuneResult>>
  tuneKernels(llvm::ArrayRef<dloop::KernelOp> kernels,
              const TuneOptions &options, std::string &error);

  /// tuneKernels on every kernel of `module`.
  mlir::FailureOr<std::vector<KernelTuneResult>>
  tuneModule(mlir::ModuleOp module, const TuneOptions &options,
             std::string &error);

private:
  Tuner(Backend &backend, const dtile::Target &target, TuneDb *db,
        LatencyTable *table)
      : backend(&backend), target(target), db(db), table(table) {}

  Backend *backend;
  dtile::Target target;
  TuneDb *db;
  LatencyTable *table;
};

/// Compares `strategies` on the fork tree of `kernel` with `backend` (meant
/// for the replay backend: the same latencies for all) and `options`.
/// Records nothing.
mlir::FailureOr<ComparisonReport>
compareOnKernel(dloop::KernelOp kernel, llvm::StringRef loopKey,
                Backend &backend, const dtile::Target &target,
                llvm::ArrayRef<llvm::StringRef> strategies,
                const SearchOptions &options, std::string &error);

/// How long lowering one variant of a kernel from Loop IR to CUDA takes.
struct LoweringTiming {
  size_t variants = 0;
  double meanMs = 0;
  double medianMs = 0;
  double maxMs = 0;
};

/// Lowers `count` seeded random variants of `kernel` from scratch (tileify,
/// every rule, Kernel IR, CUDA; nothing cached between them) and times each.
mlir::FailureOr<LoweringTiming> timeVariantLowering(dloop::KernelOp kernel,
                                                    const dtile::Target &target,
                                                    size_t count, uint64_t seed,
                                                    std::string &error);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_TUNER_H
