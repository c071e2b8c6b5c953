//===- TunerTest.cpp - Tests of tuning, recording and replay --------------===//
//
// End to end on the CPU: tune small kernels with the model backend into a
// database file, then check what was recorded (inventories, the lowering
// chain, perf and best rows, the latency table) and that dtile-lower with
// tune-db reproduces the winner. Also: kernels with equal structural keys are
// tuned once, a backend that cannot answer stops the tuning with its
// message, and strategy comparisons run on one space.
//
//===----------------------------------------------------------------------===//

#include "LoopKernels.h"

#include "../ErrorSupport.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/Replay.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/Tuner.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

class TunerTest : public LoopKernelsTest {
protected:
  TunerTest() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("deplodock-tuner", dir));
    directory = std::string(dir);
    dbPath = directory + "/tune.db";
    backend = std::move(*check(createModelBackend("sm_90"), error));
  }
  ~TunerTest() override { llvm::sys::fs::remove_directories(directory); }

  /// Opens (creating) the database file.
  TuneDb open() {
    FailureOr<TuneDb> db = check(TuneDb::open(dbPath, TuneDbOptions()), error);
    EXPECT_TRUE(succeeded(db)) << error;
    return std::move(*db);
  }

  /// The knobs dtile-lower gives kernel `name` with these options.
  std::string lowerKnobs(StringRef name, StringRef tuneDb = "",
                         StringRef knobs = "", StringRef target = "sm_90") {
    OwningOpRef<ModuleOp> lowered = module->clone();
    PassManager pm(&context);
    dtile::DTileLowerOptions options;
    options.knobs = knobs.str();
    options.target = target.str();
    std::shared_ptr<dtile::OptionChooser> replay;
    if (!tuneDb.empty())
      replay = createReplayChooser(tuneDb, /*context=*/"", /*report=*/false);
    pm.addPass(dtile::createDTileLowerPass(options, replay));
    if (failed(pm.run(*lowered)))
      return "<failed>";
    std::string text;
    lowered->walk([&](dtile::KernelOp k) {
      if (k.getSymName() == name)
        text = dtile::formatKnobsOption("", k.getKnobs());
    });
    return text;
  }

  TuneOptions mcts(size_t variants) {
    TuneOptions options;
    options.strategy = "mcts";
    options.search.maxVariants = variants;
    return options;
  }

  std::string directory, dbPath, error;
  dtile::Target sm90 = dtile::Target::lookup(&context, "sm_90");
  std::unique_ptr<Backend> backend;
};

TEST_F(TunerTest, RecordsWhatReplayFollowsToTheWinner) {
  TuneDb db = open();
  LatencyTable table;
  FailureOr<Tuner> tuner =
      check(Tuner::create(*backend, sm90, &db, &table), error);
  ASSERT_TRUE(succeeded(tuner)) << error;
  std::string key = structuralKey(kernel("matmul"));
  size_t progress = 0;
  TuneOptions options = mcts(40);
  options.onProgress = [&](const TuneProgress &p) {
    ++progress;
    EXPECT_EQ(p.variant, progress);
    EXPECT_EQ(p.kernel, "matmul");
  };
  FailureOr<KernelTuneResult> result =
      check(tuner->tuneKernel(kernel("matmul"), key, options), error);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->measured, progress);
  EXPECT_GE(result->measured, 40u);
  ASSERT_TRUE(result->bestUs && result->defaultUs);
  EXPECT_LE(*result->bestUs, *result->defaultUs);
  EXPECT_EQ(result->defaultKnobs, lowerKnobs("matmul"));

  // Inventories, one context, a perf row per distinct CUDA kernel (at most
  // one per variant), one best row with the winner's knobs.
  FailureOr<TuneDbCounts> counts = check(db.counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->contexts, 1);
  EXPECT_EQ(counts->loopOps, 1);
  EXPECT_GT(counts->tileOps, int64_t(result->measured));
  EXPECT_GT(counts->kernelOps, 0);
  EXPECT_GT(counts->cudaOps, 0);
  EXPECT_LE(counts->perf, int64_t(result->measured));
  EXPECT_EQ(counts->best, 1);
  EXPECT_EQ(table.getNumVariants(), result->measured);
  FailureOr<std::optional<BestRow>> best =
      check(db.bestKnobs(modelContextKey("sm_90"), key, "model"), error);
  ASSERT_TRUE(succeeded(best) && *best) << error;
  EXPECT_DOUBLE_EQ((*best)->medianUs, *result->bestUs);
  llvm::Expected<dtile::KnobsAttr> bestKnobs =
      knobsFromJson(&context, (*best)->knobs);
  ASSERT_TRUE(!!bestKnobs) << llvm::toString(bestKnobs.takeError());
  EXPECT_EQ(dtile::formatKnobsOption("", *bestKnobs), result->bestKnobs);

  // The loop kernel's hop leads to the root Tile state.
  FailureOr<std::optional<LoweringRow>> first =
      check(db.lookupLowering(modelContextKey("sm_90"), key), error);
  ASSERT_TRUE(succeeded(first) && *first) << error;
  EXPECT_EQ((*first)->parentLevel, OpLevel::Loop);
  EXPECT_EQ((*first)->childLevel, OpLevel::Tile);
  EXPECT_DOUBLE_EQ(*(*first)->bestMedianUs, *result->bestUs);

  // Replay: every fork follows the record and lands on the winner; explicit
  // knobs still win.
  ASSERT_NE(result->bestKnobs, result->defaultKnobs);
  EXPECT_EQ(lowerKnobs("matmul", dbPath), result->bestKnobs);
  EXPECT_EQ(lowerKnobs("matmul", dbPath, "matmul:" + result->defaultKnobs),
            result->defaultKnobs);
  // The identical kernel replays the same decisions; untuned ones default.
  EXPECT_EQ(lowerKnobs("matmul_again", dbPath), result->bestKnobs);
  EXPECT_EQ(lowerKnobs("rownorm", dbPath), lowerKnobs("rownorm"));
  // Another context has nothing: option 0 everywhere.
  EXPECT_EQ(lowerKnobs("matmul", dbPath, "", "sm_80"),
            lowerKnobs("matmul", "", "", "sm_80"));
}

TEST_F(TunerTest, EqualKernelsAreTunedOnce) {
  FailureOr<Tuner> tuner =
      check(Tuner::create(*backend, sm90, nullptr, nullptr), error);
  ASSERT_TRUE(succeeded(tuner)) << error;
  TuneOptions options = mcts(5);
  FailureOr<std::vector<KernelTuneResult>> results =
      check(tuner->tuneModule(*module, options), error);
  ASSERT_TRUE(succeeded(results)) << error;
  ASSERT_EQ(results->size(), 3u);
  EXPECT_EQ((*results)[0].name, "matmul");
  EXPECT_EQ((*results)[0].sameAs, std::vector<std::string>{"matmul_again"});
  EXPECT_EQ((*results)[1].name, "rownorm");
  EXPECT_EQ((*results)[2].name, "scale");
  for (const KernelTuneResult &r : *results) {
    EXPECT_GE(r.measured, 1u) << r.name;
    EXPECT_LE(r.measured, 6u) << r.name; // The default and five more.
    EXPECT_TRUE(r.bestUs) << r.name;
  }
}

/// Answers a fixed latency, then fails to answer at all.
class FlakyBackend : public Backend {
public:
  explicit FlakyBackend(size_t answers) : answers(answers) {
    context.key = "flaky";
    context.gpuName = "test";
  }
  llvm::StringRef getName() const override { return "flaky"; }
  const DeviceContext &getContext() const override { return context; }
  llvm::Expected<BackendResult> measure(const Variant &variant) override {
    EXPECT_FALSE(variant.cuda.empty());
    EXPECT_FALSE(variant.kernels.empty());
    EXPECT_EQ(variant.kernels.size(), variant.program.launches.size());
    if (calls++ < answers)
      return BackendResult::single(10.0 + calls);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the device went away");
  }
  size_t calls = 0;

private:
  size_t answers;
  DeviceContext context;
};

TEST_F(TunerTest, ABackendThatCannotAnswerStopsTheTuning) {
  FlakyBackend flaky(3);
  TuneDb db = open();
  FailureOr<Tuner> tuner =
      check(Tuner::create(flaky, sm90, &db, nullptr), error);
  ASSERT_TRUE(succeeded(tuner)) << error;
  FailureOr<KernelTuneResult> result =
      check(tuner->tuneKernel(kernel("matmul"), structuralKey(kernel("matmul")),
                              mcts(50)),
            error);
  EXPECT_TRUE(failed(result));
  EXPECT_EQ(error, "the device went away");
  EXPECT_EQ(flaky.calls, 4u); // The search stopped at once.
  FailureOr<TuneDbCounts> counts = check(db.counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 3);
}

TEST_F(TunerTest, AnUnknownStrategyIsAnError) {
  FailureOr<Tuner> tuner =
      check(Tuner::create(*backend, sm90, nullptr, nullptr), error);
  ASSERT_TRUE(succeeded(tuner)) << error;
  TuneOptions options;
  options.strategy = "annealing";
  EXPECT_TRUE(
      failed(check(tuner->tuneKernel(kernel("scale"),
                                     structuralKey(kernel("scale")), options),
                   error)));
  EXPECT_NE(error.find("unknown search strategy 'annealing'"),
            std::string::npos)
      << error;
}

TEST_F(TunerTest, StrategiesCompareOnOneSpace) {
  SearchOptions options;
  options.patience = 0;
  FailureOr<ComparisonReport> report =
      check(compareOnKernel(kernel("rownorm"), structuralKey(kernel("rownorm")),
                            *backend, sm90, {"exhaustive", "greedy", "mcts"},
                            options, CompareOptions()),
            error);
  ASSERT_TRUE(succeeded(report)) << error;
  ASSERT_EQ(report->rows.size(), 3u);
  // The exhaustive sweep finds the best; MCTS without patience exhausts too.
  EXPECT_DOUBLE_EQ(report->rows[0].bestUs, report->referenceUs);
  EXPECT_EQ(report->rows[1].measured, 1u);
  EXPECT_DOUBLE_EQ(report->rows[2].bestUs, report->referenceUs);
  EXPECT_EQ(report->rows[0].measured, report->rows[2].measured);
  EXPECT_TRUE(report->rows[2].variantsToTarget);
}

TEST_F(TunerTest, LoweringTimeIsMeasuredFromLoopIR) {
  FailureOr<LoweringTiming> timing =
      check(timeVariantLowering(kernel("matmul"), sm90, 5, /*seed=*/1), error);
  ASSERT_TRUE(succeeded(timing)) << error;
  EXPECT_EQ(timing->variants, 5u);
  EXPECT_GT(timing->meanMs, 0);
  EXPECT_LE(timing->medianMs, timing->maxMs);
}

} // namespace
