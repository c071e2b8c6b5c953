//===- Tuner.cpp - Tuning the kernels of a module -------------------------===//
//
// One kernel is a session: its ForkTreeSpace, the evaluator that measures
// and records its terminals (VariantEvaluator.h), its default variant
// measured first (the speed-up's reference) and the winners of similar
// kernels to try next. A strategy then walks the space within the kernel's
// variant budget. With a budget for all kernels together, every session is
// begun first, so that the budget can be shared by what each kernel could
// save.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/Tuner.h"

#include "ModelPrior.h"
#include "VariantEvaluator.h"

#include "Deplodock/CostModel/RooflineModel.h"
#include "Deplodock/Tuner/ForkTree.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "mlir/IR/BuiltinOps.h"

#include <chrono>
#include <cmath>
#include <random>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

bool tuner::usesModelPrior(StringRef prior, const Backend &backend) {
  if (prior.empty())
    return !backend.isEstimate();
  return prior == "model";
}

std::optional<double> KernelTuneResult::speedup() const {
  if (!defaultUs || !bestUs || *bestUs <= 0)
    return std::nullopt;
  return *defaultUs / *bestUs;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
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

/// The fork tree of `kernel`, or the error tileify reported.
static llvm::Expected<std::unique_ptr<ForkTreeSpace>>
buildSpace(dloop::KernelOp kernel, const dtile::Target &target,
           size_t cacheCapacity) {
  FailureOr<std::unique_ptr<ForkTreeSpace>> space;
  std::string why = captureErrors(kernel.getContext(), [&] {
    space = ForkTreeSpace::create(kernel, target, cacheCapacity);
  });
  if (failed(space))
    return makeError("cannot build the fork tree of @" + kernel.getSymName() +
                     (why.empty() ? "" : ": " + why));
  return std::move(*space);
}

/// The option path to the terminal that takes, at every fork, the option
/// whose knobs all agree with `knobs` (else option 0); none at a dead end.
static std::optional<std::vector<unsigned>>
matchPath(ForkTreeSpace &space, const llvm::json::Object &knobs) {
  std::vector<unsigned> path;
  NodeId node = space.root();
  SmallVector<NodeId> children;
  while (!space.isTerminal(node)) {
    children.clear();
    space.children(node, children);
    if (children.empty())
      return std::nullopt;
    unsigned pick = 0;
    for (auto [i, child] : llvm::enumerate(children)) {
      llvm::json::Object delta = knobsToJson(space.getDelta(child));
      if (llvm::all_of(delta, [&](const auto &entry) {
            const llvm::json::Value *value = knobs.get(entry.first);
            return value && *value == entry.second;
          })) {
        pick = i;
        break;
      }
    }
    path.push_back(pick);
    node = children[pick];
  }
  return path;
}

/// One distinct kernel being tuned.
struct Tuner::Session {
  dloop::KernelOp kernel;
  std::string familyKey;
  KernelTuneResult result;
  std::unique_ptr<ForkTreeSpace> space;
  std::unique_ptr<VariantEvaluator> evaluator;
  std::chrono::steady_clock::time_point start;
};

llvm::Expected<Tuner> Tuner::create(Backend &backend,
                                    const dtile::Target &target, TuneDb *db,
                                    LatencyTable *table) {
  if (db)
    if (llvm::Error e = db->recordContext(backend.getContext()))
      return std::move(e);
  if (table) {
    table->target = target.getName().str();
    table->recordedWith = backend.getName().str();
    table->recordedContext = backend.getContext().key;
  }
  return Tuner(backend, target, db, table);
}

Tuner::Tuner(Tuner &&) = default;
Tuner::~Tuner() = default;

llvm::Expected<std::unique_ptr<Tuner::Session>>
Tuner::begin(dloop::KernelOp kernel, StringRef loopKey,
             const TuneOptions &options) {
  auto session = std::make_unique<Session>();
  Session &s = *session;
  s.start = std::chrono::steady_clock::now();
  s.kernel = kernel;
  s.familyKey = structuralFamilyKey(kernel);
  KernelTuneResult &result = s.result;
  result.name = kernel.getSymName().str();
  result.loopKey = loopKey.str();

  llvm::Expected<std::unique_ptr<ForkTreeSpace>> space =
      buildSpace(kernel, target, options.cacheCapacity);
  if (!space)
    return space.takeError();
  s.space = std::move(*space);
  llvm::ThreadPoolInterface *threads = getPool(options, *kernel.getContext());
  s.space->setThreadPool(threads);
  if (usesModelPrior(options.prior, *backend))
    s.space->setPriorEstimator(makeModelPrior(
        target, loopKey, options.priorNoise, options.search.seed));
  if (db) {
    std::string text;
    llvm::raw_string_ostream(text) << kernel;
    if (llvm::Error e = db->recordOp(OpLevel::Loop, loopKey, text).takeError())
      return std::move(e);
    if (llvm::Error e = db->recordFamily(loopKey, s.familyKey))
      return std::move(e);
    // The evaluator records the Tile IR of the fork points on the path of
    // each measured variant.
  }

  if (llvm::Error e = backend->beginKernel(kernel, loopKey))
    return std::move(e);
  s.evaluator = std::make_unique<VariantEvaluator>(
      *s.space, *backend, target, result.name, loopKey, db, table, &options,
      &runVariants);
  s.evaluator->setThreadPool(threads);
  if (options.resume)
    if (llvm::Error e = s.evaluator->loadRecorded())
      return std::move(e);
  s.evaluator->setBudget(options.search.maxVariants);

  // The heuristic default first: the reference of the speed-up.
  FailureOr<NodeId> fallback = s.space->defaultTerminal();
  if (succeeded(fallback)) {
    Measurement m = s.evaluator->measure(*fallback);
    result.defaultKnobs = s.evaluator->knobsOf(*fallback);
    if (m.isValid())
      result.defaultUs = m.medianUs;
    // The floor the kernel could reach, from the default's profile.
    FailureOr<DeviceModel> device = getDeviceModel(target.getName());
    const dtile::ForkCursor *cursor = s.space->getCursor(*fallback);
    if (succeeded(device) && cursor) {
      llvm::Expected<Variant> variant = lowerVariant(*cursor, loopKey, target);
      if (variant)
        result.floorUs =
            rooflineFloorUs(profileKernel(variant->getMainKernel()), *device);
      else
        llvm::consumeError(variant.takeError());
    }
  }
  if (s.evaluator->hasError())
    return s.evaluator->takeError();
  return std::move(session);
}

llvm::ThreadPoolInterface *Tuner::getPool(const TuneOptions &options,
                                          MLIRContext &context) {
  if (pool)
    return pool.get();
  llvm::ThreadPoolStrategy strategy = llvm::hardware_concurrency(options.jobs);
  // One thread, or a context whose IR is not safe to build from several:
  // everything on the caller's thread.
  if (strategy.compute_thread_count() < 2 ||
      !prepareConcurrentLowering(context, target))
    return nullptr;
  pool = std::make_unique<llvm::DefaultThreadPool>(strategy);
  return pool.get();
}

llvm::Expected<std::vector<std::vector<unsigned>>>
Tuner::warmStarts(Session &s, const TuneOptions &options,
                  ArrayRef<std::vector<unsigned>> known) {
  std::vector<llvm::json::Object> winners;
  if (db) {
    llvm::Expected<std::vector<BestRow>> rows = db->familyBest(
        backend->getContext().key, s.familyKey, backend->getName());
    if (!rows)
      return rows.takeError();
    // Its own best is left out: a resumed search finds it again as it did
    // before, so the resumed run stays the run it was.
    for (BestRow &row : *rows)
      if (row.kernelKey != s.result.loopKey)
        winners.push_back(std::move(row.knobs));
  }
  for (const llvm::json::Object &knobs : familyWinners[s.familyKey])
    winners.push_back(knobs);

  std::vector<std::vector<unsigned>> paths;
  constexpr size_t kMaxWarmStarts = 3;
  for (const llvm::json::Object &knobs : winners) {
    if (paths.size() == kMaxWarmStarts)
      break;
    std::optional<std::vector<unsigned>> path = matchPath(*s.space, knobs);
    if (path && !llvm::is_contained(known, *path) &&
        !llvm::is_contained(paths, *path))
      paths.push_back(std::move(*path));
  }
  return paths;
}

/// Candidates mcts ranks by the model prior per GPU measurement.
static constexpr unsigned kGpuPriorCandidates = 8;

llvm::Expected<KernelTuneResult>
Tuner::search(Session &s, const TuneOptions &options, size_t budget) {
  KernelTuneResult &result = s.result;
  VariantEvaluator &evaluator = *s.evaluator;
  llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
      createSearchStrategy(options.strategy, "--search");
  if (!strategy)
    return strategy.takeError();
  SearchOptions search = options.search;
  search.maxVariants = budget;
  // On the GPU a measurement takes about a second (NVRTC, the worker's
  // check and timing) while 32 prior candidates' walks took 2-3 s on the
  // suite's GEMM trees (a 12 s tune on an H200 measured 3 variants): rank
  // 8 there. Where measurements cost no time (the model, a replayed table),
  // ranking more finds the best in fewer measurements.
  if (backend->measuresOnDevice())
    search.priorCandidates = kGpuPriorCandidates;
  search.onMeasured = nullptr;
  evaluator.setBudget(budget);
  // The default, measured before the search, is its first variant whatever
  // the strategy (random's budget counts it as mcts's does), then the warm
  // starts.
  if (FailureOr<NodeId> fallback = s.space->defaultTerminal();
      succeeded(fallback)) {
    SmallVector<unsigned> path = s.space->getPath(*fallback);
    search.seedPaths.emplace(search.seedPaths.begin(), path.begin(),
                             path.end());
  }
  if (options.warmStart) {
    llvm::Expected<std::vector<std::vector<unsigned>>> seeds =
        warmStarts(s, options, search.seedPaths);
    if (!seeds)
      return seeds.takeError();
    result.warmStarts = seeds->size();
    llvm::append_range(search.seedPaths, *seeds);
  }
  std::function<bool()> userCancel = options.search.cancelled;
  search.cancelled = [&] {
    return evaluator.hasError() || (userCancel && userCancel());
  };
  SearchResult found = (*strategy)->run(*s.space, evaluator, search);
  if (evaluator.hasError())
    return evaluator.takeError();
  result.bestUs = evaluator.getBestUs();
  result.bestKnobs = evaluator.getBestKnobs().str();
  result.measured = evaluator.numMeasured();
  result.failed = evaluator.numFailed();
  result.recorded = evaluator.numRecorded();
  result.sameCuda = evaluator.numSameCuda();
  result.budget = budget;
  result.treeNodes = s.space->getNumNodes();
  result.cachedCursors = s.space->getNumCachedCursors();
  result.stopReason = found.stopReason;
  // Building Tile IR happens wherever the search first touches a node.
  result.materializeSeconds = s.space->getReplaySeconds();
  result.lowerSeconds = evaluator.lowerSeconds;
  result.backendSeconds = evaluator.backendSeconds;
  result.seconds = secondsSince(s.start);
  if (std::optional<NodeId> best = evaluator.getBestNode())
    familyWinners[s.familyKey].push_back(knobsToJson(s.space->getKnobs(*best)));
  return result;
}

llvm::Expected<KernelTuneResult> Tuner::tuneKernel(dloop::KernelOp kernel,
                                                   StringRef loopKey,
                                                   const TuneOptions &options) {
  llvm::Expected<std::unique_ptr<Session>> session =
      begin(kernel, loopKey, options);
  if (!session)
    return session.takeError();
  return search(**session, options, options.search.maxVariants);
}

/// Splits `total` variants over kernels in proportion to `weights`, each
/// getting at least `floor` (largest remainders first, ties in order).
static std::vector<size_t> shareBudget(size_t total,
                                       llvm::ArrayRef<double> weights,
                                       llvm::ArrayRef<size_t> floors) {
  std::vector<size_t> shares(floors.begin(), floors.end());
  size_t used = 0;
  for (size_t f : floors)
    used += f;
  if (total <= used || weights.empty())
    return shares;
  size_t left = total - used;
  double sum = 0;
  for (double w : weights)
    sum += w;
  std::vector<double> exact(weights.size());
  for (auto [i, w] : llvm::enumerate(weights))
    exact[i] = sum > 0 ? left * w / sum : double(left) / weights.size();
  std::vector<size_t> order(weights.size());
  size_t given = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    order[i] = i;
    size_t whole = size_t(exact[i]);
    shares[i] += whole;
    given += whole;
  }
  llvm::sort(order, [&](size_t a, size_t b) {
    double ra = exact[a] - std::floor(exact[a]);
    double rb = exact[b] - std::floor(exact[b]);
    return ra != rb ? ra > rb : a < b;
  });
  for (size_t i = 0; given < left; ++i, ++given)
    ++shares[order[i % order.size()]];
  return shares;
}

llvm::Expected<std::vector<KernelTuneResult>>
Tuner::tuneKernels(ArrayRef<dloop::KernelOp> kernels,
                   const TuneOptions &options) {
  // The distinct kernels, and the others that share their key.
  std::vector<std::pair<dloop::KernelOp, std::string>> distinct;
  std::vector<std::vector<std::string>> sameAs;
  llvm::StringMap<size_t> byKey;
  for (dloop::KernelOp kernel : kernels) {
    std::string key = structuralKey(kernel);
    auto [it, fresh] = byKey.try_emplace(key, distinct.size());
    if (!fresh) {
      sameAs[it->second].push_back(kernel.getSymName().str());
      continue;
    }
    distinct.push_back({kernel, key});
    sameAs.emplace_back();
  }

  std::vector<KernelTuneResult> results;
  auto finished = [&](KernelTuneResult result, size_t i) {
    result.sameAs = sameAs[i];
    if (options.onKernel)
      options.onKernel(result, i, distinct.size());
    results.push_back(std::move(result));
  };
  if (!options.totalVariants) {
    for (auto [i, entry] : llvm::enumerate(distinct)) {
      llvm::Expected<KernelTuneResult> tuned =
          tuneKernel(entry.first, entry.second, options);
      if (!tuned)
        return tuned.takeError();
      finished(std::move(*tuned), i);
    }
    return results;
  }

  // A budget for all: begin every kernel (its default measured), then share
  // the rest by the time each could save in the layer.
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<double> weights;
  std::vector<size_t> floors;
  for (auto [i, entry] : llvm::enumerate(distinct)) {
    llvm::Expected<std::unique_ptr<Session>> session =
        begin(entry.first, entry.second, options);
    if (!session)
      return session.takeError();
    const KernelTuneResult &r = (*session)->result;
    double gap = r.defaultUs ? *r.defaultUs - r.floorUs.value_or(0) : 0;
    weights.push_back(std::max(gap, 0.0) * double(1 + sameAs[i].size()));
    floors.push_back(1);
    sessions.push_back(std::move(*session));
  }
  std::vector<size_t> shares =
      shareBudget(options.totalVariants, weights, floors);
  for (auto [i, session] : llvm::enumerate(sessions)) {
    llvm::Expected<KernelTuneResult> tuned =
        search(*session, options, shares[i]);
    if (!tuned)
      return tuned.takeError();
    session.reset(); // Its tree and cursors are no longer needed.
    finished(std::move(*tuned), i);
  }
  return results;
}

llvm::Expected<std::vector<KernelTuneResult>>
Tuner::tuneModule(ModuleOp module, const TuneOptions &options) {
  SmallVector<dloop::KernelOp> kernels;
  module.walk([&](dloop::KernelOp kernel) { kernels.push_back(kernel); });
  return tuneKernels(kernels, options);
}

llvm::Expected<ComparisonReport> tuner::compareOnKernel(
    dloop::KernelOp kernel, StringRef loopKey, Backend &backend,
    const dtile::Target &target, ArrayRef<StringRef> strategies,
    const SearchOptions &options, const CompareOptions &compare,
    StringRef prior, double priorNoise) {
  llvm::Expected<std::unique_ptr<ForkTreeSpace>> space =
      buildSpace(kernel, target, ForkTreeSpace::kDefaultCacheCapacity);
  if (!space)
    return space.takeError();
  if (usesModelPrior(prior, backend))
    (*space)->setPriorEstimator(
        makeModelPrior(target, loopKey, priorNoise, options.seed));
  if (llvm::Error e = backend.beginKernel(kernel, loopKey))
    return std::move(e);
  VariantEvaluator evaluator(**space, backend, target, kernel.getSymName(),
                             loopKey, /*db=*/nullptr, /*table=*/nullptr,
                             /*options=*/nullptr);
  SearchOptions search = options;
  std::function<bool()> userCancel = options.cancelled;
  search.cancelled = [&] {
    return evaluator.hasError() || (userCancel && userCancel());
  };
  llvm::Expected<ComparisonReport> report =
      compareStrategies(**space, evaluator, strategies, search, compare);
  if (!report)
    return report.takeError();
  if (evaluator.hasError())
    return evaluator.takeError();
  return report;
}

llvm::Expected<TreeSizeEstimate>
tuner::estimateTreeSize(dloop::KernelOp kernel, const dtile::Target &target,
                        size_t walks, uint64_t seed) {
  llvm::Expected<std::unique_ptr<ForkTreeSpace>> space =
      buildSpace(kernel, target, ForkTreeSpace::kDefaultCacheCapacity);
  if (!space)
    return space.takeError();
  std::mt19937_64 rng(seed);
  TreeSizeEstimate estimate;
  estimate.walks = walks;
  double sum = 0, sumSquares = 0, forks = 0;
  SmallVector<NodeId> children;
  for (size_t w = 0; w < walks; ++w) {
    double product = 1;
    NodeId node = (*space)->root();
    while (!(*space)->isTerminal(node)) {
      children.clear();
      (*space)->children(node, children);
      if (children.empty()) {
        product = 0; // A dead end: no terminal on this walk.
        break;
      }
      product *= double(children.size());
      forks += 1;
      estimate.widestFork = std::max(estimate.widestFork, children.size());
      node = children[rng() % children.size()];
    }
    sum += product;
    sumSquares += product * product;
  }
  if (walks) {
    estimate.terminals = sum / double(walks);
    estimate.depth = forks / double(walks);
    double variance =
        std::max(0.0, sumSquares / double(walks) -
                          estimate.terminals * estimate.terminals);
    estimate.standardError = std::sqrt(variance / double(walks));
  }
  return estimate;
}
