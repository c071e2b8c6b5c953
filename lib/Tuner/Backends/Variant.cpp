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
#include "llvm/ADT/ScopeExit.h"

#include <chrono>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

/// The wrapper function's name while lowering: it must not take the kernel's
/// name, which the Kernel IR function keeps.
static constexpr StringLiteral kHostName = "__deplodock_tune_host";

CudaOpRow Variant::getCudaOpRow() const {
  CudaOpRow row;
  row.key = cudaKey;
  row.pretty = knobsText;
  row.source = cuda;
  row.kernelName = name;
  dkernel::FuncOp func = kernel;
  ArrayRef<int64_t> grid = func.getGrid(), block = func.getBlock();
  for (size_t i = 0; i < 3; ++i) {
    row.grid[i] = i < grid.size() ? grid[i] : 1;
    row.block[i] = i < block.size() ? block[i] : 1;
  }
  row.smemBytes = func.getSmem();
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    row.argOrder.push_back(
        llvm::json::Object{{"param", int64_t(i)},
                           {"type", text},
                           {"output", func.isOutput(i)},
                           {"zero_init", func.isZeroInit(i)}});
  }
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
  for (auto func : variant.kernelModule->getOps<dkernel::FuncOp>())
    variant.kernel = func;
  if (!variant.kernel)
    return fail("the Kernel IR has no dkernel.func");
  // A variant is timed as one launch; a split-K workspace adds a second
  // kernel, which timing the last one alone would leave out.
  if (llvm::range_size(variant.kernelModule->getOps<dkernel::FuncOp>()) > 1)
    return fail("the variant lowers to several kernels (split_workspace), "
                "which the tuner cannot time as one launch yet");
  variant.kernelKey = opKey(variant.kernel);
  llvm::raw_string_ostream(variant.kernelText) << variant.kernel;

  llvm::raw_string_ostream os(variant.cuda);
  if (failed(translateToCuda(variant.kernel, os)))
    return fail("cannot print CUDA: " + diagnostics);
  llvm::json::Value launch = llvm::json::Object{
      {"grid", llvm::json::Array(variant.kernel.getGrid())},
      {"block", llvm::json::Array(variant.kernel.getBlock())},
      {"smem", variant.kernel.getSmem()}};
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
