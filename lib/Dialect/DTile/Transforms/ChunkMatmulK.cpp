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

/// Whether chunks of `bk` divide every loop of `loops`.
bool dividesAll(ArrayRef<dloop::ForOp> loops, int64_t bk) {
  return llvm::all_of(
      loops, [&](dloop::ForOp loop) { return loop.getExtent() % bk == 0; });
}

class ChunkMatmulK final : public TypedRule<ChunkMatmulKKnobs> {
protected:
  SmallVector<ChunkMatmulKKnobs> listOptions(KernelOp kernel,
                                             TargetAttr) const override {
    if (classify(kernel) != KernelClass::Matmul)
      return {};
    SmallVector<dloop::ForOp> loops = getTopLevelReductions(kernel.getTile());
    // A chunk must leave at least two chunks of every K; it divides every K
    // or is a power of two (masked where it does not divide).
    SmallVector<ChunkMatmulKKnobs> options;
    for (int64_t bk = 16; bk <= 128; ++bk)
      if (llvm::all_of(
              loops,
              [&](dloop::ForOp loop) { return loop.getExtent() > bk; }) &&
          (dividesAll(loops, bk) || llvm::isPowerOf2_64(bk)))
        options.push_back({bk});
    return options;
  }

  size_t heuristic(KernelOp kernel, ArrayRef<ChunkMatmulKKnobs> options,
                   TargetAttr) const override {
    SmallVector<dloop::ForOp> loops = getTopLevelReductions(kernel.getTile());
    // Rows of a multiple of 8 floats copy in 16-byte runs; an exact chunk
    // wastes no iterations; 32 keeps a 128-wide tile of both operands
    // within 32 KB. In that order, then the longer chunk.
    auto cost = [&](int64_t bk) {
      return std::make_tuple(bk % 8 != 0, !dividesAll(loops, bk),
                             std::abs(bk - 32), -bk);
    };
    return llvm::min_element(
               options,
               [&](const ChunkMatmulKKnobs &a, const ChunkMatmulKKnobs &b) {
                 return cost(a.BK) < cost(b.BK);
               }) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const ChunkMatmulKKnobs &option,
                        TargetAttr) const override {
    for (dloop::ForOp loop : getTopLevelReductions(kernel.getTile())) {
      if (loop.getExtent() <= option.BK)
        return failure();
      splitReduceLoop(loop, option.BK);
    }
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createChunkMatmulKRule() {
  return std::make_unique<ChunkMatmulK>();
}
