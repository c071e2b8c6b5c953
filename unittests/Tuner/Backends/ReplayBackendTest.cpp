//===- ReplayBackendTest.cpp - Tests of latency tables and replay ---------===//
//
// Tables round-trip through their JSON text and files; every malformed table
// is refused with a message naming the problem; the replay backend answers
// what was recorded (latencies and failures alike), refuses variants the
// table lacks, and records under a context of its own.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/Backend.h"
#include "Deplodock/Tuner/LatencyTable.h"
#include "Deplodock/Tuner/Replay.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "../ErrorSupport.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

LatencyTable sampleTable() {
  LatencyTable table;
  table.target = "sm_90";
  table.recordedWith = "model";
  table.recordedContext = "model-sm_90-v3";
  LatencyEntry fast;
  fast.medianUs = 12.5;
  fast.minUs = 12.0;
  fast.maxUs = 13.0;
  fast.samples = 7;
  table.add("k1", "matmul", "BK=32,BM=64", fast);
  LatencyEntry broken;
  broken.status = MeasureStatus::CompileFail;
  broken.detail = "too many registers";
  table.add("k1", "matmul", "BK=16,BM=64", broken);
  LatencyEntry other;
  other.medianUs = 3;
  other.minUs = other.maxUs = 3;
  other.samples = 1;
  table.add("k2", "softmax", "threads=128", other);
  return table;
}

/// A file holding `text`, removed with the test.
class TableFile {
public:
  explicit TableFile(llvm::StringRef text) {
    llvm::SmallString<128> p;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("latency", "json", p));
    path = std::string(p);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << text;
  }
  ~TableFile() { llvm::sys::fs::remove(path); }
  std::string path;
};

TEST(LatencyTable, RoundTripsThroughText) {
  LatencyTable table = sampleTable();
  std::string text = table.print();
  std::string error;
  FailureOr<LatencyTable> back =
      check(LatencyTable::parse(text, "text"), error);
  ASSERT_TRUE(succeeded(back)) << error;
  EXPECT_EQ(back->print(), text);
  EXPECT_EQ(back->getNumKernels(), 2u);
  EXPECT_EQ(back->getNumVariants(), 3u);
  EXPECT_EQ(back->getKernelName("k2"), "softmax");
  const LatencyEntry *fast = back->lookup("k1", "BK=32,BM=64");
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->status, MeasureStatus::Ok);
  EXPECT_DOUBLE_EQ(fast->medianUs, 12.5);
  EXPECT_DOUBLE_EQ(fast->minUs, 12.0);
  EXPECT_EQ(fast->samples, 7u);
  const LatencyEntry *broken = back->lookup("k1", "BK=16,BM=64");
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->status, MeasureStatus::CompileFail);
  EXPECT_EQ(broken->detail, "too many registers");
  EXPECT_FALSE(back->lookup("k1", "BK=64,BM=64"));
  EXPECT_FALSE(back->lookup("k3", "BK=32,BM=64"));
  // Deterministic: the same entries added in another order print the same.
  LatencyTable reordered;
  reordered.target = "sm_90";
  reordered.recordedWith = "model";
  reordered.recordedContext = "model-sm_90-v3";
  reordered.add("k2", "softmax", "threads=128",
                *back->lookup("k2", "threads=128"));
  reordered.add("k1", "matmul", "BK=16,BM=64", *broken);
  reordered.add("k1", "matmul", "BK=32,BM=64", *fast);
  EXPECT_EQ(reordered.print(), text);
}

TEST(LatencyTable, BestUsIsTheFastestOkEntry) {
  LatencyTable table = sampleTable();
  LatencyEntry fast;
  fast.medianUs = 1.5;
  table.add("k1", "matmul", "BK=128", fast);
  LatencyEntry failed;
  failed.status = MeasureStatus::Timeout;
  table.add("k1", "matmul", "BK=256", failed);
  EXPECT_EQ(table.bestUs("k1"), 1.5);
  EXPECT_EQ(table.bestUs("nope"), std::nullopt);
}

TEST(LatencyTable, RoundTripsThroughFiles) {
  TableFile file("");
  std::string error;
  ASSERT_TRUE(succeeded(check(sampleTable().write(file.path), error))) << error;
  FailureOr<LatencyTable> back = check(LatencyTable::read(file.path), error);
  ASSERT_TRUE(succeeded(back)) << error;
  EXPECT_EQ(back->print(), sampleTable().print());
  EXPECT_TRUE(failed(check(LatencyTable::read(file.path + ".missing"), error)));
  EXPECT_NE(error.find("cannot read latency table"), std::string::npos)
      << error;
}

TEST(LatencyTable, RefusesMalformedTables) {
  struct Case {
    const char *text;
    const char *message;
  } cases[] = {
      {"{", "not valid JSON"},
      {"[1, 2]", "expected a JSON object"},
      {R"({"format": "other", "version": 1})", "\"format\" is not"},
      {R"({"format": "deplodock-latency-table", "version": 9})",
       "unsupported \"version\""},
      {R"({"format": "deplodock-latency-table", "version": 1})",
       "missing \"target\""},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90"})",
       "missing the \"kernels\" object"},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {}}})",
       "kernel k: missing the \"variants\" object"},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {"variants": {"BK=32": 3}}}})",
       "variant 'BK=32': expected a JSON object"},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {"variants":
           {"BK=32": {"median_us": 3}}}}})",
       "missing \"status\""},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {"variants":
           {"BK=32": {"status": "bench_fail"}}}}})",
       "unknown status 'bench_fail'"},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {"variants":
           {"BK=32": {"status": "ok"}}}}})",
       "an ok entry needs a positive \"median_us\""},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {"variants":
           {"BK=32": {"status": "ok", "median_us": -1}}}}})",
       "an ok entry needs a positive \"median_us\""},
      {R"({"format": "deplodock-latency-table", "version": 1,
           "target": "sm_90", "kernels": {"k": {"variants":
           {"BK=32": {"status": "ok", "median_us": 2, "samples": 0}}}}})",
       "\"samples\" must be at least 1"},
  };
  for (const Case &c : cases) {
    std::string error;
    EXPECT_TRUE(failed(check(LatencyTable::parse(c.text, "t.json"), error)))
        << c.text;
    EXPECT_NE(error.find(c.message), std::string::npos)
        << "got: " << error << "\nwanted: " << c.message;
    EXPECT_EQ(error.rfind("latency table 't.json': ", 0), 0u) << error;
  }
}

TEST(ReplayBackend, Sm90aIsCapabilityNine) {
  // The capability comes from the target table, not from the name's digits.
  LatencyTable table = sampleTable();
  table.target = "sm_90a";
  TableFile file(table.print());
  std::string error;
  FailureOr<std::unique_ptr<Backend>> backend =
      check(createReplayBackend(file.path, "sm_90a"), error);
  ASSERT_TRUE(succeeded(backend)) << error;
  EXPECT_EQ((*backend)->getContext().ccMajor, 9);
  EXPECT_EQ((*backend)->getContext().ccMinor, 0);

  table.target = "sm_75";
  TableFile unknown(table.print());
  EXPECT_TRUE(failed(check(createReplayBackend(unknown.path, "sm_75"), error)));
  EXPECT_NE(error.find("unknown target 'sm_75' (known: sm_80, sm_90 or "
                       "sm_90a)"),
            std::string::npos)
      << error;
}

TEST(ReplayBackend, AnswersWhatWasRecorded) {
  TableFile file(sampleTable().print());
  std::string error;
  FailureOr<std::unique_ptr<Backend>> backend =
      check(createReplayBackend(file.path, "sm_90"), error);
  ASSERT_TRUE(succeeded(backend)) << error;
  EXPECT_EQ((*backend)->getName(), "replay");
  // Recorded by the model, so still an estimate.
  EXPECT_TRUE((*backend)->isEstimate());
  const DeviceContext &context = (*backend)->getContext();
  EXPECT_EQ(context.key.rfind("replay-", 0), 0u) << context.key;
  EXPECT_EQ(contextBackend(context), "replay");
  EXPECT_NE(context.key, modelContextKey("sm_90"));
  EXPECT_FALSE(contextAllowsTf32(context));
  // The same table replayed for a TF32 tuning: another context.
  FailureOr<std::unique_ptr<Backend>> tf32 =
      check(createReplayBackend(file.path, "sm_90", /*tf32=*/true), error);
  ASSERT_TRUE(succeeded(tf32)) << error;
  EXPECT_EQ((*tf32)->getContext().key, context.key + "-tf32");
  EXPECT_TRUE(contextAllowsTf32((*tf32)->getContext()));

  Variant variant;
  variant.loopKey = "k1";
  variant.name = "matmul";
  variant.knobsText = "BK=32,BM=64";
  FailureOr<BackendResult> result = check((*backend)->measure(variant), error);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->measurement.status, MeasureStatus::Ok);
  EXPECT_DOUBLE_EQ(result->measurement.medianUs, 12.5);
  EXPECT_DOUBLE_EQ(result->measurement.maxUs, 13.0);
  EXPECT_EQ(result->measurement.samples, 7u);

  variant.knobsText = "BK=16,BM=64";
  result = check((*backend)->measure(variant), error);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->measurement.status, MeasureStatus::CompileFail);
  EXPECT_EQ(result->detail, "too many registers");

  // A variant the table lacks is no latency at all: the tuner must stop.
  variant.knobsText = "BK=64,BM=64";
  EXPECT_TRUE(failed(check((*backend)->measure(variant), error)));
  EXPECT_NE(error.find("has no entry for @matmul"), std::string::npos) << error;
  EXPECT_NE(error.find("'BK=64,BM=64'"), std::string::npos) << error;
}

TEST(ReplayBackend, ContextsNameTheTable) {
  LatencyTable a = sampleTable();
  LatencyTable b = sampleTable();
  LatencyEntry extra;
  extra.medianUs = extra.minUs = extra.maxUs = 1;
  extra.samples = 1;
  b.add("k3", "rmsnorm", "threads=64", extra);
  TableFile fa(a.print()), fa2(a.print()), fb(b.print());
  std::string error;
  auto key = [&](const TableFile &f) {
    FailureOr<std::unique_ptr<Backend>> backend =
        check(createReplayBackend(f.path, "sm_90"), error);
    EXPECT_TRUE(succeeded(backend)) << error;
    return succeeded(backend) ? (*backend)->getContext().key : "";
  };
  EXPECT_EQ(key(fa), key(fa2));
  EXPECT_NE(key(fa), key(fb));
}

TEST(ReplayBackend, RefusesTheWrongTargetAndMissingTables) {
  TableFile file(sampleTable().print());
  std::string error;
  EXPECT_TRUE(failed(check(createReplayBackend(file.path, "sm_80"), error)));
  EXPECT_NE(error.find("recorded for sm_90, not sm_80"), std::string::npos)
      << error;
  EXPECT_TRUE(failed(check(createBackend("replay", "sm_90", ""), error)));
  EXPECT_NE(error.find("--replay-table"), std::string::npos) << error;
  EXPECT_TRUE(failed(
      check(createBackend("replay", "sm_90", file.path + ".none"), error)));
  EXPECT_NE(error.find("cannot read latency table"), std::string::npos)
      << error;
  EXPECT_TRUE(failed(check(createBackend("cuda", "sm_90", ""), error)));
  EXPECT_NE(error.find("bench worker"), std::string::npos) << error;
  EXPECT_TRUE(failed(check(createBackend("tpu", "sm_90", ""), error)));
  EXPECT_NE(error.find("unknown backend 'tpu'"), std::string::npos) << error;
}

} // namespace
