//===- PipelineKOuter.cpp - Prefetch the next chunks' slabs -----*- C++ -*-===//
//
// pipeline_k_outer: with depth d (`stages`, 2 unless set), the slabs of
// chunks 0 .. d - 2 are staged into slots 0 .. d - 2 before a chunk loop
// whose stages rotate through d slots, and iteration k, once chunk k's slabs
// have landed (its async waits move to the top of the body), stages chunk
// k + d - 1 into slot (k + d - 1) mod d before computing on chunk k; the
// d - 1 slab sets in flight are carried from one iteration to the next. The
// prefetch is guarded by `k + d - 1 < chunks`, so every chunk is staged
// exactly once and waited for exactly once, whatever the number of chunks
// (one included: nothing is prefetched). Deeper than 2, the wait names chunk
// k's slabs, so the later chunks stay in flight; only TMA honours that (one
// mbarrier per slot), so depths beyond 2 are offered where every stage
// travels by TMA (cp.async's group counting at the loop tail is a later
// step). With refill_late, a wait-free warpgroup MMA loop refills after
// its step's wgmma commit instead, so the tensor cores do not wait for the
// refill (nor a multicast refill's cluster handshake). Forks skip, apply,
// and apply deeper, up to 8 and up to one more than the chunks (then every
// chunk is staged before the loop); the heuristic applies it where the
// copies are asynchronous (so they can overlap the computation) and there
// are two chunks or more, for warpgroup MMA loops as deep as fits up to 4
// (the depths measured) and up to the chunks. With wgmma_wait = 1 (depth 3
// or more, warpgroup MMA loops only, never by default) each step leaves its
// wgmma group in flight and waits for the previous one (wait_group 1); the
// refill of the slot that group read moves after that wait.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Rules.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Whether the stages of `loop` can move ahead by one chunk: they rotate
/// through two slots or more and their origins use only the chunk variable
/// and values from outside the loop.
bool canPipeline(dloop::ForOp loop) {
  return llvm::all_of(getChunkStages(loop), [&](StageOp stage) {
    return stage.getBuffers() >= 2 &&
           llvm::all_of(stage.getOrigin(), [&](Value v) {
             return v == loop.getInductionVar() ||
                    loop.isDefinedOutsideOfLoop(v);
           });
  });
}

/// A copy of `stage` at `b` for chunk `k + shift` filling `slot`; `k` stands
/// for `loop`'s variable, or is null for chunk `shift` itself.
StageOp cloneForChunk(OpBuilder &b, StageOp stage, dloop::ForOp loop, Value k,
                      int64_t shift, Value slot) {
  auto copy = cast<StageOp>(b.clone(*stage));
  SmallVector<Value> operands;
  SmallVector<AffineExpr> dims;
  for (Value operand : stage.getOrigin()) {
    if (operand != loop.getInductionVar()) {
      dims.push_back(b.getAffineDimExpr(operands.size()));
      operands.push_back(operand);
    } else if (k) {
      dims.push_back(b.getAffineDimExpr(operands.size()) + shift);
      operands.push_back(k);
    } else {
      dims.push_back(b.getAffineConstantExpr(shift));
    }
  }
  copy.getOriginMutable().assign(operands);
  copy.setMapAttr(AffineMapAttr::get(simplifyAffineMap(
      stage.getMap().replaceDimsAndSymbols(dims, {}, operands.size(), 0))));
  copy.getSlotMutable().assign(slot);
  return copy;
}

/// The deepest pipeline offered: CUTLASS-style kernels keep 3 to 7 stages in
/// flight; a narrow tile's slabs (a split GEMM of few tokens: 24 KB a chunk
/// of one warpgroup's 64 x 128 bf16 tile) fit eight, enough to issue a
/// split's every chunk before the first lands.
constexpr int64_t kMaxStages = 8;

/// The deepest pipeline the heuristic takes: depths 3 and 4 were measured
/// (H200, bench/results/forks-h200-2026-11-27*.md), deeper ones not yet.
constexpr int64_t kMaxMeasuredStages = 4;

/// Rewrites `loop` into its pipelined form, `depth` chunks deep; returns the
/// new loop.
dloop::ForOp pipeline(dloop::ForOp loop, int64_t depth) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<StageOp> stages = getChunkStages(loop);
  SmallVector<AsyncWaitOp> waits =
      llvm::to_vector(loop.getBody()->getOps<AsyncWaitOp>());
  SmallVector<Type> slabTypes;
  for (StageOp stage : stages) {
    slabTypes.push_back(stage.getType());
    if (depth > 2)
      stage.setBuffers(depth);
  }

  // Prologue: chunk c into slot c, for c < depth - 1.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> inits;
  for (int64_t c = 0; c < depth - 1; ++c) {
    Value slot = c == 0 ? zero : arith::ConstantIndexOp::create(b, loc, c);
    for (StageOp stage : stages)
      inits.push_back(cloneForChunk(b, stage, loop, Value(), c, slot));
  }

  int64_t extent = loop.getExtent();
  size_t numStages = stages.size();
  auto prefetchNext = [&](OpBuilder &b, Value k, ValueRange sets,
                          IRMapping &mapping) -> SmallVector<Value> {
    // The oldest set is chunk k's.
    ValueRange slabs = sets.take_front(numStages);
    for (auto [stage, slab] : llvm::zip(stages, slabs))
      mapping.map(stage.getResult(), slab);
    // Chunk k has landed: deeper, only its slabs are waited for.
    if (depth == 2) {
      for (AsyncWaitOp wait : waits)
        b.clone(*wait);
    } else if (!waits.empty()) {
      AsyncWaitOp::create(b, loc, /*keep=*/0, slabs);
    }
    // Every chunk was staged before the loop: nothing to refill.
    if (extent < depth) {
      SmallVector<Value> carried(sets.drop_front(numStages));
      llvm::append_range(carried, slabs);
      return carried;
    }
    // ... then chunk k + depth - 1 goes to the slot chunk k - 1 left, if
    // there is such a chunk.
    Value last = arith::ConstantIndexOp::create(b, loc, extent - depth + 1);
    Value more =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k, last);
    auto prefetch =
        scf::IfOp::create(b, loc, slabTypes, more, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prefetch.elseBlock());
    scf::YieldOp::create(b, loc, slabs);
    b.setInsertionPointToStart(prefetch.thenBlock());
    AffineExpr d = b.getAffineDimExpr(0);
    AffineExpr slotExpr = depth == 2 ? 1 - d % 2 : (d + depth - 1) % depth;
    Value slot = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, slotExpr), ValueRange{k});
    SmallVector<Value> next;
    for (StageOp stage : stages)
      next.push_back(cloneForChunk(b, stage, loop, k, depth - 1, slot));
    scf::YieldOp::create(b, loc, next);
    // The sets in flight move up by one; the new one comes last.
    SmallVector<Value> carried(sets.drop_front(numStages));
    llvm::append_range(carried, prefetch.getResults());
    return carried;
  };
  // The computation on chunk k follows.
  return carryAhead(loop, inits, prefetchNext, [](Operation *op) {
    return isa<StageOp, AsyncWaitOp>(op);
  });
}

/// The one wgmma wait of `loop`'s body if the loop is a warpgroup MMA chunk
/// loop as wgmma_async builds it: one group a step, ending in wait_group 0
/// on the accumulators the loop carries; else null.
dkernel::WgmmaWaitGroupOp getChunkWgmmaWait(dloop::ForOp loop) {
  auto waits =
      llvm::to_vector(loop.getBody()->getOps<dkernel::WgmmaWaitGroupOp>());
  if (waits.size() != 1 || waits.front().getPending() != 0 ||
      waits.front().getAccumulators().empty() ||
      llvm::range_size(loop.getBody()->getOps<dkernel::WgmmaCommitGroupOp>()) !=
          1)
    return {};
  return waits.front();
}

/// What wgmma_wait = 1 and refill_late ask of the chunk loops.
constexpr llvm::StringLiteral kWgmmaLoops =
    "every pipelined chunk loop to be a warpgroup MMA loop (wgmma=true) with "
    "one wgmma group a step";

/// Why `loops` cannot take wgmma_wait = 1 at `depth`, or empty.
std::string whyNotWaitBehind(ArrayRef<dloop::ForOp> loops, int64_t depth) {
  if (depth < 3)
    return "wgmma_wait=1 refills a slot only after wait_group 1 retires the "
           "group that read it, which leaves stages - 2 chunks in flight "
           "while one computes: it needs stages=3 or more";
  if (!llvm::all_of(loops, getChunkWgmmaWait))
    return ("wgmma_wait=1 needs " + kWgmmaLoops).str();
  return {};
}

/// Leaves each step's wgmma group in flight in the pipelined `loop`: the
/// step waits with wait_group 1 (retiring the previous step's group), its
/// accumulators are carried to the next step's chain unwaited, the refill
/// (the prefetch) moves after that wait, as the slot it fills is the one
/// the retired group read, and a wait_group 0 after the loop makes the
/// accumulators readable.
void waitOneGroupBehind(dloop::ForOp loop) {
  dkernel::WgmmaWaitGroupOp wait = getChunkWgmmaWait(loop);
  auto prefetches = llvm::to_vector(loop.getBody()->getOps<scf::IfOp>());
  OpBuilder b(wait);
  Location loc = wait.getLoc();
  wait.replaceAllUsesWith(wait.getAccumulators());
  auto behind = dkernel::WgmmaWaitGroupOp::create(b, loc, TypeRange{},
                                                  /*pending=*/1, ValueRange{});
  wait.erase();
  for (scf::IfOp prefetch : llvm::reverse(prefetches))
    prefetch->moveAfter(behind);
  // The accumulators leave the loop in flight.
  SmallVector<Value> accs;
  for (auto [result, yielded] :
       llvm::zip(loop.getResults(), loop.getYield().getValues()))
    if (yielded.getDefiningOp<dkernel::WgmmaMmaAsyncOp>())
      accs.push_back(result);
  b.setInsertionPointAfter(loop);
  auto drain = dkernel::WgmmaWaitGroupOp::create(
      b, loc, SmallVector<Type>(accs.size(), b.getF32Type()), /*pending=*/0,
      accs);
  for (auto [acc, ready] : llvm::zip(accs, drain.getResults()))
    acc.replaceAllUsesExcept(ready, drain);
}

/// Moves the refill (the prefetch) of the pipelined warpgroup MMA `loop`,
/// whose steps retire their own group (wait_group 0), after the step's
/// commit: the slot it fills was read by the previous step's group, retired
/// already, so the tensor cores start on chunk k before the barrier and the
/// copy's issue (a cluster's handshake on the slot, with multicast) rather
/// than after them.
void refillAfterIssue(dloop::ForOp loop) {
  assert(getChunkWgmmaWait(loop) && "refill_late is offered on wgmma loops");
  auto commit = *loop.getBody()->getOps<dkernel::WgmmaCommitGroupOp>().begin();
  // A named vector: llvm::reverse of a temporary would outlive it (found by
  // ASan as stack-use-after-scope).
  SmallVector<scf::IfOp> prefetches =
      llvm::to_vector(loop.getBody()->getOps<scf::IfOp>());
  for (scf::IfOp prefetch : llvm::reverse(prefetches))
    prefetch->moveAfter(commit);
}

/// The fewest chunks of `loops`.
int64_t getFewestChunks(ArrayRef<dloop::ForOp> loops) {
  int64_t fewest = std::numeric_limits<int64_t>::max();
  for (dloop::ForOp loop : loops)
    fewest = std::min(fewest, loop.getExtent());
  return fewest;
}

/// Whether a loop of `loops` pipelined `depth` deep refills a slot: one with
/// `depth` chunks or more (fewer are all staged before the loop).
bool refillsAt(ArrayRef<dloop::ForOp> loops, int64_t depth) {
  return llvm::any_of(
      loops, [&](dloop::ForOp loop) { return loop.getExtent() >= depth; });
}

/// The depths beyond 2 `kernel`'s staged chunk `loops` can take: every stage
/// travels by TMA (whose waits can name a slot), each loop has at least
/// depth - 1 chunks (at depth - 1 the prologue issues them all and the
/// loop refills nothing), and the deeper rotations fit in shared memory
/// beside the other slabs with 1 KB to spare (as stage_inputs leaves).
SmallVector<int64_t> deeperStages(KernelOp kernel, ArrayRef<dloop::ForOp> loops,
                                  TargetAttr target) {
  int64_t perSlot = 0;
  for (dloop::ForOp loop : loops)
    for (StageOp stage : getChunkStages(loop)) {
      if (stage.getTransport() != Transport::tma || stage.getBuffers() != 2)
        return {};
      perSlot += getSlabBytes(stage);
    }
  SmallVector<int64_t> depths;
  for (int64_t depth = 3; depth <= kMaxStages; ++depth)
    if (depth <= getFewestChunks(loops) + 1 &&
        getStagedBytes(kernel) + perSlot * (depth - 2) + 1024 <=
            target.getSmemPerBlock())
      depths.push_back(depth);
  return depths;
}

class PipelineKOuter final : public TypedRule<PipelineKOuterKnobs> {
protected:
  /// Skip, apply 2 deep, then deeper where deeperStages allows: where every
  /// staged chunk loop can move its stages ahead.
  SmallVector<PipelineKOuterKnobs>
  listOptions(KernelOp kernel, TargetAttr target) const override {
    SmallVector<dloop::ForOp> loops = getStagedChunkLoops(kernel);
    if (loops.empty() || !llvm::all_of(loops, canPipeline))
      return {};
    bool wgmma = llvm::all_of(loops, getChunkWgmmaWait);
    SmallVector<PipelineKOuterKnobs> options = {{false}, {true}};
    if (wgmma)
      options.push_back({true, std::nullopt, std::nullopt, true});
    for (int64_t depth : deeperStages(kernel, loops, target)) {
      options.push_back({true, depth});
      // Deeper than 2, a wgmma loop may also refill late (where a loop
      // refills at all) or leave its group in flight.
      if (wgmma) {
        if (refillsAt(loops, depth))
          options.push_back({true, depth, std::nullopt, true});
        options.push_back({true, depth, 1});
      }
    }
    return options;
  }

  /// Apply where the copies are asynchronous (synchronous ones cannot
  /// overlap the computation) and a loop has two chunks or more (one has
  /// nothing to overlap with). Warpgroup MMA loops go as deep as fits, each
  /// step retiring its own wgmma group: a 64-deep chunk of a 128 x 256 bf16
  /// tile is about 0.6 us of tensor-core work and its TMA load about 1 us in
  /// flight, so one chunk ahead leaves the loop waiting on latency. Not
  /// wgmma_wait = 1: the loop carrying groups in flight cannot be unrolled
  /// (mark_unroll), and on the H200 that lost to depth 3 unrolled by 4
  /// (0.80x, 0.82x on two BF16 GEMMs; bench/results/forks-h200-2026-11-27b.md).
  /// The refill comes after the step's wgmma commit (refill_late) where the
  /// loop allows it.
  size_t heuristic(KernelOp kernel, ArrayRef<PipelineKOuterKnobs> options,
                   TargetAttr) const override {
    SmallVector<dloop::ForOp> loops = getStagedChunkLoops(kernel);
    bool worth = hasStageTravelling(kernel) &&
                 llvm::any_of(loops, [](dloop::ForOp loop) {
                   return loop.getExtent() > 1;
                 });
    PipelineKOuterKnobs pick{worth};
    if (worth && kernel.getKnobs().getWgmma() == true) {
      // Up to the depths measured, and not one that stages every chunk
      // before the loop (one slot more than the chunks, unmeasured).
      int64_t deepest = std::min(kMaxMeasuredStages, getFewestChunks(loops));
      for (const PipelineKOuterKnobs &option : options)
        if (option.pipeline && option.stages && *option.stages <= deepest &&
            !option.wgmmaWait && !option.refillLate)
          pick = option;
      // At that depth, refill after the step's wgmma commit where the loop
      // allows it: the refill no longer sits between a chunk's arrival and
      // its MMAs (H200, five BF16 GEMMs at depth 4: 1.07-1.20x,
      // bench/results/forks-h200-2026-11-28.md).
      PipelineKOuterKnobs late = pick;
      late.refillLate = true;
      if (pick.stages && llvm::is_contained(options, late))
        pick = late;
    }
    return llvm::find(options, pick) - options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const PipelineKOuterKnobs &option,
                        TargetAttr) const override {
    if (!option.pipeline)
      return success();
    for (dloop::ForOp loop : getStagedChunkLoops(kernel)) {
      dloop::ForOp pipelined = pipeline(loop, option.stages.value_or(2));
      if (option.wgmmaWait == 1)
        waitOneGroupBehind(pipelined);
      else if (option.refillLate == true)
        refillAfterIssue(pipelined);
    }
    cleanupKernel(kernel);
    return success();
  }

public:
  /// wgmma_wait=1 and refill_late must be possible: say why not where they
  /// are not.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr,
                             KnobsAttr requested) const override {
    if (!kernel.getTile() || hasDecided(*this, kernel))
      return success();
    SmallVector<dloop::ForOp> loops = getStagedChunkLoops(kernel);
    std::optional<int64_t> wait = requested.getWgmmaWait();
    if (requested.getRefillLate() == std::optional<bool>(true)) {
      if (wait == 1)
        return kernel.emitOpError(
            "knob refill_late=true is for wait-free steps; wgmma_wait=1 "
            "already refills after its wait");
      if (requested.getPipeline() == std::optional<bool>(false))
        return kernel.emitOpError("knob refill_late=true needs pipeline=true");
      if (loops.empty() || !llvm::all_of(loops, getChunkWgmmaWait))
        return kernel.emitOpError("knob refill_late=true: pipeline_k_outer "
                                  "cannot take @")
               << kernel.getSymName() << ": it needs " << kWgmmaLoops;
      std::optional<int64_t> stages = requested.getStages();
      if (stages && !refillsAt(loops, *stages))
        return kernel.emitOpError("knob refill_late=true: at stages=")
               << *stages << " every chunk of @" << kernel.getSymName()
               << " is staged before its loop, which refills nothing";
    }
    if (!wait || *wait == 0)
      return success();
    if (requested.getPipeline() == std::optional<bool>(false))
      return kernel.emitOpError("knob wgmma_wait=1 needs pipeline=true");
    std::string why =
        loops.empty()
            ? std::string("wgmma_wait=1 needs a staged chunk loop")
            : whyNotWaitBehind(loops, requested.getStages().value_or(2));
    if (why.empty())
      return success();
    return kernel.emitOpError("knob wgmma_wait=1: pipeline_k_outer cannot "
                              "take @")
           << kernel.getSymName() << ": " << why;
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createPipelineKOuterRule() {
  return std::make_unique<PipelineKOuter>();
}
