//===- ResultCodec.cpp - Bench results as protocol frames -----------------===//
//
// "result" frames: timings, verification, errors and output samples.
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
    const Object *object = readObject(value, p);
    if (!object)
      return false;
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
    const Object *object = readObject(value, p);
    if (!object)
      return false;
    return field(*object, "name", out.name, p) &&
           field(*object, "registers", out.registers, p) &&
           field(*object, "static_smem_bytes", out.staticSmemBytes, p) &&
           field(*object, "local_bytes", out.localBytes, p) &&
           field(*object, "const_bytes", out.constBytes, p) &&
           field(*object, "max_threads_per_block", out.maxThreadsPerBlock, p);
  };
  auto readTimingEntry = [](const Value &value, UnitTiming &out, Path p) {
    const Object *object = readObject(value, p);
    if (!object)
      return false;
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
      (!json.get("id") || field(json, "id", result.id, path, readId)) &&
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
