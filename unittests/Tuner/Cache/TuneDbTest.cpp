//===- TuneCacheTest.cpp - Keep-best rules and queries of the tune cache
//-----===//
//
// Runs on in-memory databases: the upsert rules (keep-best perf, lowering
// and best rows), contexts kept apart, idempotent inventory, canonical knob
// JSON, transactions and input validation. TuneDbFileTest.cpp covers files,
// processes and damaged files.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/TuneDb.h"

#include "gtest/gtest.h"

#include "../ErrorSupport.h"
#include <cmath>
#include <limits>

using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;
using llvm::json::Object;

namespace {

/// A context whose fields all derive from `key`.
DeviceContext makeContext(llvm::StringRef key, llvm::StringRef gpu = "H100") {
  DeviceContext context;
  context.key = key.str();
  context.gpuName = gpu.str();
  context.ccMajor = 9;
  context.ccMinor = 0;
  context.smCount = 132;
  context.l2Bytes = 50 * 1024 * 1024;
  context.driverVersion = "570.86";
  context.cudaVersion = "12.8";
  context.nvrtcVersion = "12.8";
  context.compilerVersion = "deplodock-mlir 0.1";
  context.extra = Object{{"flags", "-O3"}};
  return context;
}

/// An ok perf row of `opKey` with median `median`.
PerfRow okRow(llvm::StringRef context, llvm::StringRef opKey, double median,
              Object knobs = Object{}) {
  PerfRow row;
  row.contextKey = context.str();
  row.opKey = opKey.str();
  row.backend = "cuda";
  row.status = MeasureStatus::Ok;
  row.stats =
      PerfStats{median, median * 0.9, median * 1.2, median * 1.01, 0.25, 100};
  row.knobs = std::move(knobs);
  return row;
}

/// A failed perf row of `opKey`.
PerfRow failRow(llvm::StringRef context, llvm::StringRef opKey,
                MeasureStatus status, llvm::StringRef detail = "") {
  PerfRow row;
  row.contextKey = context.str();
  row.opKey = opKey.str();
  row.backend = "cuda";
  row.status = status;
  row.detail = detail.str();
  return row;
}

/// A lowering hop of `parent` to `child` with `median`.
LoweringRow hop(llvm::StringRef context, llvm::StringRef parent,
                llvm::StringRef child, std::optional<double> median,
                Object knobs = Object{}) {
  LoweringRow row;
  row.contextKey = context.str();
  row.parentKey = parent.str();
  row.parentLevel = OpLevel::Tile;
  row.childKey = child.str();
  row.childLevel = OpLevel::Tile;
  row.knobs = std::move(knobs);
  row.bestMedianUs = median;
  return row;
}

/// An in-memory database with contexts "ctx-a" and "ctx-b".
class TuneCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto opened = check(TuneDb::openInMemory(), error);
    ASSERT_TRUE(succeeded(opened)) << error;
    db.emplace(std::move(*opened));
    ASSERT_TRUE(
        succeeded(check(db->recordContext(makeContext("ctx-a")), error)))
        << error;
    ASSERT_TRUE(succeeded(
        check(db->recordContext(makeContext("ctx-b", "RTX 5090")), error)))
        << error;
  }

  /// Records `row`, expecting success; returns whether it was written.
  bool record(const PerfRow &row) {
    auto written = check(db->recordPerf(row), error);
    EXPECT_TRUE(succeeded(written)) << error;
    return succeeded(written) && *written;
  }
  bool record(const LoweringRow &row) {
    auto written = check(db->recordLowering(row), error);
    EXPECT_TRUE(succeeded(written)) << error;
    return succeeded(written) && *written;
  }

  /// The stored perf row of `opKey` in `context` (must exist).
  PerfRow perf(llvm::StringRef context, llvm::StringRef opKey,
               llvm::StringRef backend = "cuda") {
    auto row = check(db->lookupPerf(context, opKey, backend), error);
    EXPECT_TRUE(succeeded(row)) << error;
    if (failed(row) || !*row) {
      ADD_FAILURE() << "no perf row for " << opKey.str();
      return PerfRow();
    }
    return **row;
  }

  std::string error;
  std::optional<TuneDb> db;
};

//===----------------------------------------------------------------------===//
// Knob JSON
//===----------------------------------------------------------------------===//

TEST(TuneCacheKnobs, FormatSortsKeysAtEveryLevel) {
  Object a{{"BN", 64},
           {"BM", 32},
           {"stage", llvm::json::Array{1, 0}},
           {"nested", Object{{"z", true}, {"a", false}}}};
  Object b{{"nested", Object{{"a", false}, {"z", true}}},
           {"stage", llvm::json::Array{1, 0}},
           {"BM", 32},
           {"BN", 64}};
  EXPECT_EQ(formatKnobs(a), formatKnobs(b));
  EXPECT_EQ(formatKnobs(a),
            R"({"BM":32,"BN":64,"nested":{"a":false,"z":true},"stage":[1,0]})");
  EXPECT_EQ(formatKnobs(Object{}), "{}");
}

TEST(TuneCacheKnobs, CanonicalizeReformatsText) {
  std::string error;
  auto text =
      check(canonicalizeKnobs(" { \"b\" : 1,\n \"a\" : [2, 1] } "), error);
  ASSERT_TRUE(succeeded(text)) << error;
  EXPECT_EQ(*text, R"({"a":[2,1],"b":1})");
  auto again = check(canonicalizeKnobs(*text), error);
  ASSERT_TRUE(succeeded(again)) << error;
  EXPECT_EQ(*again, *text);
}

TEST(TuneCacheKnobs, CanonicalizeRejectsNonObjects) {
  std::string error;
  EXPECT_TRUE(failed(check(canonicalizeKnobs("[1, 2]"), error)));
  EXPECT_NE(error.find("must be a JSON object"), std::string::npos) << error;
  EXPECT_TRUE(failed(check(canonicalizeKnobs("{\"BM\": "), error)));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

TEST_F(TuneCacheTest, EqualKnobsRoundTripEqually) {
  Object knobs{{"FN", 2}, {"BM", 64}, {"tma", true}};
  ASSERT_TRUE(record(okRow("ctx-a", "op1", 10.0, knobs)));
  PerfRow stored = perf("ctx-a", "op1");
  EXPECT_EQ(formatKnobs(stored.knobs), R"({"BM":64,"FN":2,"tma":true})");
  EXPECT_EQ(stored.knobs, knobs);
}

//===----------------------------------------------------------------------===//
// perf keep-best
//===----------------------------------------------------------------------===//

TEST_F(TuneCacheTest, LowerMedianReplacesHigherDoesNot) {
  EXPECT_TRUE(record(okRow("ctx-a", "op", 20.0, Object{{"BM", 32}})));
  EXPECT_TRUE(record(okRow("ctx-a", "op", 15.0, Object{{"BM", 64}})));
  EXPECT_EQ(perf("ctx-a", "op").stats->medianUs, 15.0);
  EXPECT_EQ(perf("ctx-a", "op").knobs, (Object{{"BM", 64}}));

  EXPECT_FALSE(record(okRow("ctx-a", "op", 18.0, Object{{"BM", 128}})));
  EXPECT_FALSE(record(okRow("ctx-a", "op", 15.0, Object{{"BM", 16}})))
      << "an equal median is not strictly lower";
  PerfRow stored = perf("ctx-a", "op");
  EXPECT_EQ(stored.stats->medianUs, 15.0);
  EXPECT_EQ(stored.stats->numSamples, 100);
  EXPECT_EQ(stored.knobs, (Object{{"BM", 64}}));
  EXPECT_EQ(stored.status, MeasureStatus::Ok);
}

TEST_F(TuneCacheTest, FailureNeverOverridesOk) {
  ASSERT_TRUE(record(okRow("ctx-a", "op", 12.5)));
  for (MeasureStatus status :
       {MeasureStatus::CompileFail, MeasureStatus::LaunchFail,
        MeasureStatus::Timeout, MeasureStatus::WrongResult}) {
    EXPECT_FALSE(record(failRow("ctx-a", "op", status, "boom")))
        << measureStatusName(status).str();
    PerfRow stored = perf("ctx-a", "op");
    EXPECT_EQ(stored.status, MeasureStatus::Ok);
    ASSERT_TRUE(stored.stats.has_value());
    EXPECT_EQ(stored.stats->medianUs, 12.5);
    EXPECT_EQ(stored.detail, "");
  }
}

TEST_F(TuneCacheTest, NewerFailureReplacesOlderFailure) {
  ASSERT_TRUE(record(
      failRow("ctx-a", "op", MeasureStatus::CompileFail, "nvrtc: error")));
  EXPECT_EQ(perf("ctx-a", "op").status, MeasureStatus::CompileFail);
  EXPECT_FALSE(perf("ctx-a", "op").stats.has_value());

  PerfRow timeout = failRow("ctx-a", "op", MeasureStatus::Timeout, "10 s");
  timeout.stats = PerfStats{2e6, 2e6, 2e6, 2e6, 0, 1};
  EXPECT_TRUE(record(timeout));
  PerfRow stored = perf("ctx-a", "op");
  EXPECT_EQ(stored.status, MeasureStatus::Timeout);
  EXPECT_EQ(stored.detail, "10 s");
  ASSERT_TRUE(stored.stats.has_value());
  EXPECT_EQ(stored.stats->medianUs, 2e6);

  // Even a fast-looking failure is still a failure: an ok row replaces it,
  // whatever its median.
  EXPECT_TRUE(record(okRow("ctx-a", "op", 5e6)));
  EXPECT_EQ(perf("ctx-a", "op").status, MeasureStatus::Ok);
  EXPECT_EQ(perf("ctx-a", "op").detail, "");
}

TEST_F(TuneCacheTest, BackendsAreSeparateRows) {
  PerfRow model = okRow("ctx-a", "op", 3.0);
  model.backend = "model";
  ASSERT_TRUE(record(model));
  ASSERT_TRUE(record(okRow("ctx-a", "op", 30.0)));
  EXPECT_EQ(perf("ctx-a", "op", "model").stats->medianUs, 3.0);
  EXPECT_EQ(perf("ctx-a", "op", "cuda").stats->medianUs, 30.0);
  auto missing = check(db->lookupPerf("ctx-a", "op", "replay"), error);
  ASSERT_TRUE(succeeded(missing)) << error;
  EXPECT_FALSE(missing->has_value());
}

TEST_F(TuneCacheTest, ContextsAreKeptApart) {
  ASSERT_TRUE(record(okRow("ctx-a", "op", 10.0, Object{{"BM", 64}})));
  ASSERT_TRUE(record(okRow("ctx-b", "op", 40.0, Object{{"BM", 128}})));
  EXPECT_EQ(perf("ctx-a", "op").stats->medianUs, 10.0);
  EXPECT_EQ(perf("ctx-b", "op").stats->medianUs, 40.0)
      << "a faster row of another context must not replace this one";
  EXPECT_EQ(perf("ctx-b", "op").knobs, (Object{{"BM", 128}}));

  ASSERT_TRUE(record(hop("ctx-a", "parent", "child-a", 10.0)));
  ASSERT_TRUE(record(hop("ctx-b", "parent", "child-b", 40.0)));
  auto a = check(db->lookupLowering("ctx-a", "parent"), error);
  auto b = check(db->lookupLowering("ctx-b", "parent"), error);
  ASSERT_TRUE(succeeded(a) && succeeded(b)) << error;
  ASSERT_TRUE(a->has_value() && b->has_value());
  EXPECT_EQ((*a)->childKey, "child-a");
  EXPECT_EQ((*b)->childKey, "child-b");

  auto allA = check(db->allPerf("ctx-a"), error);
  ASSERT_TRUE(succeeded(allA)) << error;
  ASSERT_EQ(allA->size(), 1u);
  EXPECT_EQ((*allA)[0].contextKey, "ctx-a");
  auto none = check(db->lookupPerf("ctx-c", "op", "cuda"), error);
  ASSERT_TRUE(succeeded(none)) << error;
  EXPECT_FALSE(none->has_value());
}

TEST_F(TuneCacheTest, AllPerfListsOkFastestFirstThenFailures) {
  ASSERT_TRUE(record(failRow("ctx-a", "a-fail", MeasureStatus::WrongResult)));
  ASSERT_TRUE(record(okRow("ctx-a", "slow", 30.0)));
  ASSERT_TRUE(record(okRow("ctx-a", "fast", 10.0)));
  ASSERT_TRUE(record(failRow("ctx-a", "b-fail", MeasureStatus::LaunchFail)));
  ASSERT_TRUE(record(okRow("ctx-b", "other", 1.0)));
  auto rows = check(db->allPerf("ctx-a"), error);
  ASSERT_TRUE(succeeded(rows)) << error;
  std::vector<std::string> keys;
  for (const PerfRow &row : *rows)
    keys.push_back(row.opKey);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"fast", "slow", "a-fail", "b-fail"}));
}

//===----------------------------------------------------------------------===//
// best
//===----------------------------------------------------------------------===//

TEST_F(TuneCacheTest, BestKnobsTracksTheFastestVariant) {
  auto variant = [&](llvm::StringRef op, double median, int64_t bm) {
    PerfRow row = okRow("ctx-a", op, median, Object{{"BM", bm}, {"BN", 64}});
    row.kernelKey = "kernel";
    return row;
  };
  auto best = [&]() -> std::optional<BestRow> {
    auto row = check(db->bestKnobs("ctx-a", "kernel", "cuda"), error);
    EXPECT_TRUE(succeeded(row)) << error;
    return succeeded(row) ? *row : std::nullopt;
  };
  EXPECT_FALSE(best().has_value());

  ASSERT_TRUE(record(variant("v32", 20.0, 32)));
  ASSERT_TRUE(record(variant("v64", 12.0, 64)));
  ASSERT_TRUE(record(variant("v128", 16.0, 128)));
  PerfRow failed = failRow("ctx-a", "v256", MeasureStatus::LaunchFail);
  failed.kernelKey = "kernel";
  failed.knobs = Object{{"BM", 256}};
  ASSERT_TRUE(record(failed));
  std::optional<BestRow> row = best();
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->opKey, "v64");
  EXPECT_EQ(row->medianUs, 12.0);
  EXPECT_EQ(row->knobs, (Object{{"BM", 64}, {"BN", 64}}));

  // A re-measurement of v32 that beats v64 takes over.
  ASSERT_TRUE(record(variant("v32", 11.0, 32)));
  row = best();
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->opKey, "v32");
  EXPECT_EQ(row->medianUs, 11.0);
  EXPECT_EQ(row->knobs, (Object{{"BM", 32}, {"BN", 64}}));

  // Other contexts and backends have their own decisions.
  auto other = check(db->bestKnobs("ctx-b", "kernel", "cuda"), error);
  ASSERT_TRUE(succeeded(other)) << error;
  EXPECT_FALSE(other->has_value());
  auto model = check(db->bestKnobs("ctx-a", "kernel", "model"), error);
  ASSERT_TRUE(succeeded(model)) << error;
  EXPECT_FALSE(model->has_value());

  auto variants = check(db->kernelPerf("ctx-a", "kernel"), error);
  ASSERT_TRUE(succeeded(variants)) << error;
  std::vector<std::string> keys;
  for (const PerfRow &perfRow : *variants)
    keys.push_back(perfRow.opKey);
  EXPECT_EQ(keys, (std::vector<std::string>{"v32", "v64", "v128", "v256"}));
  auto all = check(db->allBest("ctx-a"), error);
  ASSERT_TRUE(succeeded(all)) << error;
  EXPECT_EQ(all->size(), 1u);
}

TEST_F(TuneCacheTest, FamiliesGatherTheirKernelsBest) {
  // k1 and k2 are one family, k3 another; k2 is faster than k1.
  for (auto [kernel, family] :
       {std::pair("k1", "f"), std::pair("k2", "f"), std::pair("k3", "g")})
    ASSERT_TRUE(succeeded(check(db->recordFamily(kernel, family), error)))
        << error;
  // Idempotent; an empty key is refused.
  ASSERT_TRUE(succeeded(check(db->recordFamily("k1", "f"), error))) << error;
  EXPECT_TRUE(failed(check(db->recordFamily("", "f"), error)));
  EXPECT_NE(error.find("recordFamily: the kernel key must not be empty"),
            std::string::npos)
      << error;
  auto row = [](llvm::StringRef kernel, llvm::StringRef op, double us) {
    PerfRow r = okRow("ctx-a", op, us);
    r.kernelKey = kernel.str();
    return r;
  };
  record(row("k1", "op1", 20));
  record(row("k2", "op2", 10));
  record(row("k3", "op3", 5));
  auto best = check(db->familyBest("ctx-a", "f", "cuda"), error);
  ASSERT_TRUE(succeeded(best)) << error;
  ASSERT_EQ(best->size(), 2u);
  EXPECT_EQ((*best)[0].kernelKey, "k2"); // Fastest first.
  EXPECT_EQ((*best)[1].kernelKey, "k1");
  auto none = check(db->familyBest("ctx-b", "f", "cuda"), error);
  ASSERT_TRUE(succeeded(none)) << error;
  EXPECT_TRUE(none->empty());
}

TEST_F(TuneCacheTest, AllOpsListsAnInventory) {
  ASSERT_TRUE(
      succeeded(check(db->recordOp(OpLevel::Loop, "b", "second"), error)));
  ASSERT_TRUE(
      succeeded(check(db->recordOp(OpLevel::Loop, "a", "first"), error)));
  auto ops = check(db->allOps(OpLevel::Loop), error);
  ASSERT_TRUE(succeeded(ops)) << error;
  ASSERT_EQ(ops->size(), 2u);
  EXPECT_EQ((*ops)[0], std::make_pair(std::string("a"), std::string("first")));
  EXPECT_EQ((*ops)[1].first, "b");
  auto tiles = check(db->allOps(OpLevel::Tile), error);
  ASSERT_TRUE(succeeded(tiles)) << error;
  EXPECT_TRUE(tiles->empty());
}

TEST_F(TuneCacheTest, RowsWithoutKernelKeyHaveNoBest) {
  ASSERT_TRUE(record(okRow("ctx-a", "op", 1.0)));
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->best, 0);
  EXPECT_EQ(counts->perf, 1);
  EXPECT_EQ(perf("ctx-a", "op").kernelKey, "");
}

//===----------------------------------------------------------------------===//
// lowering keep-best
//===----------------------------------------------------------------------===//

TEST_F(TuneCacheTest, LoweringKeepsTheBestChild) {
  auto child = [&]() -> std::string {
    auto row = check(db->lookupLowering("ctx-a", "p"), error);
    EXPECT_TRUE(succeeded(row)) << error;
    return succeeded(row) && *row ? (*row)->childKey : "<none>";
  };
  EXPECT_TRUE(record(hop("ctx-a", "p", "c10", 10.0, Object{{"BM", 64}})));
  EXPECT_EQ(child(), "c10");
  EXPECT_FALSE(record(hop("ctx-a", "p", "c12", 12.0)));
  EXPECT_FALSE(record(hop("ctx-a", "p", "c10b", 10.0)));
  EXPECT_EQ(child(), "c10");
  EXPECT_TRUE(record(hop("ctx-a", "p", "c8", 8.0, Object{{"BM", 32}})));
  EXPECT_EQ(child(), "c8");
  EXPECT_FALSE(record(hop("ctx-a", "p", "cnull", std::nullopt)))
      << "a null median never overwrites";
  auto row = check(db->lookupLowering("ctx-a", "p"), error);
  ASSERT_TRUE(succeeded(row)) << error;
  ASSERT_TRUE(row->has_value());
  EXPECT_EQ((*row)->childKey, "c8");
  EXPECT_EQ((*row)->knobs, (Object{{"BM", 32}}));
  EXPECT_EQ((*row)->bestMedianUs, 8.0);
  EXPECT_EQ((*row)->parentLevel, OpLevel::Tile);
  EXPECT_FALSE((*row)->updatedAt.empty());
}

TEST_F(TuneCacheTest, LoweringWithNullMedianIsKeptButNotReplayed) {
  EXPECT_TRUE(record(hop("ctx-a", "p", "failed-child", std::nullopt)));
  auto row = check(db->lookupLowering("ctx-a", "p"), error);
  ASSERT_TRUE(succeeded(row)) << error;
  EXPECT_FALSE(row->has_value())
      << "replay must fall back to the default where every variant failed";
  auto all = check(db->allLowerings("ctx-a"), error);
  ASSERT_TRUE(succeeded(all)) << error;
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].childKey, "failed-child");
  EXPECT_FALSE((*all)[0].bestMedianUs.has_value());

  EXPECT_FALSE(record(hop("ctx-a", "p", "other-failed", std::nullopt)));
  EXPECT_TRUE(record(hop("ctx-a", "p", "good", 50.0)))
      << "any median replaces a null";
  row = check(db->lookupLowering("ctx-a", "p"), error);
  ASSERT_TRUE(succeeded(row)) << error;
  ASSERT_TRUE(row->has_value());
  EXPECT_EQ((*row)->childKey, "good");
  EXPECT_FALSE(record(hop("ctx-a", "p", "late-failure", std::nullopt)));
  row = check(db->lookupLowering("ctx-a", "p"), error);
  ASSERT_TRUE(succeeded(row) && row->has_value()) << error;
  EXPECT_EQ((*row)->childKey, "good");
}

//===----------------------------------------------------------------------===//
// Inventory and contexts
//===----------------------------------------------------------------------===//

TEST_F(TuneCacheTest, InventoryInsertsAreIdempotent) {
  for (OpLevel level : {OpLevel::Loop, OpLevel::Tile, OpLevel::Kernel}) {
    auto first = check(db->recordOp(level, "k1", "first text"), error);
    ASSERT_TRUE(succeeded(first)) << error;
    EXPECT_TRUE(*first);
    auto second = check(db->recordOp(level, "k1", "second text"), error);
    ASSERT_TRUE(succeeded(second)) << error;
    EXPECT_FALSE(*second);
    auto pretty = check(db->lookupOp(level, "k1"), error);
    ASSERT_TRUE(succeeded(pretty)) << error;
    EXPECT_EQ(*pretty, std::optional<std::string>("first text"));
  }
  auto missing = check(db->lookupOp(OpLevel::Loop, "k2"), error);
  ASSERT_TRUE(succeeded(missing)) << error;
  EXPECT_FALSE(missing->has_value());

  CudaOpRow op;
  op.key = "cuda1";
  op.pretty = "dkernel.func @k ...";
  op.source = "extern \"C\" __global__ void k(float *a) {}";
  op.kernelName = "k";
  op.grid = {8, 2, 1};
  op.block = {256, 1, 1};
  op.smemBytes = 4096;
  op.argOrder = llvm::json::Array{"a", "b", 2};
  auto inserted = check(db->recordCudaOp(op), error);
  ASSERT_TRUE(succeeded(inserted)) << error;
  EXPECT_TRUE(*inserted);
  CudaOpRow changed = op;
  changed.source = "different";
  inserted = check(db->recordCudaOp(changed), error);
  ASSERT_TRUE(succeeded(inserted)) << error;
  EXPECT_FALSE(*inserted);
  auto stored = check(db->lookupCudaOp("cuda1"), error);
  ASSERT_TRUE(succeeded(stored)) << error;
  ASSERT_TRUE(stored->has_value());
  EXPECT_EQ((*stored)->source, op.source);
  EXPECT_EQ((*stored)->kernelName, "k");
  EXPECT_EQ((*stored)->grid, op.grid);
  EXPECT_EQ((*stored)->block, op.block);
  EXPECT_EQ((*stored)->smemBytes, 4096);
  EXPECT_EQ(llvm::json::Value(llvm::json::Array((*stored)->argOrder)),
            llvm::json::Value(llvm::json::Array(op.argOrder)));

  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->loopOps, 1);
  EXPECT_EQ(counts->tileOps, 1);
  EXPECT_EQ(counts->kernelOps, 1);
  EXPECT_EQ(counts->cudaOps, 1);
  EXPECT_EQ(counts->contexts, 2);

  EXPECT_TRUE(failed(check(db->recordOp(OpLevel::Cuda, "k", "x"), error)));
  EXPECT_NE(error.find("recordCudaOp"), std::string::npos) << error;
}

TEST_F(TuneCacheTest, ContextRoundTripsAndRejectsAConflictingFingerprint) {
  auto stored = check(db->lookupContext("ctx-b"), error);
  ASSERT_TRUE(succeeded(stored)) << error;
  ASSERT_TRUE(stored->has_value());
  EXPECT_EQ((*stored)->gpuName, "RTX 5090");
  EXPECT_EQ((*stored)->smCount, 132);
  EXPECT_EQ((*stored)->l2Bytes, 50 * 1024 * 1024);
  EXPECT_EQ((*stored)->compilerVersion, "deplodock-mlir 0.1");
  EXPECT_EQ((*stored)->extra, (Object{{"flags", "-O3"}}));
  EXPECT_FALSE((*stored)->createdAt.empty());

  EXPECT_TRUE(succeeded(check(db->recordContext(makeContext("ctx-a")), error)))
      << "recording the same context again is a no-op: " << error;
  DeviceContext other = makeContext("ctx-a", "L40S");
  other.smCount = 142;
  EXPECT_TRUE(failed(check(db->recordContext(other), error)));
  EXPECT_NE(error.find("different fingerprint"), std::string::npos) << error;
  EXPECT_NE(error.find("gpu_name 'H100' vs 'L40S'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("sm_count '132' vs '142'"), std::string::npos) << error;

  auto all = check(db->allContexts(), error);
  ASSERT_TRUE(succeeded(all)) << error;
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].key, "ctx-a");
  EXPECT_EQ((*all)[0].gpuName, "H100");
}

TEST_F(TuneCacheTest, RowsNeedARecordedContext) {
  EXPECT_TRUE(
      failed(check(db->recordPerf(okRow("ctx-unknown", "op", 1.0)), error)));
  EXPECT_NE(error.find("call recordContext first"), std::string::npos) << error;
  EXPECT_TRUE(failed(
      check(db->recordLowering(hop("ctx-unknown", "p", "c", 1.0)), error)));
  EXPECT_NE(error.find("call recordContext first"), std::string::npos) << error;
}

TEST_F(TuneCacheTest, EraseContextRemovesItsRowsOnly) {
  PerfRow row = okRow("ctx-a", "op", 1.0);
  row.kernelKey = "kernel";
  ASSERT_TRUE(record(row));
  row.contextKey = "ctx-b";
  ASSERT_TRUE(record(row));
  ASSERT_TRUE(record(hop("ctx-a", "p", "c", 1.0)));
  ASSERT_TRUE(record(hop("ctx-b", "p", "c", 1.0)));
  auto erased = check(db->eraseContext("ctx-a"), error);
  ASSERT_TRUE(succeeded(erased)) << error;
  EXPECT_TRUE(*erased);
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->contexts, 1);
  EXPECT_EQ(counts->perf, 1);
  EXPECT_EQ(counts->lowerings, 1);
  EXPECT_EQ(counts->best, 1);
  erased = check(db->eraseContext("ctx-a"), error);
  ASSERT_TRUE(succeeded(erased)) << error;
  EXPECT_FALSE(*erased);
}

//===----------------------------------------------------------------------===//
// Validation and transactions
//===----------------------------------------------------------------------===//

TEST_F(TuneCacheTest, BadInputIsRejectedWithAMessage) {
  PerfRow noStats = okRow("ctx-a", "op", 1.0);
  noStats.stats.reset();
  EXPECT_TRUE(failed(check(db->recordPerf(noStats), error)));
  EXPECT_NE(error.find("an ok row needs statistics"), std::string::npos)
      << error;

  PerfRow nan = okRow("ctx-a", "op", std::nan(""));
  EXPECT_TRUE(failed(check(db->recordPerf(nan), error)));
  EXPECT_NE(error.find("the median must be a finite, non-negative number"),
            std::string::npos)
      << error;

  PerfRow negative = okRow("ctx-a", "op", 1.0);
  negative.stats->varianceUs2 = -1;
  EXPECT_TRUE(failed(check(db->recordPerf(negative), error)));
  EXPECT_NE(error.find("the variance"), std::string::npos) << error;

  PerfRow noKey = okRow("ctx-a", "", 1.0);
  EXPECT_TRUE(failed(check(db->recordPerf(noKey), error)));
  EXPECT_NE(error.find("the op key must not be empty"), std::string::npos)
      << error;

  EXPECT_TRUE(failed(
      check(db->recordLowering(hop("ctx-a", "p", "c",
                                   std::numeric_limits<double>::infinity())),
            error)));
  EXPECT_NE(error.find("recordLowering: the median"), std::string::npos)
      << error;

  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 0);
  EXPECT_EQ(counts->lowerings, 0);
}

TEST_F(TuneCacheTest, TransactionsCommitOrRollBack) {
  {
    auto txn = check(db->beginTransaction(), error);
    ASSERT_TRUE(succeeded(txn)) << error;
    PerfRow row = okRow("ctx-a", "dropped", 1.0);
    row.kernelKey = "kernel";
    ASSERT_TRUE(record(row));
    EXPECT_TRUE(failed(check(db->beginTransaction(), error)));
    EXPECT_NE(error.find("already open"), std::string::npos) << error;
    // Destroyed uncommitted: rolled back.
  }
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 0);
  EXPECT_EQ(counts->best, 0);

  auto txn = check(db->beginTransaction(), error);
  ASSERT_TRUE(succeeded(txn)) << error;
  PerfRow row = okRow("ctx-a", "kept", 1.0);
  row.kernelKey = "kernel";
  ASSERT_TRUE(record(row));
  ASSERT_TRUE(record(hop("ctx-a", "p", "c", 1.0)));
  ASSERT_TRUE(succeeded(check(txn->commit(), error))) << error;
  EXPECT_TRUE(failed(check(txn->commit(), error)));
  counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 1);
  EXPECT_EQ(counts->best, 1);
  EXPECT_EQ(counts->lowerings, 1);

  auto explicitRollback = check(db->beginTransaction(), error);
  ASSERT_TRUE(succeeded(explicitRollback)) << error;
  ASSERT_TRUE(record(okRow("ctx-a", "gone", 1.0)));
  ASSERT_TRUE(succeeded(check(explicitRollback->rollback(), error))) << error;
  auto gone = check(db->lookupPerf("ctx-a", "gone", "cuda"), error);
  ASSERT_TRUE(succeeded(gone)) << error;
  EXPECT_FALSE(gone->has_value());
}

TEST_F(TuneCacheTest, InMemoryDatabasesArePrivate) {
  ASSERT_TRUE(record(okRow("ctx-a", "op", 1.0)));
  auto other = check(TuneDb::openInMemory(), error);
  ASSERT_TRUE(succeeded(other)) << error;
  auto counts = check(other->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 0);
  auto mode = check(db->getJournalMode(), error);
  ASSERT_TRUE(succeeded(mode)) << error;
  EXPECT_EQ(*mode, "memory");
  EXPECT_EQ(db->getPath(), ":memory:");
}

TEST(TuneCacheEnums, StatusAndLevelSpellingsRoundTrip) {
  for (MeasureStatus status :
       {MeasureStatus::Ok, MeasureStatus::CompileFail,
        MeasureStatus::LaunchFail, MeasureStatus::Timeout,
        MeasureStatus::WrongResult})
    EXPECT_EQ(symbolizeMeasureStatus(measureStatusName(status)), status);
  EXPECT_EQ(measureStatusName(MeasureStatus::WrongResult), "wrong_result");
  EXPECT_FALSE(symbolizeMeasureStatus("bench_fail").has_value());
  for (OpLevel level :
       {OpLevel::Loop, OpLevel::Tile, OpLevel::Kernel, OpLevel::Cuda})
    EXPECT_EQ(symbolizeOpLevel(stringifyOpLevel(level)), level);
  EXPECT_FALSE(symbolizeOpLevel("dtile").has_value());
}

} // namespace
