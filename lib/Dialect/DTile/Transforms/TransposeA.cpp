//===- TransposeA.cpp - Hold A's slab transposed ----------------*- C++ -*-===//
//
// transpose_a: register_tile gives a thread FM rows of A, and at each K step
// it reads them down a column of A's [BM][BK] slab (`[d0_i * FM + i, k]`),
// FM scalar reads BK words apart. Holding the slab transposed ([BK][BM],
// `dtile.stage ... transpose`) makes those FM rows adjacent in one slab
// row, so vector_reads can read them as float4 as it does B's columns. The
// stage still reads its box along the source's rows (coalesced along K);
// the scattered part is its shared write, which pad_smem pads against bank
// conflicts. A stage qualifies where it is synchronous and unpadded (nothing
// has chosen its transport or layout yet), its elements are 4 bytes (so a
// later async_copy can still copy it, 4 bytes at a time), and every read of
// it is a dloop.load whose innermost index involves no thread coordinate
// while the one before it does: a slab column per thread. Forks skip /
// apply; the heuristic applies where a thread holds eight rows of A or more.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Whether `expr`, an index of `read`, names a thread coordinate of `tile`.
bool usesThread(AffineExpr expr, dloop::LoadOp read, TileOp tile) {
  ArrayRef<BlockArgument> threads =
      tile.getBody().front().getArguments().drop_front(
          tile.getBlockAxes().size());
  AffineMap map = read.getMap();
  for (auto [i, operand] : llvm::enumerate(read.getIndices())) {
    bool isSymbol = i >= map.getNumDims();
    bool used = isSymbol ? expr.isFunctionOfSymbol(i - map.getNumDims())
                         : expr.isFunctionOfDim(i);
    if (used && llvm::is_contained(threads, operand))
      return true;
  }
  return false;
}

/// Why `stage` cannot be held transposed, or success.
llvm::Error checkStage(StageOp stage, TileOp tile) {
  auto type = cast<MemRefType>(stage.getType());
  int64_t rank = type.getRank();
  if (rank < 2)
    return llvm::createStringError("the slab has rank %d", int(rank));
  if (stage.getTranspose() || stage.getTransport() != Transport::sync ||
      stage.getSwizzle() != 0 ||
      llvm::any_of(stage.getPadding(), [](int64_t p) { return p != 0; }))
    return llvm::createStringError(
        "the stage's transport or layout is chosen already");
  if (type.getElementTypeBitWidth() != 32)
    return llvm::createStringError(
        llvm::formatv("its elements are {0}-bit; a transposed slab is "
                      "copied one element at a time, which cp.async can do "
                      "for 4-byte elements only",
                      type.getElementTypeBitWidth())
            .str());
  if (stage.getResult().use_empty())
    return llvm::createStringError("the slab is never read");
  for (Operation *user : stage.getResult().getUsers()) {
    auto read = dyn_cast<dloop::LoadOp>(user);
    if (!read || read.getMemRef() != stage.getResult())
      return llvm::createStringError(
          llvm::formatv("the slab is used by {0}, not only by dloop.load",
                        user->getName())
              .str());
    ArrayRef<AffineExpr> index = read.getMap().getResults();
    if (usesThread(index[rank - 1], read, tile) ||
        !usesThread(index[rank - 2], read, tile))
      return llvm::createStringError(
          "a thread does not read a slab column: its innermost index "
          "names a thread coordinate, or the one before it none");
  }
  return llvm::Error::success();
}

/// The stages of `kernel` to transpose; an error saying why none, naming
/// the first stage's reason.
llvm::Expected<SmallVector<StageOp>> planKernel(KernelOp kernel) {
  TileOp tile = kernel.getTile();
  if (!tile || tile.getThreadAxes().empty())
    return llvm::createStringError("the kernel has no thread axes");
  SmallVector<StageOp> stages;
  std::string firstWhy;
  kernel.walk([&](StageOp stage) {
    if (llvm::Error err = checkStage(stage, tile)) {
      std::string why = llvm::toString(std::move(err));
      if (firstWhy.empty())
        firstWhy =
            llvm::formatv("input {0}: {1}",
                          cast<BlockArgument>(stage.getSource()).getArgNumber(),
                          why)
                .str();
      return;
    }
    stages.push_back(stage);
  });
  if (!stages.empty())
    return stages;
  if (firstWhy.empty())
    return llvm::createStringError("no input is staged in shared memory");
  return llvm::createStringError("no staged slab can be held transposed (" +
                                 firstWhy + ")");
}

/// Holds `stage`'s slab transposed and swaps the two innermost indices of
/// its reads.
void transpose(StageOp stage) {
  auto type = cast<MemRefType>(stage.getType());
  SmallVector<int64_t> shape(type.getShape());
  int64_t rank = shape.size();
  std::swap(shape[rank - 1], shape[rank - 2]);
  stage.setTranspose(true);
  stage.getResult().setType(MemRefType::get(
      shape, type.getElementType(), type.getLayout(), type.getMemorySpace()));
  for (Operation *user : stage.getResult().getUsers()) {
    auto read = cast<dloop::LoadOp>(user);
    AffineMap map = read.getMap();
    SmallVector<AffineExpr> results(map.getResults());
    std::swap(results[rank - 1], results[rank - 2]);
    read.setMap(AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                               map.getContext()));
  }
}

class TransposeA final : public TypedRule<TransposeAKnobs> {
public:
  /// Why no slab can be held transposed (list-forks says it).
  std::string getRefusal(KernelOp kernel, TargetAttr) const override {
    llvm::Expected<SmallVector<StageOp>> stages = planKernel(kernel);
    if (!stages)
      return llvm::toString(stages.takeError());
    return {};
  }

protected:
  /// Skip, apply: where some slab is read a column per thread.
  SmallVector<TransposeAKnobs> listOptions(KernelOp kernel,
                                           TargetAttr) const override {
    // getRefusal says why not; here a refusal is no options.
    if (!llvm::expectedToOptional(planKernel(kernel)))
      return {};
    return {{false}, {true}};
  }

  /// Apply where a thread holds kMinRows rows of A or more: on the H200
  /// the transposed slab won with FM = 8 (three FP32 s512 GEMMs, 1.04-1.07x)
  /// and lost with FM = 4 (0.86x, 0.95x), where one float4 replaces only
  /// four scalar reads and the scattered shared writes cost more.
  size_t heuristic(KernelOp kernel, ArrayRef<TransposeAKnobs> options,
                   TargetAttr) const override {
    std::optional<int64_t> rows = kernel.getKnobs().getFM();
    TransposeAKnobs pick{rows && *rows >= kMinRows};
    return llvm::find(options, pick) - options.begin();
  }

  /// A thread's rows of A from which the transposed slab pays.
  static constexpr int64_t kMinRows = 8;

  LogicalResult rewrite(KernelOp kernel, const TransposeAKnobs &option,
                        TargetAttr) const override {
    if (!option.transposeA)
      return success();
    llvm::Expected<SmallVector<StageOp>> stages = planKernel(kernel);
    if (!stages) {
      llvm::consumeError(stages.takeError());
      return failure();
    }
    for (StageOp stage : *stages)
      transpose(stage);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createTransposeARule() {
  return std::make_unique<TransposeA>();
}
