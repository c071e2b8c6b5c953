//===- VariantEvaluator.h - Measuring and recording fork-tree leaves -*- C++
//-*-//
//
// The evaluator the tuner gives a search: it turns a terminal of a kernel's
// fork tree into a Variant (Kernel IR, CUDA), asks the backend for its
// latency unless the database already holds it (resuming) or an earlier
// variant lowered to the same CUDA, and records what it learnt: the lowering
// hops of the path, the perf row (one transaction per variant), the latency
// table. A batch is lowered here, one after the other, and measured by the
// backend together (one GPU each). An error it cannot turn into a failed
// variant (the backend cannot answer, the database cannot be written) is
// kept, and the search is cancelled.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_DRIVER_VARIANTEVALUATOR_H
#define DEPLODOCK_LIB_TUNER_DRIVER_VARIANTEVALUATOR_H

#include "Deplodock/Tuner/ForkTree.h"
#include "Deplodock/Tuner/Tuner.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>
#include <unordered_map>

namespace deplodock::tuner::detail {

class VariantEvaluator : public Evaluator {
public:
  /// `db`, `table` and `options` may be null. `runVariants` counts the
  /// variants measured in the whole run (for TuneOptions::killAfter).
  VariantEvaluator(ForkTreeSpace &space, Backend &backend,
                   const dtile::Target &target, llvm::StringRef name,
                   llvm::StringRef loopKey, TuneDb *db, LatencyTable *table,
                   const TuneOptions *options, size_t *runVariants = nullptr);
  ~VariantEvaluator() override;

  /// Reads the variants the database holds for this kernel in the
  /// backend's context, so they are not measured again.
  llvm::Error loadRecorded();

  Measurement measure(NodeId node) override;
  unsigned getParallelism() const override { return backend.getParallelism(); }
  void measureBatch(llvm::ArrayRef<NodeId> nodes,
                    llvm::SmallVectorImpl<Measurement> &out) override;
  /// A backend that measures on a device measures a started batch on a
  /// thread of its own (the worker's round trips) while the search goes on;
  /// the batch is lowered before, and recorded after, on this thread.
  bool canMeasureAhead() const override { return backend.measuresOnDevice(); }
  void startBatch(llvm::ArrayRef<NodeId> nodes) override;
  void finishBatch(llvm::SmallVectorImpl<Measurement> &out) override;
  /// Lowers `nodes` on the pool now (with one) and keeps them for their
  /// measurement; the records are written when they are measured.
  void prefetch(llvm::ArrayRef<NodeId> nodes) override;

  /// Where a batch's variants are lowered, several at once (null: one after
  /// the other).
  void setThreadPool(llvm::ThreadPoolInterface *threads) { pool = threads; }

  /// The variant budget progress lines count against (0: none).
  void setBudget(size_t variants) { budget = variants; }

  /// The first error that stopped the search, if any (taken once).
  bool hasError() const { return error.has_value(); }
  llvm::Error takeError();

  size_t numMeasured() const { return results.size(); }
  size_t numFailed() const { return failedCount; }
  size_t numRecorded() const { return recordedCount; }
  size_t numSameCuda() const { return sameCudaCount; }
  std::optional<double> getBestUs() const { return bestUs; }
  llvm::StringRef getBestKnobs() const { return bestKnobs; }
  std::optional<NodeId> getBestNode() const { return bestNode; }
  /// The knobs text of a terminal.
  std::string knobsOf(NodeId node);

  double materializeSeconds = 0;
  double lowerSeconds = 0;
  double backendSeconds = 0;

private:
  /// A terminal on its way through measureBatch.
  struct Pending;
  /// A batch between startBatch and finishBatch.
  struct Batch;

  Measurement fail(std::string message);
  /// Builds `node` and finds its latency in the records if it can, else
  /// begins its lowering.
  void prepare(NodeId node, Pending &pending);
  /// Finishes the lowering (safe on a pool thread: it touches only
  /// `pending`).
  void lower(Pending &pending);
  /// Finds the lowered variant's latency without the backend if it can.
  void settle(Pending &pending);
  /// Updates the best, writes the records and reports one variant.
  void finish(Pending &pending);
  /// Writes the rows of one measured variant in one transaction.
  llvm::Error record(const Pending &pending);

  ForkTreeSpace &space;
  Backend &backend;
  const dtile::Target &target;
  std::string name;
  std::string loopKey;
  TuneDb *db;
  LatencyTable *table;
  const TuneOptions *options;
  size_t *runVariants;
  size_t budget = 0;
  llvm::ThreadPoolInterface *pool = nullptr;
  std::chrono::steady_clock::time_point start;

  std::unordered_map<NodeId, Measurement> results;
  /// Fork points whose Tile IR the database has (record()).
  llvm::DenseSet<NodeId> recordedForkPoints;
  /// The started batch, if any.
  std::unique_ptr<Batch> started;
  /// Terminals lowered ahead by prefetch, not measured yet.
  std::unordered_map<NodeId, std::unique_ptr<Pending>> prefetched;
  /// Recorded results by canonical knobs JSON, and this run's by CUDA key.
  llvm::StringMap<BackendResult> recorded;
  llvm::StringMap<BackendResult> byCuda;
  size_t failedCount = 0, recordedCount = 0, sameCudaCount = 0;
  std::optional<double> bestUs;
  std::string bestKnobs;
  std::optional<NodeId> bestNode;
  std::optional<std::string> error;
};

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_DRIVER_VARIANTEVALUATOR_H
