//===- deplodock-opt.cpp - Deplodock optimizer driver -----------*- C++ -*-===//
//
// mlir-opt with the Deplodock dialects, passes and pipelines, plus the
// upstream dialects a model layer arrives in. MlirOptMain's steps are
// spelled out so that the pass manager gets the tools' diagnostic defaults
// (ToolDiagnostics.h), and it opens its input and output itself, so that a
// file it cannot read or write is an `error:` and a write that fails (a full
// disk) is an error rather than a lost output or an abort.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "Deplodock/Runtime/OutputFile.h"
#include "Deplodock/Support/ToolDiagnostics.h"
#include "Deplodock/Support/ToolOptions.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  deplodock::prepareToolOptions();
  DialectRegistry registry;
  deplodock::registerDeplodockDialects(registry);
  deplodock::registerDeplodockInputDialects(registry);
  registerTransformsPasses();
  deplodock::registerDeplodockPasses();

  std::vector<char *> args = deplodock::withToolDiagnosticDefaults(argc, argv);
  std::string header =
      registerCLIOptions("Deplodock optimizer driver\n", registry);
  auto [inputName, outputName] =
      parseCLIOptions(args.size() - 1, args.data(), header);

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: "
                 << llvm::join(registry.getDialectNames(), ", ") << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }
  MlirOptMainConfig fromCommandLine = config;
  config.setPassPipelineSetupFn([fromCommandLine](PassManager &pm) {
    pm.addInstrumentation(deplodock::createLocateModuleInstrumentation());
    return fromCommandLine.setupPassPipeline(pm);
  });
  return deplodock::runtime::runOnFiles(
      inputName, outputName,
      [&](std::unique_ptr<llvm::MemoryBuffer> input, llvm::raw_ostream &os) {
        return MlirOptMain(os, std::move(input), registry, config);
      });
}
