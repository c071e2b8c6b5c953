//===- SimtWork.cpp - What a launch costs the CPU, against the limit ------===//
//
// The SIMT engine runs every thread of a launch one after another, so a
// loop the GPU runs in a millisecond over a big grid can take the CPU hours.
// Two guards keep that a clean refusal: before a launch and on entering a
// loop, a lower bound of the work to come (trip counts the IR fixes, times
// the threads that run them) is checked against the work limit, which
// refuses such a kernel at once; while it runs, the operations executed in
// loop bodies are counted, which stops the loops whose trip counts only the
// running values know. Both count an operation once per thread.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "Deplodock/Interpreter/Memory.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

/// Loop-body operations a thread counts before the shared count is updated:
/// rarely enough that the threads of a spread grid do not contend on it.
static constexpr uint64_t kWorkFlush = uint64_t(1) << 20;

/// The trip count of loop `instr` when the IR fixes it, else 0.
static uint64_t staticTrips(const SInstr &instr) {
  switch (instr.kind) {
  case Kind::LoopFor:
    return instr.a > 0 ? static_cast<uint64_t>(instr.a) : 0;
  case Kind::ScfFor:
    if (auto loop = dyn_cast<scf::ForOp>(instr.scalar.op))
      if (std::optional<APInt> trips = loop.getStaticTripCount())
        return trips->getActiveBits() <= 64 ? trips->getZExtValue() : 0;
    return 0;
  default:
    return 0;
  }
}

uint64_t simt::computeMinWork(const SBlock &block) {
  uint64_t work = 0;
  for (const SInstr &instr : block.instrs) {
    uint64_t own = 1;
    switch (instr.kind) {
    case Kind::LoopFor:
    case Kind::ScfFor:
      own = llvm::SaturatingMultiplyAdd(staticTrips(instr),
                                        instr.regions[0]->minWork, own);
      break;
    case Kind::LaneLoop:
      own = llvm::SaturatingAdd(own, instr.regions[0]->minWork);
      break;
    case Kind::Tile:
      if (auto tile = dyn_cast<dtile::TileOp>(instr.scalar.op))
        own = llvm::SaturatingMultiplyAdd(
            static_cast<uint64_t>(std::max<int64_t>(tile.getNumBlocks(), 0)),
            instr.regions[0]->minWork, own);
      break;
    case Kind::ScfIf:
      own = llvm::SaturatingAdd(
          own, std::min(instr.regions[0]->minWork, instr.regions[1]->minWork));
      break;
    default:
      break;
    }
    work = llvm::SaturatingAdd(work, own);
  }
  return work;
}

uint64_t Machine::workSpent() const {
  return llvm::SaturatingAdd(launchWork->load(std::memory_order_relaxed),
                             pendingWork);
}

LogicalResult Machine::checkLaunchWork() {
  uint64_t blocks = 1;
  if (!kernel.isTile && !kernel.isLoop)
    for (int64_t extent : kernel.grid)
      blocks = llvm::SaturatingMultiply(
          blocks, static_cast<uint64_t>(std::max<int64_t>(extent, 0)));
  uint64_t work = llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(kernel.body.minWork, blocks),
      uint64_t(numThreads));
  if (llvm::Error tooMuch = checkWork(0, work, /*estimate=*/true))
    return kernel.op->emitOpError("cannot be interpreted: ")
           << llvm::toString(std::move(tooMuch));
  return success();
}

LogicalResult Machine::checkLoopWork(const SInstr &loop, uint64_t trips,
                                     uint32_t lanes) {
  uint64_t work = llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(trips, loop.regions[0]->minWork),
      uint64_t(lanes));
  if (llvm::Error tooMuch = checkWork(workSpent(), work, /*estimate=*/true))
    return error(loop) << "cannot be interpreted: "
                       << llvm::toString(std::move(tooMuch));
  return success();
}

LogicalResult Machine::chargeWork(const SInstr &loop, uint32_t lanes) {
  pendingWork = llvm::SaturatingMultiplyAdd(
      static_cast<uint64_t>(loop.regions[0]->instrs.size()), uint64_t(lanes),
      pendingWork);
  if (pendingWork < kWorkFlush)
    return success();
  uint64_t spent = launchWork->fetch_add(pendingWork) + pendingWork;
  pendingWork = 0;
  if (llvm::Error tooMuch = checkWork(spent, 0, /*estimate=*/false))
    return error(loop) << "stopped: the launch "
                       << llvm::toString(std::move(tooMuch));
  return success();
}
