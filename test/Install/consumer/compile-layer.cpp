//===- compile-layer.cpp - Deplodock from another project -----------------===//
//
// compile-layer LAYER.mlir: lowers the layer to Loop IR (printing each
// kernel's structural key, the tuner's), then to Kernel IR, prints its CUDA
// and the bindings of its launch manifest.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "Deplodock/Pipelines/Pipelines.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "Deplodock/Tuner/StructuralKey.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: compile-layer LAYER.mlir\n";
    return 2;
  }
  DialectRegistry registry;
  deplodock::registerDeplodockDialects(registry);
  deplodock::registerDeplodockInputDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  OwningOpRef<ModuleOp> loopIR = module->clone();
  PassManager loops(&context);
  deplodock::buildLowerToLoopPipeline(loops);
  if (failed(loops.run(*loopIR)))
    return 1;
  loopIR->walk([](deplodock::dloop::KernelOp kernel) {
    llvm::outs() << "kernel @" << kernel.getSymName() << " key "
                 << deplodock::tuner::structuralKey(kernel).substr(0, 12)
                 << "\n";
  });

  PassManager kernels(&context);
  deplodock::TilePipelineOptions options;
  deplodock::buildLowerToKernelPipeline(kernels, options);
  if (failed(kernels.run(*module)))
    return 1;
  std::string cuda;
  llvm::raw_string_ostream os(cuda);
  if (failed(deplodock::translateToCuda(*module, os)))
    return 1;
  llvm::outs() << cuda;

  for (auto host : module->getOps<func::FuncOp>()) {
    FailureOr<deplodock::runtime::KernelProgram> program =
        deplodock::runtime::buildKernelProgram(host);
    if (failed(program))
      return 1;
    llvm::outs() << "@" << program->function << ": "
                 << program->getBindings().size() << " bindings, "
                 << program->launches.size() << " launches\n";
  }
  return 0;
}
