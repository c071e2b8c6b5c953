//===- MarkUnroll.cpp - Choose how far inner loops unroll -------*- C++ -*-===//
//
// mark_unroll: the innermost sequential loops of a kernel (the loop over a
// K chunk of a matmul, any loop without loops inside) get an unroll factor,
// which the CUDA emitter prints as `#pragma unroll`. A loop whose variable
// indexes a thread's private buffer (a memref.alloca of the tile) unrolls
// fully: nvcc keeps such an array in registers only when every index is a
// constant after unrolling, else every access is a local-memory round trip.
// The other loops fork over the factors dividing their extents.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The innermost dloop.for loops of `kernel`.
SmallVector<dloop::ForOp> innermostLoops(KernelOp kernel) {
  SmallVector<dloop::ForOp> loops;
  kernel.walk([&](dloop::ForOp loop) {
    if (loop.getBody()->getOps<dloop::ForOp>().empty() &&
        loop.getBody()->getOps<StridedForOp>().empty())
      loops.push_back(loop);
  });
  return loops;
}

/// Whether `value` is computed, inside `loop`, from its induction variable.
bool dependsOnInductionVar(Value value, dloop::ForOp loop) {
  if (value == loop.getInductionVar())
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnInductionVar(operand, loop);
  });
}

/// Whether `loop` (static extent at most kMaxPrivateUnroll) indexes a
/// private buffer of the kernel by its induction variable.
bool indexesPrivateBuffer(dloop::ForOp loop) {
  if (loop.getExtent() > kMaxPrivateUnroll)
    return false;
  auto indexes = [&](Value memref, ValueRange indices) {
    return memref.getDefiningOp<memref::AllocaOp>() &&
           llvm::any_of(indices, [&](Value index) {
             return dependsOnInductionVar(index, loop);
           });
  };
  return loop
      .walk([&](Operation *op) {
        if (auto load = dyn_cast<dloop::LoadOp>(op);
            load && indexes(load.getMemRef(), load.getIndices()))
          return WalkResult::interrupt();
        if (auto store = dyn_cast<dloop::StoreOp>(op);
            store && indexes(store.getMemRef(), store.getIndices()))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `loop` leaves wgmma groups in flight from one step to the next
/// (pipeline_k_outer's wgmma_wait = 1): their accumulators are written
/// asynchronously across the back edge, and unrolled by 4 such a loop gave
/// wrong sums on the H200 (ptxas moved epilogue reads of the accumulators
/// ahead of the final wait; the unroll = 1 forms were right), so it is
/// never unrolled, as CUTLASS never unrolls its warpgroup MMA main loop.
bool keepsWgmmaInFlight(dloop::ForOp loop) {
  return llvm::any_of(
      loop.getBody()->getOps<dkernel::WgmmaWaitGroupOp>(),
      [](dkernel::WgmmaWaitGroupOp wait) { return wait.getPending() != 0; });
}

/// The innermost loops the knob decides: those not indexing a private
/// buffer nor keeping wgmma groups in flight.
SmallVector<dloop::ForOp> knobLoops(KernelOp kernel) {
  SmallVector<dloop::ForOp> loops = innermostLoops(kernel);
  llvm::erase_if(loops, [](dloop::ForOp loop) {
    return indexesPrivateBuffer(loop) || keepsWgmmaInFlight(loop);
  });
  return loops;
}

class MarkUnroll final : public TypedRule<MarkUnrollKnobs> {
protected:
  /// The powers of two up to 32 dividing every innermost extent the knob
  /// decides (knobLoops), where there are two or more; where no loop is
  /// left to it (or none divides), unroll = 1 alone, so that the others are
  /// still marked.
  SmallVector<MarkUnrollKnobs> listOptions(KernelOp kernel,
                                           TargetAttr) const override {
    if (innermostLoops(kernel).empty())
      return {};
    SmallVector<dloop::ForOp> loops = knobLoops(kernel);
    bool hasFixed = loops.size() < innermostLoops(kernel).size();
    SmallVector<MarkUnrollKnobs> options;
    for (int64_t u = 1; u <= 32 && !loops.empty(); u *= 2)
      if (llvm::all_of(loops,
                       [&](dloop::ForOp l) { return l.getExtent() % u == 0; }))
        options.push_back({u});
    if (options.size() < 2)
      return hasFixed ? SmallVector<MarkUnrollKnobs>{{1}}
                      : SmallVector<MarkUnrollKnobs>{};
    return options;
  }

  /// Short loops (a K chunk) unroll fully; long ones by 4.
  size_t heuristic(KernelOp kernel, ArrayRef<MarkUnrollKnobs> options,
                   TargetAttr) const override {
    SmallVector<dloop::ForOp> loops = knobLoops(kernel);
    if (loops.empty())
      return 0;
    int64_t shortest = llvm::min_element(loops, [](auto a, auto b) {
                         return a.getExtent() < b.getExtent();
                       })->getExtent();
    auto index = [&](int64_t u) {
      return llvm::find(options, MarkUnrollKnobs{u}) - options.begin();
    };
    if (shortest <= 32 && size_t(index(shortest)) < options.size())
      return index(shortest);
    if (size_t(index(4)) < options.size())
      return index(4);
    return options.size() - 1;
  }

  LogicalResult rewrite(KernelOp kernel, const MarkUnrollKnobs &option,
                        TargetAttr) const override {
    int64_t u = option.unroll;
    for (dloop::ForOp loop : innermostLoops(kernel)) {
      int64_t factor = indexesPrivateBuffer(loop) ? loop.getExtent()
                       : keepsWgmmaInFlight(loop) ? 1
                                                  : u;
      loop.setUnroll(factor > 1 ? std::optional<int64_t>(factor)
                                : std::nullopt);
    }
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createMarkUnrollRule() {
  return std::make_unique<MarkUnroll>();
}
