//===- RequestCodec.cpp - Bench requests as protocol frames ---------------===//
//
// "bench" requests and the launch specs the layer manifest shares with them.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Protocol.h"

#include "JsonFields.h"

using namespace deplodock::runtime;
using namespace deplodock::runtime::fields;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Path;
using llvm::json::Value;

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
                {"writes", toArray<unsigned>(launch.writes)},
                {"early", launch.early}};
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
  const Object *object = readObject(value, path);
  if (!object)
    return false;
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
                         path.field("writes"))) &&
         optField(*object, "early", out.early, path);
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
  const Object *object = readObject(value, path);
  if (!object)
    return false;
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
    const Object *object = readObject(value, p);
    if (!object)
      return false;
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
    const Object *object = readObject(value, p);
    if (!object)
      return false;
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
      (!json.get("id") || field(json, "id", request.id, path, readId)) &&
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
// Pieces the layer manifest shares
//===----------------------------------------------------------------------===//

Value deplodock::runtime::encodeLaunch(const LaunchSpec &launch) {
  return launchToJSON(launch);
}

bool deplodock::runtime::decodeLaunch(const Value &value, LaunchSpec &out,
                                      Path path) {
  return readLaunch(value, out, path);
}
