//===- LoweringPipelines.cpp - The lowering, without the tuner --*- C++ -*-===//

#include "Deplodock/Pipelines/LoweringPipelines.h"

#include "Deplodock/Conversion/Passes.h"
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
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

void deplodock::buildLowerToLoopPipeline(OpPassManager &pm,
                                         bool halfPrologues) {
  buildLowerToTensorPipeline(pm);
  pm.addPass(createConvertDTensorToDLoop());
  pm.addPass(createCanonicalizerPass());
  OpPassManager &func = pm.nest<func::FuncOp>();
  // Kernel IR holds 8-bit floats but computes nothing in them.
  func.addPass(dloop::createDLoopWidenF8());
  // Prologues wait for every other fusion: fused into attention's scores
  // before those fuse into the online softmax, a RoPE would run once per
  // key of its loop.
  dloop::DLoopFuseOptions noPrologues;
  noPrologues.prologues = false;
  func.addPass(dloop::createDLoopFuse(noPrologues));
  // Attention: the softmax fuses into its contraction by online softmax,
  // after which the scores fuse in without recomputation.
  func.addPass(dloop::createDLoopFuseAttention());
  func.addPass(dloop::createDLoopFuse(noPrologues));
  dloop::DLoopFuseOptions prologues;
  prologues.halfPrologues = halfPrologues;
  func.addPass(dloop::createDLoopFuse(prologues));
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  func.addPass(dloop::createDLoopHoistInvariants());
  func.addPass(dloop::createDLoopDropUnitLoops());
  func.addPass(createCanonicalizerPass());
}

void deplodock::buildLowerToTilePipeline(
    OpPassManager &pm, const dtile::DTileLowerOptions &options,
    std::shared_ptr<dtile::OptionChooser> chooser, bool halfPrologues) {
  buildLowerToLoopPipeline(pm, halfPrologues);
  pm.addPass(dtile::createDTileLowerPass(options, std::move(chooser)));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void deplodock::buildTileToKernelPasses(OpPassManager &pm, StringRef target) {
  ConvertDTileToDKernelOptions convert;
  convert.target = target.str();
  pm.addPass(createConvertDTileToDKernel(convert));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createDKernelDependentLaunch());
}
