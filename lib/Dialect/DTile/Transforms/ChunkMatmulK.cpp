//===- ChunkMatmulK.cpp - Split a matmul's K loop into chunks ---*- C++ -*-===//
//
// chunk_matmul_k: each matmul reduce loop over K becomes a loop over K / BK
// chunks around a loop over BK, so a later rule can stage one chunk of each
// operand in shared memory per outer iteration. Forks over BK among the
// divisors of K in [16, 128].
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"


using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

class ChunkMatmulK final : public Rule {
public:
  StringRef getName() const override { return "chunk_matmul_k"; }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &) const override {
    if (kernel.getKnobs().getInt("BK") || classify(kernel) != KernelClass::Matmul)
      return {};
    SmallVector<dloop::ForOp> loops = getTopLevelReductions(kernel.getTile());
    // A chunk must divide every matmul's K and leave at least two chunks.
    SmallVector<int64_t> chunks;
    for (int64_t bk = 16; bk <= 128; ++bk)
      if (llvm::all_of(loops, [&](dloop::ForOp loop) {
            return loop.getExtent() % bk == 0 && loop.getExtent() > bk;
          }))
        chunks.push_back(bk);
    if (chunks.empty())
      return {};
    // 32 floats per row of a slab keeps a 128-wide tile of both operands
    // within 32 KB; else the nearest legal chunk.
    int64_t best = *llvm::min_element(chunks, [](int64_t a, int64_t b) {
      return std::abs(a - 32) < std::abs(b - 32) ||
             (std::abs(a - 32) == std::abs(b - 32) && a > b);
    });
    SmallVector<KnobsAttr> options;
    MLIRContext *ctx = kernel.getContext();
    Builder b(ctx);
    auto option = [&](int64_t bk) {
      return KnobsAttr::get(ctx, {b.getNamedAttr("BK", b.getI64IntegerAttr(bk))});
    };
    options.push_back(option(best));
    for (int64_t bk : chunks)
      if (bk != best)
        options.push_back(option(bk));
    return options;
  }

  LogicalResult apply(KernelOp kernel, KnobsAttr option,
                      const Target &) const override {
    int64_t bk = *option.getInt("BK");
    for (dloop::ForOp loop : getTopLevelReductions(kernel.getTile())) {
      if (loop.getExtent() % bk != 0)
        return failure();
      splitReduceLoop(loop, bk);
    }
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createChunkMatmulK() {
  return std::make_unique<ChunkMatmulK>();
}
