//===- deplodock-tune.cpp - Tune every kernel of a layer --------*- C++ -*-===//
//
//   deplodock-tune layer.mlir                        # SP-MCTS, model backend
//   deplodock-tune layer.mlir --search=exhaustive --record-table=t.json
//   deplodock-tune layer.mlir --backend=replay --replay-table=t.json \
//       --compare=mcts,greedy,random,beam,exhaustive
//
// Lowers the layer to Loop IR, tunes every distinct fused kernel on its fork
// tree and records what it learnt in the tune database, which
// `--lower-to-tile="tune-db=PATH"` and `deplodock-run --tune-db` replay.
// Prints a line per measured variant and a table per kernel.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "Deplodock/Pipelines/Pipelines.h"
#include "Deplodock/Runtime/BenchClient.h"
#include "Deplodock/Support/ToolDiagnostics.h"
#include "Deplodock/Support/ToolOptions.h"
#include "Deplodock/Tuner/CudaBackend.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/Tuner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/resource.h>

#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
namespace cl = llvm::cl;

static cl::OptionCategory tuneCategory("deplodock-tune options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required, cl::cat(tuneCategory));
static cl::opt<std::string>
    dbPath("db",
           cl::desc("Tune database to write (default: $DEPLODOCK_TUNE_DB, else "
                    "~/.cache/deplodock/autotune.db)"),
           cl::cat(tuneCategory));
static cl::opt<bool> noDb("no-db", cl::desc("Record nothing in a database"),
                          cl::cat(tuneCategory));
static cl::opt<std::string>
    searchName("search",
               cl::desc("Search strategy: mcts, greedy, random, beam or "
                        "exhaustive"),
               cl::init("mcts"), cl::cat(tuneCategory));
static cl::opt<int> patience(
    "patience",
    cl::desc("Stop a kernel after this many variants in a row without a new "
             "best (0: never; default 60 for mcts, random and beam)"),
    cl::init(-1), cl::cat(tuneCategory));
static cl::opt<int>
    maxVariants("max-variants",
                cl::desc("Measure at most this many variants per kernel (0: "
                         "no limit)"),
                cl::init(0), cl::cat(tuneCategory));
static cl::opt<double>
    maxSeconds("max-seconds",
               cl::desc("Stop searching a kernel after this many seconds (0: "
                        "no limit)"),
               cl::init(0), cl::cat(tuneCategory));
static cl::opt<std::string>
    backendName("backend",
                cl::desc("Where latencies come from: model (roofline "
                         "estimate), replay (a recorded table) or cuda (run "
                         "on the GPU by deplodock-bench-worker)"),
                cl::init("model"), cl::cat(tuneCategory));
static cl::opt<std::string>
    replayTable("replay-table",
                cl::desc("Latency table the replay backend reads"),
                cl::cat(tuneCategory));
static cl::opt<std::string>
    recordTable("record-table",
                cl::desc("Write every measured latency to this table (for "
                         "--backend=replay)"),
                cl::cat(tuneCategory));
static cl::opt<std::string>
    workerPath("worker",
               cl::desc("--backend=cuda: the bench worker (default: "
                        "deplodock-bench-worker beside this tool)"),
               cl::cat(tuneCategory));
static cl::opt<unsigned> device("device",
                                cl::desc("--backend=cuda: the GPU to use"),
                                cl::init(0), cl::cat(tuneCategory));
static cl::opt<uint64_t>
    inputSeed("input-seed",
              cl::desc("--backend=cuda: seed of the inputs variants run on"),
              cl::init(0), cl::cat(tuneCategory));
static cl::opt<bool>
    fakeDevice("fake-device",
               cl::desc("--backend=cuda: the worker's fake GPU (tests)"),
               cl::Hidden, cl::cat(tuneCategory));
static cl::opt<std::string>
    fakeFault("fake-fault",
              cl::desc("--backend=cuda: ask the fake device for this fault "
                       "on every variant (tests)"),
              cl::Hidden, cl::cat(tuneCategory));
static cl::list<std::string>
    workerArgs("worker-arg",
               cl::desc("--backend=cuda: pass this argument to the worker"),
               cl::Hidden, cl::cat(tuneCategory));
static cl::opt<std::string> knobsOut(
    "knobs-out",
    cl::desc("Write every kernel's winning knobs to this file, in the syntax "
             "of the knobs= pipeline option (kernel:BK=32,...;other:...)"),
    cl::cat(tuneCategory));
static cl::opt<double> exploration("exploration",
                                   cl::desc("MCTS exploration constant c"),
                                   cl::init(std::sqrt(2.0)),
                                   cl::cat(tuneCategory));
static cl::opt<unsigned> beamWidth("beam-width",
                                   cl::desc("Nodes kept per depth by beam"),
                                   cl::init(4), cl::cat(tuneCategory));
static cl::opt<std::string> targetName("target",
                                       cl::desc("GPU: sm_80 or sm_90"),
                                       cl::init("sm_90"),
                                       cl::cat(tuneCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random search"),
                              cl::init(0), cl::cat(tuneCategory));
static cl::opt<std::string>
    kernelFilter("kernel", cl::desc("Tune only the kernel with this name"),
                 cl::cat(tuneCategory));
static cl::opt<std::string> compareList(
    "compare",
    cl::desc("Instead of tuning, compare these strategies (comma-separated) "
             "on every kernel: variants each needs to get within 2% of the "
             "best; records nothing"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> timeLowering(
    "time-lowering",
    cl::desc("Instead of tuning, lower N seeded random variants of every "
             "kernel from Loop IR to CUDA, from scratch, and report the time "
             "per variant"),
    cl::init(0), cl::cat(tuneCategory));
static cl::opt<bool> verbose("v", cl::desc("Say more about every variant"),
                             cl::cat(tuneCategory));
static cl::alias verboseLong("verbose", cl::desc("Alias for -v"),
                             cl::aliasopt(verbose), cl::cat(tuneCategory));
static cl::opt<bool> quiet("quiet",
                           cl::desc("No progress lines (the table stays)"),
                           cl::cat(tuneCategory));
static cl::opt<bool> jsonOutput("json",
                                cl::desc("Print the result as JSON on stdout"),
                                cl::cat(tuneCategory));

/// Prints `message` as an error and returns the exit code.
static int fail(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

/// Peak resident memory of this process in MiB.
static double peakRssMiB() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return usage.ru_maxrss / 1024.0; // Linux reports KiB.
}

/// Checks the flags that do not need the input; returns an error message.
static std::optional<std::string> checkFlags() {
  llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
      createSearchStrategy(searchName, "--search");
  if (!strategy)
    return llvm::toString(strategy.takeError());
  if (!compareList.empty()) {
    SmallVector<StringRef> names;
    StringRef(compareList).split(names, ',', -1, /*KeepEmpty=*/false);
    if (names.empty())
      return std::string("--compare: expected a list of strategies");
    for (StringRef name : names) {
      llvm::Expected<std::unique_ptr<SearchStrategy>> s =
          createSearchStrategy(name.trim(), "--compare");
      if (!s)
        return llvm::toString(s.takeError());
    }
  }
  if (patience < -1)
    return "--patience must not be negative, got " + std::to_string(patience);
  if (maxVariants < 0)
    return "--max-variants must not be negative, got " +
           std::to_string(maxVariants);
  if (!(maxSeconds >= 0) || !std::isfinite(maxSeconds))
    return "--max-seconds must be a non-negative number";
  if (!(exploration >= 0) || !std::isfinite(exploration))
    return "--exploration must be a non-negative number";
  if (beamWidth == 0)
    return std::string("--beam-width must be at least 1");
  if (failed(dtile::Target::get(targetName)))
    return "--target: unknown target '" + targetName +
           "' (expected sm_80 or sm_90)";
  if (!llvm::is_contained(backendNames(), StringRef(backendName)))
    return "--backend: unknown backend '" + backendName +
           "' (expected one of: " + llvm::join(backendNames(), ", ") + ")";
  if (backendName == "replay" && replayTable.empty())
    return std::string("--backend=replay needs --replay-table");
  if (backendName != "replay" && !replayTable.empty())
    return std::string("--replay-table is only read by --backend=replay");
  if (backendName != "cuda")
    for (const cl::Option *flag : std::initializer_list<const cl::Option *>{
             &workerPath, &device, &inputSeed, &fakeDevice, &fakeFault,
             std::addressof(static_cast<const cl::Option &>(workerArgs))})
      if (flag->getNumOccurrences())
        return ("--" + flag->ArgStr + " is only read by --backend=cuda").str();
  return std::nullopt;
}

static std::string formatUs(std::optional<double> us) {
  if (!us)
    return "-";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2f", *us);
  return text;
}

static void printProgress(const TuneProgress &p, bool estimate) {
  llvm::raw_ostream &os = llvm::errs();
  const Measurement &m = p.result.measurement;
  os << "[" << p.kernel << "] #" << p.variant << " " << p.knobs << ": ";
  if (m.isValid())
    os << llvm::format("%.2f us", m.medianUs)
       << (estimate ? " (estimated)" : "");
  else
    os << measureStatusName(m.status);
  os << "  best " << formatUs(p.bestUs) << " us" << (p.improved ? " *" : "");
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

static void printTable(ArrayRef<KernelTuneResult> results,
                       const Backend &backend) {
  llvm::raw_ostream &os = llvm::outs();
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
      llvm::raw_string_ostream(speedup = "") << llvm::format("%.2fx", *s);
    std::string time;
    llvm::raw_string_ostream(time) << llvm::format("%.1fs", r.seconds);
    os << llvm::format("%-24s %12s %12s %9s %9zu %8s  %s\n", name.c_str(),
                       formatUs(r.defaultUs).c_str(),
                       formatUs(r.bestUs).c_str(), speedup.c_str(), r.measured,
                       time.c_str(),
                       r.bestKnobs.empty() ? "-" : r.bestKnobs.c_str());
  }
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
      {"speedup", optional(r.speedup())},
      {"measured", int64_t(r.measured)},
      {"failed", int64_t(r.failed)},
      {"tree_nodes", int64_t(r.treeNodes)},
      {"cached_cursors", int64_t(r.cachedCursors)},
      {"stop_reason", stopReasonName(r.stopReason)},
      {"seconds", r.seconds},
      {"build_ms_per_variant", r.materializeSeconds * 1e3 / lowered},
      {"lower_ms_per_variant", r.lowerSeconds * 1e3 / lowered},
      {"backend_ms_per_variant", r.backendSeconds * 1e3 / lowered}};
}

/// Writes the winners' knobs as a knobs= option, kernel by kernel (those
/// sharing a structural key too).
static LogicalResult writeWinners(ArrayRef<KernelTuneResult> results,
                                  std::string &error) {
  SmallVector<std::string> groups;
  for (const KernelTuneResult &r : results) {
    if (r.bestKnobs.empty())
      continue;
    groups.push_back(r.name + ":" + r.bestKnobs);
    for (const std::string &other : r.sameAs)
      groups.push_back(other + ":" + r.bestKnobs);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(knobsOut, ec, llvm::sys::fs::OF_Text);
  if (!ec) {
    os << llvm::join(groups, ";") << "\n";
    os.close();
    ec = os.error();
    os.clear_error();
  }
  if (ec) {
    error = "cannot write '" + knobsOut + "': " + ec.message();
    return failure();
  }
  return success();
}

/// Parses the input and lowers it to Loop IR.
static OwningOpRef<ModuleOp> loadLoopIR(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFile, &message);
  if (!file) {
    llvm::errs() << "error: " << message << "\n";
    return {};
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return {};
  locateImplicitModule(*module);
  PassManager pm(&context);
  buildLowerToLoopPipeline(pm);
  if (failed(pm.run(*module)))
    return {};
  return module;
}

/// How the tool was called, to find the bench worker beside it.
static const char *programName = nullptr;

static int run(MLIRContext &context) {
  if (std::optional<std::string> problem = checkFlags())
    return fail(*problem);
  dtile::Target target = *dtile::Target::get(targetName);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = loadLoopIR(context, sourceMgr);
  if (!module)
    return 1;
  SmallVector<dloop::KernelOp> kernels;
  module->walk([&](dloop::KernelOp kernel) {
    if (kernelFilter.empty() || kernel.getSymName() == kernelFilter)
      kernels.push_back(kernel);
  });
  if (kernels.empty())
    return fail(kernelFilter.empty()
                    ? "no kernel to tune in '" + inputFile + "'"
                    : "no kernel @" + kernelFilter + " in '" + inputFile + "'");

  std::string error;
  CudaBackendOptions cuda;
  if (backendName == "cuda") {
    if (!workerPath.empty()) {
      cuda.workerPath = workerPath;
    } else {
      llvm::Expected<std::string> found = runtime::findBenchWorker(programName);
      if (!found)
        return fail(llvm::toString(found.takeError()));
      cuda.workerPath = *found;
    }
    if (fakeDevice)
      cuda.workerArgs.push_back("--fake-device");
    cuda.workerArgs.push_back("--device=" + std::to_string(device));
    cuda.workerArgs.insert(cuda.workerArgs.end(), workerArgs.begin(),
                           workerArgs.end());
    cuda.seed = inputSeed;
    if (!fakeFault.empty())
      cuda.fake["fault"] = fakeFault.getValue();
  }
  FailureOr<std::unique_ptr<Backend>> backend =
      createBackend(backendName, targetName, replayTable, error, &cuda);
  if (failed(backend))
    return fail(error);

  SearchOptions search;
  if (patience >= 0)
    search.patience = static_cast<unsigned>(patience);
  search.maxVariants = static_cast<size_t>(maxVariants);
  search.maxSeconds = maxSeconds;
  search.explorationConstant = exploration;
  search.seed = seed;
  search.beamWidth = beamWidth;

  if (timeLowering > 0) {
    llvm::StringSet<> seen;
    llvm::outs() << llvm::format("%-28s %9s %10s %10s %10s\n", "kernel",
                                 "variants", "mean ms", "median ms", "max ms");
    for (dloop::KernelOp kernel : kernels) {
      if (!seen.insert(structuralKey(kernel)).second)
        continue;
      FailureOr<LoweringTiming> timing =
          timeVariantLowering(kernel, target, timeLowering, seed, error);
      if (failed(timing))
        return fail(error);
      llvm::outs() << llvm::format("%-28s %9zu %10.2f %10.2f %10.2f\n",
                                   kernel.getSymName().str().c_str(),
                                   timing->variants, timing->meanMs,
                                   timing->medianMs, timing->maxMs);
    }
    return 0;
  }

  if (!compareList.empty()) {
    SmallVector<StringRef> names;
    StringRef(compareList).split(names, ',', -1, /*KeepEmpty=*/false);
    for (StringRef &name : names)
      name = name.trim();
    llvm::StringSet<> seen;
    for (dloop::KernelOp kernel : kernels) {
      std::string key = structuralKey(kernel);
      if (!seen.insert(key).second)
        continue;
      FailureOr<ComparisonReport> report =
          compareOnKernel(kernel, key, **backend, target, names, search, error);
      if (failed(report))
        return fail(error);
      llvm::outs() << "@" << kernel.getSymName() << ":\n";
      printComparison(llvm::outs(), *report);
    }
    return 0;
  }

  std::optional<TuneDb> db;
  if (!noDb) {
    std::string path = dbPath;
    if (path.empty()) {
      FailureOr<std::string> fallback = getDefaultTuneDbPath(error);
      if (failed(fallback))
        return fail(error);
      path = *fallback;
    }
    FailureOr<TuneDb> opened = TuneDb::open(path, TuneDbOptions(), error);
    if (failed(opened))
      return fail(error);
    db.emplace(std::move(*opened));
  }
  std::optional<LatencyTable> table;
  if (!recordTable.empty())
    table.emplace();

  FailureOr<Tuner> tuner = Tuner::create(**backend, target, db ? &*db : nullptr,
                                         table ? &*table : nullptr, error);
  if (failed(tuner))
    return fail(error);
  TuneOptions options;
  options.strategy = searchName;
  options.search = search;
  bool estimate = (*backend)->isEstimate();
  if (!quiet)
    options.onProgress = [&](const TuneProgress &p) {
      printProgress(p, estimate);
    };

  FailureOr<std::vector<KernelTuneResult>> tuned =
      tuner->tuneKernels(kernels, options, error);
  if (failed(tuned))
    return fail(error);
  std::vector<KernelTuneResult> &results = *tuned;
  if (table && failed(table->write(recordTable, error)))
    return fail(error);
  if (!knobsOut.empty() && failed(writeWinners(results, error)))
    return fail(error);

  if (jsonOutput) {
    llvm::json::Array list;
    for (const KernelTuneResult &r : results)
      list.push_back(toJson(r));
    llvm::json::Value root = llvm::json::Object{
        {"target", targetName},
        {"backend", (*backend)->getName()},
        {"estimated", estimate},
        {"context", (*backend)->getContext().key},
        {"search", searchName},
        {"db", db ? llvm::json::Value(db->getPath()) : nullptr},
        {"peak_rss_mib", peakRssMiB()},
        {"kernels", std::move(list)}};
    llvm::outs() << llvm::formatv("{0:2}", root) << "\n";
    return 0;
  }
  printTable(results, **backend);
  if (verbose) {
    for (const KernelTuneResult &r : results) {
      size_t n = std::max<size_t>(r.measured, 1);
      llvm::outs() << llvm::format(
          "%s: %zu tree nodes, %zu cursors held, stopped: %s; per variant "
          "%.2f ms building Tile IR, %.2f ms lowering to CUDA, %.2f ms in the "
          "backend\n",
          r.name.c_str(), r.treeNodes, r.cachedCursors,
          stopReasonName(r.stopReason).data(), r.materializeSeconds * 1e3 / n,
          r.lowerSeconds * 1e3 / n, r.backendSeconds * 1e3 / n);
    }
    llvm::outs() << llvm::format("peak memory %.1f MiB\n", peakRssMiB());
  }
  if (db)
    llvm::outs() << "recorded in " << db->getPath() << " (context "
                 << (*backend)->getContext().key << ")\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  programName = argv[0];
  registerDeplodockPasses();
  prepareToolOptions({&tuneCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "Deplodock autotuner: tune every kernel of a "
                              "layer and record the winners\n");
  MLIRContext context;
  loadDeplodockDialects(context);
  context.printOpOnDiagnostic(false);
  return run(context);
}
