//===- ChunkMatmulK.cpp - Split a matmul's K loop into chunks ---*- C++ -*-===//
//
// chunk_matmul_k: each matmul reduce loop over K becomes a loop over
// ceil(K / BK) chunks around a loop over BK, so a later rule can stage one
// chunk of each operand in shared memory per outer iteration. Forks over BK
// in [16, 128]: the divisors of K, and the powers of two that do not divide
// it (the last chunk then skips the iterations past K).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

class ChunkMatmulK final : public Rule {
public:
  StringRef getName() const override { return "chunk_matmul_k"; }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &) const override {
    if (kernel.getKnobs().getInt("BK") ||
        classify(kernel) != KernelClass::Matmul)
      return {};
    SmallVector<dloop::ForOp> loops = getTopLevelReductions(kernel.getTile());
    // A chunk must leave at least two chunks of every K; it divides every K
    // or is a power of two (masked where it does not divide).
    SmallVector<int64_t> chunks;
    auto divides = [&](int64_t bk) {
      return llvm::all_of(
          loops, [&](dloop::ForOp loop) { return loop.getExtent() % bk == 0; });
    };
    for (int64_t bk = 16; bk <= 128; ++bk)
      if (llvm::all_of(
              loops,
              [&](dloop::ForOp loop) { return loop.getExtent() > bk; }) &&
          (divides(bk) || llvm::isPowerOf2_64(bk)))
        chunks.push_back(bk);
    if (chunks.empty())
      return {};
    // Rows of a multiple of 8 floats copy in 16-byte runs; an exact chunk
    // wastes no iterations; 32 keeps a 128-wide tile of both operands
    // within 32 KB. In that order, then the longer chunk.
    auto cost = [&](int64_t bk) {
      return std::make_tuple(bk % 8 != 0, !divides(bk), std::abs(bk - 32), -bk);
    };
    int64_t best = *llvm::min_element(
        chunks, [&](int64_t a, int64_t b) { return cost(a) < cost(b); });
    SmallVector<KnobsAttr> options;
    MLIRContext *ctx = kernel.getContext();
    Builder b(ctx);
    auto option = [&](int64_t bk) {
      return KnobsAttr::get(ctx,
                            {b.getNamedAttr("BK", b.getI64IntegerAttr(bk))});
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
      if (loop.getExtent() <= bk)
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
