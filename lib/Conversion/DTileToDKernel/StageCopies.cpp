//===- StageCopies.cpp - Sync and cp.async stages ---------------*- C++ -*-===//
//
// A sync stage copies its box through registers, spread over the threads; a
// cp.async stage in the widest aligned runs, committed as one group that
// dtile.async_wait waits for. Boxes that may reach past the source are
// zero-filled there. A transposed stage reads its box along the source's
// rows (coalesced) and writes each element at its transposed place in the
// slab, one element a copy.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

Value KernelLowering::applyStageRegion(dtile::StageOp op,
                                       ArrayRef<Value> elements) {
  Block *apply = op.getApplyBlock();
  IRMapping mapping;
  mapping.map(apply->getArguments(), elements);
  for (Operation &inner : apply->without_terminator())
    b.clone(inner, mapping);
  return mapping.lookup(apply->getTerminator()->getOperand(0));
}

Value KernelLowering::readStageElement(dtile::StageOp op, Value source,
                                       ValueRange index) {
  Location loc = op.getLoc();
  SmallVector<Value> elements{memref::LoadOp::create(b, loc, source, index)};
  if (!op.isComputed())
    return elements.front();
  // The apply buffers are read at the same index, and the region computes
  // the slab's element from the values.
  for (Value input : op.getInputs())
    elements.push_back(memref::LoadOp::create(b, loc, lookup(input), index));
  return applyStageRegion(op, elements);
}

/// The run (bytes) a computed stage reads and writes at once, where its
/// rows allow aligned runs of more than one element and every buffer it
/// reads and the slab have elements of one size; none otherwise. Its
/// values pass through registers, so a run is a vector load of each
/// buffer, the region per element, and a vector store.
static std::optional<int64_t> getComputedRunBytes(dtile::StageOp op) {
  if (!op.isComputed() || op.getZeroFill())
    return std::nullopt;
  auto bytesOf = [](Type type) {
    return (getElementTypeOrSelf(type).getIntOrFloatBitWidth() + 7) / 8;
  };
  int64_t bytes = bytesOf(op.getType());
  if (bytesOf(op.getSource().getType()) != bytes ||
      llvm::any_of(op.getInputs(),
                   [&](Value in) { return bytesOf(in.getType()) != bytes; }))
    return std::nullopt;
  std::optional<int64_t> run = op.getAlignedRunBytes();
  if (!run || *run == bytes)
    return std::nullopt;
  return run;
}

LogicalResult KernelLowering::lowerStage(dtile::StageOp op) {
  Location loc = op.getLoc();
  dtile::Transport transport = op.getTransport();
  if (transport == dtile::Transport::cp_async &&
      !target.has(GpuFeature::cp_async))
    return op.emitOpError("transport cp_async needs the 'cp_async' feature; "
                          "target ")
           << target.getName() << " lacks it";
  Value source = lookup(op.getSource());
  auto sourceArg = dyn_cast_or_null<BlockArgument>(source);
  if (!sourceArg || sourceArg.getOwner()->getParentOp() != func)
    return op.emitOpError("stages a buffer that is not a kernel buffer");
  if (transport == dtile::Transport::tma)
    return lowerTmaStage(op, source);
  auto sourceType = cast<MemRefType>(source.getType());
  Type element = sourceType.getElementType();
  Type slabElement = cast<MemRefType>(op.getType()).getElementType();
  ArrayRef<int64_t> box = op.getBox();
  int64_t rank = box.size();

  // Copies of `chunk` elements: one element for sync stages (a computed
  // one's aligned run where it has one); for cp.async and vector stages the
  // widest aligned run of 16, 8 or 4 bytes (8 or 16 for vector stages,
  // their verifier says).
  int64_t chunk = 1, bytes = 0;
  if (transport == dtile::Transport::cp_async ||
      transport == dtile::Transport::vector) {
    std::optional<int64_t> run = op.getCpAsyncRunBytes();
    if (!run)
      return op.emitOpError("cannot be copied with cp.async: no run of 4, 8 "
                            "or 16 bytes of ")
             << element << " is aligned in both the source and the slab";
    bytes = *run;
    chunk = bytes / dkernel::getScalarBytes(element);
  } else if (std::optional<int64_t> run = getComputedRunBytes(op)) {
    chunk = *run / dkernel::getScalarBytes(element);
  }

  SmallVector<Value> origin;
  Value slot;
  if (failed(lowerStagePlacement(op, origin, slot)))
    return failure();
  SlabAlloc *alloc = getSlabAlloc(op);

  if (needsBarrierBefore(op))
    barrier(loc);
  SmallVector<int64_t> chunks(box);
  if (rank)
    chunks.back() /= chunk;
  int64_t count = 1;
  for (int64_t c : chunks)
    count *= c;
  // With zero_fill, the dimensions whose box may reach past the source.
  SmallVector<bool> mayOverhang(rank, false);
  if (op.getZeroFill())
    for (int64_t d = 0; d < rank; ++d)
      mayOverhang[d] = op.mayOverhang(d);
  scf::ForOp copies = forEachCooperatively(loc, count, [&](Value e) {
    SmallVector<Value> coords = delinearize(loc, e, chunks);
    if (rank)
      coords.back() = mul(loc, coords.back(), chunk);
    SmallVector<Value> src, dst;
    if (slot && alloc->swizzle == 0)
      dst.push_back(slot);
    Value valid;
    for (auto [d, o, c] : llvm::enumerate(origin, coords)) {
      src.push_back(add(loc, o, c));
      dst.push_back(c);
      if (!mayOverhang[d])
        continue;
      // Runs never straddle the end: the source's inner extent is a
      // multiple of the run (checked above), and so is the run's start.
      Value inside = cmpLt(loc, src.back(), sourceType.getDimSize(d));
      valid = valid ? arith::AndIOp::create(b, loc, valid, inside) : inside;
    }
    // The two innermost slab dimensions are the box's swapped (runs are
    // one element: getCpAsyncRunBytes).
    if (op.getTranspose())
      std::swap(dst[dst.size() - 1], dst[dst.size() - 2]);
    // A run stays inside one 16-byte chunk, which the swizzle moves whole.
    if (alloc->swizzle != 0)
      dst = {swizzledSlabIndex(loc, *alloc, slot, coords)};
    if (transport == dtile::Transport::cp_async) {
      if (valid) {
        // The address is formed even when nothing is read: keep it inside.
        for (Value &i : src)
          i = arith::SelectOp::create(b, loc, valid, i, index(0));
      }
      dkernel::CpAsyncOp::create(b, loc, source, src, alloc->view, dst, valid,
                                 bytes);
      return;
    }
    if (chunk > 1 && transport == dtile::Transport::sync) {
      // A computed run (getComputedRunBytes): never guarded, as it does not
      // zero-fill.
      SmallVector<Type> types(chunk, element);
      SmallVector<SmallVector<Value>> runs{SmallVector<Value>(
          dkernel::VectorLoadOp::create(b, loc, types, source, src)
              .getResults())};
      for (Value input : op.getInputs()) {
        auto type = cast<MemRefType>(input.getType());
        SmallVector<Type> inputTypes(chunk, type.getElementType());
        runs.emplace_back(dkernel::VectorLoadOp::create(b, loc, inputTypes,
                                                        lookup(input), src)
                              .getResults());
      }
      SmallVector<Value> values;
      for (int64_t i = 0; i < chunk; ++i) {
        SmallVector<Value> elements;
        for (const SmallVector<Value> &run : runs)
          elements.push_back(run[i]);
        values.push_back(applyStageRegion(op, elements));
      }
      dkernel::VectorStoreOp::create(b, loc, values, alloc->view, dst);
      return;
    }
    if (transport == dtile::Transport::vector) {
      // Never guarded: a vector stage does not zero-fill (its verifier).
      dkernel::VectorCopyOp::create(b, loc, source, src, alloc->view, dst,
                                    bytes);
      return;
    }
    Value v;
    if (!valid) {
      v = readStageElement(op, source, src);
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{slabElement}, valid,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc,
                           ValueRange{readStageElement(op, source, src)});
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, constant(b.getZeroAttr(slabElement)));
      v = ifOp.getResult(0);
    }
    memref::StoreOp::create(b, loc, v, alloc->view, dst);
  });
  // A computed element waits for its loads and then computes: unrolled,
  // a thread issues the loads of all its elements before the first waits
  // (the loop's trips are those of its thread 0; the others' are no more).
  if (copies && op.isComputed())
    dkernel::setUnrollFactor(copies, llvm::divideCeil(count, numThreads));
  // wgmma reads the slab through the async proxy: each thread's generic
  // stores must be fenced for it before the barrier publishes them.
  if (transport != dtile::Transport::cp_async && wgmmaReadsSlabs)
    dkernel::FenceProxyAsyncOp::create(b, loc);
  if (transport == dtile::Transport::cp_async)
    dkernel::CpAsyncCommitOp::create(b, loc);
  else if (!nextIsSyncStage(op))
    barrier(loc);
  slabs[op.getResult()] = Slab{alloc, slot};
  return success();
}

LogicalResult KernelLowering::lowerAsyncWait(dtile::AsyncWaitOp op) {
  // One commit group per stage, so `keep` counts groups; the wait covers the
  // calling thread's copies, the barrier everybody's. A target without
  // cp.async has no cp.async stages (they are rejected), so only the
  // barrier remains.
  // A kernel's stages use cp.async or TMA, never both (the Tile rules see
  // to it). With TMA the named slabs' mbarriers are waited for, or every
  // pending copy, whatever `keep`; cp.async waits for every copy when slabs
  // are named (keep is 0 then).
  if (mbarriers) {
    FailureOr<SmallVector<Value>> which = getTmaMbarriers(op);
    if (failed(which))
      return failure();
    waitForTma(op.getLoc(), *which);
    // Consumers of a producer warp: each waited for the copies itself, and
    // releases the slot through its "empty" mbarrier, not a barrier. Nor
    // do warpgroup MMAs wait for the other threads (see needsBarrierBefore).
    if (role == Role::Consumer || !waitEndsWithBarrier(op))
      return success();
  } else if (target.has(GpuFeature::cp_async))
    dkernel::CpAsyncWaitOp::create(b, op.getLoc(), op.getKeep());
  barrier(op.getLoc());
  return success();
}
