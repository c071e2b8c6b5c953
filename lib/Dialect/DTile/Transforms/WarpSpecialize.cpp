//===- WarpSpecialize.cpp - A producer warp for the TMA pipeline -*- C++
//-*-===//
//
// warp_specialize: where a warpgroup MMA kernel's chunk loop is pipelined
// through TMA, the Kernel lowering can give the loads to a producer
// warpgroup of their own and leave the consumer warpgroups computing only
// (DTileToDKernel/TmaCopies.cpp). The rule decides it and stamps the knobs;
// the Tile IR stays as it is. Forks: skip; apply; apply with setmaxnreg,
// whose register count for the consumers it computes here. Never the
// heuristic's choice: it gained 1.04x on the H200 where wgmma_wait=1
// gained 1.09x (the text in Rules.td); cluster_multicast may then pair its
// blocks.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

constexpr int64_t kWarpgroup = 128;
/// What the producer warpgroup keeps (setmaxnreg dec), and the most a
/// consumer raises to.
constexpr int64_t kProducerRegisters = 40, kMaxConsumerRegisters = 240;

/// Why `kernel` cannot be warp-specialised on `target`, or empty.
std::string whyNot(KernelOp kernel, TargetAttr target) {
  KnobsAttr knobs = kernel.getKnobs();
  TileOp tile = kernel.getTile();
  if (!tile || knobs.getWgmma() != std::optional<bool>(true))
    return "not a warpgroup MMA kernel (wgmma)";
  if (knobs.getPipeline() != std::optional<bool>(true))
    return "no chunk loop pipeline_k_outer pipelined";
  bool allTma = true, combines = false, stages = false;
  tile.walk([&](Operation *op) {
    if (auto stage = dyn_cast<StageOp>(op)) {
      stages = true;
      allTma &= stage.getTransport() == Transport::tma;
    }
    combines |= isa<CombineOp>(op);
  });
  if (!stages)
    return "no stage to give a producer";
  if (!allTma)
    return "a stage does not travel by TMA";
  if (combines)
    return "a combine needs every thread of the block";
  int64_t threads = tile.getNumThreads();
  if (threads % kWarpgroup != 0)
    return "the block is not whole warpgroups";
  if (threads + kWarpgroup > target.getThreadsPerBlock())
    return "no room in the block for a producer warpgroup";
  return {};
}

/// The registers each consumer thread can raise to beside a producer
/// warpgroup at kProducerRegisters: a multiple of 8.
int64_t consumerRegisters(TargetAttr target, int64_t consumers) {
  int64_t left = target.getRegistersPerSM() - kWarpgroup * kProducerRegisters;
  return std::min<int64_t>(kMaxConsumerRegisters, left / consumers / 8 * 8);
}

class WarpSpecialize final : public TypedRule<WarpSpecializeKnobs> {
public:
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    return whyNot(kernel, target);
  }

  /// warp_specialize=true must be possible: say why not where it is not.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getWarpSpecialize() != std::optional<bool>(true) ||
        hasDecided(*this, kernel))
      return success();
    // The knobs the earlier rules will stamp are not there yet: only what
    // does not depend on them is checked.
    TileOp tile = kernel.getTile();
    if (tile && requested.getWgmma() == std::optional<bool>(false))
      return kernel.emitOpError("knob warp_specialize=true needs wgmma=true");
    if (tile && requested.getPipeline() == std::optional<bool>(false))
      return kernel.emitOpError(
          "knob warp_specialize=true needs pipeline=true");
    return success();
  }

protected:
  SmallVector<WarpSpecializeKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    if (!whyNot(kernel, target).empty())
      return {};
    SmallVector<WarpSpecializeKnobs> options = {{false, {}}, {true, {}}};
    int64_t regs = consumerRegisters(target, kernel.getTile().getNumThreads());
    if (regs >= 24)
      options.push_back({true, regs});
    return options;
  }

  size_t heuristic(KernelOp, ArrayRef<WarpSpecializeKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp, const WarpSpecializeKnobs &,
                        TargetAttr) const override {
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createWarpSpecializeRule() {
  return std::make_unique<WarpSpecialize>();
}
