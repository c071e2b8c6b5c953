//===- Pipelines.cpp - The Deplodock lowering pipelines ---------*- C++ -*-===//

#include "Deplodock/Pipelines/Pipelines.h"

#include "Deplodock/Conversion/Passes.h"
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void deplodock::buildLowerToTensorPipeline(OpPassManager &pm) {
  // Upstream TOSA lowering; a no-op on input without TOSA.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addPass(createConvertToDTensor());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void deplodock::buildLowerToLoopPipeline(OpPassManager &pm) {
  buildLowerToTensorPipeline(pm);
  pm.addPass(createConvertDTensorToDLoop());
  pm.addPass(createCanonicalizerPass());
  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(dloop::createDLoopFuse());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  func.addPass(dloop::createDLoopHoistInvariants());
  func.addPass(dloop::createDLoopDropUnitLoops());
  func.addPass(createCanonicalizerPass());
}

void deplodock::buildLowerToTilePipeline(OpPassManager &pm,
                                         const TilePipelineOptions &options) {
  buildLowerToLoopPipeline(pm);
  dtile::DTileLowerOptions lower;
  lower.target = options.target;
  lower.knobs = options.knobs;
  lower.listForks = options.listForks;
  lower.tuneDb = options.tuneDb;
  lower.tuneContext = options.tuneContext;
  lower.tuneReport = options.tuneReport;
  lower.simplest = options.simplest;
  pm.addPass(dtile::createDTileLower(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void deplodock::buildTileToKernelPasses(OpPassManager &pm, StringRef target) {
  ConvertDTileToDKernelOptions convert;
  convert.target = target.str();
  pm.addPass(createConvertDTileToDKernel(convert));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void deplodock::buildLowerToKernelPipeline(OpPassManager &pm,
                                           const TilePipelineOptions &options) {
  buildLowerToTilePipeline(pm, options);
  buildTileToKernelPasses(pm, options.target);
}

void deplodock::registerDeplodockPipelines() {
  PassPipelineRegistration<>(
      "lower-to-tensor",
      "Import a layer (linalg, tensor, arith, math, tosa) into dtensor",
      buildLowerToTensorPipeline);
  PassPipelineRegistration<>(
      "lower-to-loop",
      "Lower a layer to fused dloop kernels (import, lift, fuse)",
      buildLowerToLoopPipeline);
  PassPipelineRegistration<TilePipelineOptions>(
      "lower-to-tile",
      "Lower a layer to Tile IR: fused kernels mapped onto the GPU by the "
      "Tile rules (option 0 at each fork unless knobs= names another or "
      "tune-db= recorded one)",
      buildLowerToTilePipeline);
  PassPipelineRegistration<TilePipelineOptions>(
      "lower-to-kernel",
      "Lower a layer to Kernel IR: dkernel.func kernels with their grid, "
      "block and shared memory, launched from the host function",
      buildLowerToKernelPipeline);
  PassPipelineRegistration<TilePipelineOptions>(
      "deplodock-pipeline",
      "The whole compiler: any supported input (linalg, tosa, tensor, "
      "dtensor) to Kernel IR that --emit-cuda prints",
      buildLowerToKernelPipeline);
}
