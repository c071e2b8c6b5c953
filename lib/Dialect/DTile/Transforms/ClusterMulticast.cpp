//===- ClusterMulticast.cpp - Pairs of M tiles sharing B by multicast ----===//
//
// cluster_multicast: a TMA-pipelined warpgroup MMA kernel launches the
// blocks of two neighbouring M tiles as a cluster; both stage the same B
// slab each chunk, so B's stages become `multicast` and the tile gets a
// `cluster` of 2 along the M tiles' block axis. The Kernel lowering
// (DTileToDKernel/TmaCopies.cpp) splits B's box between the two blocks and
// keeps the slots safe across the cluster. In the lock-step kernel B must
// be refilled after the step's wgmma commit (a block waits there for its
// peer to release the slot); warp-specialised, the producer warpgroup
// waits instead. Never the heuristic's choice: lock-step with the late
// refill, clusters of two measured 0.41-0.72x of the default on five BF16
// GEMMs (H200, bench/results/forks-h200-2026-11-28.md); warp-specialised
// they are not measured yet.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The swizzle pattern's period: a half box must start at a multiple.
constexpr int64_t kHalfAlignment = 1024;

/// The stage that fills `slab`, through the iteration arguments of the
/// loops carrying it; null if none.
StageOp stageOf(Value slab) {
  while (auto arg = dyn_cast<BlockArgument>(slab)) {
    auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
    OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
    if (!init)
      return {};
    slab = init->get();
  }
  return slab.getDefiningOp<StageOp>();
}

/// Whether `stage` fills its slab ahead of the loop, or in a chunk loop's
/// step after the step's wgmma commit.
bool refillsAfterCommit(StageOp stage) {
  auto loop = stage->getParentOfType<dloop::ForOp>();
  if (!loop)
    return true;
  Operation *top = loop.getBody()->findAncestorOpInBlock(*stage);
  for (Operation &op : *loop.getBody()) {
    if (&op == top)
      return false;
    if (isa<dkernel::WgmmaCommitGroupOp>(op))
      return true;
  }
  return false;
}

/// What cluster_m = 2 does to a kernel: the block axis of the M tiles and
/// the B stages to multicast.
struct Plan {
  unsigned axis = 0;
  SmallVector<StageOp> multicast;
};

/// The plan for `kernel` on `target`, or why there is none.
llvm::Expected<Plan> planCluster(KernelOp kernel, TargetAttr target) {
  auto refuse = [](const Twine &why) {
    return llvm::createStringError(why.str());
  };
  KnobsAttr knobs = kernel.getKnobs();
  TileOp tile = kernel.getTile();
  if (!tile || knobs.getWgmma() != std::optional<bool>(true))
    return refuse("not a warpgroup MMA kernel (wgmma)");
  if (!target.has(GpuFeature::clusters))
    return refuse("target " + target.getName() +
                  " lacks the 'clusters' feature");
  if (tile.getCluster())
    return refuse("the tile is launched in clusters already");
  SmallVector<StageOp> stages;
  bool allTma = true;
  tile.walk([&](StageOp stage) {
    stages.push_back(stage);
    allTma &= stage.getTransport() == Transport::tma;
  });
  if (stages.empty() || !allTma)
    return refuse("a stage does not travel by TMA");
  // B: the slabs the wgmma chains read as their second operand.
  Value a, b;
  bool mixed = false;
  tile.walk([&](dkernel::WgmmaMmaAsyncOp mma) {
    auto descA = mma.getA().getDefiningOp<dkernel::WgmmaDescOp>();
    auto descB = mma.getB().getDefiningOp<dkernel::WgmmaDescOp>();
    StageOp sa = descA ? stageOf(descA.getSrc()) : StageOp();
    StageOp sb = descB ? stageOf(descB.getSrc()) : StageOp();
    if (!sa || !sb || (a && a != sa.getSource()) ||
        (b && b != sb.getSource())) {
      mixed = true;
      return;
    }
    a = sa.getSource();
    b = sb.getSource();
  });
  if (mixed || !a || !b || a == b)
    return refuse("its wgmma operands are not one staged A and one staged B");
  Plan plan;
  SmallVector<StageOp> aStages;
  for (StageOp stage : stages)
    (stage.getSource() == b ? plan.multicast : aStages).push_back(stage);
  // A multicast refill first waits until the other block released the
  // slot: after the step's wgmma commit that handshake overlaps the tensor
  // cores, before the wgmmas it stalled every step. Warp-specialised, the
  // producer waits and the consumers only arrive, wherever the refill is.
  bool specialised = knobs.getWarpSpecialize() == std::optional<bool>(true);
  if (!specialised && !llvm::all_of(plan.multicast, refillsAfterCommit))
    return refuse("B's refill precedes the step's wgmmas, where a multicast "
                  "refill's wait for the other block would stall them: it "
                  "needs refill_late=true or wgmma_wait=1");
  // The M tiles: the block axis A's stages follow and B's do not.
  std::optional<unsigned> axis;
  ArrayRef<int64_t> extents = tile.getBlockExtents();
  for (unsigned i = 0; i < extents.size(); ++i) {
    BlockArgument coord = tile.getBlockCoord(i);
    auto follows = [&](StageOp s) {
      return stageOriginDependsOn(s, coord, tile);
    };
    if (llvm::any_of(aStages, follows) &&
        llvm::none_of(plan.multicast, follows)) {
      if (axis)
        return refuse("several block axes tile M");
      axis = i;
    }
  }
  if (!axis)
    return refuse("no block axis tiles M apart from B");
  plan.axis = *axis;
  if (extents.size() > 3)
    return refuse("its block axes are linearised into one grid dimension");
  if (extents[*axis] % 2 != 0)
    return refuse("an odd number of M tiles (" + Twine(extents[*axis]) +
                  " blocks along \"" +
                  cast<StringAttr>(tile.getBlockAxes()[*axis]).getValue() +
                  "\"): they do not pair into clusters of 2");
  // Each block multicasts half of B's box (of each swizzle segment).
  StageOp first = plan.multicast.front();
  ArrayRef<int64_t> box = first.getBox();
  auto outer = llvm::find_if(box, [](int64_t e) { return e > 1; });
  int64_t elementBytes = dkernel::getScalarBytes(
      cast<MemRefType>(first.getSource().getType()).getElementType());
  int64_t halfBytes = elementBytes;
  if (outer != box.end() && outer + 1 != box.end()) {
    int64_t inner = first.getSwizzle() != 0 ? first.getSwizzle() / elementBytes
                                            : box.back();
    halfBytes *= *outer / 2 * inner;
    for (auto it = outer + 1; it + 1 != box.end(); ++it)
      halfBytes *= *it;
  }
  if (outer == box.end() || outer + 1 == box.end() || *outer % 2 != 0 ||
      halfBytes % kHalfAlignment != 0)
    return refuse("B's box does not halve along its outer dimension into "
                  "multiples of 1 KB");
  return plan;
}

class ClusterMulticast final : public TypedRule<ClusterMulticastKnobs> {
public:
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    llvm::Expected<Plan> plan = planCluster(kernel, target);
    if (!plan)
      return llvm::toString(plan.takeError());
    return {};
  }

  /// cluster_m=2 must be possible: say why not where it is not.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getClusterM() != std::optional<int64_t>(2) ||
        !kernel.getTile() || hasDecided(*this, kernel))
      return success();
    llvm::Expected<Plan> plan = planCluster(kernel, target);
    if (!plan)
      return kernel.emitOpError("knob cluster_m=2: cluster_multicast cannot "
                                "take @")
             << kernel.getSymName() << ": " << llvm::toString(plan.takeError());
    return success();
  }

protected:
  SmallVector<ClusterMulticastKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    if (!llvm::expectedToOptional(planCluster(kernel, target)))
      return {};
    return {{1}, {2}};
  }

  size_t heuristic(KernelOp, ArrayRef<ClusterMulticastKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp kernel, const ClusterMulticastKnobs &option,
                        TargetAttr target) const override {
    if (option.clusterM == 1)
      return success();
    llvm::Expected<Plan> plan = planCluster(kernel, target);
    if (!plan)
      return kernel.emitOpError("cluster_multicast: ")
             << llvm::toString(plan.takeError());
    TileOp tile = kernel.getTile();
    SmallVector<int64_t> cluster(tile.getBlockExtents().size(), 1);
    cluster[plan->axis] = option.clusterM;
    tile.setClusterAttr(DenseI64ArrayAttr::get(kernel.getContext(), cluster));
    for (StageOp stage : plan->multicast)
      stage.setMulticast(true);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createClusterMulticastRule() {
  return std::make_unique<ClusterMulticast>();
}
