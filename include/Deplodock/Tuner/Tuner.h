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

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ThreadPool.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace deplodock::tuner {

/// Where the latency of a variant came from.
enum class VariantSource : uint8_t {
  /// The backend measured it now.
  Measured,
  /// The database held its knobs (or its CUDA) from an earlier run: resumed,
  /// not measured again.
  Recorded,
  /// An earlier variant of this run lowered to the same CUDA: its latency.
  SameCuda,
};

/// A variant the tuner has just measured.
struct TuneProgress {
  /// The kernel and the variant's 1-based number in its tuning, of `budget`
  /// when there is a variant budget.
  llvm::StringRef kernel;
  size_t variant = 0;
  std::optional<size_t> budget;
  llvm::StringRef knobs;
  const BackendResult &result;
  VariantSource source = VariantSource::Measured;
  /// The best valid latency of the kernel so far (this one included).
  std::optional<double> bestUs;
  bool improved = false;
  /// Seconds spent building the variant's Tile IR, then lowering it to CUDA.
  double materializeSeconds = 0;
  double lowerSeconds = 0;
  /// Seconds since the kernel's tuning began, and the estimated seconds
  /// left when a variant or time budget bounds it.
  double elapsedSeconds = 0;
  std::optional<double> etaSeconds;
};

struct KernelTuneResult;

struct TuneOptions {
  /// The search strategy (searchStrategyNames()).
  std::string strategy = "mcts";
  /// Budgets, patience, exploration constant and seed of every kernel's
  /// search. `onMeasured` is the tuner's own; use `onProgress`.
  SearchOptions search;
  /// Called after every measured variant.
  std::function<void(const TuneProgress &)> onProgress;
  /// Called when a kernel's tuning ends (index among the distinct kernels,
  /// their count), e.g. for one line per kernel.
  std::function<void(const KernelTuneResult &, size_t, size_t)> onKernel;
  /// Cursors each kernel's fork tree keeps (ForkTreeSpace).
  size_t cacheCapacity = 8;
  /// Threads that lower variants (a batch's, the prior's candidates) at
  /// once; 0: one per hardware thread, 1: none besides the caller's. The
  /// results, their order and the records are the same for every value.
  unsigned jobs = 0;
  /// Skip variants the database already holds for the kernel in the
  /// backend's context (a killed or shorter tuning resumes); false measures
  /// them again.
  bool resume = true;
  /// Measure first, in every kernel, the winners the database holds for
  /// kernels equal up to extents (structuralFamilyKey).
  bool warmStart = true;
  /// A variant budget for all the kernels together (0: none): each kernel
  /// gets a share in proportion to the time it could save (its default
  /// latency above its roofline floor, times its instances), at least one
  /// variant. Replaces search.maxVariants.
  size_t totalVariants = 0;
  /// Rank candidates by the roofline model before measuring ("model"), or
  /// not ("none"). Empty: the model, except on the model backend and on
  /// tables the model recorded, where the prior would be the measurement.
  std::string prior;
  /// Perturb the prior by this log-normal sigma (evaluating searches).
  double priorNoise = 0;
  /// Stop the whole tuning after the variant with this 1-based number in
  /// the run has been recorded, by SIGKILL (tests of resuming; 0: never).
  size_t killAfter = 0;
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
  /// The model's floor for the kernel (sm target's reference GPU), if known.
  std::optional<double> floorUs;
  /// Distinct variants seen (the default included), failed, taken from the
  /// database, and sharing the CUDA of an earlier variant.
  size_t measured = 0;
  size_t failed = 0;
  size_t recorded = 0;
  size_t sameCuda = 0;
  /// Variants measured first because a similar kernel won with them.
  size_t warmStarts = 0;
  /// The variant budget it had (0: none).
  size_t budget = 0;
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
  static llvm::Expected<Tuner> create(Backend &backend,
                                      const dtile::Target &target, TuneDb *db,
                                      LatencyTable *table);

  /// Tunes the Loop IR kernel `kernel` whose structural key is `loopKey`.
  /// Fails with a message when the tree cannot be built, the backend cannot
  /// answer or the database cannot be written; a variant that fails to
  /// lower or run is a failed measurement, not an error.
  llvm::Expected<KernelTuneResult> tuneKernel(dloop::KernelOp kernel,
                                              llvm::StringRef loopKey,
                                              const TuneOptions &options);

  /// Tunes every distinct kernel of `kernels` (Loop IR) in order; kernels
  /// whose structural key was seen are listed in the first one's `sameAs`.
  llvm::Expected<std::vector<KernelTuneResult>>
  tuneKernels(llvm::ArrayRef<dloop::KernelOp> kernels,
              const TuneOptions &options);

  /// tuneKernels on every kernel of `module`.
  llvm::Expected<std::vector<KernelTuneResult>>
  tuneModule(mlir::ModuleOp module, const TuneOptions &options);

  Tuner(Tuner &&);
  ~Tuner();

private:
  struct Session;

  Tuner(Backend &backend, const dtile::Target &target, TuneDb *db,
        LatencyTable *table)
      : backend(&backend), target(target), db(db), table(table) {}
  /// Builds a kernel's fork tree and measures its default variant.
  llvm::Expected<std::unique_ptr<Session>> begin(dloop::KernelOp kernel,
                                                 llvm::StringRef loopKey,
                                                 const TuneOptions &options);
  /// Paths to the winners of the kernel's family, to measure first; none of
  /// `known` (the seeds before them).
  llvm::Expected<std::vector<std::vector<unsigned>>>
  warmStarts(Session &session, const TuneOptions &options,
             llvm::ArrayRef<std::vector<unsigned>> known);
  /// The pool that lowers variants for `options.jobs` (null: lower on the
  /// calling thread), made the first time it is asked for.
  llvm::ThreadPoolInterface *getPool(const TuneOptions &options,
                                     mlir::MLIRContext &context);
  /// Searches a begun kernel with `budget` variants (0: no budget).
  llvm::Expected<KernelTuneResult>
  search(Session &session, const TuneOptions &options, size_t budget);

  Backend *backend;
  dtile::Target target;
  TuneDb *db;
  LatencyTable *table;
  /// Variants measured so far in this run, for TuneOptions::killAfter.
  size_t runVariants = 0;
  std::unique_ptr<llvm::DefaultThreadPool> pool;
  /// The winners of this run by family key (for runs without a database).
  llvm::StringMap<std::vector<llvm::json::Object>> familyWinners;
};

/// Compares `strategies` on the fork tree of `kernel` with `backend` (meant
/// for deterministic backends, model or replay: the same latencies for all)
/// and `options`; each variant is lowered and measured once however many
/// runs meet it. Records nothing.
llvm::Expected<ComparisonReport>
compareOnKernel(dloop::KernelOp kernel, llvm::StringRef loopKey,
                Backend &backend, const dtile::Target &target,
                llvm::ArrayRef<llvm::StringRef> strategies,
                const SearchOptions &options, const CompareOptions &compare,
                llvm::StringRef prior = "", double priorNoise = 0);

/// Whether TuneOptions::prior `prior` means the model prior with `backend`.
bool usesModelPrior(llvm::StringRef prior, const Backend &backend);

/// The size of a kernel's fork tree, estimated from random walks (Knuth's
/// estimator: the product of the fan-outs a uniform walk meets).
struct TreeSizeEstimate {
  size_t walks = 0;
  /// Terminals: the mean of the walks' products and its standard error.
  double terminals = 0;
  double standardError = 0;
  /// Forks per walk (mean) and the widest fork met.
  double depth = 0;
  size_t widestFork = 0;
};

/// Estimates the terminals of `kernel`'s fork tree from `walks` seeded
/// uniform walks.
llvm::Expected<TreeSizeEstimate> estimateTreeSize(dloop::KernelOp kernel,
                                                  const dtile::Target &target,
                                                  size_t walks, uint64_t seed);

/// How long lowering one variant of a kernel from Loop IR to CUDA takes.
struct LoweringTiming {
  size_t variants = 0;
  double meanMs = 0;
  double medianMs = 0;
  double maxMs = 0;
};

/// Lowers `count` seeded random variants of `kernel` from scratch (tileify,
/// every rule, Kernel IR, CUDA; nothing cached between them) and times each.
llvm::Expected<LoweringTiming> timeVariantLowering(dloop::KernelOp kernel,
                                                   const dtile::Target &target,
                                                   size_t count, uint64_t seed);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_TUNER_H
