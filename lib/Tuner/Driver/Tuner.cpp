//===- Tuner.cpp - Tuning the kernels of a module -------------------------===//
//
// One kernel: a ForkTreeSpace, an evaluator that turns a terminal into a
// Variant, asks the backend, and records the result, and a strategy walking
// the space. The evaluator measures each terminal once (the default variant
// is measured before the search, which then finds it cached). An error it
// cannot turn into a failed variant (the backend cannot answer, the database
// cannot be written) cancels the search and is returned.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/Tuner.h"

#include "Deplodock/Tuner/ForkTree.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "mlir/IR/BuiltinOps.h"

#include <chrono>
#include <unordered_map>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

std::optional<double> KernelTuneResult::speedup() const {
  if (!defaultUs || !bestUs || *bestUs <= 0)
    return std::nullopt;
  return *defaultUs / *bestUs;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

namespace {

/// Measures the terminals of one kernel's fork tree and records them.
class VariantEvaluator : public Evaluator {
public:
  VariantEvaluator(ForkTreeSpace &space, Backend &backend,
                   const dtile::Target &target, StringRef name,
                   StringRef loopKey, TuneDb *db, LatencyTable *table,
                   const TuneOptions *options)
      : space(space), backend(backend), target(target), name(name.str()),
        loopKey(loopKey.str()), db(db), table(table), options(options) {}

  Measurement measure(NodeId node) override {
    auto known = results.find(node);
    if (known != results.end())
      return known->second;
    Measurement m = measureOnce(node);
    results.emplace(node, m);
    return m;
  }

  /// The first error that stopped the search, if any.
  const std::optional<std::string> &getError() const { return error; }
  bool hasError() const { return error.has_value(); }

  size_t numMeasured() const { return results.size(); }
  size_t numFailed() const { return failedCount; }
  std::optional<double> getBestUs() const { return bestUs; }
  StringRef getBestKnobs() const { return bestKnobs; }
  /// The knobs text of a measured terminal.
  std::string knobsOf(NodeId node) {
    return dtile::formatKnobsOption("", space.getKnobs(node));
  }

  double materializeSeconds = 0;
  double lowerSeconds = 0;
  double backendSeconds = 0;

private:
  Measurement fail(std::string message) {
    if (!error)
      error = std::move(message);
    return Measurement::failure(MeasureStatus::CompileFail);
  }

  Measurement measureOnce(NodeId node) {
    if (error)
      return Measurement::failure(MeasureStatus::CompileFail);
    auto start = std::chrono::steady_clock::now();
    const dtile::ForkCursor *cursor = space.getCursor(node);
    double materialize = secondsSince(start);
    materializeSeconds += materialize;
    if (!cursor || !cursor->isDone())
      return fail("internal error: variant " + std::to_string(node) + " of @" +
                  name + " is not a finished kernel");

    std::string why;
    BackendResult result;
    FailureOr<Variant> variant = lowerVariant(*cursor, loopKey, target, why);
    std::string knobsText = dtile::formatKnobsOption("", space.getKnobs(node));
    if (failed(variant)) {
      result = BackendResult::failure(MeasureStatus::CompileFail, why);
    } else {
      lowerSeconds += variant->loweringSeconds;
      auto measureStart = std::chrono::steady_clock::now();
      FailureOr<BackendResult> measured = backend.measure(*variant, why);
      backendSeconds += secondsSince(measureStart);
      if (failed(measured))
        return fail(why);
      result = std::move(*measured);
    }
    const Measurement &m = result.measurement;
    bool improved = false;
    if (!m.isValid()) {
      ++failedCount;
    } else if (!bestUs || m.medianUs < *bestUs) {
      bestUs = m.medianUs;
      bestKnobs = knobsText;
      improved = true;
    }
    if (db && failed(record(node, succeeded(variant) ? &*variant : nullptr,
                            knobsText, result, why)))
      return fail(why);
    if (table) {
      LatencyEntry entry;
      entry.status = m.status;
      entry.medianUs = m.medianUs;
      entry.minUs = m.minUs;
      entry.maxUs = m.maxUs;
      entry.samples = m.samples;
      entry.detail = m.status == MeasureStatus::Ok ? "" : result.detail;
      table->add(loopKey, name, knobsText, entry);
    }
    if (options && options->onProgress)
      options->onProgress(TuneProgress{
          name, results.size() + 1, knobsText, result, bestUs, improved,
          materialize, succeeded(variant) ? variant->loweringSeconds : 0});
    return m;
  }

  /// Writes the rows of one measured variant in one transaction.
  LogicalResult record(NodeId node, const Variant *variant,
                       const std::string &knobsText,
                       const BackendResult &result, std::string &why) {
    FailureOr<TuneDb::Transaction> tx = db->beginTransaction(why);
    if (failed(tx))
      return failure();
    StringRef context = backend.getContext().key;
    const Measurement &m = result.measurement;
    std::optional<double> median =
        m.isValid() ? std::optional<double>(m.medianUs) : std::nullopt;
    dtile::KnobsAttr knobs = space.getKnobs(node);
    std::string tileKey = forkPointKey(loopKey, knobs);

    // The hops of the path: Loop -> root Tile, one per fork, then the
    // finished Tile -> Kernel -> CUDA.
    auto hop = [&](StringRef parent, OpLevel parentLevel, StringRef child,
                   OpLevel childLevel, llvm::json::Object delta) {
      LoweringRow row;
      row.contextKey = context.str();
      row.parentKey = parent.str();
      row.parentLevel = parentLevel;
      row.childKey = child.str();
      row.childLevel = childLevel;
      row.knobs = std::move(delta);
      row.bestMedianUs = median;
      return db->recordLowering(row, why);
    };
    SmallVector<NodeId> path = space.getAncestry(node);
    std::string parentKey = forkPointKey(loopKey, space.getKnobs(path[0]));
    if (failed(hop(loopKey, OpLevel::Loop, parentKey, OpLevel::Tile, {})))
      return failure();
    for (NodeId step : ArrayRef<NodeId>(path).drop_front()) {
      std::string childKey = forkPointKey(loopKey, space.getKnobs(step));
      if (failed(hop(parentKey, OpLevel::Tile, childKey, OpLevel::Tile,
                     knobsToJson(space.getDelta(step)))))
        return failure();
      parentKey = std::move(childKey);
    }

    PerfRow perf;
    perf.contextKey = context.str();
    perf.backend = backend.getName().str();
    perf.kernelKey = loopKey;
    perf.status = m.status;
    perf.knobs = knobsToJson(knobs);
    perf.detail = result.detail;
    if (m.status == MeasureStatus::Ok) {
      PerfStats stats;
      stats.medianUs = m.medianUs;
      stats.minUs = m.minUs;
      stats.maxUs = m.maxUs;
      stats.meanUs = result.meanUs;
      stats.varianceUs2 = result.varianceUs2;
      stats.numSamples = std::max<int64_t>(m.samples, 1);
      perf.stats = stats;
    }
    if (variant) {
      if (failed(
              db->recordOp(OpLevel::Tile, tileKey, variant->tileText, why)) ||
          failed(db->recordOp(OpLevel::Kernel, variant->kernelKey,
                              variant->kernelText, why)) ||
          failed(db->recordCudaOp(variant->getCudaOpRow(), why)) ||
          failed(hop(tileKey, OpLevel::Tile, variant->kernelKey,
                     OpLevel::Kernel, {})) ||
          failed(hop(variant->kernelKey, OpLevel::Kernel, variant->cudaKey,
                     OpLevel::Cuda, {})))
        return failure();
      perf.opKey = variant->cudaKey;
    } else {
      // Nothing below the Tile IR exists: the failure is the tile op's.
      perf.opKey = tileKey;
    }
    if (failed(db->recordPerf(perf, why)))
      return failure();
    return tx->commit(why);
  }

  ForkTreeSpace &space;
  Backend &backend;
  const dtile::Target &target;
  std::string name;
  std::string loopKey;
  TuneDb *db;
  LatencyTable *table;
  const TuneOptions *options;

  std::unordered_map<NodeId, Measurement> results;
  size_t failedCount = 0;
  std::optional<double> bestUs;
  std::string bestKnobs;
  std::optional<std::string> error;
};

} // namespace

FailureOr<Tuner> Tuner::create(Backend &backend, const dtile::Target &target,
                               TuneDb *db, LatencyTable *table,
                               std::string &error) {
  if (db && failed(db->recordContext(backend.getContext(), error)))
    return failure();
  if (table) {
    table->target = target.getName().str();
    table->recordedWith = backend.getName().str();
    table->recordedContext = backend.getContext().key;
  }
  return Tuner(backend, target, db, table);
}

/// The first error diagnostic reported while `fn` runs, as text.
template <typename Fn>
static std::string captureErrors(MLIRContext *context, Fn fn) {
  std::string text;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && text.empty())
      text = diag.str();
    return success();
  });
  fn();
  return text;
}

FailureOr<KernelTuneResult> Tuner::tuneKernel(dloop::KernelOp kernel,
                                              StringRef loopKey,
                                              const TuneOptions &options,
                                              std::string &error) {
  auto start = std::chrono::steady_clock::now();
  KernelTuneResult result;
  result.name = kernel.getSymName().str();
  result.loopKey = loopKey.str();

  FailureOr<std::unique_ptr<ForkTreeSpace>> space;
  std::string why = captureErrors(kernel.getContext(), [&] {
    space = ForkTreeSpace::create(kernel, target, options.cacheCapacity);
  });
  if (failed(space)) {
    error = "cannot build the fork tree of @" + result.name +
            (why.empty() ? "" : ": " + why);
    return failure();
  }
  if (db) {
    std::string text;
    llvm::raw_string_ostream(text) << kernel;
    if (failed(db->recordOp(OpLevel::Loop, loopKey, text, error)))
      return failure();
    // Every fork point's Tile IR, once, as the search first builds it.
    auto recordTile = [&](NodeId, const dtile::ForkCursor &cursor) {
      if (!why.empty())
        return;
      std::string tile;
      llvm::raw_string_ostream(tile) << cursor.getKernel();
      (void)db->recordOp(OpLevel::Tile,
                         forkPointKey(loopKey, cursor.getKnobs()), tile, why);
    };
    recordTile(0, *(*space)->getCursor(0));
    (*space)->setVisitor(recordTile);
    if (!why.empty()) {
      error = why;
      return failure();
    }
  }

  if (failed(backend->beginKernel(kernel, loopKey, error)))
    return failure();
  VariantEvaluator evaluator(**space, *backend, target, result.name, loopKey,
                             db, table, &options);
  // The heuristic default first: the reference of the speed-up.
  FailureOr<NodeId> fallback = (*space)->defaultTerminal();
  if (succeeded(fallback)) {
    Measurement m = evaluator.measure(*fallback);
    result.defaultKnobs = evaluator.knobsOf(*fallback);
    if (m.isValid())
      result.defaultUs = m.medianUs;
  }

  llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
      createSearchStrategy(options.strategy, "--search");
  if (!strategy) {
    error = llvm::toString(strategy.takeError());
    return failure();
  }
  SearchOptions search = options.search;
  search.onMeasured = nullptr;
  std::function<bool()> userCancel = options.search.cancelled;
  search.cancelled = [&] {
    return evaluator.hasError() || !why.empty() || (userCancel && userCancel());
  };
  SearchResult found = evaluator.hasError()
                           ? SearchResult()
                           : (*strategy)->run(**space, evaluator, search);
  if (evaluator.hasError()) {
    error = *evaluator.getError();
    return failure();
  }
  if (!why.empty()) {
    error = why;
    return failure();
  }
  result.bestUs = evaluator.getBestUs();
  result.bestKnobs = evaluator.getBestKnobs().str();
  result.measured = evaluator.numMeasured();
  result.failed = evaluator.numFailed();
  result.treeNodes = (*space)->getNumNodes();
  result.cachedCursors = (*space)->getNumCachedCursors();
  result.stopReason = found.stopReason;
  // Building Tile IR happens wherever the search first touches a node.
  result.materializeSeconds = (*space)->getReplaySeconds();
  result.lowerSeconds = evaluator.lowerSeconds;
  result.backendSeconds = evaluator.backendSeconds;
  result.seconds = secondsSince(start);
  return result;
}

FailureOr<std::vector<KernelTuneResult>>
Tuner::tuneKernels(ArrayRef<dloop::KernelOp> kernels,
                   const TuneOptions &options, std::string &error) {
  std::vector<KernelTuneResult> results;
  llvm::StringMap<size_t> byKey;
  for (dloop::KernelOp kernel : kernels) {
    std::string key = structuralKey(kernel);
    auto [it, fresh] = byKey.try_emplace(key, results.size());
    if (!fresh) {
      results[it->second].sameAs.push_back(kernel.getSymName().str());
      continue;
    }
    FailureOr<KernelTuneResult> tuned = tuneKernel(kernel, key, options, error);
    if (failed(tuned))
      return failure();
    results.push_back(std::move(*tuned));
  }
  return results;
}

FailureOr<std::vector<KernelTuneResult>>
Tuner::tuneModule(ModuleOp module, const TuneOptions &options,
                  std::string &error) {
  SmallVector<dloop::KernelOp> kernels;
  module.walk([&](dloop::KernelOp kernel) { kernels.push_back(kernel); });
  return tuneKernels(kernels, options, error);
}

FailureOr<ComparisonReport>
tuner::compareOnKernel(dloop::KernelOp kernel, StringRef loopKey,
                       Backend &backend, const dtile::Target &target,
                       ArrayRef<StringRef> strategies,
                       const SearchOptions &options, std::string &error) {
  FailureOr<std::unique_ptr<ForkTreeSpace>> space;
  std::string why = captureErrors(kernel.getContext(), [&] {
    space = ForkTreeSpace::create(kernel, target);
  });
  if (failed(space)) {
    error = "cannot build the fork tree of @" + kernel.getSymName().str() +
            (why.empty() ? "" : ": " + why);
    return failure();
  }
  VariantEvaluator evaluator(**space, backend, target, kernel.getSymName(),
                             loopKey, /*db=*/nullptr, /*table=*/nullptr,
                             /*options=*/nullptr);
  SearchOptions search = options;
  std::function<bool()> userCancel = options.cancelled;
  search.cancelled = [&] {
    return evaluator.hasError() || (userCancel && userCancel());
  };
  llvm::Expected<ComparisonReport> report =
      compareStrategies(**space, evaluator, strategies, search);
  if (!report) {
    error = llvm::toString(report.takeError());
    return failure();
  }
  if (evaluator.hasError()) {
    error = *evaluator.getError();
    return failure();
  }
  return std::move(*report);
}
