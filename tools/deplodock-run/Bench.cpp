//===- Bench.cpp - deplodock-run --bench: flags to the bench driver -------===//
//
// The --bench flags, checked (each error names its flag) and handed to
// bench::runBench (lib/Bench), which does the work.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "Deplodock/Bench/BenchDriver.h"
#include "Deplodock/Support/ToolDiagnostics.h"
#include "Deplodock/Support/ToolOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::runtime;
namespace cl = llvm::cl;

llvm::cl::OptionCategory &deplodock::getBenchCategory() {
  static cl::OptionCategory category("deplodock-run --bench options");
  return category;
}

static cl::opt<std::string>
    knobs("knobs",
          cl::desc("--bench: fork choices for the Tile rules, as "
                   "deplodock-pipeline's knobs= (default: option 0)"),
          cl::cat(getBenchCategory()));
static cl::opt<std::string>
    benchJson("bench-json",
              cl::desc("--bench: write the device, the timings and the "
                       "status as JSON to FILE"),
              cl::value_desc("FILE"), cl::cat(getBenchCategory()));
static cl::opt<uint64_t> cpuReferenceLimit(
    "cpu-reference-limit",
    cl::desc("--bench: check the GPU results against the CPU interpreter "
             "when it materialises at most this many elements, else against "
             "the layer's simplest lowering on the GPU (0: always the GPU)"),
    cl::init(uint64_t(1) << 23), cl::cat(getBenchCategory()));
static cl::opt<bool>
    fakeDevice("fake-device",
               cl::desc("--bench: run on the bench worker's fake device (no "
                        "GPU; for tests)"),
               cl::cat(getBenchCategory()));
static cl::opt<std::string>
    workerPath("worker",
               cl::desc("--bench: the bench worker to start (default: "
                        "deplodock-bench-worker beside this tool)"),
               cl::cat(getBenchCategory()));
static cl::list<std::string>
    workerArgs("worker-arg",
               cl::desc("--bench: pass this argument to the bench worker "
                        "(repeatable)"),
               cl::cat(getBenchCategory()));
static cl::opt<std::string>
    fakeFault("fake-fault",
              cl::desc("--bench: ask the fake device for this fault (tests)"),
              cl::Hidden, cl::cat(getBenchCategory()));
static cl::opt<int> deviceOrdinal("device", cl::desc("--bench: the GPU to use"),
                                  cl::init(0), cl::cat(getBenchCategory()));
static cl::opt<std::string>
    kernelCache("kernel-cache",
                cl::desc("--bench: keep compiled kernels in this directory"),
                cl::cat(getBenchCategory()));
static NumberOption warmupMs("warmup-ms",
                             cl::desc("--bench: warm-up time per unit"),
                             cl::init(25), cl::cat(getBenchCategory()));
static NumberOption
    maxTimeMs("max-time-ms",
              cl::desc("--bench: the most time spent sampling one unit"),
              cl::init(1000), cl::cat(getBenchCategory()));
static cl::opt<unsigned>
    minSamples("min-samples",
               cl::desc("--bench: samples to take at least (budget "
                        "permitting)"),
               cl::init(10), cl::cat(getBenchCategory()));
static cl::opt<bool>
    flushL2("flush-l2",
            cl::desc("--bench: flush the L2 cache before every sample"),
            cl::init(true), cl::cat(getBenchCategory()));
static NumberOption
    kernelTimeoutS("kernel-timeout",
                   cl::desc("--bench: seconds before a kernel counts as hung"),
                   cl::init(10), cl::cat(getBenchCategory()));
static NumberOption benchTimeoutS(
    "bench-timeout",
    cl::desc("--bench: seconds the worker may take for the whole request "
             "before it is killed (0: a bound from the timing budget)"),
    cl::init(0), cl::cat(getBenchCategory()));

/// Checks the numeric --bench options, naming the flag (the worker's
/// message would name the request's field instead).
static LogicalResult checkOptions() {
  auto bad = [](StringRef flag, const llvm::Twine &what) {
    llvm::errs() << "error: --" << flag << " must be " << what << "\n";
    return failure();
  };
  auto within = [](double v, double most) {
    return std::isfinite(v) && v >= 0 && v <= most;
  };
  if (!within(kernelTimeoutS, kMaxTimeoutS) || kernelTimeoutS == 0)
    return bad("kernel-timeout",
               "a positive number of seconds, at most " +
                   llvm::Twine(static_cast<int64_t>(kMaxTimeoutS)));
  if (!within(benchTimeoutS, kMaxTimeoutS))
    return bad("bench-timeout",
               "a number of seconds up to " +
                   llvm::Twine(static_cast<int64_t>(kMaxTimeoutS)) + ", or 0");
  if (!within(warmupMs, kMaxTimingMs))
    return bad("warmup-ms",
               "a number of milliseconds from 0 to " +
                   llvm::Twine(static_cast<int64_t>(kMaxTimingMs)));
  if (!within(maxTimeMs, kMaxTimingMs))
    return bad("max-time-ms",
               "a number of milliseconds from 0 to " +
                   llvm::Twine(static_cast<int64_t>(kMaxTimingMs)));
  if (minSamples < 1 || minSamples > kMaxSamples)
    return bad("min-samples", "from 1 to " + llvm::Twine(kMaxSamples));
  if (deviceOrdinal < 0)
    return bad("device", "a GPU ordinal (0, 1, ...)");
  return success();
}

void deplodock::showBenchDefaults() {
  showDefaults(cpuReferenceLimit, deviceOrdinal, warmupMs, maxTimeMs,
               minSamples, flushL2, kernelTimeoutS);
}

int deplodock::runBenchMode(MLIRContext &context, const BenchConfig &config) {
  if (failed(checkOptions()) ||
      failed(reportEmpty(
          {&benchJson, &workerPath, &fakeFault, &kernelCache, &knobs})))
    return 1;
  bench::BenchOptions options;
  options.funcName = config.funcName;
  options.inputs = config.inputs;
  options.seed = config.seed;
  options.target = config.target;
  options.knobs = knobs;
  options.tuneDb = config.tuneDb;
  options.precision = config.precision;
  options.halfPrologues = config.halfPrologues;
  options.cpuReferenceLimit = cpuReferenceLimit;
  options.timing.warmupMs = warmupMs;
  options.timing.maxTimeMs = maxTimeMs;
  options.timing.minSamples = minSamples;
  options.timing.flushL2 = flushL2;
  options.kernelTimeoutS = kernelTimeoutS;
  options.benchTimeoutS = benchTimeoutS;
  if (!fakeFault.empty())
    options.fake["fault"] = fakeFault.getValue();
  options.outputDir = config.outputDir;
  options.benchJson = benchJson;
  if (!workerPath.empty()) {
    options.client.workerPath = workerPath;
  } else {
    llvm::Expected<std::string> found = findBenchWorker(config.argv0);
    if (!found) {
      llvm::errs() << "error: " << llvm::toString(found.takeError()) << "\n";
      return 1;
    }
    options.client.workerPath = *found;
  }
  if (fakeDevice)
    options.client.workerArgs.push_back("--fake-device");
  options.client.workerArgs.push_back("--device=" +
                                      std::to_string(deviceOrdinal));
  if (!kernelCache.empty())
    options.client.workerArgs.push_back("--cache-dir=" + kernelCache);
  options.client.workerArgs.insert(options.client.workerArgs.end(),
                                   workerArgs.begin(), workerArgs.end());

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // Errors about no place in the layer (no GPU, a bad input file) read as
  // the tool's own, without "<unknown>:0:"; the others go to `handler`.
  ScopedDiagnosticHandler unlocated(&context, [](Diagnostic &diag) {
    if (!isa<UnknownLoc>(diag.getLocation()))
      return failure();
    llvm::outs().flush();
    llvm::errs() << (diag.getSeverity() == DiagnosticSeverity::Error ? "error: "
                     : diag.getSeverity() == DiagnosticSeverity::Warning
                         ? "warning: "
                         : "note: ")
                 << diag.str() << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(config.inputFile, sourceMgr, &context);
  if (!module)
    return 1;
  locateImplicitModule(*module);
  if (!config.pipeline.empty() &&
      failed(applyPipeline(*module, config.pipeline)))
    return 1;
  FailureOr<bench::BenchRun> run =
      bench::runBench(*module, options, llvm::outs());
  if (failed(run))
    return 1;
  const BenchResult &result = run->result;
  if (result.status == BenchStatus::Ok)
    return 0;
  llvm::outs().flush(); // After the report, when both go to one place.
  llvm::errs() << "error: the kernels failed ("
               << benchStatusName(result.status) << "): " << result.detail
               << "\n";
  return 1;
}
