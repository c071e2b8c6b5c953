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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

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
  return ReferenceProgram{program->source,
                          {},
                          {program->launches.begin(), program->launches.end()}};
}

namespace {

class CudaBackend : public Backend {
public:
  CudaBackend(std::unique_ptr<BenchClient> client, CudaBackendOptions options,
              StringRef target)
      : client(std::move(client)), options(std::move(options)),
        target(target.str()) {
    llvm::json::Object extra{{"backend", "cuda"}, {"target", target}};
    context = makeDeviceContext(this->client->getDevice(), kCompilerVersion,
                                std::move(extra));
  }

  StringRef getName() const override { return "cuda"; }
  const DeviceContext &getContext() const override { return context; }

  LogicalResult beginKernel(dloop::KernelOp kernel, StringRef loopKey,
                            std::string &error) override {
    KernelReference &ref = references[loopKey];
    if (ref.ready)
      return success();
    ref.ready = true;
    if (countLoopLoads(kernel) > options.cpuReferenceLoads) {
      FailureOr<ReferenceProgram> simplest = lowerSimplest(kernel, target);
      if (failed(simplest)) {
        error = "cannot lower the reference of kernel '" +
                kernel.getSymName().str() + "' (see the diagnostics)";
        return failure();
      }
      ref.gpu = std::move(*simplest);
      return success();
    }
    OwningOpRef<ModuleOp> module = wrapKernel(kernel);
    auto func = cast<func::FuncOp>(module->getBody()->front());
    FailureOr<SmallVector<interp::Buffer>> inputs =
        interp::randomInputs(func, options.seed);
    FailureOr<SmallVector<interp::Buffer>> outputs =
        succeeded(inputs) ? interp::runFunction(func, *inputs)
                          : FailureOr<SmallVector<interp::Buffer>>(failure());
    if (failed(outputs)) {
      error = "cannot compute the CPU reference of kernel '" +
              kernel.getSymName().str() + "' (see the diagnostics)";
      return failure();
    }
    ref.expected = std::move(*outputs);
    return success();
  }

  FailureOr<BackendResult> measure(const Variant &variant,
                                   std::string &error) override {
    FailureOr<KernelProgram> program = buildKernelProgram(variant.kernel);
    if (failed(program))
      return BackendResult::failure(MeasureStatus::CompileFail,
                                    "the runtime cannot run this kernel");
    BenchRequest request = makeBenchRequest(*program, options.seed);
    request.timing = options.timing;
    request.fake = options.fake;
    request.time.eachLaunch = false;

    KernelReference &ref = references[variant.loopKey];
    std::string note;
    if (!ref.expected.empty()) {
      for (auto [output, expected] : llvm::zip(request.outputs, ref.expected))
        output.expected =
            toBytes(expected, request.buffers[output.buffer].dtype);
      note = ", checked against the CPU interpreter";
    } else if (ref.gpu) {
      request.reference = *ref.gpu;
      note = ", checked against the simplest lowering on the GPU";
    }

    llvm::Expected<BenchResult> result = client->measure(request);
    if (!result) {
      error = "the bench worker failed: " + llvm::toString(result.takeError());
      return failure();
    }
    if (result->status != BenchStatus::Ok)
      return BackendResult::failure(toMeasureStatus(result->status),
                                    result->detail);
    const UnitTiming *timing = result->timing(-1);
    if (!timing) {
      error = "the bench worker returned no timing";
      return failure();
    }
    const Stats &stats = timing->stats;
    BackendResult measured;
    measured.measurement.medianUs = stats.medianUs;
    measured.measurement.minUs = stats.minUs;
    measured.measurement.maxUs = stats.maxUs;
    measured.measurement.samples = static_cast<unsigned>(stats.samples);
    measured.meanUs = stats.meanUs;
    measured.varianceUs2 = stats.varianceUs2;
    measured.detail =
        llvm::formatv("{0} samples, spread {1:P1}{2}{3}", stats.samples,
                      stats.spread, stats.graph ? ", CUDA graph" : "", note)
            .str();
    return measured;
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

  std::unique_ptr<BenchClient> client;
  CudaBackendOptions options;
  std::string target;
  DeviceContext context;
  llvm::StringMap<KernelReference> references;
};

} // namespace

FailureOr<std::unique_ptr<Backend>>
deplodock::tuner::createCudaBackend(const CudaBackendOptions &options,
                                    StringRef target, std::string &error) {
  BenchClientOptions clientOptions;
  clientOptions.workerPath = options.workerPath;
  clientOptions.workerArgs = options.workerArgs;
  llvm::Expected<std::unique_ptr<BenchClient>> client =
      BenchClient::create(clientOptions);
  if (!client) {
    error = "cannot run on the GPU: " + llvm::toString(client.takeError());
    return failure();
  }
  // The device must be the target's: its capability, and room for the
  // shared memory the target lets a block use.
  const runtime::DeviceInfo &device = (*client)->getDevice();
  std::string arch = device.arch();
  const GpuTargetSpec *spec = lookupGpuTarget(target);
  if (!spec || device.ccMajor * 10 + device.ccMinor != spec->capability) {
    error = ("the GPU is " + arch + " but the kernels are lowered for " +
             target + " (pass --target=" + arch + ")")
                .str();
    return failure();
  }
  if (device.smemPerBlockOptin < spec->smemPerBlock) {
    error = llvm::formatv("the GPU lets a block use {0} bytes of shared "
                          "memory, less than the {1} target {2} assumes",
                          device.smemPerBlockOptin, spec->smemPerBlock, target)
                .str();
    return failure();
  }
  return std::unique_ptr<Backend>(
      new CudaBackend(std::move(*client), options, target));
}
