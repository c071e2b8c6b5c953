//===- CudaBackend.cpp - Measured latencies from the bench worker ---------===//
//
// Each variant's CUDA runs in deplodock-bench-worker (lib/Runtime): compiled
// with NVRTC, launched with its Kernel IR geometry on seeded inputs, checked
// against the kernel's reference, then timed. The reference is the Loop IR
// kernel on the CPU interpreter when that is cheap, else the kernel's
// simplest lowering (the `simplest` option of the Tile pipelines) run on the
// same GPU and the same inputs.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/CudaBackend.h"

#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "Deplodock/Pipelines/LoweringPipelines.h"
#include "Deplodock/Runtime/BenchClient.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Tuner/DeviceContext.h"
#include "Deplodock/Tuner/Replay.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>
#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::runtime;

/// The version recorded in the context: kernels from another emitter are
/// other measurements.
static constexpr llvm::StringLiteral kCompilerVersion =
    "deplodock emit-cuda v1";

/// The loads the Loop IR `kernel` executes (saturating): what the CPU
/// interpreter's work is proportional to.
static int64_t countLoopLoads(dloop::KernelOp kernel) {
  uint64_t total = 0;
  kernel.walk([&](dloop::LoadOp load) {
    uint64_t n = 1;
    for (Operation *op = load->getParentOp(); op && op != kernel;
         op = op->getParentOp())
      if (auto loop = dyn_cast<dloop::ForOp>(op))
        n = llvm::SaturatingMultiply(n,
                                     static_cast<uint64_t>(loop.getExtent()));
    total = llvm::SaturatingAdd(total, n);
  });
  return static_cast<int64_t>(
      std::min<uint64_t>(total, std::numeric_limits<int64_t>::max()));
}

/// `kernel` alone in a function of its buffers (inputs, then outputs, the
/// order of the dkernel.func parameters) returning its outputs.
static OwningOpRef<ModuleOp> wrapKernel(dloop::KernelOp kernel) {
  Location loc = kernel.getLoc();
  OpBuilder b(kernel.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func =
      func::FuncOp::create(b, loc, "reference",
                           b.getFunctionType(kernel->getOperandTypes(),
                                             kernel.getOutputs().getTypes()));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(kernel->getOperands(), entry->getArguments());
  b.clone(*kernel, mapping);
  func::ReturnOp::create(
      b, loc, entry->getArguments().take_back(kernel.getOutputs().size()));
  return module;
}

/// `kernel`'s simplest lowering for `target`, as a program on the same
/// buffers as its variants.
static FailureOr<ReferenceProgram> lowerSimplest(dloop::KernelOp kernel,
                                                 StringRef target) {
  OwningOpRef<ModuleOp> module = wrapKernel(kernel);
  // From Loop IR: the Tile rules, then what lower-to-kernel adds.
  dtile::DTileLowerOptions options;
  options.target = target.str();
  options.simplest = true;
  PassManager pm(kernel.getContext());
  pm.addPass(dtile::createDTileLower(options));
  buildTileToKernelPasses(pm, target);
  if (failed(pm.run(*module)))
    return failure();
  auto funcs = module->getOps<dkernel::FuncOp>();
  if (!llvm::hasSingleElement(funcs))
    return failure();
  FailureOr<KernelProgram> program = buildKernelProgram(*funcs.begin());
  if (failed(program))
    return failure();
  return makeReferenceProgram(*program);
}

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

class CudaBackend : public Backend {
public:
  CudaBackend(std::vector<std::unique_ptr<BenchClient>> clients,
              DeviceContext context, CudaBackendOptions options,
              StringRef target, bool tf32)
      : clients(std::move(clients)), options(std::move(options)),
        target(target.str()), context(std::move(context)), tf32(tf32) {}

  StringRef getName() const override { return "cuda"; }
  bool measuresOnDevice() const override { return true; }
  const DeviceContext &getContext() const override { return context; }
  unsigned getParallelism() const override { return clients.size(); }

  llvm::Error beginKernel(dloop::KernelOp kernel, StringRef loopKey) override {
    KernelReference &ref = references[loopKey];
    if (ref.ready)
      return llvm::Error::success();
    ref.ready = true;
    if (countLoopLoads(kernel) > options.cpuReferenceLoads) {
      FailureOr<ReferenceProgram> simplest = lowerSimplest(kernel, target);
      if (failed(simplest))
        return makeError("cannot lower the reference of kernel '" +
                         kernel.getSymName() + "' (see the diagnostics)");
      ref.gpu = std::move(*simplest);
      return llvm::Error::success();
    }
    OwningOpRef<ModuleOp> module = wrapKernel(kernel);
    auto func = cast<func::FuncOp>(module->getBody()->front());
    FailureOr<SmallVector<interp::Buffer>> inputs =
        interp::randomInputs(func, options.seed);
    FailureOr<SmallVector<interp::Buffer>> outputs =
        succeeded(inputs) ? interp::runFunction(func, *inputs)
                          : FailureOr<SmallVector<interp::Buffer>>(failure());
    if (failed(outputs))
      return makeError("cannot compute the CPU reference of kernel '" +
                       kernel.getSymName() + "' (see the diagnostics)");
    ref.expected = std::move(*outputs);
    return llvm::Error::success();
  }

  llvm::Expected<BackendResult> measure(const Variant &variant) override {
    llvm::Expected<std::vector<BackendResult>> results =
        measureBatch({&variant});
    if (!results)
      return results.takeError();
    return std::move(results->front());
  }

  llvm::Expected<std::vector<BackendResult>>
  measureBatch(llvm::ArrayRef<const Variant *> variants) override {
    // Requests are built here (they read the IR); the workers run them, one
    // per GPU at a time, in parallel.
    std::vector<std::optional<BenchRequest>> requests;
    std::vector<std::string> notes;
    std::vector<BackendResult> results(variants.size());
    for (auto [i, variant] : llvm::enumerate(variants)) {
      // Every launch of the variant, with its workspaces, is one request:
      // verified on the final outputs, timed as one sequence.
      notes.emplace_back(
          variant->hasSeveralKernels()
              ? llvm::formatv(", {0} kernels", variant->program.launches.size())
                    .str()
              : std::string());
      BenchRequest &request =
          requests
              .emplace_back(makeBenchRequest(variant->program, options.seed))
              .value();
      request.timing = options.timing;
      request.fake = options.fake;
      request.time.eachLaunch = false;
      // The reference stays IEEE f32: TF32 variants get TF32's tolerance.
      if (tf32)
        for (OutputSpec &output : request.outputs)
          if (request.buffers[output.buffer].dtype == DType::F32)
            output.tolerance = tf32Tolerance();
      KernelReference &ref = references[variant->loopKey];
      if (!ref.expected.empty()) {
        for (auto [output, expected] : llvm::zip(request.outputs, ref.expected))
          output.expected =
              toBytes(expected, request.buffers[output.buffer].dtype);
        notes.back() += ", checked against the CPU interpreter";
      } else if (ref.gpu) {
        request.reference = *ref.gpu;
        notes.back() += ", checked against the simplest lowering on the GPU";
      }
    }

    std::vector<std::optional<llvm::Expected<BenchResult>>> answers(
        variants.size());
    // Which GPU ran each request, for the detail when there are several.
    std::vector<unsigned> ranOn(variants.size(), 0);
    // Each request's wall time in its worker: where a tune's time goes.
    std::vector<double> workerSeconds(variants.size(), 0);
    size_t next = 0;
    while (next < variants.size()) {
      // One round: the next request for each worker.
      std::vector<std::pair<size_t, BenchClient *>> round;
      for (size_t w = 0; w < clients.size() && next < variants.size(); ++next)
        if (requests[next]) {
          ranOn[next] = options.devices[w];
          round.push_back({next, clients[w++].get()});
        }
      auto run = [&](size_t i, BenchClient *client) {
        auto begin = std::chrono::steady_clock::now();
        answers[i].emplace(client->measure(*requests[i]));
        workerSeconds[i] = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - begin)
                               .count();
      };
      if (round.size() == 1) {
        run(round.front().first, round.front().second);
      } else if (!round.empty()) {
        llvm::DefaultThreadPool pool(llvm::hardware_concurrency(round.size()));
        for (auto [i, client] : round)
          pool.async(run, i, client);
        pool.wait();
      }
    }

    llvm::Error first = llvm::Error::success();
    for (auto [i, answer] : llvm::enumerate(answers)) {
      if (!answer)
        continue; // The runtime could not build it: already a failure.
      llvm::Expected<BenchResult> &result = *answer;
      if (!result) {
        llvm::Error error = makeError("the bench worker failed: " +
                                      llvm::toString(result.takeError()));
        first = llvm::joinErrors(std::move(first), std::move(error));
        continue;
      }
      std::string gpu = clients.size() > 1
                            ? ", GPU #" + std::to_string(ranOn[i])
                            : std::string();
      if (result->status != BenchStatus::Ok) {
        results[i] = BackendResult::failure(toMeasureStatus(result->status),
                                            result->detail + gpu);
        continue;
      }
      const UnitTiming *timing = result->timing(-1);
      if (!timing) {
        first = llvm::joinErrors(
            std::move(first), makeError("the bench worker returned no timing"));
        continue;
      }
      const Stats &stats = timing->stats;
      BackendResult &measured = results[i];
      measured.measurement.medianUs = stats.medianUs;
      measured.measurement.minUs = stats.minUs;
      measured.measurement.maxUs = stats.maxUs;
      measured.measurement.samples = static_cast<unsigned>(stats.samples);
      measured.meanUs = stats.meanUs;
      measured.varianceUs2 = stats.varianceUs2;
      std::string compile =
          result->compileCached
              ? std::string("compiled before")
              : llvm::formatv("compiled in {0:F0} ms", result->compileMs).str();
      measured.detail =
          llvm::formatv("{0} samples, spread {1:P1}{2}{3}{4}; {5:F2} s in the "
                        "worker ({6})",
                        stats.samples, stats.spread,
                        stats.graph ? ", CUDA graph" : "", notes[i], gpu,
                        workerSeconds[i], compile)
              .str();
    }
    if (first)
      return std::move(first);
    return results;
  }

private:
  static MeasureStatus toMeasureStatus(BenchStatus status) {
    switch (status) {
    case BenchStatus::Ok:
      return MeasureStatus::Ok;
    case BenchStatus::CompileFail:
      return MeasureStatus::CompileFail;
    case BenchStatus::LaunchFail:
      return MeasureStatus::LaunchFail;
    case BenchStatus::Timeout:
      return MeasureStatus::Timeout;
    case BenchStatus::WrongResult:
      return MeasureStatus::WrongResult;
    }
    return MeasureStatus::LaunchFail;
  }

  /// What the variants of one Loop IR kernel are checked against.
  struct KernelReference {
    bool ready = false;
    /// The CPU interpreter's outputs, in order...
    SmallVector<interp::Buffer> expected;
    /// ...or the simplest lowering, run on the GPU.
    std::optional<ReferenceProgram> gpu;
  };

  std::vector<std::unique_ptr<BenchClient>> clients;
  CudaBackendOptions options;
  std::string target;
  DeviceContext context;
  bool tf32;
  llvm::StringMap<KernelReference> references;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>>
deplodock::tuner::createCudaBackend(const CudaBackendOptions &options,
                                    StringRef target, bool tf32) {
  if (options.devices.empty())
    return makeError("the cuda backend needs at least one device");
  std::vector<std::unique_ptr<BenchClient>> clients;
  std::optional<DeviceContext> context;
  for (unsigned device : options.devices) {
    BenchClientOptions clientOptions;
    clientOptions.workerPath = options.workerPath;
    clientOptions.workerArgs = options.workerArgs;
    clientOptions.workerArgs.push_back("--device=" + std::to_string(device));
    llvm::Expected<std::unique_ptr<BenchClient>> client =
        BenchClient::create(clientOptions);
    if (!client)
      return makeError("cannot run on the GPU" +
                       (options.devices.size() > 1 ? " #" + llvm::Twine(device)
                                                   : llvm::Twine()) +
                       ": " + llvm::toString(client.takeError()));
    // The device must be the target's: its capability, and room for the
    // shared memory the target lets a block use.
    const runtime::DeviceInfo &info = (*client)->getDevice();
    std::string arch = info.arch();
    const GpuTargetSpec *spec = lookupGpuTarget(target);
    if (!spec || info.ccMajor * 10 + info.ccMinor != spec->capability)
      return makeError("the GPU is " + arch +
                       " but the kernels are lowered for " + target +
                       " (pass --target=" + arch + ")");
    if (info.smemPerBlockOptin < spec->smemPerBlock)
      return makeError(llvm::formatv("the GPU lets a block use {0} bytes of "
                                     "shared memory, less than the {1} target "
                                     "{2} assumes",
                                     info.smemPerBlockOptin, spec->smemPerBlock,
                                     target)
                           .str());
    llvm::json::Object extra{{"backend", "cuda"}, {"target", target}};
    if (tf32)
      markTf32(extra);
    DeviceContext mine = makeDeviceContext((*client)->getDevice(),
                                           kCompilerVersion, std::move(extra));
    if (context && context->key != mine.key)
      return makeError("GPU #" + llvm::Twine(device) + " (" + mine.gpuName +
                       ") differs from GPU #" +
                       llvm::Twine(options.devices.front()) + " (" +
                       context->gpuName +
                       "): tune on alike GPUs only, their measurements share "
                       "one context");
    if (!context)
      context = std::move(mine);
    clients.push_back(std::move(*client));
  }
  return std::unique_ptr<Backend>(new CudaBackend(
      std::move(clients), std::move(*context), options, target, tf32));
}
