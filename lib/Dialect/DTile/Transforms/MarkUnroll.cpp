//===- MarkUnroll.cpp - Choose how far inner loops unroll -------*- C++ -*-===//
//
// mark_unroll: the innermost sequential loops of a kernel (the loop over a
// K chunk of a matmul, any loop without loops inside) get an unroll factor,
// which the CUDA emitter prints as `#pragma unroll`. Forks over the factors
// dividing the loop's extent.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

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

class MarkUnroll final : public TypedRule<MarkUnrollKnobs> {
protected:
  /// The powers of two up to 32 dividing every innermost extent, where
  /// there are two or more.
  SmallVector<MarkUnrollKnobs> listOptions(KernelOp kernel,
                                           TargetAttr) const override {
    SmallVector<dloop::ForOp> loops = innermostLoops(kernel);
    if (loops.empty())
      return {};
    SmallVector<MarkUnrollKnobs> options;
    for (int64_t u = 1; u <= 32; u *= 2)
      if (llvm::all_of(loops, [&](dloop::ForOp l) {
            return l.getExtent() % u == 0;
          }))
        options.push_back({u});
    if (options.size() < 2)
      return {};
    return options;
  }

  /// Short loops (a K chunk) unroll fully; long ones by 4.
  size_t heuristic(KernelOp kernel, ArrayRef<MarkUnrollKnobs> options,
                   TargetAttr) const override {
    SmallVector<dloop::ForOp> loops = innermostLoops(kernel);
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
    for (dloop::ForOp loop : innermostLoops(kernel))
      loop.setUnroll(u > 1 ? std::optional<int64_t>(u) : std::nullopt);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createMarkUnrollRule() {
  return std::make_unique<MarkUnroll>();
}
