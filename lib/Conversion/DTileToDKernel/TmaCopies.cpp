//===- TmaCopies.cpp - TMA stages -------------------------------*- C++ -*-===//
//
// Each TMA slab gets a descriptor parameter (the runtime encodes it from the
// source buffer) and one mbarrier per slot; thread 0 issues each box and
// every thread tracks the phase of every mbarrier, so that waits are
// uniform. Warp-specialised (WarpRoles.cpp), the producer's first thread
// issues the boxes once the slot's "empty" mbarrier says every consumer
// warp released it, and the consumers arrive on it instead of copying (a
// warp sync, then one thread a warp: 32 times fewer arrivals, which in a
// cluster cross to the peer block).
// Multicast (cluster_multicast), the two blocks of a cluster each issue half
// of the slab's boxes into both blocks; a slot is refilled once both blocks
// arrived on its "empty" mbarrier in the issuing block: lock-step, thread 0
// of each block arrives and every thread waits; warp-specialised, one
// thread of each consumer warp arrives in both blocks and the producer
// waits.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

/// Bits of the masks that track the TMA mbarriers' phases.
static constexpr int64_t kMaskBits = 64;

LogicalResult KernelLowering::setUpTma(dtile::TileOp tileOp) {
  SmallVector<dtile::StageOp> stages;
  tileOp.walk([&](dtile::StageOp stage) {
    if (stage.getTransport() == dtile::Transport::tma)
      stages.push_back(stage);
  });
  if (stages.empty())
    return success();
  MLIRContext *ctx = kernel.getContext();
  Location loc = tileOp.getLoc();
  OpBuilder ab(ctx);
  ab.setInsertionPointToEnd(&allocs);
  Block &entry = func.getBody().front();
  for (dtile::StageOp stage : stages) {
    if (!target.has(GpuFeature::tma))
      return stage.emitOpError("transport tma needs the 'tma' feature; "
                               "target ")
             << target.getName() << " lacks it";
    auto sourceArg = dyn_cast_or_null<BlockArgument>(lookup(stage.getSource()));
    if (!sourceArg || sourceArg.getOwner()->getParentOp() != func)
      return stage.emitOpError("stages a buffer that is not a kernel buffer");
    auto sourceType = cast<MemRefType>(sourceArg.getType());
    Type element = sourceType.getElementType();
    // Swizzled, each segment of the inner dimension is a box of its own.
    SmallVector<int64_t> box(stage.getBox());
    int64_t swizzle = stage.getSwizzle(), segments = 1;
    if (swizzle != 0) {
      int64_t perSegment = swizzle / dkernel::getScalarBytes(element);
      segments = box.back() / perSegment;
      box.back() = perSegment;
    }
    // Multicast, each block of the pair issues half of each box, split
    // along its outer dimension.
    bool multicast = stage.getMulticast();
    int64_t halfDim = 0;
    if (multicast) {
      if (failed(checkMulticast(stage, tileOp)))
        return failure();
      halfDim =
          llvm::find_if(box, [](int64_t e) { return e > 1; }) - box.begin();
      if (halfDim + 1 >= static_cast<int64_t>(box.size()) ||
          box[halfDim] % 2 != 0)
        return stage.emitOpError("is multicast, but its box does not halve "
                                 "along an outer dimension");
      box[halfDim] /= 2;
    }
    auto descType = dkernel::TmaDescriptorType::getChecked(
        [&] { return stage.emitOpError(); }, ctx, ArrayRef<int64_t>(box),
        element, swizzle);
    if (!descType)
      return failure();
    // A half lands right after the other: where a box may start, and in
    // step with the swizzle pattern's 1 KB period.
    int64_t align = swizzle != 0 ? 1024 : 128;
    if (multicast && descType.getBoxBytes() % align != 0)
      return stage.emitOpError("is multicast, but half its box is ")
             << descType.getBoxBytes() << " bytes, not a multiple of " << align;
    SlabAlloc *alloc = getSlabAlloc(stage);
    tmaSlabs[stage] = alloc;
    if (alloc->descriptor) {
      // another stage of the same rotation
      if (alloc->multicast != multicast)
        return stage.emitOpError("shares its slab with a stage that is ")
               << (multicast ? "not " : "") << "multicast";
      continue;
    }
    alloc->multicast = multicast;
    alloc->halfDim = halfDim;
    clustered |= multicast;
    // One descriptor parameter per slab; the runtime encodes it from the
    // source buffer before each launch.
    alloc->descriptor = entry.addArgument(descType, stage.getLoc());
    func.setFunctionType(FunctionType::get(ctx, entry.getArgumentTypes(), {}));
    dkernel::TmaDescriptorOp::create(ab, stage.getLoc(), alloc->descriptor,
                                     sourceArg);
    alloc->mbarrierBase = numMbarriers;
    numMbarriers += alloc->buffers;
    if (alloc->buffers == 1 && swizzle == 0 && !multicast) {
      alloc->slotViews.push_back({alloc->view});
      continue;
    }
    // The boxes of slot s lie at s * segments, s * segments + 1, ...; a
    // multicast box's halves one after the other.
    int64_t base =
        alloc->view.getDefiningOp<dkernel::AllocSharedOp>().getOffset();
    int64_t parts = multicast ? 2 : 1;
    int64_t partBytes = descType.getBoxBytes();
    for (int64_t slot = 0; slot < alloc->buffers; ++slot) {
      SmallVector<Value, 1> views;
      for (int64_t part = 0; part < segments * parts; ++part)
        views.push_back(
            viewShared(stage.getLoc(), box, element,
                       base + (slot * segments * parts + part) * partBytes));
      alloc->slotViews.push_back(std::move(views));
    }
  }
  // Warp-specialised or multicast, each slot also has an "empty" mbarrier,
  // after the "full" ones.
  bool empties = warpSpecialized || clustered;
  int64_t total = empties ? 2 * numMbarriers : numMbarriers;
  mbarriers = allocShared(loc, {total}, b.getI64Type(), 8);
  // Per-thread phase tracking: every thread runs every stage and wait, so
  // each counts the phases of every mbarrier for itself, a bit each.
  if (numMbarriers > kMaskBits)
    return tileOp.emitOpError("has ")
           << numMbarriers << " TMA slots; their mbarriers' phases are "
           << "tracked in " << kMaskBits << "-bit masks";
  auto local = MemRefType::get({}, b.getI64Type());
  Value zero = constant(b.getI64IntegerAttr(0));
  auto newMask = [&] {
    Value mask = memref::AllocaOp::create(b, loc, local);
    memref::StoreOp::create(b, loc, zero, mask, ValueRange{});
    return mask;
  };
  tmaPhase = newMask();
  tmaPending = newMask();
  // One arrival per phase: the issuing thread's expect_tx. An "empty" phase
  // completes when every consumer warp released the slot, of both blocks of
  // the cluster for a multicast slab; lock-step (clustered), when thread 0
  // of both blocks did.
  SmallVector<int64_t> emptyArrivals(numMbarriers, 2);
  int64_t consumerWarps = llvm::divideCeil(numThreads, warpSize);
  if (warpSpecialized)
    for (SlabAlloc *alloc : llvm::make_second_range(tmaSlabs))
      for (int64_t i = 0; i < alloc->buffers; ++i)
        emptyArrivals[alloc->mbarrierBase + i] =
            alloc->multicast ? 2 * consumerWarps : consumerWarps;
  ifThen(loc, cmpEq(loc, tid, 0), [&] {
    for (int64_t i = 0; i < numMbarriers; ++i)
      dkernel::MbarrierInitOp::create(b, loc, mbarriers, index(i), 1);
    if (empties)
      for (int64_t i = 0; i < numMbarriers; ++i)
        dkernel::MbarrierInitOp::create(
            b, loc, mbarriers, index(numMbarriers + i), emptyArrivals[i]);
    // The peer block may signal these mbarriers once past the cluster
    // barrier below.
    if (clustered)
      dkernel::FenceMbarrierInitOp::create(b, loc);
  });
  if (empties)
    emptyPhase = newMask();
  barrier(loc);
  if (clustered) {
    clusterRank = dkernel::ClusterBlockRankOp::create(b, loc, b.getIndexType());
    clusterPeer = arith::SubIOp::create(b, loc, index(1), clusterRank);
    dkernel::ClusterBarrierOp::create(b, loc);
  }
  return success();
}

LogicalResult KernelLowering::checkMulticast(dtile::StageOp stage,
                                             dtile::TileOp tileOp) {
  std::optional<ArrayRef<int64_t>> cluster = tileOp.getCluster();
  int64_t blocks = cluster ? llvm::product_of(*cluster) : 1;
  if (blocks != 2)
    return stage.emitOpError("is multicast, which the lowering supports in "
                             "clusters of 2 blocks; the tile's has ")
           << blocks;
  return success();
}

LogicalResult KernelLowering::lowerTmaStage(dtile::StageOp op, Value source) {
  Location loc = op.getLoc();
  SlabAlloc *alloc = tmaSlabs.lookup(op);
  if (!alloc)
    return op.emitOpError("tma stage outside the dtile.tile");
  SmallVector<Value> origin;
  Value slot;
  if (failed(lowerStagePlacement(op, origin, slot)))
    return failure();
  // The slab's previous contents may still be read (warp roles order the
  // readers through the slot's "empty" mbarrier instead).
  if (role == Role::Block && needsBarrierBefore(op))
    barrier(loc);
  Value mb = slot ? add(loc, slot, index(alloc->mbarrierBase))
                  : index(alloc->mbarrierBase);
  // Every thread notes the copy its next wait must cover (the producer
  // never waits for "full").
  if (role != Role::Producer)
    updateMaskBit(loc, tmaPending, mb, BitUpdate::set);
  auto descType = cast<dkernel::TmaDescriptorType>(alloc->descriptor.getType());
  int64_t parts = alloc->multicast ? 2 : 1;
  int64_t segments = alloc->slotViews.front().size() / parts;
  // One box per swizzle segment, all completing on the slot's mbarrier.
  // Multicast, this block's half of each, landing in both blocks.
  Value bothBlocks = alloc->multicast
                         ? constant(b.getIntegerAttr(b.getI16Type(), 0b11))
                         : Value();
  auto loadSlot = [&](ArrayRef<Value> views) {
    for (int64_t segment = 0; segment < segments; ++segment) {
      SmallVector<Value> coords(origin);
      coords.back() = add(loc, coords.back(),
                          index(segment * descType.getBoxShape().back()));
      if (!alloc->multicast) {
        dkernel::TmaLoadOp::create(b, loc, alloc->descriptor, coords,
                                   views[segment], mbarriers, mb,
                                   /*multicast=*/Value());
        continue;
      }
      for (int64_t half = 0; half < 2; ++half)
        ifThen(loc, cmpEq(loc, clusterRank, half), [&] {
          SmallVector<Value> at(coords);
          at[alloc->halfDim] =
              add(loc, at[alloc->halfDim],
                  index(half * descType.getBoxShape()[alloc->halfDim]));
          dkernel::TmaLoadOp::create(b, loc, alloc->descriptor, at,
                                     views[segment * 2 + half], mbarriers, mb,
                                     bothBlocks);
        });
    }
  };
  slabs[op.getResult()] = Slab{alloc, slot};
  // Consumers release the slot where the lock-step kernel would refill it:
  // the slab's readers are done with it there. Each warp syncs, and its
  // first thread releases the slot for the warp; a multicast slot also in
  // the peer block, whose producer fills half of it here.
  if (role == Role::Consumer) {
    Value empty = add(loc, mb, index(numMbarriers));
    dkernel::WarpSyncOp::create(b, loc);
    ifThen(loc, cmpEq(loc, rem(loc, tid, warpSize), 0), [&] {
      dkernel::MbarrierArriveOp::create(b, loc, mbarriers, empty);
      if (alloc->multicast)
        dkernel::MbarrierArriveClusterOp::create(b, loc, mbarriers, empty,
                                                 clusterPeer);
    });
    return success();
  }
  // The producer refills it once every consumer released it: fill j of a
  // slot waits for the j-th phase of its "empty" mbarrier.
  auto loadSlots = [&] {
    std::optional<int64_t> fixed =
        slot ? getConstantIntValue(slot) : std::optional<int64_t>(0);
    if (fixed)
      return loadSlot(alloc->slotViews[*fixed]);
    // tma_load writes a whole box-shaped view: pick the slot's.
    for (auto [i, views] : llvm::enumerate(alloc->slotViews))
      ifThen(loc, cmpEq(loc, slot, i),
             [&, &views = views] { loadSlot(views); });
  };
  if (alloc->multicast && role == Role::Block) {
    Value empty = add(loc, mb, index(numMbarriers));
    // The block is done with the slot here (the barrier above ordered its
    // readers): its thread 0 expects the whole slab's bytes, then releases
    // the slot in both blocks of the cluster.
    ifThen(loc, cmpEq(loc, tid, 0), [&] {
      dkernel::MbarrierArriveExpectTxOp::create(
          b, loc, mbarriers, mb, parts * segments * descType.getBoxBytes());
      dkernel::MbarrierArriveOp::create(b, loc, mbarriers, empty);
      dkernel::MbarrierArriveClusterOp::create(b, loc, mbarriers, empty,
                                               clusterPeer);
    });
    // Every thread waits until both blocks released it (a uniform wait,
    // like those for "full"); then this block's half may land in either.
    dkernel::MbarrierWaitOp::create(b, loc, mbarriers, empty,
                                    readMaskBit(loc, emptyPhase, mb));
    updateMaskBit(loc, emptyPhase, mb, BitUpdate::flip);
    ifThen(loc, cmpEq(loc, tid, 0), loadSlots);
    return success();
  }
  ifThen(loc, cmpEq(loc, tid, role == Role::Producer ? numThreads : 0), [&] {
    if (role == Role::Producer) {
      dkernel::MbarrierWaitOp::create(b, loc, mbarriers,
                                      add(loc, mb, index(numMbarriers)),
                                      readMaskBit(loc, emptyPhase, mb));
      updateMaskBit(loc, emptyPhase, mb, BitUpdate::flip);
    }
    // Multicast, the peer's half may land before this expect_tx (its
    // bytes count against the phase all the same).
    dkernel::MbarrierArriveExpectTxOp::create(
        b, loc, mbarriers, mb, parts * segments * descType.getBoxBytes());
    loadSlots();
  });
  return success();
}

Value KernelLowering::readMaskBit(Location loc, Value mask, Value mb) {
  Value bits = memref::LoadOp::create(b, loc, mask, ValueRange{});
  Value shift = arith::IndexCastOp::create(b, loc, b.getI64Type(), mb);
  Value bit =
      arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, bits, shift),
                            constant(b.getI64IntegerAttr(1)));
  return arith::TruncIOp::create(b, loc, b.getI32Type(), bit);
}

void KernelLowering::updateMaskBit(Location loc, Value mask, Value mb,
                                   BitUpdate update) {
  Value bits = memref::LoadOp::create(b, loc, mask, ValueRange{});
  Value shift = arith::IndexCastOp::create(b, loc, b.getI64Type(), mb);
  Value bit =
      arith::ShLIOp::create(b, loc, constant(b.getI64IntegerAttr(1)), shift);
  Value updated;
  switch (update) {
  case BitUpdate::set:
    updated = arith::OrIOp::create(b, loc, bits, bit);
    break;
  case BitUpdate::clear:
    updated = arith::AndIOp::create(
        b, loc, bits,
        arith::XOrIOp::create(b, loc, bit, constant(b.getI64IntegerAttr(-1))));
    break;
  case BitUpdate::flip:
    updated = arith::XOrIOp::create(b, loc, bits, bit);
    break;
  }
  memref::StoreOp::create(b, loc, updated, mask, ValueRange{});
}

void KernelLowering::waitForTma(Location loc, ArrayRef<Value> which) {
  Value zero = constant(b.getI32IntegerAttr(0));
  SmallVector<Value> all;
  if (which.empty()) {
    for (int64_t i = 0; i < numMbarriers; ++i)
      all.push_back(index(i));
    which = all;
  }
  for (Value mb : which) {
    Value issued =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                              readMaskBit(loc, tmaPending, mb), zero);
    // Uniform: every thread issued (or noted) the same copies. The pending
    // flag also keeps a barrier named twice from being waited on twice.
    ifThen(loc, issued, [&] {
      dkernel::MbarrierWaitOp::create(b, loc, mbarriers, mb,
                                      readMaskBit(loc, tmaPhase, mb));
      updateMaskBit(loc, tmaPhase, mb, BitUpdate::flip);
      updateMaskBit(loc, tmaPending, mb, BitUpdate::clear);
    });
  }
}

FailureOr<SmallVector<Value>>
KernelLowering::getTmaMbarriers(dtile::AsyncWaitOp op) {
  SmallVector<Value> which;
  for (Value slab : op.getSlabs()) {
    auto it = slabs.find(slab);
    if (it == slabs.end() || !it->second.alloc->descriptor)
      return op.emitOpError("names a slab that no TMA stage fills");
    Value base = index(it->second.alloc->mbarrierBase);
    Value slot = it->second.slot;
    which.push_back(slot ? add(op.getLoc(), slot, base) : base);
  }
  return which;
}
