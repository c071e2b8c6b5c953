//===- VectorStores.cpp - Vectorised epilogue stores ------------*- C++ -*-===//
//
// vector_stores: the stores of a thread's adjacent output columns become
// one 32, 64 or 128-bit global store (float4 for f32, a pair of bf16 for a
// warpgroup MMA fragment's adjacent columns) each. Legal for plain
// (not reducing: split-K's atomics stay scalar) stores into an output of
// static, row-major shape whose rows are a multiple of the run W, at an
// innermost index whose coefficients and base are multiples of W: every
// run is then aligned (buffers start 256-byte aligned). Where
// permute_register_tile interleaved the columns no run forms, and the rule
// offers nothing. Forks skip / apply; the heuristic skips (behind vector
// reads it measured 0.99-1.02x on the H200).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "VectorRuns.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The narrowest store a run may make: two 16-bit values (a warpgroup MMA
/// fragment holds pairs of adjacent columns).
constexpr int64_t kMinStoreBytes = 4;

/// The runs of output stores of the widest vector that forms any.
static SmallVector<VectorRun> findStoreRuns(KernelOp kernel) {
  for (int64_t width : {8, 4, 2}) {
    SmallVector<VectorRun> runs =
        findVectorRuns(kernel, /*stores=*/true, width, [&](Value v) {
          return isAlignedGlobalBuffer(kernel, v, width, kMinStoreBytes);
        });
    if (!runs.empty())
      return runs;
  }
  return {};
}

namespace {

class VectorStores final : public TypedRule<VectorStoresKnobs> {
protected:
  /// Skip, apply: where some run of output stores forms.
  SmallVector<VectorStoresKnobs> listOptions(KernelOp kernel,
                                             TargetAttr) const override {
    if (findStoreRuns(kernel).empty())
      return {};
    return {{false}, {true}};
  }

  /// Skip: behind vector reads it measured mixed (0.99-1.02x, H200).
  size_t heuristic(KernelOp, ArrayRef<VectorStoresKnobs> options,
                   TargetAttr) const override {
    return llvm::find(options, VectorStoresKnobs{false}) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const VectorStoresKnobs &option,
                        TargetAttr) const override {
    if (option.vectorStores)
      rewriteVectorRuns(findStoreRuns(kernel));
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createVectorStoresRule() {
  return std::make_unique<VectorStores>();
}
