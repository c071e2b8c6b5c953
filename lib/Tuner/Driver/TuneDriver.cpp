//===- TuneDriver.cpp - deplodock-tune as a library function --------------===//
//
// Checks the options, loads the layer (lowered to Loop IR), opens the
// backend and the database, and runs the mode: tuning (with its progress
// lines, its table or JSON, the latency table and the winners' knobs),
// comparing strategies, timing the lowering. The database modes are in
// TuneDbReport.cpp.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/TuneDriver.h"
#include "Deplodock/Runtime/OutputFile.h"

#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "TuneDriverSupport.h"

#include "Deplodock/Dialect/DTile/Transforms/Precision.h"
#include "Deplodock/Pipelines/LoweringPipelines.h"
#include "Deplodock/Runtime/BenchClient.h"
#include "Deplodock/Tuner/LatencyTable.h"
#include "Deplodock/Tuner/Replay.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/Tuner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/resource.h>

#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

llvm::Error tuner::detail::makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

/// The most of anything a budget may ask for; more is clamped to it.
static constexpr size_t kMaxVariants = size_t(1) << 40;
static constexpr double kMaxSeconds = 1e9;

llvm::Error tuner::validateTuneOptions(const TuneDriverOptions &o) {
  bool onDb = o.mode == TuneMode::ListDb || o.mode == TuneMode::ShowKernel ||
              o.mode == TuneMode::PruneContext;
  if (o.dbPath && o.dbPath->empty())
    return makeError("--db: the path is empty (leave --db out for the "
                     "default database, or pass --no-db)");
  if (onDb) {
    if (o.noDb)
      return makeError("--no-db: there is no database to inspect");
    if (!o.inputFile.empty())
      return makeError("--list-db, --show and --prune read the database "
                       "only; they take no input file");
    if (o.mode != TuneMode::ListDb && o.subject.empty())
      return makeError(o.mode == TuneMode::ShowKernel
                           ? "--show: expected a kernel name or key"
                           : "--prune: expected a context key");
    if (!o.precision.empty())
      return makeError("--precision: --list-db, --show and --prune list every "
                       "context, of either precision");
    return llvm::Error::success();
  }
  if (o.inputFile.empty())
    return makeError("no input file (deplodock-tune LAYER.mlir; see --help)");
  if (o.dbPath && o.noDb)
    return makeError("--db and --no-db contradict each other");
  if (llvm::Error e = createSearchStrategy(o.strategy, "--search").takeError())
    return e;
  if (o.mode == TuneMode::Compare) {
    if (o.compare.empty())
      return makeError("--compare: expected a list of strategies");
    for (const std::string &name : o.compare)
      if (llvm::Error e = createSearchStrategy(name, "--compare").takeError())
        return e;
    for (size_t budget : o.compareOptions.budgets)
      if (budget == 0)
        return makeError("--budgets: a budget must be at least 1");
    if (o.compareOptions.runs == 0 || o.compareOptions.runs > 1000)
      return makeError("--runs must be between 1 and 1000, got " +
                       llvm::Twine(o.compareOptions.runs));
  } else if (!o.compareOptions.budgets.empty() || o.compareOptions.runs != 1 ||
             !o.referenceTable.empty()) {
    return makeError(
        "--budgets, --runs and --reference-table are only read by --compare");
  }
  // Only a tuning run writes these files: in another mode the flag would
  // leave the file unwritten while the run succeeds.
  if (o.mode != TuneMode::Tune && !o.knobsOut.empty())
    return makeError("--knobs-out: only a tuning run writes winners (not "
                     "--compare, --time-lowering or --count-variants)");
  if (o.mode != TuneMode::Tune && !o.recordTable.empty())
    return makeError("--record-table: only a tuning run records latencies "
                     "(not --compare, --time-lowering or --count-variants)");
  if (o.timeLowering > 100000)
    return makeError("--time-lowering must be at most 100000, got " +
                     llvm::Twine(o.timeLowering));
  if (o.countWalks > 1000000)
    return makeError("--count-variants must be at most 1000000, got " +
                     llvm::Twine(o.countWalks));
  const SearchOptions &s = o.search;
  if (!(s.maxSeconds >= 0) || std::isnan(s.maxSeconds) ||
      std::isinf(s.maxSeconds))
    return makeError("--max-seconds must be a non-negative number");
  if (!(s.explorationConstant >= 0) || !std::isfinite(s.explorationConstant) ||
      s.explorationConstant > 1000)
    return makeError("--exploration must be a number in [0, 1000]");
  if (s.beamWidth == 0 || s.beamWidth > 4096)
    return makeError("--beam-width must be between 1 and 4096, got " +
                     llvm::Twine(s.beamWidth));
  if (o.totalVariants && s.maxVariants)
    return makeError("--total-variants shares one budget over the kernels; "
                     "it replaces --max-variants");
  if (!o.prior.empty() && o.prior != "model" && o.prior != "none")
    return makeError("--prior: unknown prior '" + o.prior +
                     "' (expected model or none)");
  if (!(o.priorNoise >= 0) || !std::isfinite(o.priorNoise) || o.priorNoise > 10)
    return makeError("--prior-noise must be a number in [0, 10]");
  // deplodock-run's spelling (applyPrecisionOption), checked before the
  // input is read.
  if (!o.precision.empty() && o.precision != "ieee" && o.precision != "tf32")
    return makeError("--precision must be ieee or tf32, got '" + o.precision +
                     "'");
  if (!lookupGpuTarget(o.target))
    return makeError("--target: unknown target '" + o.target + "' (expected " +
                     listGpuTargets() + ")");
  if (!llvm::is_contained(backendNames(), llvm::StringRef(o.backend)))
    return makeError("--backend: unknown backend '" + o.backend +
                     "' (expected one of: " + llvm::join(backendNames(), ", ") +
                     ")");
  if (o.backend == "replay" && o.replayTable.empty())
    return makeError("--backend=replay needs --replay-table");
  if (o.backend != "replay" && !o.replayTable.empty())
    return makeError("--replay-table is only read by --backend=replay");
  if (o.backend == "cuda") {
    if (o.cuda.devices.empty())
      return makeError("--devices: expected at least one GPU");
    llvm::SmallVector<unsigned> seen;
    for (unsigned d : o.cuda.devices) {
      if (d > 1023)
        return makeError("--devices: GPU " + llvm::Twine(d) +
                         " is out of range (0-1023)");
      if (llvm::is_contained(seen, d))
        return makeError("--devices: GPU " + llvm::Twine(d) +
                         " is listed twice");
      seen.push_back(d);
    }
  }
  return llvm::Error::success();
}

/// Clamps budgets too large to mean anything but "no limit" in practice.
static SearchOptions clampBudgets(SearchOptions search) {
  search.maxVariants = std::min(search.maxVariants, kMaxVariants);
  search.maxSeconds = std::min(search.maxSeconds, kMaxSeconds);
  return search;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// Parses the input and lowers it to Loop IR; its diagnostics go to `err`.
static llvm::Expected<OwningOpRef<ModuleOp>>
loadLoopIR(MLIRContext &context, StringRef inputFile, StringRef target,
           llvm::raw_ostream &err) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFile, &message);
  if (!file)
    return makeError(message);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, err);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return makeError("cannot parse '" + inputFile + "'");
  // The module names --target before any pass resolves one: otherwise the
  // first pass to ask records the default (sm_90), and the Kernel lowering
  // of every variant checks its ops (wgmma needs sm_90a) against that.
  if (failed(dkernel::resolveTarget(*module, target)))
    return makeError("--target " + target + " contradicts '" + inputFile + "'");
  PassManager pm(&context);
  buildLowerToLoopPipeline(pm);
  if (failed(pm.run(*module)))
    return makeError("cannot lower '" + inputFile + "' to Loop IR");
  return std::move(module);
}

/// The backend the options ask for; `tf32`: the variants are lowered with
/// precision=tf32.
static llvm::Expected<std::unique_ptr<Backend>>
openBackend(const TuneDriverOptions &o, bool tf32) {
  CudaBackendOptions cuda = o.cuda;
  if (o.backend == "cuda" && cuda.workerPath.empty()) {
    llvm::Expected<std::string> found =
        runtime::findBenchWorker(o.programName.c_str());
    if (!found)
      return found.takeError();
    cuda.workerPath = *found;
  }
  return createBackend(o.backend, o.target, o.replayTable, &cuda, tf32);
}

llvm::Expected<std::optional<TuneDb>>
tuner::detail::openDatabase(const TuneDriverOptions &o,
                            const TuneDbOptions &how) {
  if (o.noDb)
    return std::optional<TuneDb>();
  std::string path;
  if (o.dbPath) {
    path = *o.dbPath;
  } else {
    llvm::Expected<std::string> fallback = getDefaultTuneDbPath();
    if (!fallback)
      return fallback.takeError();
    path = *fallback;
  }
  llvm::Expected<TuneDb> db = TuneDb::open(path, how);
  if (!db)
    return db.takeError();
  return std::optional<TuneDb>(std::move(*db));
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

std::string tuner::detail::formatUs(std::optional<double> us) {
  if (!us)
    return "-";
  return llvm::formatv("{0:F2}", *us).str();
}

/// `seconds` as "45s", "3m05s" or "2h07m".
static std::string formatDuration(double seconds) {
  auto s = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  if (s < 60)
    return std::to_string(s) + "s";
  if (s < 3600)
    return llvm::formatv("{0}m{1:D2}s", s / 60, s % 60).str();
  return llvm::formatv("{0}h{1:D2}m", s / 3600, (s % 3600) / 60).str();
}

/// What a stop reason means, for people.
static StringRef describeStop(StopReason reason) {
  switch (reason) {
  case StopReason::Exhausted:
    return "every variant measured";
  case StopReason::Completed:
    return "the strategy's walk ended";
  case StopReason::Patience:
    return "no better variant for --patience variants";
  case StopReason::VariantBudget:
    return "the variant budget was spent";
  case StopReason::TimeBudget:
    return "--max-seconds elapsed";
  case StopReason::Cancelled:
    return "cancelled";
  }
  llvm_unreachable("unknown stop reason");
}

static void printProgress(llvm::raw_ostream &os, const TuneProgress &p,
                          bool estimate, bool verbose) {
  const Measurement &m = p.result.measurement;
  os << "[" << p.kernel << "] " << p.variant;
  if (p.budget)
    os << "/" << *p.budget;
  os << " " << p.knobs << ": ";
  if (m.isValid())
    os << llvm::format("%.2f us", m.medianUs)
       << (estimate ? " (estimated)" : "");
  else
    os << measureStatusName(m.status);
  if (p.source == VariantSource::Recorded)
    os << " (recorded)";
  else if (p.source == VariantSource::SameCuda)
    os << " (same CUDA as an earlier variant)";
  os << "  best " << formatUs(p.bestUs) << " us" << (p.improved ? " *" : "");
  if (p.etaSeconds)
    os << "  ETA " << formatDuration(*p.etaSeconds);
  if (verbose) {
    os << llvm::format("  [build %.1f ms, lower %.1f ms]",
                       p.materializeSeconds * 1e3, p.lowerSeconds * 1e3);
    if (!p.result.detail.empty())
      os << "  " << p.result.detail;
  } else if (!m.isValid() && !p.result.detail.empty()) {
    os << ": " << p.result.detail;
  }
  os << "\n";
}

/// One line when a kernel's tuning ends.
static void printKernelDone(llvm::raw_ostream &os, const KernelTuneResult &r,
                            size_t index, size_t count) {
  os << "[" << (index + 1) << "/" << count << "] " << r.name << ": "
     << r.measured << " variants";
  SmallVector<std::string> notes;
  if (r.recorded)
    notes.push_back(std::to_string(r.recorded) + " recorded");
  if (r.sameCuda)
    notes.push_back(std::to_string(r.sameCuda) + " same CUDA");
  if (r.warmStarts)
    notes.push_back(std::to_string(r.warmStarts) + " warm starts");
  if (r.failed)
    notes.push_back(std::to_string(r.failed) + " failed");
  if (!notes.empty())
    os << " (" << llvm::join(notes, ", ") << ")";
  os << ", best " << formatUs(r.bestUs) << " us";
  if (std::optional<double> s = r.speedup())
    os << llvm::format(" (%.2fx the default)", *s);
  os << " in " << formatDuration(r.seconds)
     << "; stopped: " << describeStop(r.stopReason) << "\n";
}

static void printTable(llvm::raw_ostream &os,
                       llvm::ArrayRef<KernelTuneResult> results,
                       const Backend &backend) {
  if (backend.isEstimate())
    os << "latencies are estimated by the " << backend.getName()
       << " backend (context " << backend.getContext().key
       << "), not measured\n";
  os << llvm::format("%-24s %12s %12s %9s %9s %8s  %s\n", "kernel",
                     "default us", "best us", "speed-up", "variants", "time",
                     "best knobs");
  for (const KernelTuneResult &r : results) {
    std::string name = r.name;
    if (!r.sameAs.empty())
      name += " (+" + std::to_string(r.sameAs.size()) + ")";
    std::string speedup = "-";
    if (std::optional<double> s = r.speedup())
      speedup = llvm::formatv("{0:F2}x", *s).str();
    std::string time = llvm::formatv("{0:F1}s", r.seconds).str();
    os << llvm::format("%-24s %12s %12s %9s %9zu %8s  %s\n", name.c_str(),
                       formatUs(r.defaultUs).c_str(),
                       formatUs(r.bestUs).c_str(), speedup.c_str(), r.measured,
                       time.c_str(),
                       r.bestKnobs.empty() ? "-" : r.bestKnobs.c_str());
  }
}

/// Peak resident memory of this process in MiB.
static double peakRssMiB() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return usage.ru_maxrss / 1024.0; // Linux reports KiB.
}

static llvm::json::Value toJson(const KernelTuneResult &r) {
  auto optional = [](std::optional<double> v) -> llvm::json::Value {
    return v ? llvm::json::Value(*v) : llvm::json::Value(nullptr);
  };
  size_t lowered = std::max<size_t>(r.measured, 1);
  return llvm::json::Object{
      {"name", r.name},
      {"same_as", llvm::json::Array(r.sameAs)},
      {"key", r.loopKey},
      {"default_knobs", r.defaultKnobs},
      {"default_us", optional(r.defaultUs)},
      {"best_knobs", r.bestKnobs},
      {"best_us", optional(r.bestUs)},
      {"floor_us", optional(r.floorUs)},
      {"speedup", optional(r.speedup())},
      {"measured", int64_t(r.measured)},
      {"failed", int64_t(r.failed)},
      {"recorded", int64_t(r.recorded)},
      {"same_cuda", int64_t(r.sameCuda)},
      {"warm_starts", int64_t(r.warmStarts)},
      {"budget", int64_t(r.budget)},
      {"tree_nodes", int64_t(r.treeNodes)},
      {"cached_cursors", int64_t(r.cachedCursors)},
      {"stop_reason", stopReasonName(r.stopReason)},
      {"seconds", r.seconds},
      {"build_ms_per_variant", r.materializeSeconds * 1e3 / lowered},
      {"lower_ms_per_variant", r.lowerSeconds * 1e3 / lowered},
      {"backend_ms_per_variant", r.backendSeconds * 1e3 / lowered}};
}

/// Writes the winners' knobs as a knobs= option, kernel by kernel (those
/// sharing a structural key too), atomically.
static llvm::Error writeWinners(StringRef path,
                                llvm::ArrayRef<KernelTuneResult> results) {
  SmallVector<std::string> groups;
  for (const KernelTuneResult &r : results) {
    if (r.bestKnobs.empty())
      continue;
    groups.push_back(r.name + ":" + r.bestKnobs);
    for (const std::string &other : r.sameAs)
      groups.push_back(other + ":" + r.bestKnobs);
  }
  if (llvm::Error error =
          deplodock::runtime::writeWholeFile(path, [&](llvm::raw_ostream &os) {
            os << llvm::join(groups, ";") << "\n";
            return llvm::Error::success();
          }))
    return makeError("cannot write '" + path +
                     "': " + llvm::toString(std::move(error)));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Modes
//===----------------------------------------------------------------------===//

/// The kernels with a structural key not seen before, with their keys.
static std::vector<std::pair<dloop::KernelOp, std::string>>
distinctKernels(llvm::ArrayRef<dloop::KernelOp> kernels) {
  std::vector<std::pair<dloop::KernelOp, std::string>> distinct;
  llvm::StringSet<> seen;
  for (dloop::KernelOp kernel : kernels) {
    std::string key = structuralKey(kernel);
    if (seen.insert(key).second)
      distinct.push_back({kernel, std::move(key)});
  }
  return distinct;
}

static llvm::Error timeLowering(const TuneDriverOptions &o,
                                const dtile::Target &target,
                                llvm::ArrayRef<dloop::KernelOp> kernels,
                                llvm::raw_ostream &out) {
  out << llvm::format("%-28s %9s %10s %10s %10s\n", "kernel", "variants",
                      "mean ms", "median ms", "max ms");
  for (auto [kernel, key] : distinctKernels(kernels)) {
    llvm::Expected<LoweringTiming> timing =
        timeVariantLowering(kernel, target, o.timeLowering, o.search.seed);
    if (!timing)
      return timing.takeError();
    out << llvm::format("%-28s %9zu %10.2f %10.2f %10.2f\n",
                        kernel.getSymName().str().c_str(), timing->variants,
                        timing->meanMs, timing->medianMs, timing->maxMs);
  }
  return llvm::Error::success();
}

static llvm::Error countVariants(const TuneDriverOptions &o,
                                 const dtile::Target &target,
                                 llvm::ArrayRef<dloop::KernelOp> kernels,
                                 llvm::raw_ostream &out) {
  llvm::StringSet<> seen;
  out << llvm::format("%-28s %14s %12s %8s %8s\n", "kernel", "variants", "+-",
                      "forks", "widest");
  for (dloop::KernelOp kernel : kernels) {
    if (!seen.insert(structuralKey(kernel)).second)
      continue;
    llvm::Expected<TreeSizeEstimate> size =
        estimateTreeSize(kernel, target, o.countWalks, o.search.seed);
    if (!size)
      return size.takeError();
    out << llvm::format("%-28s %14.0f %12.0f %8.1f %8zu\n",
                        kernel.getSymName().str().c_str(), size->terminals,
                        size->standardError, size->depth, size->widestFork);
    out.flush();
  }
  return llvm::Error::success();
}

static llvm::Error compare(const TuneDriverOptions &o,
                           const dtile::Target &target, Backend &backend,
                           llvm::ArrayRef<dloop::KernelOp> kernels,
                           llvm::raw_ostream &out) {
  SmallVector<StringRef> names(o.compare.begin(), o.compare.end());
  std::optional<LatencyTable> known;
  if (!o.referenceTable.empty()) {
    llvm::Expected<LatencyTable> table = LatencyTable::read(o.referenceTable);
    if (!table)
      return table.takeError();
    // A best known from another context (another model version, another
    // GPU) is no reference for these latencies.
    const std::string &context = backend.getContext().key;
    if (table->recordedContext != context)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--reference-table: " + o.referenceTable + " was recorded in " +
              "context '" + table->recordedContext + "', not '" + context +
              "' this comparison measures in; recompute it (for the model: "
              "scripts/compare-search.sh --best-known)");
    known = std::move(*table);
  }
  std::vector<ComparisonReport> reports;
  for (auto [kernel, key] : distinctKernels(kernels)) {
    CompareOptions options = o.compareOptions;
    if (known)
      options.knownBestUs = known->bestUs(key);
    llvm::Expected<ComparisonReport> report =
        compareOnKernel(kernel, key, backend, target, names,
                        clampBudgets(o.search), options, o.prior, o.priorNoise);
    if (!report)
      return report.takeError();
    out << "@" << kernel.getSymName() << ":\n";
    printComparison(out, *report);
    out.flush(); // A long comparison shows each kernel as it is done.
    reports.push_back(std::move(*report));
  }
  if (reports.size() > 1 && !o.compareOptions.budgets.empty())
    printComparisonSummary(out, reports);
  return llvm::Error::success();
}

static llvm::Error tune(const TuneDriverOptions &o, const dtile::Target &target,
                        Backend &backend,
                        llvm::ArrayRef<dloop::KernelOp> kernels,
                        llvm::raw_ostream &out, llvm::raw_ostream &err) {
  llvm::Expected<std::optional<TuneDb>> db = openDatabase(o, TuneDbOptions());
  if (!db)
    return db.takeError();
  std::optional<LatencyTable> table;
  if (!o.recordTable.empty())
    table.emplace();
  llvm::Expected<Tuner> tuner = Tuner::create(
      backend, target, *db ? &**db : nullptr, table ? &*table : nullptr);
  if (!tuner)
    return tuner.takeError();

  TuneOptions options;
  options.strategy = o.strategy;
  options.search = clampBudgets(o.search);
  options.resume = o.resume;
  options.jobs = o.jobs;
  options.warmStart = o.warmStart;
  options.prior = o.prior;
  options.priorNoise = o.priorNoise;
  options.totalVariants = std::min(o.totalVariants, kMaxVariants);
  options.killAfter = o.killAfter;
  bool estimate = backend.isEstimate();
  size_t distinct = distinctKernels(kernels).size();
  // A line per variant for one kernel (or with -v), else one per kernel.
  if (!o.quiet && (o.verbose || distinct == 1))
    options.onProgress = [&](const TuneProgress &p) {
      printProgress(err, p, estimate, o.verbose);
    };
  if (!o.quiet)
    options.onKernel = [&](const KernelTuneResult &r, size_t i, size_t n) {
      printKernelDone(err, r, i, n);
    };

  llvm::Expected<std::vector<KernelTuneResult>> tuned =
      tuner->tuneKernels(kernels, options);
  if (!tuned)
    return tuned.takeError();
  std::vector<KernelTuneResult> &results = *tuned;
  if (table)
    if (llvm::Error e = table->write(o.recordTable))
      return e;
  if (!o.knobsOut.empty())
    if (llvm::Error e = writeWinners(o.knobsOut, results))
      return e;

  if (o.json) {
    llvm::json::Array list;
    for (const KernelTuneResult &r : results)
      list.push_back(toJson(r));
    llvm::json::Value root = llvm::json::Object{
        {"target", o.target},
        {"backend", backend.getName()},
        {"estimated", estimate},
        {"context", backend.getContext().key},
        {"precision",
         contextAllowsTf32(backend.getContext()) ? "tf32" : "ieee"},
        {"search", o.strategy},
        {"db", *db ? llvm::json::Value((*db)->getPath()) : nullptr},
        {"peak_rss_mib", peakRssMiB()},
        {"kernels", std::move(list)}};
    out << llvm::formatv("{0:2}", root) << "\n";
    return llvm::Error::success();
  }
  printTable(out, results, backend);
  if (o.verbose) {
    for (const KernelTuneResult &r : results) {
      size_t n = std::max<size_t>(r.measured, 1);
      out << llvm::format(
          "%s: %zu tree nodes, %zu cursors held, stopped: %s; per variant "
          "%.2f ms building Tile IR, %.2f ms lowering to CUDA, %.2f ms in the "
          "backend\n",
          r.name.c_str(), r.treeNodes, r.cachedCursors,
          stopReasonName(r.stopReason).data(), r.materializeSeconds * 1e3 / n,
          r.lowerSeconds * 1e3 / n, r.backendSeconds * 1e3 / n);
    }
    out << llvm::format("peak memory %.1f MiB\n", peakRssMiB());
  }
  if (*db)
    out << "recorded in " << (*db)->getPath() << " (context "
        << backend.getContext().key << ")\n";
  return llvm::Error::success();
}

llvm::Error tuner::runTuneDriver(MLIRContext &context,
                                 const TuneDriverOptions &o,
                                 llvm::raw_ostream &out,
                                 llvm::raw_ostream &err) {
  if (llvm::Error e = validateTuneOptions(o))
    return e;
  switch (o.mode) {
  case TuneMode::ListDb:
    return listDatabase(o, out);
  case TuneMode::ShowKernel:
    return showKernel(o, out);
  case TuneMode::PruneContext:
    return pruneContext(o, out);
  case TuneMode::Tune:
  case TuneMode::Compare:
  case TuneMode::TimeLowering:
  case TuneMode::CountVariants:
    break;
  }
  dtile::Target target = dtile::Target::lookup(&context, o.target);
  llvm::Expected<OwningOpRef<ModuleOp>> module =
      loadLoopIR(context, o.inputFile, o.target, err);
  if (!module)
    return module.takeError();
  // Every variant's module copy inherits the attribute (ForkCursor).
  if (failed(dtile::applyPrecisionOption(**module, o.precision)))
    return makeError("--precision: cannot apply '" + o.precision + "'");
  bool tf32 = dtile::allowsTf32(**module);
  SmallVector<dloop::KernelOp> kernels;
  size_t all = 0;
  (**module)->walk([&](dloop::KernelOp kernel) {
    ++all;
    if (o.kernel.empty() || kernel.getSymName() == o.kernel)
      kernels.push_back(kernel);
  });
  if (!o.kernel.empty() && kernels.empty())
    return makeError("no kernel @" + o.kernel + " in '" + o.inputFile + "'");
  if (all == 0) {
    // Valid: a layer that only reshapes or returns its inputs. The files a
    // tune was asked to write are still written, empty, so that what reads
    // them next does not read an old one or fail on a missing one.
    out << "nothing to tune: '" << o.inputFile << "' has no kernel to launch\n";
    if (o.mode == TuneMode::Tune && !o.recordTable.empty())
      if (llvm::Error e = LatencyTable().write(o.recordTable))
        return e;
    if (o.mode == TuneMode::Tune && !o.knobsOut.empty())
      return writeWinners(o.knobsOut, {});
    return llvm::Error::success();
  }
  if (o.mode == TuneMode::TimeLowering)
    return timeLowering(o, target, kernels, out);
  if (o.mode == TuneMode::CountVariants)
    return countVariants(o, target, kernels, out);

  llvm::Expected<std::unique_ptr<Backend>> backend = openBackend(o, tf32);
  if (!backend)
    return backend.takeError();
  if (o.mode == TuneMode::Compare)
    return compare(o, target, **backend, kernels, out);
  return tune(o, target, **backend, kernels, out, err);
}
