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

llvm::Expected<Variant> tuner::lowerVariant(const dtile::ForkCursor &terminal,
                                            StringRef loopKey,
                                            const dtile::Target &target) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  auto start = std::chrono::steady_clock::now();
  dtile::KernelOp tile = terminal.getKernel();
  MLIRContext *context = tile.getContext();
  Variant variant;
  variant.loopKey = loopKey.str();
  variant.name = tile.getSymName().str();
  variant.knobs = tile.getKnobs();
  variant.knobsText = dtile::formatKnobsOption("", variant.knobs);
  variant.tileKey = forkPointKey(loopKey, variant.knobs);
  llvm::raw_string_ostream(variant.tileText) << tile;

  // The diagnostics of a failing lowering become the message.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += (diagnostics.empty() ? "" : "; ") + diag.str();
    return success();
  });
  variant.kernelModule = cast<ModuleOp>(
      terminal.getKernel()->getParentOfType<ModuleOp>()->clone());
  for (auto func : variant.kernelModule->getOps<func::FuncOp>())
    func.setSymName(kHostName);
  // What lower-to-kernel runs after the Tile rules.
  PassManager pm(context);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  buildTileToKernelPasses(pm, target.getName());
  if (failed(pm.run(*variant.kernelModule)))
    return fail("cannot lower to Kernel IR: " + diagnostics);
  for (auto func : variant.kernelModule->getOps<dkernel::FuncOp>())
    variant.kernel = func;
  if (!variant.kernel)
    return fail("the Kernel IR has no dkernel.func");
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
  variant.loweringSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return std::move(variant);
}
