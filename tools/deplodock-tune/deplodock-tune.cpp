//===- deplodock-tune.cpp - Tune every kernel of a layer --------*- C++ -*-===//
//
//   deplodock-tune layer.mlir                        # MCTS, model backend
//   deplodock-tune layer.mlir --search=exhaustive --record-table=t.json
//   deplodock-tune layer.mlir --backend=replay --replay-table=t.json \
//       --compare=mcts,random --budgets=16,32,64 --runs=5
//   deplodock-tune --list-db | --show=KERNEL | --prune=CONTEXT
//
// The flags become TuneDriverOptions; runTuneDriver (lib/Tuner/Driver)
// does the work. docs/Tuner/Driver.md describes them.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "Deplodock/Support/ToolOptions.h"
#include "Deplodock/Tuner/TuneDriver.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace deplodock;
using namespace deplodock::tuner;
namespace cl = llvm::cl;

static cl::OptionCategory tuneCategory("deplodock-tune options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::cat(tuneCategory));
static cl::opt<std::string>
    dbPath("db",
           cl::desc("Tune database (default: $DEPLODOCK_TUNE_DB, else "
                    "~/.cache/deplodock/autotune.db)"),
           cl::cat(tuneCategory));
static cl::opt<bool> noDb("no-db", cl::desc("Record nothing in a database"),
                          cl::cat(tuneCategory));
static cl::opt<bool>
    remeasure("remeasure",
              cl::desc("Measure variants the database already holds again "
                       "(default: a re-run skips them and continues)"),
              cl::cat(tuneCategory));
static cl::opt<bool>
    noWarmStart("no-warm-start",
                cl::desc("Do not try the winners of similar kernels (equal "
                         "up to extents) first"),
                cl::cat(tuneCategory));
static cl::opt<std::string> priorName(
    "prior",
    cl::desc("Rank candidates by the roofline model before measuring one "
             "(model), or not (none); default: model, except with the model "
             "backend or a table the model recorded"),
    cl::cat(tuneCategory));
static cl::opt<double> priorNoise(
    "prior-noise",
    cl::desc("Perturb the prior by a log-normal factor of this sigma "
             "(to evaluate searches with a model that is that wrong)"),
    cl::init(0), cl::Hidden, cl::cat(tuneCategory));
static cl::opt<std::string>
    searchName("search",
               cl::desc("Search strategy: mcts, greedy, random, beam or "
                        "exhaustive"),
               cl::init("mcts"), cl::cat(tuneCategory));
static cl::opt<int> patience(
    "patience",
    cl::desc("Stop a kernel after this many variants in a row without a new "
             "best (0: never; default: the tree's mean fan-out times its "
             "depth for mcts and random, 60 for beam)"),
    cl::cat(tuneCategory));
static cl::opt<int64_t>
    maxVariants("max-variants",
                cl::desc("Measure at most this many variants per kernel (0: "
                         "no limit)"),
                cl::init(0), cl::cat(tuneCategory));
static cl::opt<int64_t>
    jobs("jobs",
         cl::desc("Lower this many variants at once, on as many threads "
                  "(default: one per hardware thread); the results do not "
                  "depend on it"),
         cl::init(0), cl::cat(tuneCategory));
static cl::opt<int64_t> totalVariants(
    "total-variants",
    cl::desc("Measure at most this many variants over all the kernels, "
             "shared by the time each could save (its default above its "
             "roofline floor, times its instances)"),
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
static cl::list<unsigned>
    devices("devices",
            cl::desc("--backend=cuda: the GPUs to measure on, one worker "
                     "each, in parallel (comma-separated; default 0)"),
            cl::CommaSeparated, cl::cat(tuneCategory));
static cl::alias deviceAlias("device", cl::desc("Alias for --devices"),
                             cl::aliasopt(devices), cl::cat(tuneCategory));
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
static cl::opt<uint64_t> fakeKillAfter(
    "fake-kill-after",
    cl::desc("Kill this process (SIGKILL) once this many variants are "
             "recorded (tests of resuming)"),
    cl::init(0), cl::Hidden, cl::cat(tuneCategory));
static cl::opt<std::string> knobsOut(
    "knobs-out",
    cl::desc("Write every kernel's winning knobs to this file, in the syntax "
             "of the knobs= pipeline option (kernel:BK=32,...;other:...)"),
    cl::cat(tuneCategory));
static cl::opt<double>
    exploration("exploration",
                cl::desc("MCTS exploration constant c (default 1)"),
                cl::init(1.0), cl::cat(tuneCategory));
static cl::opt<unsigned> beamWidth("beam-width",
                                   cl::desc("Nodes kept per depth by beam"),
                                   cl::init(4), cl::cat(tuneCategory));
static cl::opt<std::string> targetName("target",
                                       cl::desc("GPU: sm_80, sm_90 or sm_90a"),
                                       cl::init("sm_90"),
                                       cl::cat(tuneCategory));
static cl::opt<std::string> precision(
    "precision",
    cl::desc("Precision of FP32 contractions: ieee, or tf32 to allow TF32 "
             "tensor cores (default: the module's); each is recorded in a "
             "context of its own"),
    cl::cat(tuneCategory));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the search (mcts, random)"),
                              cl::init(0), cl::cat(tuneCategory));
static cl::opt<std::string>
    kernelFilter("kernel", cl::desc("Tune only the kernel with this name"),
                 cl::cat(tuneCategory));
static cl::list<std::string> compareList(
    "compare",
    cl::desc("Instead of tuning, compare these strategies (comma-separated) "
             "on every kernel: variants each needs to get within 2% of the "
             "best; records nothing"),
    cl::CommaSeparated, cl::cat(tuneCategory));
static cl::list<unsigned>
    compareBudgets("budgets",
                   cl::desc("--compare: report each strategy's best within "
                            "these many variants (comma-separated)"),
                   cl::CommaSeparated, cl::cat(tuneCategory));
static cl::opt<unsigned>
    compareRuns("runs",
                cl::desc("--compare: runs per strategy, seeds --seed, "
                         "--seed + 1, ... (medians are reported)"),
                cl::init(1), cl::cat(tuneCategory));
static cl::opt<std::string> referenceTable(
    "reference-table",
    cl::desc("--compare: a latency table whose fastest variant of each kernel "
             "is the best known (the reference unless a run finds better)"),
    cl::cat(tuneCategory));
static cl::opt<unsigned> timeLowering(
    "time-lowering",
    cl::desc("Instead of tuning, lower N seeded random variants of every "
             "kernel from Loop IR to CUDA, from scratch, and report the time "
             "per variant"),
    cl::init(0), cl::cat(tuneCategory));
static cl::opt<unsigned> countVariants(
    "count-variants",
    cl::desc("Instead of tuning, estimate the variants of every kernel from "
             "N random walks down its fork tree (Knuth's estimator)"),
    cl::init(0), cl::cat(tuneCategory));
static cl::opt<bool>
    listDb("list-db",
           cl::desc("List the database: contexts, counts, each kernel's best"),
           cl::cat(tuneCategory));
static cl::opt<std::string>
    showKernel("show",
               cl::desc("Show the measured variants of a kernel (its name or "
                        "a prefix of its key) in every context"),
               cl::cat(tuneCategory));
static cl::opt<std::string>
    pruneContext("prune",
                 cl::desc("Delete a context (its key or a prefix of it) and "
                          "every row measured in it"),
                 cl::cat(tuneCategory));
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

/// The flags as options; an error names the flag that is wrong.
static llvm::Expected<TuneDriverOptions> readFlags(const char *argv0) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  TuneDriverOptions o;
  // A path or name given empty is a mistake, never "the default".
  if (llvm::Error empty =
          refuseEmpty({&replayTable, &recordTable, &workerPath, &fakeFault,
                       &knobsOut, &kernelFilter, &referenceTable, &searchName,
                       &backendName, &targetName, &priorName}))
    return std::move(empty);
  unsigned modes = !compareList.empty() + (timeLowering > 0) +
                   (countVariants > 0) + listDb + !showKernel.empty() +
                   !pruneContext.empty();
  if (modes > 1)
    return fail("--compare, --time-lowering, --count-variants, --list-db, "
                "--show and --prune are separate modes: give one");
  if (!compareList.empty())
    o.mode = TuneMode::Compare;
  else if (timeLowering > 0)
    o.mode = TuneMode::TimeLowering;
  else if (countVariants > 0)
    o.mode = TuneMode::CountVariants;
  else if (listDb)
    o.mode = TuneMode::ListDb;
  else if (showKernel.getNumOccurrences())
    o.mode = TuneMode::ShowKernel;
  else if (pruneContext.getNumOccurrences())
    o.mode = TuneMode::PruneContext;
  o.subject = o.mode == TuneMode::PruneContext ? pruneContext : showKernel;
  o.inputFile = inputFile;
  o.target = targetName;
  o.precision = precision;
  o.kernel = kernelFilter;
  if (dbPath.getNumOccurrences())
    o.dbPath = dbPath.getValue();
  o.noDb = noDb;
  o.resume = !remeasure;
  o.warmStart = !noWarmStart;
  o.prior = priorName;
  o.priorNoise = priorNoise;
  o.strategy = searchName;
  if (patience.getNumOccurrences()) {
    if (patience < 0)
      return fail("--patience must not be negative, got " +
                  llvm::Twine(patience));
    o.search.patience = static_cast<unsigned>(patience);
  }
  if (jobs.getNumOccurrences()) {
    // More threads than that only cost memory.
    constexpr int64_t kMaxJobs = 1024;
    if (jobs < 1 || jobs > kMaxJobs)
      return fail("--jobs must be between 1 and " + llvm::Twine(kMaxJobs) +
                  ", got " + llvm::Twine(jobs));
    o.jobs = static_cast<unsigned>(jobs);
  }
  if (maxVariants < 0)
    return fail("--max-variants must not be negative, got " +
                llvm::Twine(maxVariants));
  if (totalVariants < 0)
    return fail("--total-variants must not be negative, got " +
                llvm::Twine(totalVariants));
  o.search.maxVariants = static_cast<size_t>(maxVariants);
  o.totalVariants = static_cast<size_t>(totalVariants);
  o.search.maxSeconds = maxSeconds;
  o.search.explorationConstant = exploration;
  o.search.seed = seed;
  o.search.beamWidth = beamWidth;
  o.killAfter = fakeKillAfter;

  o.backend = backendName;
  o.replayTable = replayTable;
  o.programName = argv0;
  if (backendName != "cuda") {
    for (const cl::Option *flag : std::initializer_list<const cl::Option *>{
             &workerPath, &static_cast<const cl::Option &>(devices), &inputSeed,
             &fakeDevice, &fakeFault,
             &static_cast<const cl::Option &>(workerArgs)})
      if (flag->getNumOccurrences())
        return fail("--" + flag->ArgStr + " is only read by --backend=cuda");
  }
  o.cuda.workerPath = workerPath;
  if (!devices.empty())
    o.cuda.devices.assign(devices.begin(), devices.end());
  if (fakeDevice)
    o.cuda.workerArgs.push_back("--fake-device");
  o.cuda.workerArgs.insert(o.cuda.workerArgs.end(), workerArgs.begin(),
                           workerArgs.end());
  o.cuda.seed = inputSeed;
  if (!fakeFault.empty())
    o.cuda.fake["fault"] = fakeFault.getValue();

  o.recordTable = recordTable;
  o.knobsOut = knobsOut;
  o.quiet = quiet;
  o.verbose = verbose;
  o.json = jsonOutput;
  for (const std::string &name : compareList)
    if (!llvm::StringRef(name).trim().empty())
      o.compare.push_back(llvm::StringRef(name).trim().str());
  if (!compareList.empty() && o.compare.empty())
    return fail("--compare: expected a list of strategies");
  o.compareOptions.budgets.assign(compareBudgets.begin(), compareBudgets.end());
  o.compareOptions.runs = compareRuns;
  o.referenceTable = referenceTable;
  o.timeLowering = timeLowering;
  o.countWalks = countVariants;
  return o;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerDeplodockPasses();
  prepareToolOptions({&tuneCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "Deplodock autotuner: tune every kernel of a "
                              "layer and record the winners\n");
  llvm::Expected<TuneDriverOptions> options = readFlags(argv[0]);
  llvm::Error error = options.takeError();
  if (!error) {
    mlir::MLIRContext context;
    loadDeplodockDialects(context);
    context.printOpOnDiagnostic(false);
    error = runTuneDriver(context, *options, llvm::outs(), llvm::errs());
  }
  if (!error)
    return 0;
  llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}
