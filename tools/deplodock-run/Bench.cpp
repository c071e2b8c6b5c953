//===- Bench.cpp - deplodock-run --bench ----------------------------------===//

#include "Bench.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Interpreter/BufferIO.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "Deplodock/Pipelines/Pipelines.h"
#include "Deplodock/Runtime/BenchClient.h"
#include "Deplodock/Runtime/KernelProgram.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::runtime;
namespace cl = llvm::cl;

llvm::cl::OptionCategory &deplodock::getBenchCategory() {
  static cl::OptionCategory category("deplodock-run --bench options");
  return category;
}

static cl::opt<std::string>
    knobs("knobs",
          cl::desc("--bench: fork choices for the Tile rules, as "
                   "deplodock-pipeline's knobs= (default: option 0)"),
          cl::cat(getBenchCategory()));
static cl::opt<std::string>
    benchJson("bench-json",
              cl::desc("--bench: write the device, the timings and the "
                       "status as JSON to FILE"),
              cl::value_desc("FILE"), cl::cat(getBenchCategory()));
static cl::opt<uint64_t> cpuReferenceLimit(
    "cpu-reference-limit",
    cl::desc("--bench: check the GPU results against the CPU interpreter "
             "when it materialises at most this many elements, else against "
             "the layer's simplest lowering on the GPU (0: always the GPU)"),
    cl::init(uint64_t(1) << 23), cl::cat(getBenchCategory()));
static cl::opt<bool>
    fakeDevice("fake-device",
               cl::desc("--bench: run on the bench worker's fake device (no "
                        "GPU; for tests)"),
               cl::cat(getBenchCategory()));
static cl::opt<std::string>
    workerPath("worker",
               cl::desc("--bench: the bench worker to start (default: "
                        "deplodock-bench-worker beside this tool)"),
               cl::cat(getBenchCategory()));
static cl::list<std::string>
    workerArgs("worker-arg",
               cl::desc("--bench: pass this argument to the bench worker "
                        "(repeatable)"),
               cl::cat(getBenchCategory()));
static cl::opt<std::string>
    fakeFault("fake-fault",
              cl::desc("--bench: ask the fake device for this fault (tests)"),
              cl::Hidden, cl::cat(getBenchCategory()));
static cl::opt<int> deviceOrdinal("device", cl::desc("--bench: the GPU to use"),
                                  cl::init(0), cl::cat(getBenchCategory()));
static cl::opt<std::string>
    kernelCache("kernel-cache",
                cl::desc("--bench: keep compiled kernels in this directory"),
                cl::cat(getBenchCategory()));
static cl::opt<double> warmupMs("warmup-ms",
                                cl::desc("--bench: warm-up time per unit"),
                                cl::init(25), cl::cat(getBenchCategory()));
static cl::opt<double>
    maxTimeMs("max-time-ms",
              cl::desc("--bench: the most time spent sampling one unit"),
              cl::init(1000), cl::cat(getBenchCategory()));
static cl::opt<unsigned>
    minSamples("min-samples",
               cl::desc("--bench: samples to take at least (budget "
                        "permitting)"),
               cl::init(10), cl::cat(getBenchCategory()));
static cl::opt<bool>
    flushL2("flush-l2",
            cl::desc("--bench: flush the L2 cache before every sample"),
            cl::init(true), cl::cat(getBenchCategory()));
static cl::opt<double>
    kernelTimeoutS("kernel-timeout",
                   cl::desc("--bench: seconds before a kernel counts as hung"),
                   cl::init(10), cl::cat(getBenchCategory()));
static cl::opt<double> benchTimeoutS(
    "bench-timeout",
    cl::desc("--bench: seconds the worker may take for the whole request "
             "before it is killed (0: a bound from the timing budget)"),
    cl::init(0), cl::cat(getBenchCategory()));

/// The function called `name` (or the first with a body) of `module`.
static func::FuncOp findFunction(ModuleOp module, StringRef name) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && (name.empty() || func.getSymName() == name))
      return func;
  return {};
}

/// Lowers `module` to Kernel IR with the --target, --knobs and --tune-db
/// choices.
static LogicalResult lowerToKernel(ModuleOp module, StringRef target,
                                   StringRef tuneDb, StringRef knobs,
                                   bool simplest = false) {
  TilePipelineOptions options;
  // A missing or unreadable database is the pipeline's located error.
  options.tuneDb = tuneDb.str();
  options.tuneReport = !tuneDb.empty();
  options.target = target.str();
  options.knobs = knobs.str();
  options.simplest = simplest;
  PassManager pm(module.getContext());
  buildLowerToKernelPipeline(pm, options);
  return pm.run(module);
}

/// The reference of `program` (function `name` of `module` lowered for
/// `target`) on the GPU: the same function in its simplest lowering
/// (the simplest option at every fork), run on the same buffers. Fails, saying
/// why in `why`, when that lowering does not give the same buffers.
static FailureOr<ReferenceProgram>
buildGpuReference(ModuleOp module, StringRef name, StringRef target,
                  const KernelProgram &program, std::string &why) {
  OwningOpRef<ModuleOp> simplest = module.clone();
  func::FuncOp host;
  FailureOr<KernelProgram> reference = failure();
  if (succeeded(lowerToKernel(*simplest, target, "", "", /*simplest=*/true)) &&
      (host = findFunction(*simplest, name)))
    reference = buildKernelProgram(host);
  if (failed(reference)) {
    why = "the simplest lowering failed";
    return failure();
  }
  bool same = reference->buffers.size() == program.buffers.size();
  for (size_t i = 0; same && i < program.buffers.size(); ++i)
    same = reference->buffers[i].dtype == program.buffers[i].dtype &&
           reference->buffers[i].shape == program.buffers[i].shape;
  if (!same) {
    why = "the simplest lowering allocates other buffers";
    return failure();
  }
  return ReferenceProgram{
      reference->source,
      {},
      {reference->launches.begin(), reference->launches.end()}};
}

/// How many elements the reference interpreter materialises running `func`:
/// every shaped value it produces, arguments included.
static uint64_t interpreterElements(func::FuncOp func) {
  uint64_t total = 0;
  auto count = [&](Type type) {
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && shaped.hasStaticShape())
      total += shaped.getNumElements();
  };
  for (Type type : func.getArgumentTypes())
    count(type);
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      count(type);
  });
  return total;
}

/// "[32, 1, 1]".
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

/// Checks the numeric --bench options, naming the flag (the worker's
/// message would name the request's field instead).
static LogicalResult checkOptions() {
  auto bad = [](StringRef flag, StringRef what) {
    llvm::errs() << "error: --" << flag << " must be " << what << "\n";
    return failure();
  };
  if (!(kernelTimeoutS > 0) || std::isinf(kernelTimeoutS))
    return bad("kernel-timeout", "a positive number of seconds");
  if (!(benchTimeoutS >= 0) || std::isinf(benchTimeoutS))
    return bad("bench-timeout", "a number of seconds, or 0");
  if (!(warmupMs >= 0) || std::isinf(warmupMs))
    return bad("warmup-ms", "a number of milliseconds");
  if (!(maxTimeMs >= 0) || std::isinf(maxTimeMs))
    return bad("max-time-ms", "a number of milliseconds");
  if (minSamples < 1)
    return bad("min-samples", "at least 1");
  return success();
}

int deplodock::runBenchMode(MLIRContext &context, const BenchConfig &config) {
  if (failed(checkOptions()))
    return 1;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // The location says where; the op's generic form would bury it.
  context.printOpOnDiagnostic(false);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(config.inputFile, sourceMgr, &context);
  if (!module)
    return 1;
  if (!config.pipeline.empty() &&
      failed(applyPipeline(*module, config.pipeline)))
    return 1;
  func::FuncOp input = findFunction(*module, config.funcName);
  if (!input) {
    llvm::errs() << "error: no function "
                 << (config.funcName.empty() ? "with a body"
                                             : "@" + config.funcName)
                 << " in " << config.inputFile << "\n";
    return 1;
  }
  std::string name = input.getSymName().str();
  // Only this function is run: the module's other cases need not lower.
  for (auto func : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (func != input && !func.isExternal() &&
        SymbolTable::symbolKnownUseEmpty(func, *module))
      func.erase();

  // The kernels: the input itself when it is Kernel IR already.
  bool kernelIR = !module->getOps<dkernel::FuncOp>().empty();
  OwningOpRef<ModuleOp> lowered = module->clone();
  if (!kernelIR &&
      failed(lowerToKernel(*lowered, config.target, config.tuneDb, knobs)))
    return 1;
  func::FuncOp host = findFunction(*lowered, name);
  if (!host) {
    llvm::errs() << "error: the lowered module lost @" << name << "\n";
    return 1;
  }
  FailureOr<KernelProgram> program = buildKernelProgram(host);
  if (failed(program))
    return 1;
  BenchRequest request = makeBenchRequest(*program, config.seed);
  request.timing.warmupMs = warmupMs;
  request.timing.maxTimeMs = maxTimeMs;
  request.timing.minSamples = minSamples;
  request.timing.flushL2 = flushL2;
  request.kernelTimeoutS = kernelTimeoutS;
  request.timeoutS = benchTimeoutS;
  request.returnOutputs = !config.outputDir.empty();
  if (!fakeFault.empty())
    request.fake["fault"] = fakeFault.getValue();

  // Inputs: seeded (the worker draws the same values as the interpreter),
  // or read from .npy files.
  SmallVector<interp::Buffer> args;
  if (config.inputs.empty()) {
    FailureOr<SmallVector<interp::Buffer>> random =
        interp::randomInputs(host, config.seed);
    if (failed(random))
      return 1;
    args = std::move(*random);
  } else {
    if (config.inputs.size() != program->numArguments) {
      llvm::errs() << "error: @" << name << " takes " << program->numArguments
                   << " arguments, got " << config.inputs.size()
                   << " --input files\n";
      return 1;
    }
    for (auto [i, path] : llvm::enumerate(config.inputs)) {
      std::string error;
      FailureOr<interp::Buffer> buffer = interp::readNpy(path, &context, error);
      if (failed(buffer)) {
        llvm::errs() << "error: cannot read " << path << ": " << error << "\n";
        return 1;
      }
      auto type = cast<MemRefType>(host.getArgumentTypes()[i]);
      if (type.getElementType().isIndex() && buffer->elementType.isInteger(64))
        buffer->elementType = type.getElementType();
      if (buffer->shape != type.getShape() ||
          buffer->elementType != type.getElementType()) {
        llvm::errs() << "error: " << path << " holds "
                     << RankedTensorType::get(buffer->shape,
                                              buffer->elementType)
                     << " but argument #" << i << " of @" << name << " is "
                     << type << "\n";
        return 1;
      }
      BufferSpec &spec = request.buffers[i];
      spec.init = InitKind::Data;
      spec.data = toBytes(*buffer, spec.dtype);
      args.push_back(std::move(*buffer));
    }
  }

  // The reference: the CPU interpreter on the layer at the Tensor level (or
  // on the Kernel IR itself), when that is cheap enough.
  std::string referenceNote;
  {
    OwningOpRef<ModuleOp> reference = module->clone();
    bool ready =
        kernelIR || succeeded(applyPipeline(*reference, "lower-to-tensor"));
    func::FuncOp func = ready ? findFunction(*reference, name) : nullptr;
    uint64_t elements = func ? interpreterElements(func) : 0;
    std::string why;
    if (!func)
      why = "the layer does not lower to the Tensor level";
    else if (elements > cpuReferenceLimit)
      why = llvm::formatv("the CPU interpreter would hold {0} elements, more "
                          "than --cpu-reference-limit={1}",
                          elements, cpuReferenceLimit.getValue())
                .str();
    if (!why.empty()) {
      // Too big for the CPU: the simplest lowering on the GPU instead.
      std::string gpuWhy = "the input is Kernel IR already";
      FailureOr<ReferenceProgram> gpu =
          kernelIR ? FailureOr<ReferenceProgram>(failure())
                   : buildGpuReference(*module, name, config.target, *program,
                                       gpuWhy);
      if (succeeded(gpu)) {
        request.reference = std::move(*gpu);
        referenceNote = "the simplest lowering on the GPU, since " + why;
      } else {
        referenceNote = "skipped: " + why + "; " + gpuWhy;
      }
    } else {
      FailureOr<SmallVector<interp::Buffer>> results =
          interp::runFunction(func, args);
      if (failed(results))
        return 1;
      for (auto [i, result] : llvm::enumerate(*results)) {
        unsigned buffer = program->results[i];
        for (OutputSpec &output : request.outputs)
          if (output.buffer == buffer)
            output.expected = toBytes(result, request.buffers[buffer].dtype);
      }
      referenceNote = "the CPU interpreter";
    }
  }

  BenchClientOptions options;
  if (!workerPath.empty()) {
    options.workerPath = workerPath;
  } else {
    llvm::Expected<std::string> found = findBenchWorker(config.argv0);
    if (!found) {
      llvm::errs() << "error: " << llvm::toString(found.takeError()) << "\n";
      return 1;
    }
    options.workerPath = *found;
  }
  if (fakeDevice)
    options.workerArgs.push_back("--fake-device");
  options.workerArgs.push_back("--device=" + std::to_string(deviceOrdinal));
  if (!kernelCache.empty())
    options.workerArgs.push_back("--cache-dir=" + kernelCache);
  options.workerArgs.insert(options.workerArgs.end(), workerArgs.begin(),
                            workerArgs.end());
  llvm::Expected<std::unique_ptr<BenchClient>> client =
      BenchClient::create(options);
  if (!client) {
    llvm::errs() << "error: cannot run on the GPU: "
                 << llvm::toString(client.takeError()) << "\n";
    return 1;
  }
  const DeviceInfo &device = (*client)->getDevice();
  llvm::Expected<BenchResult> measured = (*client)->measure(request);
  if (!measured) {
    llvm::errs() << "error: " << llvm::toString(measured.takeError()) << "\n";
    return 1;
  }
  BenchResult &result = *measured;

  llvm::raw_ostream &os = llvm::outs();
  os << "@" << name << " on " << device.name << " (" << device.arch() << ", "
     << device.smCount << " SMs, driver " << device.driverVersion << ", CUDA "
     << device.cudaVersion << ", NVRTC "
     << (device.nvrtcVersion.empty() ? "-" : device.nvrtcVersion) << ")\n";
  if (result.compileCached)
    os << "compile: cached\n";
  else
    os << llvm::format("compile: %.1f ms\n", result.compileMs);
  if (result.verified) {
    double worst = 0;
    for (const OutputCheck &check : result.checks)
      worst = std::max(worst, check.maxAbsError);
    os << "reference: " << result.checks.size() << " output"
       << (result.checks.size() == 1 ? "" : "s") << " checked against "
       << referenceNote << llvm::format(" (max abs error %.3g)", worst) << "\n";
  } else if (result.status == BenchStatus::Ok) {
    os << "reference: " << referenceNote << "; the GPU results are not "
       << "checked\n";
  } else {
    os << "reference: " << referenceNote << " (not reached)\n";
  }
  if (result.status != BenchStatus::Ok) {
    // After the report, in order when both streams go to one place.
    os.flush();
    llvm::errs() << "error: the kernels failed ("
                 << benchStatusName(result.status) << "): " << result.detail
                 << "\n";
  } else {
    size_t width = llvm::StringRef("sum of kernels").size();
    for (const LaunchSpec &launch : request.launches)
      width = std::max(width, launch.kernel.size());
    const UnitTiming *total = result.timing(-1);
    double sum = 0;
    for (size_t i = 0; i < request.launches.size(); ++i)
      if (const UnitTiming *t = result.timing(i))
        sum += t->stats.medianUs;
    os << llvm::format(
        "%-3s %-*s %10s %7s %10s %10s %7s  %-14s %-14s %7s %5s\n", "#",
        static_cast<int>(width), "kernel", "median_us", "share", "min_us",
        "max_us", "samples", "grid", "block", "smem", "regs");
    for (auto [i, launch] : llvm::enumerate(request.launches)) {
      const UnitTiming *t = result.timing(i);
      int64_t registers = 0;
      for (const KernelInfo &kernel : result.kernels)
        if (kernel.name == launch.kernel)
          registers = kernel.registers;
      os << llvm::format("%-3zu %-*s %10.2f %6.1f%% %10.2f %10.2f %7lld  %-14s "
                         "%-14s %7u %5lld\n",
                         i, static_cast<int>(width), launch.kernel.c_str(),
                         t ? t->stats.medianUs : 0.0,
                         t && sum > 0 ? 100 * t->stats.medianUs / sum : 0.0,
                         t ? t->stats.minUs : 0.0, t ? t->stats.maxUs : 0.0,
                         static_cast<long long>(t ? t->stats.samples : 0),
                         dims(launch.grid).c_str(), dims(launch.block).c_str(),
                         launch.smemBytes, static_cast<long long>(registers));
    }
    os << llvm::format("%-3s %-*s %10.2f\n", "", static_cast<int>(width),
                       "sum of kernels", sum);
    if (total)
      os << llvm::format("%-3s %-*s %10.2f %7s %10.2f %10.2f %7lld\n", "",
                         static_cast<int>(width), "function",
                         total->stats.medianUs, "", total->stats.minUs,
                         total->stats.maxUs,
                         static_cast<long long>(total->stats.samples));
  }

  if (!config.outputDir.empty() && !result.outputs.empty()) {
    llvm::sys::fs::create_directories(config.outputDir);
    for (auto [i, resultBuffer] : llvm::enumerate(program->results)) {
      unsigned buffer = resultBuffer;
      auto found = llvm::find_if(request.outputs, [&](const OutputSpec &o) {
        return o.buffer == buffer;
      });
      size_t k = found - request.outputs.begin();
      auto type = cast<MemRefType>(host.getResultTypes()[i]);
      interp::Buffer out =
          fromBytes(result.outputs[k], request.buffers[buffer].dtype,
                    type.getShape(), type.getElementType());
      llvm::SmallString<128> path(config.outputDir);
      llvm::sys::path::append(path, "result" + std::to_string(i) + ".npy");
      std::string error;
      if (failed(interp::writeNpy(out, path, error))) {
        llvm::errs() << "error: cannot write " << path << ": " << error << "\n";
        return 1;
      }
    }
  }

  if (!benchJson.empty()) {
    llvm::json::Array kernels;
    for (auto [i, launch] : llvm::enumerate(request.launches)) {
      const UnitTiming *t = result.timing(i);
      int64_t registers = 0;
      for (const KernelInfo &kernel : result.kernels)
        if (kernel.name == launch.kernel)
          registers = kernel.registers;
      llvm::json::Object entry{{"name", launch.kernel},
                               {"grid", jsonDims(launch.grid)},
                               {"block", jsonDims(launch.block)},
                               {"smem_bytes", launch.smemBytes},
                               {"registers", registers},
                               {"status", benchStatusName(result.status)}};
      if (t) {
        entry["median_us"] = t->stats.medianUs;
        entry["min_us"] = t->stats.minUs;
        entry["max_us"] = t->stats.maxUs;
        entry["samples"] = t->stats.samples;
      }
      kernels.push_back(std::move(entry));
    }
    llvm::json::Object root{{"function", name},
                            {"device", toJSON(device)},
                            {"status", benchStatusName(result.status)},
                            {"detail", result.detail},
                            {"verified", result.verified},
                            {"reference", referenceNote},
                            {"kernels", std::move(kernels)}};
    if (const UnitTiming *total = result.timing(-1))
      root["total_us"] = jsonStats(total->stats);
    std::string error;
    auto file = openOutputFile(benchJson, &error);
    if (!file) {
      llvm::errs() << "error: cannot write " << benchJson << ": " << error
                   << "\n";
      return 1;
    }
    file->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)))
               << "\n";
    file->keep();
  }
  return result.status == BenchStatus::Ok ? 0 : 1;
}
