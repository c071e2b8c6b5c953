//===- ClusterOps.cpp - Thread-block clusters (sm_90) -----------*- C++ -*-===//
//
// The ops that only mean something in a kernel launched in clusters.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

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

/// The blocks in a cluster of `func` (which has a cluster attribute).
static int64_t clusterSize(FuncOp func) {
  int64_t size = 1;
  std::optional<ArrayRef<int64_t>> cluster = func.getCluster();
  for (int64_t extent : *cluster)
    size *= extent;
  return size;
}

/// verifyInCluster, on a target with TMA and clusters (the cluster-scope
/// mbarrier and multicast forms are sm_90 PTX).
static LogicalResult verifyClusterMbarrierOp(Operation *op) {
  TargetAttr target = getTargetOrDefault(op);
  if (!target.has(GpuFeature::tma) || !target.has(GpuFeature::clusters))
    return op->emitOpError("needs a target with TMA and thread-block "
                           "clusters, not ")
           << target.getName();
  return verifyInCluster(op);
}

LogicalResult ClusterBlockRankOp::verify() { return verifyInCluster(*this); }

LogicalResult ClusterBarrierOp::verify() { return verifyInCluster(*this); }

LogicalResult MbarrierArriveClusterOp::verify() {
  auto type = cast<MemRefType>(getMbarriers().getType());
  if (type.getRank() != 1 || !type.getElementType().isInteger(64) ||
      !isSharedMemory(type))
    return emitOpError("mbarriers must be a rank-1 memref of i64 in "
                       "workgroup memory, got ")
           << type;
  if (failed(verifyClusterMbarrierOp(*this)))
    return failure();
  APInt rank;
  int64_t size = clusterSize((*this)->getParentOfType<FuncOp>());
  if (matchPattern(getRank(), m_ConstantInt(&rank)) &&
      rank.getSExtValue() >= size)
    return emitOpError("rank ")
           << rank.getSExtValue() << " is not below the cluster size " << size;
  return success();
}

LogicalResult FenceMbarrierInitOp::verify() {
  return verifyClusterMbarrierOp(*this);
}

LogicalResult TmaLoadOp::verifyMulticast() {
  if (!getMulticast())
    return success();
  if (failed(verifyClusterMbarrierOp(*this)))
    return failure();
  APInt mask;
  int64_t size = clusterSize((*this)->getParentOfType<FuncOp>());
  if (matchPattern(getMulticast(), m_ConstantInt(&mask)) &&
      mask.getZExtValue() >> size != 0)
    return emitOpError("multicast mask 0x")
           << llvm::utohexstr(mask.getZExtValue())
           << " names ranks beyond the cluster's " << size << " blocks";
  return success();
}
