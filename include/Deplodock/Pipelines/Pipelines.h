//===- Pipelines.h - The Deplodock lowering pipelines -----------*- C++ -*-===//
//
// The named pipelines that take a layer from the input dialects down the
// levels: lower-to-tensor, lower-to-loop, lower-to-tile, lower-to-kernel, and
// deplodock-pipeline (everything, from any input dialect to Kernel IR ready
// for --emit-cuda). Each is also a function that adds its passes to a pass
// manager, for tools that embed them in their own pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_PIPELINES_PIPELINES_H
#define DEPLODOCK_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace deplodock {

/// Options of the pipelines that reach Tile IR and below.
struct TilePipelineOptions
    : public mlir::PassPipelineOptions<TilePipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("GPU: sm_80 or sm_90"),
                             llvm::cl::init("sm_90")};
  Option<std::string> knobs{
      *this, "knobs",
      llvm::cl::desc("Fork choices by knob (BK=32,BM=64,...; "
                     "kernel:BK=32;other:... per kernel); default option 0")};
  Option<bool> listForks{*this, "list-forks",
                         llvm::cl::desc("Remark every rule's options"),
                         llvm::cl::init(false)};
  Option<std::string> tuneDb{
      *this, "tune-db",
      llvm::cl::desc("Replay the fork choices recorded in this tune "
                     "database (written by deplodock-tune)")};
  Option<std::string> tuneContext{
      *this, "tune-context",
      llvm::cl::desc("Context of tune-db to replay: a context key, `model` "
                     "or `auto` (default: the one GPU measured for the "
                     "target, else the model)")};
  Option<bool> tuneReport{
      *this, "tune-report",
      llvm::cl::desc("Remark whether each kernel was tuned, partly tuned or "
                     "not tuned"),
      llvm::cl::init(false)};
  Option<bool> simplest{
      *this, "simplest",
      llvm::cl::desc("The reference lowering: the simplest option at every "
                     "fork knobs does not decide"),
      llvm::cl::init(false)};
};

/// TOSA to linalg (upstream pipelines), then everything to dtensor.
void buildLowerToTensorPipeline(mlir::OpPassManager &pm);

/// lower-to-tensor, then one kernel per primitive, fused.
void buildLowerToLoopPipeline(mlir::OpPassManager &pm);

/// lower-to-loop, then every Tile rule on every kernel.
void buildLowerToTilePipeline(mlir::OpPassManager &pm,
                              const TilePipelineOptions &options);

/// Every dtile.kernel to a dkernel.func for `target` and its launch, then
/// cleanup: what lower-to-kernel adds to lower-to-tile (the tuner lowers its
/// variants with it too).
void buildTileToKernelPasses(mlir::OpPassManager &pm, llvm::StringRef target);

/// lower-to-tile, then every dtile.kernel to a dkernel.func and its launch.
void buildLowerToKernelPipeline(mlir::OpPassManager &pm,
                                const TilePipelineOptions &options);

/// Registers the pipelines by name with the global pass registry.
void registerDeplodockPipelines();

} // namespace deplodock

#endif // DEPLODOCK_PIPELINES_PIPELINES_H
