//===- deplodock-opt.cpp - Deplodock optimizer driver -----------*- C++ -*-===//
//
// mlir-opt with the Deplodock dialects, passes and pipelines, plus the
// upstream dialects a model layer arrives in. It opens its input and output
// itself, so that a file it cannot read or write is an `error:` and a write
// that fails (a full disk) is an error rather than a lost output or an abort.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "Deplodock/Runtime/OutputFile.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  deplodock::registerDeplodockDialects(registry);
  deplodock::registerDeplodockInputDialects(registry);
  mlir::registerTransformsPasses();
  deplodock::registerDeplodockPasses();
  auto [inputName, outputName] = mlir::registerAndParseCLIOptions(
      argc, argv, "Deplodock optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputName, &error);
  if (!input) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  llvm::Expected<deplodock::runtime::OutputFile> output =
      deplodock::runtime::OutputFile::open(outputName);
  if (!output) {
    llvm::errs() << "error: " << llvm::toString(output.takeError()) << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  if (llvm::Error kept = output->keep()) {
    llvm::errs() << "error: " << llvm::toString(std::move(kept)) << "\n";
    return 1;
  }
  return 0;
}
