//===- ClusterOps.cpp - Thread-block clusters (sm_90) -----------*- C++ -*-===//
//
// The ops that only mean something in a kernel launched in clusters.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

/// Fails unless `op` is in a dkernel.func with a `cluster` attribute.
static LogicalResult verifyInCluster(Operation *op) {
  auto func = op->getParentOfType<FuncOp>();
  if (!func)
    return op->emitOpError("must be nested in a dkernel.func");
  if (!func.getCluster())
    return op->emitOpError("needs a kernel launched in clusters: @")
           << func.getSymName() << " has no cluster attribute";
  return success();
}

LogicalResult ClusterBlockRankOp::verify() { return verifyInCluster(*this); }

LogicalResult ClusterBarrierOp::verify() { return verifyInCluster(*this); }
