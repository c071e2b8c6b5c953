//===- Protocol.cpp - Messages between BenchClient and the worker ---------===//

#include "Deplodock/Runtime/Protocol.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace deplodock::runtime;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Path;
using llvm::json::Value;

//===----------------------------------------------------------------------===//
// Frames
//===----------------------------------------------------------------------===//

std::string deplodock::runtime::escapeText(llvm::StringRef text) {
  std::string escaped;
  llvm::raw_string_ostream os(escaped);
  llvm::printEscapedString(text.take_front(40), os);
  return escaped;
}

llvm::StringRef Frame::type() const {
  if (std::optional<llvm::StringRef> type = json.getString("type"))
    return *type;
  return "";
}

std::string Frame::serialize() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Value(Object(json));
  std::string bytes = formatFrameHeader(text.size(), blob.size());
  bytes.reserve(bytes.size() + text.size() + blob.size());
  bytes += text;
  bytes += blob;
  return bytes;
}

std::string deplodock::runtime::formatFrameHeader(uint64_t jsonBytes,
                                                  uint64_t blobBytes) {
  return llvm::formatv("{0} {1} {2}\n", kFrameMagic, jsonBytes, blobBytes)
      .str();
}

llvm::Expected<std::pair<uint64_t, uint64_t>>
deplodock::runtime::parseFrameHeader(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 4> words;
  line.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  uint64_t jsonBytes = 0, blobBytes = 0;
  if (words.size() != 3 || words[0] != kFrameMagic ||
      words[1].getAsInteger(10, jsonBytes) ||
      words[2].getAsInteger(10, blobBytes))
    return llvm::createStringError(
        "malformed frame header '" + escapeText(line) + "' (expected '" +
        kFrameMagic + " <json bytes> <blob bytes>')");
  if (jsonBytes == 0 || jsonBytes > kMaxFrameJsonBytes)
    return llvm::createStringError("frame JSON size %llu out of range",
                                   static_cast<unsigned long long>(jsonBytes));
  if (blobBytes > kMaxFrameBlobBytes)
    return llvm::createStringError("frame blob size %llu out of range",
                                   static_cast<unsigned long long>(blobBytes));
  return std::make_pair(jsonBytes, blobBytes);
}

/// Whether arrays and objects nest deeper than `limit` in `text` (brackets
/// inside strings do not count). Malformed text is left to the parser.
static bool nestsDeeperThan(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

llvm::Expected<Object>
deplodock::runtime::parseFrameJson(llvm::StringRef text) {
  llvm::Expected<Value> value = parseBoundedJson(text, "frame");
  if (!value)
    return value.takeError();
  Object *object = value->getAsObject();
  if (!object || !object->getString("type"))
    return llvm::createStringError(
        "malformed frame JSON: not an object with a string \"type\"");
  return std::move(*object);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// Appends byte arrays to a frame's blob.
class BlobWriter {
public:
  explicit BlobWriter(std::string &blob) : blob(blob) {}
  Value add(llvm::ArrayRef<uint8_t> bytes) {
    Object ref{{"offset", static_cast<int64_t>(blob.size())},
               {"bytes", static_cast<int64_t>(bytes.size())}};
    blob.append(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    return ref;
  }

private:
  std::string &blob;
};

/// Reads the byte arrays a frame's JSON refers to.
class BlobReader {
public:
  explicit BlobReader(llvm::StringRef blob) : blob(blob) {}
  bool read(const Value &value, std::vector<uint8_t> &out, Path path) const {
    const Object *ref = value.getAsObject();
    std::optional<int64_t> offset, bytes;
    if (ref) {
      offset = ref->getInteger("offset");
      bytes = ref->getInteger("bytes");
    }
    if (!offset || !bytes) {
      path.report("expected {\"offset\": o, \"bytes\": n}");
      return false;
    }
    if (*offset < 0 || *bytes < 0 ||
        static_cast<uint64_t>(*offset) + static_cast<uint64_t>(*bytes) >
            blob.size()) {
      path.report("refers past the end of the frame's blob");
      return false;
    }
    out.assign(blob.bytes_begin() + *offset,
               blob.bytes_begin() + *offset + *bytes);
    return true;
  }

private:
  llvm::StringRef blob;
};

} // namespace

/// A double as JSON: a number, or "nan", "inf", "-inf", which JSON lacks.
static Value number(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return v;
}

static bool readNumber(const Value &value, double &out, Path path) {
  if (std::optional<double> v = value.getAsNumber()) {
    out = *v;
    return true;
  }
  if (std::optional<llvm::StringRef> text = value.getAsString()) {
    if (*text == "nan")
      out = NAN;
    else if (*text == "inf")
      out = INFINITY;
    else if (*text == "-inf")
      out = -INFINITY;
    else
      text.reset();
    if (text)
      return true;
  }
  path.report("expected a number");
  return false;
}

/// What a field of integer type T must hold (Path::report keeps only
/// literals).
template <typename T> static constexpr llvm::StringLiteral integerRange() {
  if constexpr (std::is_same_v<T, uint32_t>)
    return "expected an integer from 0 to 4294967295";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "expected an integer from -2147483648 to 2147483647";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "expected an integer from 0 to 18446744073709551615";
  else
    return "expected an integer from -9223372036854775808 to "
           "9223372036854775807";
}

/// An integer read as 64 bits and checked against the range of T, so that
/// 2^32 is an error rather than buffer 0.
template <typename T>
static bool readInteger(const Value &value, T &out, Path path) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> ||
                std::is_same_v<T, uint64_t> || std::is_same_v<T, int64_t>);
  using Limits = std::numeric_limits<T>;
  if constexpr (std::is_signed_v<T>) {
    std::optional<int64_t> v = value.getAsInteger();
    if (v && *v >= Limits::min() && *v <= Limits::max()) {
      out = static_cast<T>(*v);
      return true;
    }
  } else {
    std::optional<uint64_t> v = value.getAsUINT64();
    if (!v)
      if (std::optional<int64_t> i = value.getAsInteger(); i && *i >= 0)
        v = static_cast<uint64_t>(*i);
    if (v && *v <= Limits::max()) {
      out = static_cast<T>(*v);
      return true;
    }
  }
  path.report(integerRange<T>());
  return false;
}

/// Reads a plain value: integers range-checked, anything else with
/// llvm::json::fromJSON.
template <typename T>
static bool readValue(const Value &value, T &out, Path path) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return readInteger(value, out, path);
  } else {
    using llvm::json::fromJSON;
    return fromJSON(value, out, path);
  }
}

/// Whether `v` can be a duration: finite and not negative.
static bool isTime(double v) { return std::isfinite(v) && v >= 0; }

template <typename T> static Array toArray(llvm::ArrayRef<T> values) {
  Array array;
  for (const T &v : values)
    array.push_back(v);
  return array;
}

/// Reads `value` (an array) into `out` element by element with `read`.
template <typename Vec, typename Fn>
static bool readArray(const Value *value, Vec &out, Path path, Fn read) {
  const Array *array = value ? value->getAsArray() : nullptr;
  if (!array) {
    path.report("expected an array");
    return false;
  }
  out.clear();
  for (auto [i, element] : llvm::enumerate(*array)) {
    out.emplace_back();
    if (!read(element, out.back(), path.index(i)))
      return false;
  }
  return true;
}

template <typename Vec>
static bool readPlainArray(const Value *value, Vec &out, Path path) {
  return readArray(value, out, path, [](const Value &v, auto &x, Path p) {
    return readValue(v, x, p);
  });
}

/// A required field read with `read`.
template <typename T, typename Fn>
static bool field(const Object &object, llvm::StringLiteral name, T &out,
                  Path path, Fn read) {
  const Value *value = object.get(name);
  if (!value) {
    path.field(name).report("missing");
    return false;
  }
  return read(*value, out, path.field(name));
}

template <typename T>
static bool field(const Object &object, llvm::StringLiteral name, T &out,
                  Path path) {
  return field(object, name, out, path,
               [](const Value &v, T &x, Path p) { return readValue(v, x, p); });
}

/// An optional field: keeps `out` when missing.
template <typename T>
static bool optField(const Object &object, llvm::StringLiteral name, T &out,
                     Path path) {
  if (!object.get(name))
    return true;
  return field(object, name, out, path);
}

static bool readDType(const Value &value, DType &out, Path path) {
  std::optional<llvm::StringRef> text = value.getAsString();
  std::optional<DType> dtype = text ? parseDType(*text) : std::nullopt;
  if (!dtype) {
    path.report("expected a dtype (f16, bf16, f32, f64, i1, i8, i16, i32, "
                "i64)");
    return false;
  }
  out = *dtype;
  return true;
}

static bool readDims(const Value &value, std::array<uint32_t, 3> &out,
                     Path path) {
  llvm::SmallVector<uint32_t, 3> dims;
  if (!readPlainArray(&value, dims, path))
    return false;
  if (dims.size() != 3) {
    path.report("expected 3 dimensions (x, y, z)");
    return false;
  }
  std::copy(dims.begin(), dims.end(), out.begin());
  return true;
}

//===----------------------------------------------------------------------===//
// Requests
//===----------------------------------------------------------------------===//

static llvm::StringRef initName(InitKind kind) {
  switch (kind) {
  case InitKind::Seeded:
    return "seeded";
  case InitKind::Data:
    return "data";
  case InitKind::Zero:
    return "zero";
  case InitKind::Poison:
    return "poison";
  }
  return "";
}

static Value toleranceToJSON(const Tolerance &tolerance) {
  return Object{{"rtol", tolerance.rtol},
                {"atol", tolerance.atol},
                {"scale", tolerance.scale}};
}

static bool readTolerance(const Value &value, Tolerance &out, Path path) {
  const Object *object = value.getAsObject();
  if (!object) {
    path.report("expected an object");
    return false;
  }
  return optField(*object, "rtol", out.rtol, path) &&
         optField(*object, "atol", out.atol, path) &&
         optField(*object, "scale", out.scale, path);
}

static Value launchToJSON(const LaunchSpec &launch) {
  Array params;
  for (const LaunchParam &param : launch.params) {
    if (!param.tma) {
      params.push_back(Object{{"buffer", param.buffer}});
      continue;
    }
    params.push_back(
        Object{{"tma", Object{{"buffer", param.tma->buffer},
                              {"box", toArray<int64_t>(param.tma->box)},
                              {"swizzle", param.tma->swizzle}}}});
  }
  return Object{{"kernel", launch.kernel},
                {"grid", toArray<uint32_t>(launch.grid)},
                {"block", toArray<uint32_t>(launch.block)},
                {"smem", launch.smemBytes},
                {"params", std::move(params)},
                {"zero", toArray<unsigned>(launch.zero)},
                {"writes", toArray<unsigned>(launch.writes)}};
}

static bool readParam(const Value &value, LaunchParam &out, Path path) {
  const Object *object = value.getAsObject();
  if (!object) {
    path.report("expected {\"buffer\": i} or {\"tma\": {...}}");
    return false;
  }
  if (const Value *tma = object->get("tma")) {
    const Object *spec = tma->getAsObject();
    Path tmaPath = path.field("tma");
    if (!spec) {
      tmaPath.report("expected an object");
      return false;
    }
    out.tma.emplace();
    return field(*spec, "buffer", out.tma->buffer, tmaPath) &&
           readPlainArray(spec->get("box"), out.tma->box,
                          tmaPath.field("box")) &&
           optField(*spec, "swizzle", out.tma->swizzle, tmaPath);
  }
  return field(*object, "buffer", out.buffer, path);
}

static bool readLaunch(const Value &value, LaunchSpec &out, Path path) {
  const Object *object = value.getAsObject();
  if (!object) {
    path.report("expected an object");
    return false;
  }
  return field(*object, "kernel", out.kernel, path) &&
         field(*object, "grid", out.grid, path, readDims) &&
         field(*object, "block", out.block, path, readDims) &&
         optField(*object, "smem", out.smemBytes, path) &&
         readArray(object->get("params"), out.params, path.field("params"),
                   readParam) &&
         (!object->get("zero") ||
          readPlainArray(object->get("zero"), out.zero, path.field("zero"))) &&
         (!object->get("writes") ||
          readPlainArray(object->get("writes"), out.writes,
                         path.field("writes")));
}

static Array launchesToJSON(llvm::ArrayRef<LaunchSpec> launches) {
  Array array;
  for (const LaunchSpec &launch : launches)
    array.push_back(launchToJSON(launch));
  return array;
}

static Value timingToJSON(const TimingOptions &timing) {
  return Object{{"warmup_ms", timing.warmupMs},
                {"min_samples", timing.minSamples},
                {"max_samples", timing.maxSamples},
                {"target_spread", timing.targetSpread},
                {"min_time_ms", timing.minTimeMs},
                {"max_time_ms", timing.maxTimeMs},
                {"flush_l2", timing.flushL2},
                {"graph_below_us", timing.graphBelowUs},
                {"batch_us", timing.batchUs}};
}

static bool readTiming(const Value &value, TimingOptions &out, Path path) {
  const Object *object = value.getAsObject();
  if (!object) {
    path.report("expected an object");
    return false;
  }
  return optField(*object, "warmup_ms", out.warmupMs, path) &&
         optField(*object, "min_samples", out.minSamples, path) &&
         optField(*object, "max_samples", out.maxSamples, path) &&
         optField(*object, "target_spread", out.targetSpread, path) &&
         optField(*object, "min_time_ms", out.minTimeMs, path) &&
         optField(*object, "max_time_ms", out.maxTimeMs, path) &&
         optField(*object, "flush_l2", out.flushL2, path) &&
         optField(*object, "graph_below_us", out.graphBelowUs, path) &&
         optField(*object, "batch_us", out.batchUs, path);
}

Frame deplodock::runtime::encodeRequest(const BenchRequest &request) {
  Frame frame;
  BlobWriter blob(frame.blob);
  Array buffers;
  for (const BufferSpec &buffer : request.buffers) {
    Object object{{"name", buffer.name},
                  {"dtype", dtypeName(buffer.dtype)},
                  {"shape", toArray<int64_t>(buffer.shape)},
                  {"init", initName(buffer.init)}};
    if (buffer.init == InitKind::Seeded) {
      object["seed"] = buffer.seed;
      object["stream"] = buffer.stream;
    }
    if (buffer.init == InitKind::Data)
      object["data"] = blob.add(buffer.data);
    buffers.push_back(std::move(object));
  }
  Array outputs;
  for (const OutputSpec &output : request.outputs) {
    Object object{{"buffer", output.buffer}};
    if (output.tolerance)
      object["tolerance"] = toleranceToJSON(*output.tolerance);
    if (output.expected)
      object["expected"] = blob.add(*output.expected);
    outputs.push_back(std::move(object));
  }
  frame.json =
      Object{{"type", "bench"},
             {"id", request.id},
             {"source", request.source},
             {"compile_options", toArray<std::string>(request.compileOptions)},
             {"buffers", std::move(buffers)},
             {"launches", launchesToJSON(request.launches)},
             {"outputs", std::move(outputs)},
             {"timing", timingToJSON(request.timing)},
             {"time", Object{{"each_launch", request.time.eachLaunch},
                             {"total", request.time.total}}},
             {"return_outputs", request.returnOutputs},
             {"kernel_timeout_s", request.kernelTimeoutS},
             {"timeout_s", request.timeoutS}};
  if (request.reference)
    frame.json["reference"] =
        Object{{"source", request.reference->source},
               {"compile_options",
                toArray<std::string>(request.reference->compileOptions)},
               {"launches", launchesToJSON(request.reference->launches)}};
  if (!request.fake.empty())
    frame.json["fake"] = Object(request.fake);
  return frame;
}

llvm::Expected<BenchRequest>
deplodock::runtime::decodeRequest(const Frame &frame) {
  BenchRequest request;
  BlobReader blob(frame.blob);
  llvm::json::Path::Root root("request");
  Path path(root);
  const Object &json = frame.json;

  auto readBuffer = [&](const Value &value, BufferSpec &out, Path p) {
    const Object *object = value.getAsObject();
    if (!object) {
      p.report("expected an object");
      return false;
    }
    std::string init = "poison";
    if (!decodeBufferShape(*object, out, p) ||
        !optField(*object, "init", init, p))
      return false;
    if (init == "seeded") {
      out.init = InitKind::Seeded;
      return optField(*object, "seed", out.seed, p) &&
             optField(*object, "stream", out.stream, p);
    }
    if (init == "data") {
      out.init = InitKind::Data;
      return field(*object, "data", out.data, p,
                   [&](const Value &v, std::vector<uint8_t> &x, Path q) {
                     return blob.read(v, x, q);
                   });
    }
    if (init == "zero" || init == "poison") {
      out.init = init == "zero" ? InitKind::Zero : InitKind::Poison;
      return true;
    }
    p.field("init").report("expected seeded, data, zero or poison");
    return false;
  };
  auto readOutput = [&](const Value &value, OutputSpec &out, Path p) {
    const Object *object = value.getAsObject();
    if (!object) {
      p.report("expected an object");
      return false;
    }
    if (!field(*object, "buffer", out.buffer, p))
      return false;
    if (const Value *tolerance = object->get("tolerance")) {
      out.tolerance.emplace();
      if (!readTolerance(*tolerance, *out.tolerance, p.field("tolerance")))
        return false;
    }
    if (const Value *expected = object->get("expected")) {
      out.expected.emplace();
      if (!blob.read(*expected, *out.expected, p.field("expected")))
        return false;
    }
    return true;
  };

  bool ok =
      optField(json, "id", request.id, path) &&
      field(json, "source", request.source, path) &&
      (!json.get("compile_options") ||
       readPlainArray(json.get("compile_options"), request.compileOptions,
                      path.field("compile_options"))) &&
      readArray(json.get("buffers"), request.buffers, path.field("buffers"),
                readBuffer) &&
      readArray(json.get("launches"), request.launches, path.field("launches"),
                readLaunch) &&
      (!json.get("outputs") || readArray(json.get("outputs"), request.outputs,
                                         path.field("outputs"), readOutput)) &&
      (!json.get("timing") ||
       readTiming(*json.get("timing"), request.timing, path.field("timing"))) &&
      optField(json, "return_outputs", request.returnOutputs, path) &&
      optField(json, "kernel_timeout_s", request.kernelTimeoutS, path) &&
      optField(json, "timeout_s", request.timeoutS, path);
  // Optional objects of the wrong type are refused, not skipped: a
  // misspelt "fake" or "time" must not pass for the default.
  auto optObject = [&](llvm::StringRef key) -> const Object * {
    const Value *value = json.get(key);
    if (!value)
      return nullptr;
    if (const Object *object = value->getAsObject())
      return object;
    path.field(key).report("expected an object");
    ok = false;
    return nullptr;
  };
  if (ok)
    if (const Object *time = optObject("time"))
      ok = optField(*time, "each_launch", request.time.eachLaunch,
                    path.field("time")) &&
           optField(*time, "total", request.time.total, path.field("time"));
  if (ok)
    if (const Value *reference = json.get("reference")) {
      const Object *object = reference->getAsObject();
      Path p = path.field("reference");
      request.reference.emplace();
      ok = object && field(*object, "source", request.reference->source, p) &&
           (!object->get("compile_options") ||
            readPlainArray(object->get("compile_options"),
                           request.reference->compileOptions,
                           p.field("compile_options"))) &&
           readArray(object->get("launches"), request.reference->launches,
                     p.field("launches"), readLaunch);
      if (!object)
        p.report("expected an object");
    }
  if (ok)
    if (const Object *fake = optObject("fake"))
      request.fake = *fake;
  if (!ok)
    return root.getError();
  if (llvm::Error error = validateRequest(request))
    return std::move(error);
  return request;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

Frame deplodock::runtime::encodeResult(const BenchResult &result) {
  Frame frame;
  BlobWriter blob(frame.blob);
  Array checks;
  for (const OutputCheck &check : result.checks)
    checks.push_back(Object{{"buffer", check.buffer},
                            {"ok", check.ok},
                            {"max_abs_error", number(check.maxAbsError)},
                            {"max_rel_error", number(check.maxRelError)},
                            {"mismatches", check.mismatches},
                            {"worst", check.worst},
                            {"expected", number(check.expected)},
                            {"actual", number(check.actual)},
                            {"tolerance", toleranceToJSON(check.tolerance)}});
  Array kernels;
  for (const KernelInfo &kernel : result.kernels)
    kernels.push_back(
        Object{{"name", kernel.name},
               {"registers", kernel.registers},
               {"static_smem_bytes", kernel.staticSmemBytes},
               {"local_bytes", kernel.localBytes},
               {"const_bytes", kernel.constBytes},
               {"max_threads_per_block", kernel.maxThreadsPerBlock}});
  Array timings;
  for (const UnitTiming &timing : result.timings) {
    const Stats &s = timing.stats;
    timings.push_back(Object{{"launch", timing.launch},
                             {"median_us", number(s.medianUs)},
                             {"min_us", number(s.minUs)},
                             {"max_us", number(s.maxUs)},
                             {"mean_us", number(s.meanUs)},
                             {"variance_us2", number(s.varianceUs2)},
                             {"spread", number(s.spread)},
                             {"samples", s.samples},
                             {"repeats", s.repeats},
                             {"graph", s.graph},
                             {"flushed_l2", s.flushedL2}});
  }
  Array outputs;
  for (const std::vector<uint8_t> &output : result.outputs)
    outputs.push_back(blob.add(output));
  frame.json = Object{{"type", "result"},
                      {"id", result.id},
                      {"status", benchStatusName(result.status)},
                      {"detail", result.detail},
                      {"verified", result.verified},
                      {"checks", std::move(checks)},
                      {"kernels", std::move(kernels)},
                      {"timings", std::move(timings)},
                      {"outputs", std::move(outputs)},
                      {"compile_cached", result.compileCached},
                      {"compile_ms", number(result.compileMs)},
                      {"worker_exits", result.workerExits}};
  return frame;
}

llvm::Expected<BenchResult>
deplodock::runtime::decodeResult(const Frame &frame) {
  BenchResult result;
  BlobReader blob(frame.blob);
  llvm::json::Path::Root root("result");
  Path path(root);
  const Object &json = frame.json;
  auto readStatus = [](const Value &value, BenchStatus &out, Path p) {
    std::optional<llvm::StringRef> text = value.getAsString();
    std::optional<BenchStatus> status =
        text ? parseBenchStatus(*text) : std::nullopt;
    if (!status) {
      p.report("expected ok, compile_fail, launch_fail, timeout or "
               "wrong_result");
      return false;
    }
    out = *status;
    return true;
  };
  auto readCheck = [](const Value &value, OutputCheck &out, Path p) {
    const Object *object = value.getAsObject();
    if (!object) {
      p.report("expected an object");
      return false;
    }
    return field(*object, "buffer", out.buffer, p) &&
           field(*object, "ok", out.ok, p) &&
           field(*object, "max_abs_error", out.maxAbsError, p, readNumber) &&
           field(*object, "max_rel_error", out.maxRelError, p, readNumber) &&
           field(*object, "mismatches", out.mismatches, p) &&
           field(*object, "worst", out.worst, p) &&
           field(*object, "expected", out.expected, p, readNumber) &&
           field(*object, "actual", out.actual, p, readNumber) &&
           field(*object, "tolerance", out.tolerance, p, readTolerance);
  };
  auto readKernel = [](const Value &value, KernelInfo &out, Path p) {
    const Object *object = value.getAsObject();
    if (!object) {
      p.report("expected an object");
      return false;
    }
    return field(*object, "name", out.name, p) &&
           field(*object, "registers", out.registers, p) &&
           field(*object, "static_smem_bytes", out.staticSmemBytes, p) &&
           field(*object, "local_bytes", out.localBytes, p) &&
           field(*object, "const_bytes", out.constBytes, p) &&
           field(*object, "max_threads_per_block", out.maxThreadsPerBlock, p);
  };
  auto readTimingEntry = [](const Value &value, UnitTiming &out, Path p) {
    const Object *object = value.getAsObject();
    if (!object) {
      p.report("expected an object");
      return false;
    }
    Stats &s = out.stats;
    if (!(field(*object, "launch", out.launch, p) &&
          field(*object, "median_us", s.medianUs, p, readNumber) &&
          field(*object, "min_us", s.minUs, p, readNumber) &&
          field(*object, "max_us", s.maxUs, p, readNumber) &&
          field(*object, "mean_us", s.meanUs, p, readNumber) &&
          field(*object, "variance_us2", s.varianceUs2, p, readNumber) &&
          field(*object, "spread", s.spread, p, readNumber) &&
          field(*object, "samples", s.samples, p) &&
          optField(*object, "repeats", s.repeats, p) &&
          optField(*object, "graph", s.graph, p) &&
          optField(*object, "flushed_l2", s.flushedL2, p)))
      return false;
    // A negative or NaN time would pass for the fastest variant.
    bool sane =
        llvm::all_of(std::initializer_list<double>{s.medianUs, s.minUs, s.maxUs,
                                                   s.meanUs, s.varianceUs2,
                                                   s.spread},
                     isTime) &&
        s.minUs <= s.medianUs && s.medianUs <= s.maxUs && s.samples >= 1 &&
        s.repeats >= 1 && out.launch >= -1;
    if (!sane)
      p.report("expected finite, non-negative times with min <= median <= "
               "max, at least one sample and repeat, and a launch >= -1");
    return sane;
  };
  bool ok =
      optField(json, "id", result.id, path) &&
      field(json, "status", result.status, path, readStatus) &&
      optField(json, "detail", result.detail, path) &&
      optField(json, "verified", result.verified, path) &&
      (!json.get("checks") || readArray(json.get("checks"), result.checks,
                                        path.field("checks"), readCheck)) &&
      (!json.get("kernels") || readArray(json.get("kernels"), result.kernels,
                                         path.field("kernels"), readKernel)) &&
      (!json.get("timings") ||
       readArray(json.get("timings"), result.timings, path.field("timings"),
                 readTimingEntry)) &&
      (!json.get("outputs") ||
       readArray(json.get("outputs"), result.outputs, path.field("outputs"),
                 [&](const Value &v, std::vector<uint8_t> &x, Path p) {
                   return blob.read(v, x, p);
                 })) &&
      optField(json, "compile_cached", result.compileCached, path) &&
      (!json.get("compile_ms") ||
       field(json, "compile_ms", result.compileMs, path,
             [](const Value &v, double &x, Path p) {
               if (!readNumber(v, x, p))
                 return false;
               if (!isTime(x))
                 p.report("expected a finite, non-negative number");
               return isTime(x);
             })) &&
      optField(json, "worker_exits", result.workerExits, path);
  if (!ok)
    return root.getError();
  return result;
}

//===----------------------------------------------------------------------===//
// Hello, progress, errors
//===----------------------------------------------------------------------===//

Frame deplodock::runtime::encodeHello(const Hello &hello) {
  Frame frame;
  frame.json = Object{{"type", "hello"},
                      {"protocol", hello.protocol},
                      {"worker", hello.worker}};
  if (hello.device)
    frame.json["device"] = toJSON(*hello.device);
  if (!hello.error.empty())
    frame.json["error"] = hello.error;
  return frame;
}

llvm::Expected<Hello> deplodock::runtime::decodeHello(const Frame &frame) {
  if (frame.type() != "hello")
    return llvm::createStringError("expected a hello message, got '%s'",
                                   frame.type().str().c_str());
  Hello hello;
  llvm::json::Path::Root root("hello");
  Path path(root);
  bool ok = field(frame.json, "protocol", hello.protocol, path) &&
            optField(frame.json, "worker", hello.worker, path) &&
            optField(frame.json, "error", hello.error, path);
  if (ok)
    if (const Value *device = frame.json.get("device")) {
      hello.device.emplace();
      ok = fromJSON(*device, *hello.device, path.field("device"));
    }
  if (!ok)
    return root.getError();
  if (!hello.device && hello.error.empty())
    return llvm::createStringError("hello names neither a device nor an error");
  return hello;
}

Frame deplodock::runtime::encodeProgress(uint64_t id, llvm::StringRef phase) {
  Frame frame;
  frame.json = Object{{"type", "progress"}, {"id", id}, {"phase", phase}};
  return frame;
}

Frame deplodock::runtime::encodeError(llvm::StringRef message) {
  Frame frame;
  frame.json = Object{{"type", "error"}, {"message", message}};
  return frame;
}

//===----------------------------------------------------------------------===//
// Pieces the layer manifest shares
//===----------------------------------------------------------------------===//

Value deplodock::runtime::encodeLaunch(const LaunchSpec &launch) {
  return launchToJSON(launch);
}

bool deplodock::runtime::decodeLaunch(const Value &value, LaunchSpec &out,
                                      Path path) {
  return readLaunch(value, out, path);
}

bool deplodock::runtime::decodeBufferShape(const Object &object,
                                           BufferSpec &out, Path path) {
  return optField(object, "name", out.name, path) &&
         field(object, "dtype", out.dtype, path, readDType) &&
         readPlainArray(object.get("shape"), out.shape, path.field("shape"));
}

bool deplodock::runtime::decodeIndices(const Value *value,
                                       std::vector<unsigned> &out, Path path) {
  return readPlainArray(value, out, path);
}

llvm::Expected<Value>
deplodock::runtime::parseBoundedJson(llvm::StringRef text,
                                     llvm::StringRef what) {
  if (nestsDeeperThan(text, kMaxFrameJsonDepth))
    return llvm::createStringError(
        llvm::formatv("malformed {0} JSON: arrays and objects nested deeper "
                      "than {1} levels",
                      what, kMaxFrameJsonDepth)
            .str());
  llvm::Expected<Value> value = llvm::json::parse(text);
  if (!value)
    return llvm::createStringError(
        llvm::formatv("malformed {0} JSON: {1}", what,
                      llvm::toString(value.takeError()))
            .str());
  return value;
}
