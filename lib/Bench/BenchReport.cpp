//===- BenchReport.cpp - What a bench run prints and writes ---------------===//

#include "BenchReport.h"

#include "Deplodock/Interpreter/BufferIO.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Runtime/OutputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::bench;
using namespace deplodock::runtime;

/// "[32,1,1]".
static std::string dims(llvm::ArrayRef<uint32_t> values) {
  std::string text = "[";
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? "," : "") + std::to_string(v);
  return text + "]";
}

static llvm::json::Array jsonDims(llvm::ArrayRef<uint32_t> values) {
  llvm::json::Array array;
  for (uint32_t v : values)
    array.push_back(v);
  return array;
}

static llvm::json::Object jsonStats(const Stats &stats) {
  return llvm::json::Object{
      {"median", stats.medianUs}, {"min", stats.minUs},
      {"max", stats.maxUs},       {"mean", stats.meanUs},
      {"spread", stats.spread},   {"samples", stats.samples}};
}

/// The registers the driver reported for `kernel`, or 0.
static int64_t registersOf(const BenchResult &result, llvm::StringRef kernel) {
  for (const KernelInfo &info : result.kernels)
    if (info.name == kernel)
      return info.registers;
  return 0;
}

void bench::printReport(llvm::raw_ostream &os, const BenchRun &run,
                        const BenchRequest &request) {
  const BenchResult &result = run.result;
  if (!run.device) {
    os << "@" << run.function << " launches no kernels: nothing to run or "
       << "time on the GPU\n";
  } else {
    const DeviceInfo &device = *run.device;
    os << "@" << run.function << " on " << device.name << " (" << device.arch()
       << ", " << device.smCount << " SMs, driver " << device.driverVersion
       << ", CUDA " << device.cudaVersion << ", NVRTC "
       << (device.nvrtcVersion.empty() ? "-" : device.nvrtcVersion) << ")\n";
    if (result.compileCached)
      os << "compile: cached\n";
    else
      os << llvm::format("compile: %.1f ms\n", result.compileMs);
  }
  if (result.verified) {
    double worst = 0;
    for (const OutputCheck &check : result.checks)
      worst = std::max(worst, check.maxAbsError);
    os << "reference: " << result.checks.size() << " output"
       << (result.checks.size() == 1 ? "" : "s") << " checked against "
       << run.reference << llvm::format(" (max abs error %.3g)", worst) << "\n";
  } else if (result.status == BenchStatus::Ok) {
    os << "reference: " << run.reference << "; the GPU results are not "
       << "checked\n";
  } else {
    os << "reference: " << run.reference << " (not reached)\n";
  }
  if (result.status != BenchStatus::Ok || request.launches.empty())
    return;

  size_t width = llvm::StringRef("sum of kernels").size();
  for (const LaunchSpec &launch : request.launches)
    width = std::max(width, launch.kernel.size());
  double sum = 0;
  for (size_t i = 0; i < request.launches.size(); ++i)
    if (const UnitTiming *t = result.timing(i))
      sum += t->stats.medianUs;
  int w = static_cast<int>(width);
  os << llvm::format("%-3s %-*s %10s %7s %10s %10s %7s  %-14s %-14s %7s %5s\n",
                     "#", w, "kernel", "median_us", "share", "min_us", "max_us",
                     "samples", "grid", "block", "smem", "regs");
  for (auto [i, launch] : llvm::enumerate(request.launches)) {
    const UnitTiming *t = result.timing(i);
    os << llvm::format(
        "%-3zu %-*s %10.2f %6.1f%% %10.2f %10.2f %7lld  %-14s "
        "%-14s %7u %5lld\n",
        i, w, launch.kernel.c_str(), t ? t->stats.medianUs : 0.0,
        t && sum > 0 ? 100 * t->stats.medianUs / sum : 0.0,
        t ? t->stats.minUs : 0.0, t ? t->stats.maxUs : 0.0,
        static_cast<long long>(t ? t->stats.samples : 0),
        dims(launch.grid).c_str(), dims(launch.block).c_str(), launch.smemBytes,
        static_cast<long long>(registersOf(result, launch.kernel)));
  }
  os << llvm::format("%-3s %-*s %10.2f\n", "", w, "sum of kernels", sum);
  if (const UnitTiming *total = result.timing(-1))
    os << llvm::format("%-3s %-*s %10.2f %7s %10.2f %10.2f %7lld\n", "", w,
                       "function", total->stats.medianUs, "",
                       total->stats.minUs, total->stats.maxUs,
                       static_cast<long long>(total->stats.samples));
}

LogicalResult bench::writeResults(StringRef dir, const BenchRun &run,
                                  const BenchRequest &request,
                                  ArrayRef<unsigned> results,
                                  ArrayRef<MemRefType> types,
                                  MLIRContext *context) {
  if (run.result.outputs.size() != request.outputs.size())
    return success(); // The kernels failed before their results existed.
  llvm::sys::fs::create_directories(dir);
  for (auto [i, buffer] : llvm::enumerate(results)) {
    auto found = llvm::find_if(request.outputs,
                               [&, buffer = buffer](const OutputSpec &o) {
                                 return o.buffer == buffer;
                               });
    size_t k = found - request.outputs.begin();
    interp::Buffer out =
        fromBytes(run.result.outputs[k], request.buffers[buffer].dtype,
                  types[i].getShape(), types[i].getElementType());
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "result" + std::to_string(i) + ".npy");
    std::string error;
    if (failed(interp::writeNpy(out, path, error)))
      return emitError(UnknownLoc::get(context), "cannot write ")
             << path << ": " << error;
  }
  return success();
}

LogicalResult bench::writeJson(StringRef path, const BenchRun &run,
                               const BenchRequest &request,
                               MLIRContext *context) {
  const BenchResult &result = run.result;
  llvm::json::Array kernels;
  for (auto [i, launch] : llvm::enumerate(request.launches)) {
    llvm::json::Object entry{{"name", launch.kernel},
                             {"grid", jsonDims(launch.grid)},
                             {"block", jsonDims(launch.block)},
                             {"smem_bytes", launch.smemBytes},
                             {"registers", registersOf(result, launch.kernel)},
                             {"status", benchStatusName(result.status)}};
    if (const UnitTiming *t = result.timing(i)) {
      entry["median_us"] = t->stats.medianUs;
      entry["min_us"] = t->stats.minUs;
      entry["max_us"] = t->stats.maxUs;
      entry["samples"] = t->stats.samples;
    }
    kernels.push_back(std::move(entry));
  }
  llvm::json::Object root{{"function", run.function},
                          {"status", benchStatusName(result.status)},
                          {"detail", result.detail},
                          {"verified", result.verified},
                          {"reference", run.reference},
                          {"kernels", std::move(kernels)},
                          {"precision", run.tf32 ? "tf32" : "ieee"}};
  if (run.device)
    root["device"] = toJSON(*run.device);
  if (const UnitTiming *total = result.timing(-1))
    root["total_us"] = jsonStats(total->stats);
  else if (request.launches.empty())
    root["total_us"] = jsonStats(Stats()); // Nothing runs: it takes no time.
  llvm::Expected<OutputFile> file = OutputFile::open(path);
  if (!file)
    return emitError(UnknownLoc::get(context))
           << llvm::toString(file.takeError());
  file->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)))
             << "\n";
  if (llvm::Error kept = file->keep())
    return emitError(UnknownLoc::get(context))
           << llvm::toString(std::move(kept));
  return success();
}
