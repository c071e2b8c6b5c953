//===- RecordsTest.cpp - Tests of knob JSON, fork keys and replay ---------===//
//
// Knob sets convert to the database's JSON and back; a recorded delta picks
// exactly the option it names; fork-point keys separate what they must.
// Replay opens only sound databases, resolves its context (auto, model, an
// explicit key) and reads the rows the tuner writes.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/Replay.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "../ErrorSupport.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

class RecordsTest : public ::testing::Test {
protected:
  RecordsTest() {
    context.loadDialect<dtile::DTileDialect>();
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("deplodock-replay", dir));
    directory = std::string(dir);
    path = directory + "/tune.db";
  }
  ~RecordsTest() override { llvm::sys::fs::remove_directories(directory); }

  dtile::KnobsAttr knobs(StringRef text) {
    return cast<dtile::KnobsAttr>(
        parseAttribute(("#dtile.knobs<" + text + ">").str(), &context));
  }

  /// A database with `contexts` (key, backend, capability) recorded; a key
  /// ending in -tf32 names a TF32 context.
  void makeDb(ArrayRef<std::tuple<const char *, const char *, int>> contexts) {
    FailureOr<TuneDb> db = check(TuneDb::open(path, TuneDbOptions()), error);
    ASSERT_TRUE(succeeded(db)) << error;
    for (auto [key, backend, cc] : contexts) {
      DeviceContext c;
      c.key = key;
      c.gpuName = "gpu";
      c.ccMajor = cc / 10;
      c.ccMinor = cc % 10;
      c.extra = llvm::json::Object{{"backend", backend}};
      if (StringRef(key).ends_with("-tf32"))
        markTf32(c.extra);
      ASSERT_TRUE(succeeded(check(db->recordContext(c), error))) << error;
    }
  }

  /// The context replay picks for `spec`, `target` and precision, or the
  /// error.
  std::string pick(StringRef spec, StringRef target = "sm_90",
                   bool tf32 = false) {
    llvm::Expected<TuneDbReplay> replay =
        TuneDbReplay::open(path, spec, target, tf32);
    if (!replay)
      return "error: " + llvm::toString(replay.takeError());
    return replay->getContextKey().str();
  }

  MLIRContext context;
  std::string directory, path, error;
};

TEST_F(RecordsTest, KnobsRoundTripThroughJson) {
  dtile::KnobsAttr k = knobs("BK = 32, BM = 64, stage = [0, 2], tma = true");
  llvm::json::Object object = knobsToJson(k);
  EXPECT_EQ(formatKnobsJson(k),
            R"({"BK":32,"BM":64,"stage":[0,2],"tma":true})");
  llvm::Expected<dtile::KnobsAttr> back = knobsFromJson(&context, object);
  ASSERT_TRUE(!!back) << llvm::toString(back.takeError());
  EXPECT_EQ(*back, k);
  EXPECT_EQ(formatKnobsJson(knobs("")), "{}");

  auto why = [&](llvm::json::Object object) {
    llvm::Expected<dtile::KnobsAttr> knobs =
        knobsFromJson(&context, std::move(object));
    return knobs ? std::string("parsed") : llvm::toString(knobs.takeError());
  };
  EXPECT_EQ(why(llvm::json::Object{{"warp_size", 32}}),
            dtile::describeUnknownKnob("warp_size"));
  EXPECT_EQ(why(llvm::json::Object{{"BK", true}}),
            "knob 'BK' expects an integer");
  EXPECT_EQ(why(llvm::json::Object{{"stage", llvm::json::Array{1, "x"}}}),
            "knob 'stage' expects a list of integers");
  // The ranges of Rules.td hold for recorded knobs too.
  EXPECT_EQ(why(llvm::json::Object{{"threads", 4096}}),
            "knob 'threads' must be in [1, 1024], got 4096");
}

TEST_F(RecordsTest, ADeltaPicksTheOptionItNames) {
  SmallVector<dtile::KnobsAttr> options = {knobs("BM = 64, BN = 64"),
                                           knobs("BM = 32, BN = 64"),
                                           knobs("BM = 64, BN = 32")};
  EXPECT_EQ(findOption(options, knobsToJson(knobs("BN = 32, BM = 64"))), 2u);
  EXPECT_EQ(findOption(options, knobsToJson(knobs("BM = 64, BN = 64"))), 0u);
  // Part of an option, or more than one, is no option.
  EXPECT_FALSE(findOption(options, knobsToJson(knobs("BM = 32"))));
  EXPECT_FALSE(
      findOption(options, knobsToJson(knobs("BM = 32, BN = 64, BK = 8"))));
}

TEST_F(RecordsTest, ForkPointKeysSeparateStates) {
  std::string a = forkPointKey("loop-a", knobs("BK = 32"));
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a, forkPointKey("loop-a", knobs("BK = 32")));
  EXPECT_NE(a, forkPointKey("loop-b", knobs("BK = 32")));
  EXPECT_NE(a, forkPointKey("loop-a", knobs("BK = 16")));
  EXPECT_NE(a, forkPointKey("loop-a", knobs("")));
}

TEST_F(RecordsTest, ReplayNeedsASoundDatabase) {
  EXPECT_EQ(pick(""), "error: tune database '" + path + "': no such file");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << "this is not a database, just text that is long enough to be read "
          "as a header by SQLite and rejected"
       << std::string(200, 'x');
  }
  std::string message = pick("");
  EXPECT_NE(message.find("not an SQLite database"), std::string::npos)
      << message;
  EXPECT_EQ(pick("", "sm_75x"),
            "error: unknown target 'sm_75x' (known: sm_80, sm_90 or sm_90a)");
}

TEST_F(RecordsTest, ReplayResolvesItsContext) {
  makeDb({{"model-sm_90-v12", "model", 90},
          {"gpu-a", "cuda", 90},
          {"gpu-b", "cuda", 80},
          {"gpu-c", "cuda", 80}});
  // auto: the one GPU of the target's architecture, else the model.
  EXPECT_EQ(pick(""), "gpu-a");
  EXPECT_EQ(pick("auto"), "gpu-a");
  EXPECT_EQ(pick("auto", "sm_80"), "model-sm_80-v12"); // Two sm_80 GPUs.
  // sm_90a runs on the capability-9.0 GPU measured for sm_90.
  EXPECT_EQ(pick("auto", "sm_90a"), "gpu-a");
  EXPECT_EQ(pick("model"), "model-sm_90-v12");
  EXPECT_EQ(pick("gpu-b"), "gpu-b");
  EXPECT_EQ(pick("gpu-z"),
            "error: tune database '" + path +
                "' has no context 'gpu-z' (it has gpu-a, gpu-b, gpu-c, "
                "model-sm_90-v12)");
}

TEST_F(RecordsTest, ReplayKeepsToItsPrecision) {
  makeDb({{"model-sm_90-v12", "model", 90},
          {"model-sm_90-v12-tf32", "model", 90},
          {"gpu-a", "cuda", 90},
          {"gpu-a-tf32", "cuda", 90},
          {"gpu-b-tf32", "cuda", 80}});
  // auto: the GPU measured in the lowering's precision, else that model.
  EXPECT_EQ(pick("auto"), "gpu-a");
  EXPECT_EQ(pick("auto", "sm_90", true), "gpu-a-tf32");
  EXPECT_EQ(pick("auto", "sm_80"), "model-sm_80-v12");
  EXPECT_EQ(pick("auto", "sm_80", true), "gpu-b-tf32");
  EXPECT_EQ(pick("model", "sm_90", true), "model-sm_90-v12-tf32");
  // A context named by key must be of the lowering's precision.
  EXPECT_EQ(pick("gpu-a-tf32", "sm_90", true), "gpu-a-tf32");
  EXPECT_EQ(pick("gpu-a-tf32"),
            "error: context 'gpu-a-tf32' of tune database '" + path +
                "' was tuned with precision=tf32, not the precision=ieee "
                "this lowering uses");
  EXPECT_EQ(pick("gpu-a", "sm_90", true),
            "error: context 'gpu-a' of tune database '" + path +
                "' was tuned with precision=ieee, not the precision=tf32 "
                "this lowering uses");
}

TEST_F(RecordsTest, ReplayReadsTheRecordedHop) {
  makeDb({{"model-sm_90-v12", "model", 90}});
  {
    FailureOr<TuneDb> db = check(TuneDb::open(path, TuneDbOptions()), error);
    ASSERT_TRUE(succeeded(db)) << error;
    LoweringRow row;
    row.contextKey = "model-sm_90-v12";
    row.parentKey = forkPointKey("loop", knobs("BK = 32"));
    row.childKey = forkPointKey("loop", knobs("BK = 32, BM = 16, BN = 8"));
    row.knobs = knobsToJson(knobs("BM = 16, BN = 8"));
    row.bestMedianUs = 4.5;
    ASSERT_TRUE(succeeded(check(db->recordLowering(row), error))) << error;
    // A hop whose every variant failed is no choice.
    row.parentKey = forkPointKey("loop", knobs("BK = 16"));
    row.bestMedianUs = std::nullopt;
    ASSERT_TRUE(succeeded(check(db->recordLowering(row), error))) << error;
  }
  llvm::Expected<TuneDbReplay> replay =
      TuneDbReplay::open(path, "model", "sm_90", /*tf32=*/false);
  ASSERT_TRUE(!!replay) << llvm::toString(replay.takeError());
  EXPECT_TRUE(replay->hasContext());
  auto lookup = [&](StringRef loop, StringRef so) -> std::string {
    llvm::Expected<std::optional<llvm::json::Object>> delta =
        replay->lookup(loop, knobs(so));
    if (!delta)
      return "error: " + llvm::toString(delta.takeError());
    return *delta ? formatKnobs(**delta) : "none";
  };
  EXPECT_EQ(lookup("loop", "BK = 32"), R"({"BM":16,"BN":8})");
  EXPECT_EQ(lookup("loop", "BK = 16"), "none");
  EXPECT_EQ(lookup("other", "BK = 32"), "none");

  // The sm_80 model context is not in the file: nothing to replay.
  llvm::Expected<TuneDbReplay> empty =
      TuneDbReplay::open(path, "", "sm_80", /*tf32=*/false);
  ASSERT_TRUE(!!empty) << llvm::toString(empty.takeError());
  EXPECT_FALSE(empty->hasContext());
  llvm::Expected<std::optional<llvm::json::Object>> none =
      empty->lookup("loop", knobs("BK = 32"));
  ASSERT_TRUE(!!none) << llvm::toString(none.takeError());
  EXPECT_FALSE(*none);
}

TEST(KernelReplayReport, SaysHowMuchWasReplayed) {
  KernelReplayReport r;
  r.kernel = "mm";
  EXPECT_EQ(r.describe(), "@mm: no forks");
  r.forks = 3;
  EXPECT_EQ(r.describe(), "@mm: not tuned (0 of 3 forks replayed)");
  r.replayed = 1;
  r.stale = 1;
  EXPECT_EQ(r.describe(),
            "@mm: partly tuned (1 of 3 forks replayed, 1 stale record)");
  r.replayed = 3;
  r.stale = 0;
  EXPECT_EQ(r.describe(), "@mm: tuned (3 of 3 forks replayed)");
}

} // namespace
