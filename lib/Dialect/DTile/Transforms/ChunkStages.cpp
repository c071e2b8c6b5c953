//===- ChunkStages.cpp - The stages of chunk loops --------------*- C++ -*-===//

#include "ChunkStages.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

SmallVector<dloop::ForOp> dtile::getStagedChunkLoops(KernelOp kernel) {
  llvm::SetVector<Operation *> loops;
  kernel.walk([&](StageOp stage) {
    if (auto loop = dyn_cast<dloop::ForOp>(stage->getParentOp());
        loop && loop.isReduction())
      loops.insert(loop);
  });
  SmallVector<dloop::ForOp> result;
  for (Operation *loop : loops)
    result.push_back(cast<dloop::ForOp>(loop));
  return result;
}

SmallVector<StageOp> dtile::getChunkStages(dloop::ForOp loop) {
  return llvm::to_vector(loop.getBody()->getOps<StageOp>());
}

static int64_t elementBytes(StageOp stage) {
  Type element = cast<MemRefType>(stage.getSource().getType()).getElementType();
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

int64_t dtile::getSlabBytes(StageOp stage) {
  int64_t elements = 1;
  for (auto [extent, pad] : llvm::zip(stage.getSlabShape(), stage.getPadding()))
    elements *= extent + pad;
  return elements * elementBytes(stage);
}

int64_t dtile::getStagedBytes(KernelOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](StageOp stage) {
    bytes += getSlabBytes(stage) * stage.getBuffers();
  });
  return bytes;
}

bool dtile::canCopyAsync(StageOp stage) {
  return stage.getCpAsyncRunBytes().has_value();
}

bool dtile::canCopyTma(StageOp stage) {
  ArrayRef<int64_t> box = stage.getBox();
  auto source = cast<MemRefType>(stage.getSource().getType());
  int64_t bytes = elementBytes(stage);
  // TMA writes the box as the source holds it, never transposed nor
  // computed.
  if (stage.getTranspose() || stage.isComputed() || box.empty() ||
      box.size() > 5 || static_cast<int64_t>(box.size()) != source.getRank() ||
      !llvm::is_contained({1, 2, 4, 8}, bytes))
    return false;
  // A box longer than its source dimension reads TMA's out-of-bounds
  // zeros, which only a zero_fill stage asks for.
  for (auto [extent, dim] : llvm::zip(box, source.getShape()))
    if (extent > dim && !stage.getZeroFill())
      return false;
  if (llvm::any_of(box, [](int64_t e) { return e < 1 || e > 256; }) ||
      llvm::any_of(stage.getPadding(), [](int64_t p) { return p != 0; }))
    return false;
  return box.back() * bytes % 16 == 0 &&
         source.getShape().back() * bytes % 16 == 0 &&
         getSlabBytes(stage) % 128 == 0;
}

bool dtile::hasStageTravelling(KernelOp kernel,
                               std::optional<Transport> transport) {
  bool found = false;
  kernel.walk([&](StageOp stage) {
    found |= transport ? stage.getTransport() == *transport
                       : !isSynchronous(stage.getTransport());
  });
  return found;
}

ChunkStageGroups
dtile::getSyncStages(KernelOp kernel,
                     llvm::function_ref<bool(StageOp)> canTravel) {
  ChunkStageGroups result;
  for (dloop::ForOp loop : getStagedChunkLoops(kernel)) {
    SmallVector<StageOp> stages;
    for (StageOp stage : getChunkStages(loop))
      if (stage.getTransport() == Transport::sync && canTravel(stage))
        stages.push_back(stage);
    if (!stages.empty())
      result.push_back({loop, std::move(stages)});
  }
  return result;
}

void dtile::makeAsync(const ChunkStageGroups &groups, Transport transport) {
  for (auto [loop, stages] : groups) {
    for (StageOp stage : stages)
      stage.setTransport(transport);
    OpBuilder b(loop.getContext());
    b.setInsertionPointAfter(getChunkStages(loop).back());
    AsyncWaitOp::create(b, loop.getLoc(), /*keep=*/0);
  }
}
