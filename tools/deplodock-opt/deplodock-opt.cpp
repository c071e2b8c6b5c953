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
  return deplodock::runtime::runOnFiles(
      inputName, outputName,
      [&](std::unique_ptr<llvm::MemoryBuffer> input, llvm::raw_ostream &os) {
        return mlir::MlirOptMain(os, std::move(input), registry, config);
      });
}
