//===- Pipelines.h - The Deplodock lowering pipelines -----------*- C++ -*-===//
//
// The named pipelines that take a layer from the input dialects down the
// levels: lower-to-tensor, lower-to-loop (and, later, lower-to-tile,
// lower-to-kernel and deplodock-pipeline). Each is also a function that adds
// its passes to a pass manager, for tools that build their own pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_PIPELINES_PIPELINES_H
#define DEPLODOCK_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace deplodock {

/// TOSA to linalg (upstream pipelines), then everything to dtensor.
void buildLowerToTensorPipeline(mlir::OpPassManager &pm);

/// lower-to-tensor, then one kernel per primitive, fused.
void buildLowerToLoopPipeline(mlir::OpPassManager &pm);

/// Registers the pipelines by name with the global pass registry.
void registerDeplodockPipelines();

} // namespace deplodock

#endif // DEPLODOCK_PIPELINES_PIPELINES_H
