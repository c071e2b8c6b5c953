//===- VariantEvaluator.cpp - Measuring and recording fork-tree leaves ----===//

#include "VariantEvaluator.h"

#include "Deplodock/Tuner/ConcurrentWork.h"
#include "Deplodock/Tuner/KnobsJson.h"

#include <cassert>
#include <csignal>
#include <future>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

struct VariantEvaluator::Pending {
  NodeId node = 0;
  std::string knobsText;
  std::optional<Variant> variant;
  BackendResult result;
  VariantSource source = VariantSource::Measured;
  /// Whether its lowering was begun and waits for settle(), whether the
  /// backend must measure it, and whether its rows are written.
  bool lowering = false;
  bool lowered = false;
  bool needsBackend = false;
  bool write = true;
  double materializeSeconds = 0;
};

VariantEvaluator::VariantEvaluator(ForkTreeSpace &space, Backend &backend,
                                   const dtile::Target &target, StringRef name,
                                   StringRef loopKey, TuneDb *db,
                                   LatencyTable *table,
                                   const TuneOptions *options,
                                   size_t *runVariants)
    : space(space), backend(backend), target(target), name(name.str()),
      loopKey(loopKey.str()), db(db), table(table), options(options),
      runVariants(runVariants), start(std::chrono::steady_clock::now()) {}

VariantEvaluator::~VariantEvaluator() = default;

/// The measurement a perf row describes.
static BackendResult fromPerfRow(const PerfRow &row) {
  if (row.status != MeasureStatus::Ok || !row.stats)
    return BackendResult::failure(row.status, row.detail);
  BackendResult result;
  Measurement &m = result.measurement;
  m.medianUs = row.stats->medianUs;
  m.minUs = row.stats->minUs;
  m.maxUs = row.stats->maxUs;
  m.samples = static_cast<unsigned>(row.stats->numSamples);
  result.meanUs = row.stats->meanUs;
  result.varianceUs2 = row.stats->varianceUs2;
  result.detail = row.detail;
  return result;
}

llvm::Error VariantEvaluator::loadRecorded() {
  if (!db)
    return llvm::Error::success();
  llvm::Expected<std::vector<PerfRow>> rows =
      db->kernelPerf(backend.getContext().key, loopKey);
  if (!rows)
    return rows.takeError();
  for (const PerfRow &row : *rows)
    if (row.backend == backend.getName())
      recorded.try_emplace(formatKnobs(row.knobs), fromPerfRow(row));
  return llvm::Error::success();
}

llvm::Error VariantEvaluator::takeError() {
  if (!error)
    return llvm::Error::success();
  std::string message = std::move(*error);
  error.reset();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

Measurement VariantEvaluator::fail(std::string message) {
  if (!error)
    error = std::move(message);
  return Measurement::failure(MeasureStatus::CompileFail);
}

std::string VariantEvaluator::knobsOf(NodeId node) {
  return dtile::formatKnobsOption("", space.getKnobs(node));
}

Measurement VariantEvaluator::measure(NodeId node) {
  SmallVector<Measurement, 1> out;
  measureBatch({node}, out);
  return out.front();
}

void VariantEvaluator::prepare(NodeId node, Pending &p) {
  p.node = node;
  auto begin = std::chrono::steady_clock::now();
  const dtile::ForkCursor *cursor = space.getCursor(node);
  p.materializeSeconds = secondsSince(begin);
  materializeSeconds += p.materializeSeconds;
  if (!cursor || !cursor->isDone()) {
    p.result.measurement =
        fail("internal error: variant " + std::to_string(node) + " of @" +
             name + " is not a finished kernel");
    p.write = false;
    return;
  }
  dtile::KnobsAttr knobs = space.getKnobs(node);
  p.knobsText = dtile::formatKnobsOption("", knobs);
  bool resume = !options || options->resume;
  if (resume) {
    auto known = recorded.find(formatKnobsJson(knobs));
    if (known != recorded.end()) {
      p.result = known->second;
      p.source = VariantSource::Recorded;
      p.write = false;
      return;
    }
  }
  // The Tile IR is copied here; lower() finishes it, maybe on the pool.
  p.variant.emplace(beginVariant(*cursor, loopKey));
  p.lowering = true;
}

void VariantEvaluator::lower(Pending &p) {
  p.lowered = true;
  if (llvm::Error e = finishVariant(*p.variant, target)) {
    p.result = BackendResult::failure(MeasureStatus::CompileFail,
                                      llvm::toString(std::move(e)));
    p.variant.reset();
  }
}

void VariantEvaluator::settle(Pending &p) {
  p.lowering = false;
  if (!p.variant)
    return; // It failed to lower: recorded as a compile failure.
  std::optional<Variant> &variant = p.variant;
  lowerSeconds += variant->loweringSeconds;
  bool resume = !options || options->resume;
  auto same = byCuda.find(variant->cudaKey);
  if (same != byCuda.end()) {
    p.result = same->second;
    p.source = VariantSource::SameCuda;
  } else if (db && resume) {
    llvm::Expected<std::optional<PerfRow>> row = db->lookupPerf(
        backend.getContext().key, variant->cudaKey, backend.getName());
    if (!row) {
      p.result.measurement = fail(llvm::toString(row.takeError()));
      p.write = false;
      p.variant.reset();
      return;
    }
    if (*row) {
      p.result = fromPerfRow(**row);
      p.source = VariantSource::Recorded;
    }
  }
  p.needsBackend = p.source == VariantSource::Measured;
}

struct VariantEvaluator::Batch {
  std::vector<NodeId> nodes;
  std::vector<Pending> pending;
  /// The pending entries the backend measures, and its answers (on a
  /// thread of their own when measured ahead).
  std::vector<size_t> measuredIndex;
  std::future<llvm::Expected<std::vector<BackendResult>>> answers;
  double backendSeconds = 0;
};

void VariantEvaluator::measureBatch(ArrayRef<NodeId> nodes,
                                    SmallVectorImpl<Measurement> &out) {
  startBatch(nodes);
  finishBatch(out);
}

void VariantEvaluator::startBatch(ArrayRef<NodeId> nodes) {
  assert(!started && "one batch at a time");
  started = std::make_unique<Batch>();
  Batch &batch = *started;
  batch.nodes.assign(nodes.begin(), nodes.end());
  batch.pending.resize(nodes.size());
  std::vector<Pending> &pending = batch.pending;
  for (auto [i, node] : llvm::enumerate(nodes)) {
    if (results.count(node) || error)
      continue;
    auto ahead = prefetched.find(node);
    if (ahead == prefetched.end()) {
      prepare(node, pending[i]);
      continue;
    }
    pending[i] = std::move(*ahead->second);
    prefetched.erase(ahead);
  }
  // Lowered together on the pool; what each found is looked up in order.
  std::vector<std::function<void()>> work;
  for (Pending &p : pending)
    if (p.lowering && !p.lowered)
      work.push_back([this, &p] { lower(p); });
  runConcurrently(pool, work);
  std::vector<const Variant *> toMeasure;
  for (auto [i, node] : llvm::enumerate(nodes)) {
    if (!pending[i].lowering || error)
      continue;
    settle(pending[i]);
    if (pending[i].needsBackend) {
      toMeasure.push_back(&*pending[i].variant);
      batch.measuredIndex.push_back(i);
    }
  }
  if (toMeasure.empty() || error)
    return;
  auto measureAll = [this, &batch, toMeasure = std::move(toMeasure)] {
    auto begin = std::chrono::steady_clock::now();
    llvm::Expected<std::vector<BackendResult>> answers =
        backend.measureBatch(toMeasure);
    batch.backendSeconds = secondsSince(begin);
    return answers;
  };
  // The variants and the backend are this thread's again only after
  // finishBatch: the search meanwhile only walks the tree.
  batch.answers =
      std::async(canMeasureAhead() ? std::launch::async : std::launch::deferred,
                 std::move(measureAll));
}

void VariantEvaluator::finishBatch(SmallVectorImpl<Measurement> &out) {
  assert(started && "no batch started");
  std::unique_ptr<Batch> batch = std::move(started);
  std::vector<Pending> &pending = batch->pending;
  if (batch->answers.valid()) {
    llvm::Expected<std::vector<BackendResult>> answers = batch->answers.get();
    backendSeconds += batch->backendSeconds;
    if (!answers) {
      fail(llvm::toString(answers.takeError()));
    } else {
      for (auto [i, answer] : llvm::zip(batch->measuredIndex, *answers))
        pending[i].result = std::move(answer);
    }
  }
  for (auto [i, node] : llvm::enumerate(batch->nodes)) {
    auto known = results.find(node);
    if (known != results.end()) {
      out.push_back(known->second);
      continue;
    }
    if (error) {
      out.push_back(Measurement::failure(MeasureStatus::CompileFail));
      continue;
    }
    finish(pending[i]);
    out.push_back(pending[i].result.measurement);
  }
}

void VariantEvaluator::prefetch(ArrayRef<NodeId> nodes) {
  if (!pool)
    return; // Nothing to gain: they would be lowered one by one anyway.
  std::vector<std::unique_ptr<Pending>> ahead;
  for (NodeId node : nodes) {
    if (error || results.count(node) || prefetched.count(node))
      continue;
    auto p = std::make_unique<Pending>();
    prepare(node, *p);
    // Only the lowering is worth doing ahead; the rest is redone in order.
    if (p->lowering)
      ahead.push_back(std::move(p));
  }
  std::vector<std::function<void()>> work;
  for (std::unique_ptr<Pending> &p : ahead)
    work.push_back([this, &p = *p] { lower(p); });
  runConcurrently(pool, work);
  for (std::unique_ptr<Pending> &p : ahead)
    prefetched.emplace(p->node, std::move(p));
}

void VariantEvaluator::finish(Pending &p) {
  const Measurement &m = p.result.measurement;
  results.emplace(p.node, m);
  bool improved = false;
  if (!m.isValid()) {
    ++failedCount;
  } else if (!bestUs || m.medianUs < *bestUs) {
    bestUs = m.medianUs;
    bestKnobs = p.knobsText;
    bestNode = p.node;
    improved = true;
  }
  recordedCount += p.source == VariantSource::Recorded;
  sameCudaCount += p.source == VariantSource::SameCuda;
  if (p.variant && p.source == VariantSource::Measured)
    byCuda.try_emplace(p.variant->cudaKey, p.result);
  if (db && p.write)
    if (llvm::Error e = record(p)) {
      fail(llvm::toString(std::move(e)));
      return;
    }
  if (table) {
    LatencyEntry entry;
    entry.status = m.status;
    entry.medianUs = m.medianUs;
    entry.minUs = m.minUs;
    entry.maxUs = m.maxUs;
    entry.samples = m.samples;
    entry.detail = m.status == MeasureStatus::Ok ? "" : p.result.detail;
    table->add(loopKey, name, p.knobsText, entry);
  }
  if (options && options->onProgress) {
    double elapsed = secondsSince(start);
    size_t n = results.size();
    std::optional<double> eta;
    if (budget > n)
      eta = elapsed / double(n) * double(budget - n);
    double maxSeconds = options->search.maxSeconds;
    if (maxSeconds > 0)
      eta = std::min(eta.value_or(maxSeconds),
                     std::max(0.0, maxSeconds - elapsed));
    options->onProgress(TuneProgress{
        name, n, budget ? std::optional<size_t>(budget) : std::nullopt,
        p.knobsText, p.result, p.source, bestUs, improved, p.materializeSeconds,
        p.variant ? p.variant->loweringSeconds : 0, elapsed, eta});
  }
  if (p.source == VariantSource::Measured && runVariants) {
    ++*runVariants;
    // The hidden test switch: die like a killed process, after the
    // variant's rows are committed.
    if (options && options->killAfter && *runVariants >= options->killAfter)
      std::raise(SIGKILL);
  }
}

llvm::Error VariantEvaluator::record(const Pending &p) {
  llvm::Expected<TuneDb::Transaction> tx = db->beginTransaction();
  if (!tx)
    return tx.takeError();
  StringRef context = backend.getContext().key;
  const Measurement &m = p.result.measurement;
  std::optional<double> median =
      m.isValid() ? std::optional<double>(m.medianUs) : std::nullopt;
  dtile::KnobsAttr knobs = space.getKnobs(p.node);
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
    return db->recordLowering(row).takeError();
  };
  SmallVector<NodeId> path = space.getAncestry(p.node);
  // The Tile IR of the fork points on the path, each once: only the paths
  // to what was measured (the search walks and the prior estimates tens of
  // thousands of fork points, whose IR the database has no use for). The
  // terminal's IR is the variant's, recorded below.
  for (NodeId step : ArrayRef<NodeId>(path).drop_back()) {
    if (!recordedForkPoints.insert(step).second)
      continue;
    const dtile::ForkCursor *cursor = space.getCursor(step);
    if (!cursor)
      continue;
    std::string tile;
    llvm::raw_string_ostream(tile) << cursor->getKernel();
    if (llvm::Error e =
            db->recordOp(OpLevel::Tile,
                         forkPointKey(loopKey, cursor->getKnobs()), tile)
                .takeError())
      return e;
  }
  std::string parentKey = forkPointKey(loopKey, space.getKnobs(path[0]));
  if (llvm::Error e = hop(loopKey, OpLevel::Loop, parentKey, OpLevel::Tile, {}))
    return e;
  for (NodeId step : ArrayRef<NodeId>(path).drop_front()) {
    std::string childKey = forkPointKey(loopKey, space.getKnobs(step));
    if (llvm::Error e = hop(parentKey, OpLevel::Tile, childKey, OpLevel::Tile,
                            knobsToJson(space.getDelta(step))))
      return e;
    parentKey = std::move(childKey);
  }

  PerfRow perf;
  perf.contextKey = context.str();
  perf.backend = backend.getName().str();
  perf.kernelKey = loopKey;
  perf.status = m.status;
  perf.knobs = knobsToJson(knobs);
  perf.detail = p.result.detail;
  if (m.status == MeasureStatus::Ok) {
    PerfStats stats;
    stats.medianUs = m.medianUs;
    stats.minUs = m.minUs;
    stats.maxUs = m.maxUs;
    stats.meanUs = p.result.meanUs;
    stats.varianceUs2 = p.result.varianceUs2;
    stats.numSamples = std::max<int64_t>(m.samples, 1);
    perf.stats = stats;
  }
  if (const Variant *variant = p.variant ? &*p.variant : nullptr) {
    if (llvm::Error e =
            db->recordOp(OpLevel::Tile, tileKey, variant->tileText).takeError())
      return e;
    if (llvm::Error e = db->recordOp(OpLevel::Kernel, variant->kernelKey,
                                     variant->kernelText)
                            .takeError())
      return e;
    if (llvm::Error e = db->recordCudaOp(variant->getCudaOpRow()).takeError())
      return e;
    if (llvm::Error e = hop(tileKey, OpLevel::Tile, variant->kernelKey,
                            OpLevel::Kernel, {}))
      return e;
    if (llvm::Error e = hop(variant->kernelKey, OpLevel::Kernel,
                            variant->cudaKey, OpLevel::Cuda, {}))
      return e;
    perf.opKey = variant->cudaKey;
  } else {
    // Nothing below the Tile IR exists: the failure is the tile op's.
    perf.opKey = tileKey;
  }
  if (llvm::Error e = db->recordPerf(perf).takeError())
    return e;
  return tx->commit();
}
