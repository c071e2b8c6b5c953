//===- ProtocolTest.cpp - Frames, messages and request validation ---------===//
//
// Every message survives encode -> bytes -> parse -> decode unchanged; a
// malformed frame, message or request fails with a message naming what is
// wrong.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Protocol.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace deplodock::runtime;
using llvm::json::Object;

namespace {

/// A request with every kind of field set.
BenchRequest sampleRequest() {
  BenchRequest request;
  request.id = 42;
  request.source = "extern \"C\" __global__ void k(float *x) {}";
  request.compileOptions = {"-lineinfo"};
  BufferSpec seeded;
  seeded.name = "x";
  seeded.dtype = DType::BF16;
  seeded.shape = {4, 8};
  seeded.init = InitKind::Seeded;
  seeded.seed = 9;
  seeded.stream = 1;
  BufferSpec data;
  data.name = "y";
  data.dtype = DType::I8;
  data.shape = {3};
  data.init = InitKind::Data;
  data.data = {1, 2, 255};
  BufferSpec out;
  out.name = "z";
  out.dtype = DType::F32;
  out.shape = {4, 8};
  request.buffers = {seeded, data, out};
  LaunchSpec launch;
  launch.kernel = "k";
  launch.grid = {4, 2, 1};
  launch.block = {128, 1, 1};
  launch.smemBytes = 4096;
  launch.params.push_back({0, std::nullopt});
  launch.params.push_back({0, TmaSpec{0, {2, 8}, 128}});
  launch.params.push_back({2, std::nullopt});
  launch.zero = {2};
  launch.writes = {2};
  request.launches = {launch};
  std::vector<uint8_t> expected(4 * 8 * 4, 7);
  request.outputs.push_back({2, Tolerance{1e-2, 1e-3, 0.5}, expected});
  request.timing.warmupMs = 3;
  request.timing.flushL2 = false;
  request.time.total = false;
  request.returnOutputs = true;
  request.kernelTimeoutS = 2.5;
  request.timeoutS = 30;
  request.fake = Object{{"fault", "wrong"}};
  return request;
}

/// Serializes `frame` and parses the bytes back as the reader does.
Frame reparse(const Frame &frame) {
  std::string bytes = frame.serialize();
  size_t newline = bytes.find('\n');
  llvm::Expected<std::pair<uint64_t, uint64_t>> sizes =
      parseFrameHeader(llvm::StringRef(bytes).take_front(newline));
  EXPECT_TRUE(bool(sizes)) << llvm::toString(sizes.takeError());
  auto [json, blob] = *sizes;
  EXPECT_EQ(newline + 1 + json + blob, bytes.size());
  Frame out;
  llvm::Expected<Object> object =
      parseFrameJson(llvm::StringRef(bytes).substr(newline + 1, json));
  EXPECT_TRUE(bool(object)) << llvm::toString(object.takeError());
  out.json = std::move(*object);
  out.blob = bytes.substr(newline + 1 + json);
  return out;
}

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(Protocol, FrameHeaders) {
  EXPECT_EQ(formatFrameHeader(12, 0), "DPLK1 12 0\n");
  auto sizes = parseFrameHeader("DPLK1 12 34");
  ASSERT_TRUE(bool(sizes));
  EXPECT_EQ(sizes->first, 12u);
  EXPECT_EQ(sizes->second, 34u);
  for (llvm::StringRef bad :
       {"", "DPLK1", "DPLK1 12", "DPLK2 12 0", "DPLK1 x 0", "DPLK1 12 0 0",
        "DPLK1  12 0", "DPLK1 -1 0", "DPLK1 0 0"}) {
    auto parsed = parseFrameHeader(bad);
    EXPECT_FALSE(bool(parsed)) << bad.str();
    llvm::consumeError(parsed.takeError());
  }
  EXPECT_EQ(errorOf(parseFrameHeader("hello\x01world").takeError()),
            "malformed frame header 'hello\\01world' (expected 'DPLK1 <json "
            "bytes> <blob bytes>')");
  EXPECT_EQ(errorOf(parseFrameHeader("DPLK1 99999999999 0").takeError()),
            "frame JSON size 99999999999 out of range");
}

TEST(Protocol, FrameJsonMustBeATypedObject) {
  EXPECT_TRUE(bool(parseFrameJson("{\"type\":\"x\"}")));
  EXPECT_EQ(errorOf(parseFrameJson("[1]").takeError()),
            "malformed frame JSON: not an object with a string \"type\"");
  EXPECT_EQ(errorOf(parseFrameJson("{\"type\":1}").takeError()),
            "malformed frame JSON: not an object with a string \"type\"");
  std::string error = errorOf(parseFrameJson("{\"type\":").takeError());
  EXPECT_EQ(llvm::StringRef(error).take_front(21), "malformed frame JSON:");
}

TEST(Protocol, FrameJsonDepthIsBounded) {
  // Deep enough to overflow a recursive parser's stack; refused before it
  // is parsed.
  std::string deep = "{\"type\":\"x\",\"a\":" + std::string(200000, '[') +
                     std::string(200000, ']') + "}";
  EXPECT_EQ(errorOf(parseFrameJson(deep).takeError()),
            "malformed frame JSON: arrays and objects nested deeper than 64 "
            "levels");
  // Brackets in strings do not count, escaped quotes included.
  std::string quoted =
      "{\"type\":\"x\",\"a\":\"\\\"" + std::string(100, '[') + "\"}";
  EXPECT_TRUE(bool(parseFrameJson(quoted)));
  std::string nested = "{\"type\":\"x\",\"a\":" + std::string(63, '[') +
                       std::string(63, ']') + "}";
  EXPECT_TRUE(bool(parseFrameJson(nested)));
}

TEST(Protocol, RequestRoundTrip) {
  BenchRequest request = sampleRequest();
  Frame frame = reparse(encodeRequest(request));
  EXPECT_EQ(frame.type(), "bench");
  llvm::Expected<BenchRequest> back = decodeRequest(frame);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->id, 42u);
  EXPECT_EQ(back->source, request.source);
  EXPECT_EQ(back->compileOptions, request.compileOptions);
  ASSERT_EQ(back->buffers.size(), 3u);
  EXPECT_EQ(back->buffers[0].dtype, DType::BF16);
  EXPECT_EQ(back->buffers[0].init, InitKind::Seeded);
  EXPECT_EQ(back->buffers[0].seed, 9u);
  EXPECT_EQ(back->buffers[0].stream, 1u);
  EXPECT_EQ(back->buffers[1].data, request.buffers[1].data);
  EXPECT_EQ(back->buffers[2].init, InitKind::Poison);
  EXPECT_EQ(back->buffers[2].shape, request.buffers[2].shape);
  ASSERT_EQ(back->launches.size(), 1u);
  const LaunchSpec &launch = back->launches[0];
  EXPECT_EQ(launch.grid, (std::array<uint32_t, 3>{4, 2, 1}));
  EXPECT_EQ(launch.smemBytes, 4096u);
  ASSERT_EQ(launch.params.size(), 3u);
  EXPECT_FALSE(launch.params[0].tma);
  ASSERT_TRUE(launch.params[1].tma);
  EXPECT_EQ(launch.params[1].tma->box, (llvm::SmallVector<int64_t, 4>{2, 8}));
  EXPECT_EQ(launch.params[1].tma->swizzle, 128u);
  EXPECT_EQ(launch.params[2].buffer, 2u);
  EXPECT_EQ(launch.zero, (llvm::SmallVector<unsigned, 2>{2}));
  ASSERT_EQ(back->outputs.size(), 1u);
  EXPECT_EQ(back->outputs[0].expected, request.outputs[0].expected);
  EXPECT_EQ(back->outputs[0].tolerance->scale, 0.5);
  EXPECT_EQ(back->timing.warmupMs, 3);
  EXPECT_FALSE(back->timing.flushL2);
  EXPECT_TRUE(back->time.eachLaunch);
  EXPECT_FALSE(back->time.total);
  EXPECT_TRUE(back->returnOutputs);
  EXPECT_EQ(back->kernelTimeoutS, 2.5);
  EXPECT_EQ(back->fake.getString("fault"), "wrong");
}

TEST(Protocol, SeveralLaunchesAndAWorkspaceRoundTrip) {
  // A split through a workspace: the first kernel writes partial sums to a
  // buffer no argument holds (poisoned, or zeroed before the launch that
  // accumulates into it), the second reads them and writes the output.
  BenchRequest request = sampleRequest();
  BufferSpec workspace;
  workspace.name = "alloc0";
  workspace.shape = {4, 4, 8};
  request.buffers.push_back(workspace);
  LaunchSpec partial;
  partial.kernel = "partial";
  partial.grid = {2, 1, 4};
  partial.block = {32, 1, 1};
  partial.params = {{0, std::nullopt}, {3, std::nullopt}};
  partial.zero = {3};
  partial.writes = {3};
  LaunchSpec sum;
  sum.kernel = "sum";
  sum.grid = {1, 1, 1};
  sum.block = {256, 1, 1};
  sum.params = {{3, std::nullopt}, {2, std::nullopt}};
  sum.writes = {2};
  sum.early = true;
  request.launches = {partial, sum};
  ASSERT_FALSE(bool(validateRequest(request)));
  llvm::Expected<BenchRequest> back =
      decodeRequest(reparse(encodeRequest(request)));
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->buffers.size(), 4u);
  EXPECT_EQ(back->buffers[3].init, InitKind::Poison);
  EXPECT_EQ(back->buffers[3].shape, workspace.shape);
  ASSERT_EQ(back->launches.size(), 2u);
  for (auto [got, want] : llvm::zip(back->launches, request.launches)) {
    EXPECT_EQ(got.kernel, want.kernel);
    EXPECT_EQ(got.grid, want.grid);
    EXPECT_EQ(got.block, want.block);
    ASSERT_EQ(got.params.size(), want.params.size());
    for (auto [g, w] : llvm::zip(got.params, want.params))
      EXPECT_EQ(g.buffer, w.buffer);
    EXPECT_EQ(got.zero, want.zero);
    EXPECT_EQ(got.writes, want.writes);
    EXPECT_EQ(got.early, want.early);
  }
  // Both launches are checked: a second one naming a missing buffer is the
  // request's error, with its index.
  request.launches[1].params[0].buffer = 4;
  EXPECT_EQ(errorOf(validateRequest(request)),
            "invalid request: the request launch #1 (@sum): parameter #0 "
            "names buffer #4, but there are 4");
}

TEST(Protocol, ReferenceProgramRoundTrip) {
  BenchRequest request = sampleRequest();
  request.outputs[0].expected.reset();
  request.reference = ReferenceProgram{"ref source", {"-G"}, {}};
  request.reference->launches.push_back(request.launches[0]);
  request.reference->launches[0].kernel = "ref";
  llvm::Expected<BenchRequest> back =
      decodeRequest(reparse(encodeRequest(request)));
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_TRUE(back->reference);
  EXPECT_EQ(back->reference->source, "ref source");
  EXPECT_EQ(back->reference->launches[0].kernel, "ref");
}

TEST(Protocol, ResultRoundTripKeepsNonFiniteNumbers) {
  BenchResult result;
  result.id = 5;
  result.status = BenchStatus::WrongResult;
  result.detail = "output z: 1 of 32 elements differ";
  result.verified = true;
  OutputCheck check;
  check.buffer = 2;
  check.ok = false;
  check.maxAbsError = INFINITY;
  check.mismatches = 1;
  check.worst = 3;
  check.expected = 1.5;
  check.actual = NAN;
  check.tolerance = {1, 2, 3};
  result.checks = {check};
  result.kernels = {{"k", 40, 1024, 16, 8, 1024}};
  Stats stats = computeStats({3, 1, 2});
  stats.graph = true;
  stats.repeats = 4;
  result.timings = {{0, stats}, {-1, stats}};
  result.outputs = {{1, 2, 3}, {}};
  result.compileCached = true;
  result.compileMs = 12.5;
  result.workerExits = true;
  Frame frame = reparse(encodeResult(result));
  llvm::Expected<BenchResult> back = decodeResult(frame);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->status, BenchStatus::WrongResult);
  EXPECT_EQ(back->detail, result.detail);
  ASSERT_EQ(back->checks.size(), 1u);
  EXPECT_TRUE(std::isinf(back->checks[0].maxAbsError));
  EXPECT_TRUE(std::isnan(back->checks[0].actual));
  EXPECT_EQ(back->checks[0].tolerance.scale, 3);
  EXPECT_EQ(back->kernels[0].registers, 40);
  EXPECT_EQ(back->kernels[0].staticSmemBytes, 1024);
  ASSERT_TRUE(back->timing(-1));
  EXPECT_EQ(back->timing(-1)->stats.medianUs, 2);
  EXPECT_EQ(back->timing(0)->stats.repeats, 4);
  EXPECT_TRUE(back->timing(0)->stats.graph);
  EXPECT_FALSE(back->timing(1));
  EXPECT_EQ(back->outputs, result.outputs);
  EXPECT_TRUE(back->compileCached);
  EXPECT_TRUE(back->workerExits);
}

/// Decodes `result` after `edit` changed its JSON; returns the error.
template <typename Edit>
std::string resultError(const BenchResult &result, Edit edit) {
  Frame frame = encodeResult(result);
  edit(frame.json);
  llvm::Expected<BenchResult> back = decodeResult(frame);
  return back ? "" : llvm::toString(back.takeError());
}

TEST(Protocol, ResultIdsFitSigned64Bits) {
  BenchResult result;
  EXPECT_EQ(resultError(result,
                        [](Object &json) {
                          json["id"] = std::numeric_limits<int64_t>::max();
                        }),
            "");
  EXPECT_EQ(
      resultError(result, [](Object &json) { json["id"] = uint64_t(1) << 63; }),
      "expected an integer from 0 to 9223372036854775807 at result.id");
}

TEST(Protocol, ResultTimingsMustBeSane) {
  BenchResult result;
  result.timings = {{0, computeStats({3, 1, 2})}};
  auto timing = [](Object &json) {
    return (*json.getArray("timings"))[0].getAsObject();
  };
  EXPECT_EQ(resultError(result, [](Object &) {}), "");
  const std::string insane =
      "expected finite, non-negative times with min <= median <= max, at "
      "least one sample and repeat, and a launch >= -1 at result.timings[0]";
  // A negative or NaN time would pass for the fastest variant.
  EXPECT_EQ(resultError(result,
                        [&](Object &json) {
                          (*timing(json))["median_us"] = -1.0;
                          (*timing(json))["min_us"] = -2.0;
                        }),
            insane);
  EXPECT_EQ(
      resultError(result,
                  [&](Object &json) { (*timing(json))["mean_us"] = "nan"; }),
      insane);
  EXPECT_EQ(
      resultError(result,
                  [&](Object &json) { (*timing(json))["max_us"] = "inf"; }),
      insane);
  EXPECT_EQ(resultError(result,
                        [&](Object &json) { (*timing(json))["min_us"] = 2.5; }),
            insane);
  EXPECT_EQ(resultError(result,
                        [&](Object &json) { (*timing(json))["samples"] = 0; }),
            insane);
  EXPECT_EQ(resultError(result,
                        [&](Object &json) { (*timing(json))["launch"] = -2; }),
            insane);
  EXPECT_EQ(
      resultError(result, [](Object &json) { json["compile_ms"] = -1.0; }),
      "expected a finite, non-negative number at result.compile_ms");
}

TEST(Protocol, HelloAndStatusNames) {
  Hello hello;
  hello.worker = "w";
  DeviceInfo device;
  device.name = "GPU";
  device.ccMajor = 8;
  device.smCount = 108;
  device.fake = true;
  hello.device = device;
  llvm::Expected<Hello> back = decodeHello(reparse(encodeHello(hello)));
  ASSERT_TRUE(bool(back));
  EXPECT_EQ(back->device->name, "GPU");
  EXPECT_EQ(back->device->arch(), "sm_80");
  EXPECT_TRUE(back->device->fake);

  Hello none;
  none.error = "no CUDA driver: x";
  back = decodeHello(reparse(encodeHello(none)));
  ASSERT_TRUE(bool(back));
  EXPECT_FALSE(back->device);
  EXPECT_EQ(back->error, "no CUDA driver: x");

  Frame empty;
  empty.json = Object{{"type", "hello"}, {"protocol", 1}};
  EXPECT_EQ(errorOf(decodeHello(empty).takeError()),
            "hello names neither a device nor an error");
  EXPECT_EQ(errorOf(decodeHello(encodeProgress(1, "x")).takeError()),
            "expected a hello message, got 'progress'");

  // The tuner's database spells statuses the same way.
  for (llvm::StringRef name :
       {"ok", "compile_fail", "launch_fail", "timeout", "wrong_result"})
    EXPECT_EQ(benchStatusName(*parseBenchStatus(name)), name);
  EXPECT_FALSE(parseBenchStatus("error"));
}

/// Decodes `json` (with `blob`) as a request and returns the error.
std::string requestError(Object json, std::string blob = "") {
  Frame frame;
  json["type"] = "bench";
  frame.json = std::move(json);
  frame.blob = std::move(blob);
  llvm::Expected<BenchRequest> request = decodeRequest(frame);
  if (request)
    return "";
  return llvm::toString(request.takeError());
}

Object minimalRequest() {
  return Object{
      {"source", "s"},
      {"buffers", llvm::json::Array{Object{{"dtype", "f32"},
                                           {"shape", llvm::json::Array{4}}}}},
      {"launches", llvm::json::Array{Object{
                       {"kernel", "k"},
                       {"grid", llvm::json::Array{1, 1, 1}},
                       {"block", llvm::json::Array{4, 1, 1}},
                       {"params", llvm::json::Array{Object{{"buffer", 0}}}}}}}};
}

TEST(Protocol, MalformedRequestsNameTheField) {
  EXPECT_EQ(requestError(minimalRequest()), "");
  Object noSource = minimalRequest();
  noSource.erase("source");
  EXPECT_EQ(requestError(noSource), "missing at request.source");
  Object badDtype = minimalRequest();
  (*(*badDtype.getArray("buffers"))[0].getAsObject())["dtype"] = "f8";
  EXPECT_EQ(requestError(badDtype),
            "expected a dtype (f16, bf16, f32, f64, i1, i8, i16, i32, i64, "
            "f8e4m3fn, f8e5m2) at "
            "request.buffers[0].dtype");
  Object badGrid = minimalRequest();
  (*(*badGrid.getArray("launches"))[0].getAsObject())["grid"] =
      llvm::json::Array{1, 1};
  EXPECT_EQ(requestError(badGrid),
            "expected 3 dimensions (x, y, z) at request.launches[0].grid");
  Object pastBlob = minimalRequest();
  (*(*pastBlob.getArray("buffers"))[0].getAsObject())["init"] = "data";
  (*(*pastBlob.getArray("buffers"))[0].getAsObject())["data"] =
      Object{{"offset", 0}, {"bytes", 16}};
  EXPECT_EQ(requestError(pastBlob, "short"),
            "refers past the end of the frame's blob at "
            "request.buffers[0].data");
  EXPECT_EQ(requestError(pastBlob, std::string(16, 'x')), "");
  Object badInit = minimalRequest();
  (*(*badInit.getArray("buffers"))[0].getAsObject())["init"] = "random";
  EXPECT_EQ(requestError(badInit), "expected seeded, data, zero or poison at "
                                   "request.buffers[0].init");
}

TEST(Protocol, IntegersAreRangeChecked) {
  // 2^32 is not buffer 0, and -1 not buffer 4294967295.
  for (int64_t bad : {int64_t(1) << 32, int64_t(-1)}) {
    Object request = minimalRequest();
    (*(*(*request.getArray("launches"))[0].getAsObject())
          .getArray("params"))[0] = Object{{"buffer", bad}};
    EXPECT_EQ(requestError(request),
              "expected an integer from 0 to 4294967295 at "
              "request.launches[0].params[0].buffer");
  }
  Object fractional = minimalRequest();
  (*(*fractional.getArray("buffers"))[0].getAsObject())["shape"] =
      llvm::json::Array{2.5};
  EXPECT_EQ(requestError(fractional),
            "expected an integer from -9223372036854775808 to "
            "9223372036854775807 at request.buffers[0].shape[0]");
  // An id is echoed back: at most 2^63 - 1, which a signed 64-bit JSON
  // reader holds.
  for (llvm::json::Value bad :
       {llvm::json::Value(uint64_t(1) << 63), llvm::json::Value(int64_t(-1)),
        llvm::json::Value(1.5)}) {
    Object request = minimalRequest();
    request["id"] = bad;
    EXPECT_EQ(requestError(request),
              "expected an integer from 0 to 9223372036854775807 at "
              "request.id");
  }
  Object largestId = minimalRequest();
  largestId["id"] = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(requestError(largestId), "");
  // A seed takes all 64 bits.
  Object seeded = minimalRequest();
  Object &buffer = *(*seeded.getArray("buffers"))[0].getAsObject();
  buffer["init"] = "seeded";
  buffer["seed"] = std::numeric_limits<uint64_t>::max();
  Frame frame;
  seeded["type"] = "bench";
  frame.json = std::move(seeded);
  llvm::Expected<BenchRequest> decoded = decodeRequest(frame);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->buffers[0].seed, std::numeric_limits<uint64_t>::max());
}

TEST(Protocol, ValidationCatchesInconsistentRequests) {
  auto error = [](auto edit) {
    BenchRequest request = sampleRequest();
    edit(request);
    return errorOf(validateRequest(request));
  };
  EXPECT_EQ(error([](BenchRequest &) {}), "");
  EXPECT_EQ(error([](BenchRequest &r) { r.source.clear(); }),
            "invalid request: no CUDA source");
  EXPECT_EQ(error([](BenchRequest &r) { r.buffers[1].data.pop_back(); }),
            "invalid request: buffer #1 (y) has 2 bytes of data for 3 bytes");
  EXPECT_EQ(error([](BenchRequest &r) { r.buffers[0].shape[0] = 0; }),
            "invalid request: buffer #0 (x) has dimension 0");
  EXPECT_EQ(error([](BenchRequest &r) { r.launches.clear(); }),
            "invalid request: the request has no launches");
  EXPECT_EQ(error([](BenchRequest &r) { r.launches[0].kernel = "2k"; }),
            "invalid request: the request launch #0: kernel name '2k' is not "
            "a C identifier");
  EXPECT_EQ(error([](BenchRequest &r) { r.launches[0].grid[1] = 0; }),
            "invalid request: the request launch #0 (@k): grid and block "
            "dimensions must be positive");
  EXPECT_EQ(error([](BenchRequest &r) {
              r.launches[0].block = {64, 32, 1};
            }),
            "invalid request: the request launch #0 (@k): 2048 threads per "
            "block, more than 1024");
  EXPECT_EQ(error([](BenchRequest &r) { r.launches[0].params[2].buffer = 3; }),
            "invalid request: the request launch #0 (@k): parameter #2 names "
            "buffer #3, but there are 3");
  EXPECT_EQ(
      error([](BenchRequest &r) { r.launches[0].params[1].tma->box = {8}; }),
      "invalid request: the request launch #0 (@k): parameter #1 has a "
      "rank-1 TMA box for a rank-2 buffer (ranks 1 to 5)");
  EXPECT_EQ(error([](BenchRequest &r) {
              r.launches[0].params[1].tma->box = {257, 8};
            }),
            "invalid request: the request launch #0 (@k): parameter #1 has "
            "TMA box extent 257 for a dimension of 4 (1 to 256; past the "
            "buffer's end TMA reads zeros)");
  // A box past the buffer's end is legal: TMA zero-fills it.
  EXPECT_EQ(error([](BenchRequest &r) {
              r.launches[0].params[1].tma->box = {8, 8};
            }),
            "");
  EXPECT_EQ(
      error([](BenchRequest &r) { r.launches[0].params[1].tma->swizzle = 16; }),
      "invalid request: the request launch #0 (@k): parameter #1 has "
      "swizzle 16 (0, 32, 64 or 128)");
  EXPECT_EQ(error([](BenchRequest &r) { r.launches[0].zero = {7}; }),
            "invalid request: the request launch #0 (@k): zero names buffer "
            "#7, but there are 3");
  EXPECT_EQ(error([](BenchRequest &r) { r.outputs[0].buffer = 9; }),
            "invalid request: output #0 names buffer #9, but there are 3");
  EXPECT_EQ(error([](BenchRequest &r) { r.outputs[0].expected->pop_back(); }),
            "invalid request: output #0 (z) has 127 expected bytes for 128 "
            "bytes");
  EXPECT_EQ(error([](BenchRequest &r) {
              r.reference = ReferenceProgram{"s", {}, {r.launches[0]}};
            }),
            "invalid request: output #0 (z) has expected data and the request "
            "a reference program: give one or the other");
  EXPECT_EQ(error([](BenchRequest &r) {
              r.reference = ReferenceProgram{"s", {}, {}};
              r.outputs[0].expected.reset();
            }),
            "invalid request: the reference program has no launches");
  EXPECT_EQ(error([](BenchRequest &r) { r.outputs[0].tolerance->rtol = -1; }),
            "invalid request: output #0 (z) has a negative or non-finite "
            "tolerance");
  EXPECT_EQ(error([](BenchRequest &r) { r.timing.minSamples = 0; }),
            "invalid request: timing needs at least one sample");
  EXPECT_EQ(error([](BenchRequest &r) { r.timing.maxSamples = 2000000; }),
            "invalid request: timing takes at most 1000000 samples");
  EXPECT_EQ(error([](BenchRequest &r) { r.timing.maxTimeMs = NAN; }),
            "invalid request: timing budgets (warmup_ms, min_time_ms, "
            "max_time_ms) must be from 0 to 3600000 ms");
  // A warm-up of 1e300 ms would sample forever and overflow the deadline.
  EXPECT_EQ(error([](BenchRequest &r) { r.timing.warmupMs = 1e300; }),
            "invalid request: timing budgets (warmup_ms, min_time_ms, "
            "max_time_ms) must be from 0 to 3600000 ms");
  EXPECT_EQ(error([](BenchRequest &r) { r.timing.batchUs = -1; }),
            "invalid request: timing options must be finite and not negative");
  EXPECT_EQ(error([](BenchRequest &r) { r.kernelTimeoutS = 0; }),
            "invalid request: kernel_timeout_s must be positive and at most "
            "86400");
  EXPECT_EQ(error([](BenchRequest &r) { r.kernelTimeoutS = 1e9; }),
            "invalid request: kernel_timeout_s must be positive and at most "
            "86400");
  EXPECT_EQ(error([](BenchRequest &r) { r.timeoutS = NAN; }),
            "invalid request: timeout_s must be from 0 to 86400");
}

TEST(Protocol, DeadlinesFollowTheBudget) {
  BenchRequest request = sampleRequest();
  EXPECT_EQ(requestDeadlineS(request), 30);
  request.timeoutS = 0;
  double one = requestDeadlineS(request);
  request.launches.push_back(request.launches[0]);
  EXPECT_GT(requestDeadlineS(request), one);
}

TEST(Protocol, StatsOfSamples) {
  Stats stats = computeStats({4, 1, 3, 2, 100});
  EXPECT_EQ(stats.samples, 5);
  EXPECT_EQ(stats.medianUs, 3);
  EXPECT_EQ(stats.minUs, 1);
  EXPECT_EQ(stats.maxUs, 100);
  EXPECT_EQ(stats.meanUs, 22);
  EXPECT_NEAR(stats.varianceUs2, 1902.5, 1e-9);
  // Quartiles 2 and 4: spread (4 - 2) / 3.
  EXPECT_NEAR(stats.spread, 2.0 / 3, 1e-12);
  Stats one = computeStats({7});
  EXPECT_EQ(one.medianUs, 7);
  EXPECT_EQ(one.varianceUs2, 0);
  EXPECT_EQ(one.spread, 0);
}

} // namespace
