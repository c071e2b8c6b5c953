//===- deplodock-opt.cpp - Deplodock optimizer driver -----------*- C++ -*-===//
//
// mlir-opt with the Deplodock dialects, passes and pipelines, plus the
// upstream dialects a model layer arrives in.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  deplodock::registerDeplodockDialects(registry);
  deplodock::registerDeplodockInputDialects(registry);
  mlir::registerTransformsPasses();
  deplodock::registerDeplodockPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Deplodock optimizer driver\n", registry));
}
