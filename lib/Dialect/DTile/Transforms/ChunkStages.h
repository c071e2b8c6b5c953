//===- ChunkStages.h - The stages of chunk loops ----------------*- C++ -*-===//
//
// stage_inputs puts each chunk's slabs first in the chunk loop's body;
// double_buffer, async_copy, tma_copy and pipeline_k_outer rework those stages.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_CHUNKSTAGES_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_CHUNKSTAGES_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

namespace deplodock::dtile {

/// The reduce loops of `kernel` whose bodies hold stages (at their top level),
/// in program order.
llvm::SmallVector<dloop::ForOp> getStagedChunkLoops(KernelOp kernel);

/// The stages at the top level of `loop`'s body, in program order.
llvm::SmallVector<StageOp> getChunkStages(dloop::ForOp loop);

/// The shared-memory bytes of one slot of `stage`'s slab (padding included).
int64_t getSlabBytes(StageOp stage);

/// The shared-memory bytes of every stage of `kernel`, all slots.
int64_t getStagedBytes(KernelOp kernel);

/// The synchronous stages of each staged chunk loop of `kernel` that
/// `canTravel` accepts, by loop (loops without any left out).
using ChunkStageGroups =
    llvm::SmallVector<std::pair<dloop::ForOp, llvm::SmallVector<StageOp>>>;
ChunkStageGroups getSyncStages(KernelOp kernel,
                               llvm::function_ref<bool(StageOp)> canTravel);

/// Makes the stages of `groups` travel by `transport` (cp.async or TMA),
/// with one `dtile.async_wait keep 0` after each loop's last stage, before
/// anything reads a slab.
void makeAsync(const ChunkStageGroups &groups, Transport transport);

/// Whether some stage of `kernel` travels with `transport`, or, without one,
/// asynchronously (cp.async or TMA).
bool hasStageTravelling(KernelOp kernel,
                        std::optional<Transport> transport = std::nullopt);

/// Whether `stage` can travel by cp.async: some run of 16, 8 or 4 bytes is
/// aligned in the source and the slab (the rule Kernel IR lowering follows).
bool canCopyAsync(StageOp stage);

/// Whether `stage` can travel by TMA: an unpadded box of rank 1 to 5 with
/// extents up to 256 that fits in a source of the same rank, whose inner
/// extent and source rows span multiples of 16 bytes and whose slab is a
/// multiple of 128 bytes (so every slot of a rotation starts 128-byte aligned).
bool canCopyTma(StageOp stage);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_CHUNKSTAGES_H
