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

class MarkUnroll final : public Rule {
public:
  StringRef getName() const override { return "mark_unroll"; }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &) const override {
    if (kernel.getKnobs().getInt("unroll"))
      return {};
    SmallVector<dloop::ForOp> loops = innermostLoops(kernel);
    if (loops.empty())
      return {};
    // Factors dividing every innermost extent, up to 32.
    SmallVector<int64_t> factors;
    for (int64_t u = 1; u <= 32; u *= 2)
      if (llvm::all_of(loops, [&](dloop::ForOp l) {
            return l.getExtent() % u == 0;
          }))
        factors.push_back(u);
    if (factors.size() < 2)
      return {};
    // Short loops (a K chunk) unroll fully; long ones by 4.
    int64_t shortest = llvm::min_element(loops, [](auto a, auto b) {
                         return a.getExtent() < b.getExtent();
                       })->getExtent();
    int64_t best = shortest <= 32 && llvm::is_contained(factors, shortest)
                       ? shortest
                       : (llvm::is_contained(factors, 4) ? 4 : factors.back());
    Builder b(kernel.getContext());
    auto option = [&](int64_t u) {
      return KnobsAttr::get(kernel.getContext(),
                            {b.getNamedAttr("unroll", b.getI64IntegerAttr(u))});
    };
    SmallVector<KnobsAttr> options{option(best)};
    for (int64_t u : factors)
      if (u != best)
        options.push_back(option(u));
    return options;
  }

  LogicalResult apply(KernelOp kernel, KnobsAttr option,
                      const Target &) const override {
    int64_t u = *option.getInt("unroll");
    for (dloop::ForOp loop : innermostLoops(kernel))
      loop.setUnroll(u > 1 ? std::optional<int64_t>(u) : std::nullopt);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createMarkUnroll() {
  return std::make_unique<MarkUnroll>();
}
