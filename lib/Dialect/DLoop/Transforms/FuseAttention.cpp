//===- FuseAttention.cpp - Softmax into its contraction ----------*- C++
//-*-===//
//
// The pass around fuseOnlineSoftmax: a softmax kernel and the kernel that
// contracts its probabilities become one kernel, where the online rewrite
// removes the recomputation that made dloop-fuse keep them apart.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"
#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace deplodock::dloop {
#define GEN_PASS_DEF_DLOOPFUSEATTENTION
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"
} // namespace deplodock::dloop

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

/// Whether `kernel` takes a maximum and subtracts it from something before
/// an exponential: a softmax worth trying.
static bool takesSoftmax(KernelOp kernel) {
  WalkResult found = kernel.walk([](arith::SubFOp sub) {
    auto loop = sub.getRhs().getDefiningOp<ForOp>();
    bool max = loop && loop.isReduction() &&
               llvm::any_of(sub->getUsers(), llvm::IsaPred<math::ExpOp>);
    return max ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Fuses the kernel writing `alloc` into its only reader when the result is
/// an online softmax; returns whether it did.
static bool fuseIntoReader(memref::AllocOp alloc) {
  Value buffer = alloc.getResult();
  KernelOp producer, reader;
  for (Operation *user : buffer.getUsers()) {
    auto kernel = dyn_cast<KernelOp>(user);
    if (!kernel)
      return false;
    KernelOp &slot =
        llvm::is_contained(kernel.getOutputs(), buffer) ? producer : reader;
    if (slot)
      return false; // Two writers or two readers.
    slot = kernel;
  }
  if (!producer || !reader || producer.getOutputs().size() != 1 ||
      !takesSoftmax(producer) || !inputsStableUntil(producer, reader))
    return false;
  OpBuilder b(reader);
  auto fused = cast<KernelOp>(b.clone(*reader));
  if (failed(fuseProducerInto(producer, buffer, fused)) ||
      failed(fuseOnlineSoftmax(fused, /*remarks=*/true))) {
    fused.erase();
    return false;
  }
  reader.erase();
  producer.erase();
  alloc.erase();
  return true;
}

namespace {
struct DLoopFuseAttentionPass final
    : deplodock::dloop::impl::DLoopFuseAttentionBase<DLoopFuseAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    for (KernelOp kernel : func.getOps<KernelOp>())
      (void)fuseOnlineSoftmax(kernel, /*remarks=*/true);
    for (bool changed = true; changed;) {
      changed = false;
      for (memref::AllocOp alloc : func.getOps<memref::AllocOp>())
        if (fuseIntoReader(alloc)) {
          changed = true;
          break; // Kernels changed: look again from the start.
        }
    }
  }
};
} // namespace
