//===- LoweringPipelines.h - The lowering, without the tuner ----*- C++ -*-===//
//
// The pass sequences that take a layer down the levels, for whoever builds a
// pass manager (the tuner lowers its variants with them). The Tile lowering
// takes the OptionChooser deciding its forks from the caller; the named
// pipelines of Pipelines.h add the tuner's replay chooser on top.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_PIPELINES_LOWERINGPIPELINES_H
#define DEPLODOCK_PIPELINES_LOWERINGPIPELINES_H

#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"

#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace deplodock {

/// TOSA to linalg (upstream pipelines), then everything to dtensor.
void buildLowerToTensorPipeline(mlir::OpPassManager &pm);

/// lower-to-tensor, then one kernel per primitive, fused; with
/// `halfPrologues` f16 and bf16 prologues fuse into their contractions too
/// (dloop-fuse's half-prologues).
void buildLowerToLoopPipeline(mlir::OpPassManager &pm,
                              bool halfPrologues = false);

/// lower-to-loop, then every Tile rule on every kernel (dtile-lower with
/// `options`), `chooser` deciding the forks `knobs` leaves open (null: the
/// rules' heuristics, or the simplest options with `simplest`).
void buildLowerToTilePipeline(mlir::OpPassManager &pm,
                              const dtile::DTileLowerOptions &options,
                              std::shared_ptr<dtile::OptionChooser> chooser,
                              bool halfPrologues = false);

/// Every dtile.kernel to a dkernel.func and its launch, then cleanup and, on
/// a target with programmatic dependent launch, each kernel's wait for the
/// one before (dkernel-dependent-launch): what lower-to-kernel adds to
/// lower-to-tile. `target` is the convert pass's option: "" for the
/// module's dkernel.target.
void buildTileToKernelPasses(mlir::OpPassManager &pm, llvm::StringRef target);

} // namespace deplodock

#endif // DEPLODOCK_PIPELINES_LOWERINGPIPELINES_H
