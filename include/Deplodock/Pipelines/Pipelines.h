//===- Pipelines.h - The Deplodock lowering pipelines -----------*- C++ -*-===//
//
// The named pipelines that take a layer from the input dialects down the
// levels: lower-to-tensor, lower-to-loop, lower-to-tile, lower-to-kernel, and
// deplodock-pipeline (everything, from any input dialect to Kernel IR ready
// for --emit-cuda). Each is also a function that adds its passes to a pass
// manager, for tools that embed them in their own pipelines.
//
// These pipelines offer `tune-db`, which replays a tuning database through
// the tuner's replay chooser, so this library depends on the tuner; the
// lowering itself (LoweringPipelines.h) does not.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_PIPELINES_PIPELINES_H
#define DEPLODOCK_PIPELINES_PIPELINES_H

#include "Deplodock/Pipelines/LoweringPipelines.h"
#include "mlir/Pass/PassOptions.h"

namespace deplodock {

/// The help of the pipelines' `half-prologues` option.
inline constexpr const char *kHalfProloguesHelp =
    "Fuse f16 and bf16 pointwise producers into the contractions they feed, "
    "as f32 ones are (computed slabs; off until measured)";

/// Options of lower-to-loop.
struct LoopPipelineOptions
    : public mlir::PassPipelineOptions<LoopPipelineOptions> {
  Option<bool> halfPrologues{*this, "half-prologues",
                             llvm::cl::desc(kHalfProloguesHelp),
                             llvm::cl::init(false)};
};

/// Options of the pipelines that reach Tile IR and below.
struct TilePipelineOptions
    : public mlir::PassPipelineOptions<TilePipelineOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("GPU: sm_80, sm_90 or sm_90a (default: the module's "
                     "dkernel.target, else sm_90)")};
  Option<std::string> knobs{
      *this, "knobs",
      llvm::cl::desc("Fork choices by knob, in #dtile.knobs syntax "
                     "(BK=32,stage=[0,1],...; kernel:BK=32;other:... per "
                     "kernel); default: the rules' heuristics")};
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
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Precision of FP32 contractions: ieee, or tf32 to "
                     "allow TF32 tensor cores (default: the module's "
                     "dtile.tf32, else ieee)")};
  Option<bool> halfPrologues{*this, "half-prologues",
                             llvm::cl::desc(kHalfProloguesHelp),
                             llvm::cl::init(false)};
  Option<bool> simplest{
      *this, "simplest",
      llvm::cl::desc("The reference lowering: the simplest option at every "
                     "fork knobs does not decide"),
      llvm::cl::init(false)};
};

/// lower-to-loop, then every Tile rule on every kernel; with `tune-db`, the
/// forks `knobs` leaves open replay the database.
void buildLowerToTilePipeline(mlir::OpPassManager &pm,
                              const TilePipelineOptions &options);

/// lower-to-tile, then every dtile.kernel to a dkernel.func and its launch.
void buildLowerToKernelPipeline(mlir::OpPassManager &pm,
                                const TilePipelineOptions &options);

/// Registers the pipelines by name with the global pass registry.
void registerDeplodockPipelines();

} // namespace deplodock

#endif // DEPLODOCK_PIPELINES_PIPELINES_H
