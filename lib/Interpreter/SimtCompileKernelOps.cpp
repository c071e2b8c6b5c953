//===- SimtCompileKernelOps.cpp - Kernel IR ops for the SIMT engine -------===//
//
// The Kernel IR ops whose instructions need no slots or views of their own:
// asynchronous copies and their waits, mbarriers, TMA, clusters, warp and
// tree reductions, ldmatrix, mma.sync, the warpgroup MMA ops, atomics and
// grid dependencies. Each only picks its instruction kind and fields.
//
//===----------------------------------------------------------------------===//

#include "Simt.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

LogicalResult simt::compileKernelOp(Operation *op, SInstr &instr) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](dkernel::WarpSyncOp) {
        instr.kind = Kind::WarpSync;
        return success();
      })
      .Case<dkernel::WaitPriorGridsOp, dkernel::LaunchDependentsOp>(
          [&](Operation *) {
            // Kernels run one after the other: nothing to wait for.
            instr.kind = Kind::Nop;
            return success();
          })
      .Case([&](dkernel::CpAsyncCommitOp) {
        instr.kind = Kind::CpCommit;
        return success();
      })
      .Case([&](dkernel::CpAsyncWaitOp wait) {
        instr.kind = Kind::CpWait;
        instr.a = wait.getPending();
        return success();
      })
      .Case([&](dkernel::MbarrierInitOp init) {
        instr.kind = Kind::MbInit;
        instr.a = init.getCount();
        return success();
      })
      .Case([&](dkernel::MbarrierArriveExpectTxOp arrive) {
        instr.kind = Kind::MbArrive;
        instr.a = arrive.getBytes();
        return success();
      })
      .Case([&](dkernel::MbarrierArriveOp) {
        // An arrival expecting no bytes.
        instr.kind = Kind::MbArrive;
        instr.a = 0;
        return success();
      })
      .Case([&](dkernel::SetMaxNRegOp) {
        instr.kind = Kind::SetMaxNReg;
        return success();
      })
      .Case([&](dkernel::ClusterBlockRankOp) {
        instr.kind = Kind::ClusterRank;
        return success();
      })
      .Case([&](dkernel::ClusterBarrierOp) {
        instr.kind = Kind::ClusterBarrier;
        return success();
      })
      .Case([&](dkernel::MbarrierArriveClusterOp) {
        instr.kind = Kind::MbArriveCluster;
        return success();
      })
      .Case([&](dkernel::FenceMbarrierInitOp) {
        // Blocks take turns, so initialisations are always visible.
        instr.kind = Kind::Nop;
        return success();
      })
      .Case([&](dkernel::MbarrierWaitOp) {
        instr.kind = Kind::MbWait;
        return success();
      })
      .Case([&](dkernel::TmaDescriptorOp) {
        instr.kind = Kind::Nop;
        return success();
      })
      .Case([&](dkernel::TmaLoadOp load) {
        instr.kind = Kind::TmaLoad;
        instr.a = load.getCoords().size();
        instr.b = load.getDescriptorType().getSwizzle();
        instr.element = load.getDescriptorType().getElementType();
        return success();
      })
      .Case([&](dkernel::WarpReduceOp reduce) {
        instr.kind = Kind::WarpReduce;
        instr.a = reduce.getWidth();
        instr.reduce = reduce.getKind();
        instr.element = reduce.getValue().getType();
        return success();
      })
      .Case([&](dkernel::LdMatrixOp load) {
        instr.kind = Kind::LdMatrix;
        instr.a = load.getTrans();
        instr.element = load.getResult(0).getType();
        instr.access = indexAccess(1, load.getIndices().size());
        return success();
      })
      .Case([&](dkernel::MmaSyncOp mma) {
        instr.kind = Kind::Mma;
        instr.element = mma.getElementType();
        return success();
      })
      .Case([&](dkernel::WgmmaDescOp desc) {
        instr.kind = Kind::WgmmaDesc;
        instr.a = desc.getSwizzle();
        instr.b = desc.getLbo();
        instr.c = desc.getSbo();
        instr.access = indexAccess(1, desc.getIndices().size());
        return success();
      })
      .Case([&](dkernel::WgmmaFenceOp) {
        instr.kind = Kind::WgmmaFence;
        return success();
      })
      .Case([&](dkernel::FenceProxyAsyncOp) {
        // The pool has one proxy: stores are visible to wgmma at once.
        instr.kind = Kind::Nop;
        return success();
      })
      .Case([&](dkernel::WgmmaCommitGroupOp) {
        instr.kind = Kind::WgmmaCommit;
        return success();
      })
      .Case([&](dkernel::WgmmaWaitGroupOp wait) {
        instr.kind = Kind::WgmmaWait;
        instr.a = wait.getPending();
        return success();
      })
      .Case([&](dkernel::WgmmaMmaAsyncOp mma) {
        instr.kind = Kind::WgmmaMma;
        instr.a = mma.getN();
        instr.b = mma.getMajorA() == dkernel::WgmmaMajor::mn;
        instr.c = mma.getMajorB() == dkernel::WgmmaMajor::mn;
        // The bytes of a multiplicand (both are as wide): K is 32
        // bytes of them.
        instr.d = mma.getElementType().getIntOrFloatBitWidth() / 8;
        // The accumulators round to f32.
        instr.element = Float32Type::get(mma.getContext());
        return success();
      })
      .Case([&](dkernel::TreeReduceOp reduce) {
        instr.kind = Kind::TreeReduce;
        instr.a = reduce.getLength();
        instr.reduce = reduce.getKind();
        instr.element = reduce.getType();
        return success();
      })
      .Case([&](dkernel::AtomicStoreOp atomic) {
        instr.kind = Kind::AtomicStore;
        instr.reduce = atomic.getKind();
        instr.reduces = true;
        instr.element = atomic.getValue().getType();
        instr.access = indexAccess(2, atomic.getIndices().size());
        return success();
      })
      .Default([&](Operation *op) {
        return op->emitOpError("cannot be interpreted in a kernel");
      });
}
