//===- Variant.cpp - A finished kernel variant at every level -------------===//

#include "Deplodock/Tuner/Variant.h"

#include "Deplodock/Pipelines/LoweringPipelines.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include <chrono>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

/// The wrapper function's name while lowering: it must not take the kernel's
/// name, which the Kernel IR function keeps.
static constexpr StringLiteral kHostName = "__deplodock_tune_host";

/// The parameters of `launch` of `kernel` as `cuda_op` rows list them; for
/// several launches each names the buffer it passes and whether that is a
/// workspace (a buffer past the arguments).
static llvm::json::Array describeParams(dkernel::FuncOp kernel,
                                        const runtime::LaunchSpec &launch,
                                        const runtime::KernelProgram &program,
                                        bool withBuffers) {
  llvm::json::Array params;
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    llvm::json::Object param{{"param", int64_t(i)},
                             {"type", text},
                             {"output", kernel.isOutput(i)},
                             {"zero_init", kernel.isZeroInit(i)}};
    if (withBuffers && i < launch.params.size()) {
      unsigned buffer = launch.params[i].getBuffer();
      param["buffer"] = int64_t(buffer);
      param["workspace"] = buffer >= program.numArguments;
    }
    params.push_back(std::move(param));
  }
  return params;
}

CudaOpRow Variant::getCudaOpRow() const {
  CudaOpRow row;
  row.key = cudaKey;
  row.pretty = knobsText;
  row.source = cuda;
  row.kernelName = name;
  const runtime::LaunchSpec &first = program.launches.front();
  for (size_t i = 0; i < 3; ++i) {
    row.grid[i] = first.grid[i];
    row.block[i] = first.block[i];
  }
  row.smemBytes = first.smemBytes;
  if (!hasSeveralKernels()) {
    row.argOrder = describeParams(getMainKernel(), first, program, false);
    return row;
  }
  for (auto [kernel, launch] : llvm::zip(kernels, program.launches))
    row.argOrder.push_back(llvm::json::Object{
        {"kernel", launch.kernel},
        {"grid", llvm::json::Array(launch.grid)},
        {"block", llvm::json::Array(launch.block)},
        {"smem", int64_t(launch.smemBytes)},
        {"params", describeParams(kernel, launch, program, true)}});
  return row;
}

/// What lower-to-kernel runs after the Tile rules.
static void addKernelPasses(PassManager &pm, const dtile::Target &target) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  buildTileToKernelPasses(pm, target.getName());
}

/// Where the error diagnostics of the lowering running on this thread go:
/// the context's handlers are shared by every thread, so each handler
/// forwards to the emitting thread's sink, not to its own caller.
static thread_local std::string *diagnosticSink = nullptr;

Variant tuner::beginVariant(const dtile::ForkCursor &terminal,
                            StringRef loopKey) {
  dtile::KernelOp tile = terminal.getKernel();
  Variant variant;
  variant.loopKey = loopKey.str();
  variant.name = tile.getSymName().str();
  variant.knobs = tile.getKnobs();
  variant.knobsText = dtile::formatKnobsOption("", variant.knobs);
  variant.tileKey = forkPointKey(loopKey, variant.knobs);
  llvm::raw_string_ostream(variant.tileText) << tile;
  variant.kernelModule =
      cast<ModuleOp>(tile->getParentOfType<ModuleOp>()->clone());
  return variant;
}

llvm::Error tuner::finishVariant(Variant &variant,
                                 const dtile::Target &target) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  auto start = std::chrono::steady_clock::now();
  MLIRContext *context = variant.kernelModule->getContext();

  // The diagnostics of a failing lowering become the message. A diagnostic
  // of a thread that lowers nothing goes on to the next handler.
  std::string diagnostics;
  diagnosticSink = &diagnostics;
  llvm::scope_exit clearSink([] { diagnosticSink = nullptr; });
  ScopedDiagnosticHandler handler(context, [](Diagnostic &diag) {
    if (!diagnosticSink)
      return failure();
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      *diagnosticSink += (diagnosticSink->empty() ? "" : "; ") + diag.str();
    return success();
  });
  for (auto func : variant.kernelModule->getOps<func::FuncOp>())
    func.setSymName(kHostName);
  PassManager pm(context);
  addKernelPasses(pm, target);
  if (failed(pm.run(*variant.kernelModule)))
    return fail("cannot lower to Kernel IR: " + diagnostics);
  auto host = variant.kernelModule->lookupSymbol<func::FuncOp>(kHostName);
  if (!host)
    return fail("the Kernel IR has no host function");
  // The host function allocates the workspaces and launches the kernels in
  // order; the runtime runs it as it is.
  FailureOr<runtime::KernelProgram> program = runtime::buildKernelProgram(host);
  if (failed(program))
    return fail("the runtime cannot run the variant: " + diagnostics);
  if (program->launches.empty())
    return fail("the Kernel IR has no dkernel.func");
  // The host returns nothing: its results are the arguments it writes.
  llvm::SmallSetVector<unsigned, 4> written;
  for (const runtime::LaunchSpec &launch : program->launches)
    for (unsigned buffer : launch.writes)
      if (buffer < program->numArguments)
        written.insert(buffer);
  program->results.assign(written.begin(), written.end());
  llvm::sort(program->results);
  variant.program = std::move(*program);
  for (const runtime::LaunchSpec &launch : variant.program.launches)
    variant.kernels.push_back(
        variant.kernelModule->lookupSymbol<dkernel::FuncOp>(launch.kernel));

  llvm::raw_string_ostream kernelText(variant.kernelText);
  llvm::json::Array launches;
  std::string kernelKeys;
  for (auto [kernel, launch] :
       llvm::zip(variant.kernels, variant.program.launches)) {
    kernelText << (kernelKeys.empty() ? "" : "\n") << kernel;
    kernelKeys += opKey(kernel) + "\n";
    llvm::json::Object geometry{{"grid", llvm::json::Array(kernel.getGrid())},
                                {"block", llvm::json::Array(kernel.getBlock())},
                                {"smem", kernel.getSmem()}};
    if (variant.hasSeveralKernels()) {
      // What the source alone does not say: which buffer each parameter is,
      // and what is zeroed first.
      llvm::json::Array params, zero;
      for (const runtime::LaunchParam &param : launch.params)
        params.push_back(int64_t(param.getBuffer()));
      for (unsigned buffer : launch.zero)
        zero.push_back(int64_t(buffer));
      geometry["kernel"] = launch.kernel;
      geometry["params"] = std::move(params);
      geometry["zero"] = std::move(zero);
    }
    launches.push_back(std::move(geometry));
  }
  variant.kernelKey = variant.hasSeveralKernels()
                          ? sha256Hex(kernelKeys)
                          : opKey(variant.getMainKernel());

  llvm::raw_string_ostream os(variant.cuda);
  // One kernel keeps the key it always had: its own source and geometry.
  if (failed(translateToCuda(variant.hasSeveralKernels()
                                 ? variant.kernelModule->getOperation()
                                 : variant.getMainKernel().getOperation(),
                             os)))
    return fail("cannot print CUDA: " + diagnostics);
  llvm::json::Value launch = nullptr;
  if (!variant.hasSeveralKernels()) {
    launch = std::move(launches.front());
  } else {
    llvm::json::Array workspaces;
    for (const runtime::BufferSpec &buffer :
         llvm::ArrayRef(variant.program.buffers)
             .drop_front(variant.program.numArguments))
      workspaces.push_back(
          llvm::json::Object{{"dtype", runtime::dtypeName(buffer.dtype)},
                             {"shape", llvm::json::Array(buffer.shape)}});
    launch = llvm::json::Object{{"launches", std::move(launches)},
                                {"workspaces", std::move(workspaces)}};
  }
  std::string launchText;
  llvm::raw_string_ostream(launchText) << launch;
  variant.cudaKey = sha256Hex(variant.cuda + "\n" + launchText);
  variant.loweringSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return llvm::Error::success();
}

llvm::Expected<Variant> tuner::lowerVariant(const dtile::ForkCursor &terminal,
                                            StringRef loopKey,
                                            const dtile::Target &target) {
  auto start = std::chrono::steady_clock::now();
  Variant variant = beginVariant(terminal, loopKey);
  variant.loweringSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (llvm::Error e = finishVariant(variant, target))
    return std::move(e);
  return std::move(variant);
}

bool tuner::prepareConcurrentLowering(MLIRContext &context,
                                      const dtile::Target &target) {
  if (!context.isMultithreadingEnabled())
    return false;
  // What each PassManager::run would register and load: done once here, so
  // that the runs only read the registry.
  PassManager pm(&context);
  addKernelPasses(pm, target);
  DialectRegistry registry;
  pm.getDependentDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  return true;
}
