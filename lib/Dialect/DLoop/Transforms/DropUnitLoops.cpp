//===- DropUnitLoops.cpp - Inline dloop.for loops of extent 1 ---*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace deplodock::dloop {
#define GEN_PASS_DEF_DLOOPDROPUNITLOOPS
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"
} // namespace deplodock::dloop

using namespace mlir;
using namespace deplodock::dloop;

namespace {
struct DLoopDropUnitLoopsPass final
    : deplodock::dloop::impl::DLoopDropUnitLoopsBase<DLoopDropUnitLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ForOp> loops;
    getOperation().walk([&](ForOp loop) {
      if (loop.getExtent() == 1)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (ForOp loop : loops)
      (void)loop.promoteIfSingleIteration(rewriter);
  }
};
} // namespace
