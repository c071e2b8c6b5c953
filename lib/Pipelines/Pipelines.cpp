//===- Pipelines.cpp - The Deplodock lowering pipelines ---------*- C++ -*-===//

#include "Deplodock/Pipelines/Pipelines.h"

#include "Deplodock/Tuner/Replay.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void deplodock::buildLowerToTilePipeline(OpPassManager &pm,
                                         const TilePipelineOptions &options) {
  dtile::DTileLowerOptions lower;
  lower.target = options.target;
  lower.knobs = options.knobs;
  lower.listForks = options.listForks;
  lower.simplest = options.simplest;
  lower.precision = options.precision;
  std::shared_ptr<dtile::OptionChooser> chooser;
  if (!options.tuneDb.empty())
    chooser = tuner::createReplayChooser(options.tuneDb, options.tuneContext,
                                         options.tuneReport);
  buildLowerToTilePipeline(pm, lower, std::move(chooser),
                           options.halfPrologues);
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
  PassPipelineRegistration<LoopPipelineOptions>(
      "lower-to-loop",
      "Lower a layer to fused dloop kernels (import, lift, fuse)",
      [](OpPassManager &pm, const LoopPipelineOptions &options) {
        buildLowerToLoopPipeline(pm, options.halfPrologues);
      });
  PassPipelineRegistration<TilePipelineOptions>(
      "lower-to-tile",
      "Lower a layer to Tile IR: fused kernels mapped onto the GPU by the "
      "Tile rules (the heuristic's option at each fork unless knobs= names "
      "another or tune-db= recorded one)",
      [](OpPassManager &pm, const TilePipelineOptions &options) {
        buildLowerToTilePipeline(pm, options);
      });
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
