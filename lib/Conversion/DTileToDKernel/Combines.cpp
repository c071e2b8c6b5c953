//===- Combines.cpp - Combining values across threads -----------*- C++ -*-===//
//
// A dtile.combine over the innermost thread axes folds groups of G
// consecutive threads: warp shuffles for a power of two up to a warp, warp
// partials folded by the first warp for multiples of a warp, a tree over
// the whole block, else one thread per group through shared memory. Half
// sums and products are combined in f32.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

/// Whether `op` runs repeatedly within its tile.
static bool isInLoop(Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<dtile::TileOp>(parent); parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return true;
  return false;
}

LogicalResult KernelLowering::lowerCombine(dtile::CombineOp op) {
  Type type = op.getValue().getType();
  if (type.isInteger(1) || !dkernel::isKernelScalar(type))
    return op.emitOpError("cannot combine values of type ")
           << type << " in Kernel IR";
  Value value = lookup(op.getValue());
  if (!value)
    return op.emitOpError("combines a value that has no Kernel IR form");

  // The threads sharing a result are contiguous exactly when the combined
  // axes are the innermost non-unit ones: groups of `group` consecutive
  // linear ids, aligned to multiples of `group`.
  llvm::StringSet<> over;
  for (Attribute name : op.getOver())
    over.insert(cast<StringAttr>(name).getValue());
  int64_t group = 1;
  bool combining = false;
  for (auto [name, extent] :
       llvm::zip(tile.getThreadAxes(), tile.getThreadExtents())) {
    if (extent == 1)
      continue;
    if (over.contains(cast<StringAttr>(name).getValue())) {
      combining = true;
      group *= extent;
    } else if (combining) {
      return op.emitOpError("combines over thread axes that are not the "
                            "innermost ones (")
             << tile.getThreadAxes()
             << "), so the threads sharing a result are not contiguous lanes";
    }
  }
  if (group == 1) {
    values.map(op.getResult(), value);
    return success();
  }

  Location loc = op.getLoc();
  // Half-precision sums and products accumulate in f32 and round once;
  // extremes are exact in any precision.
  bool widen =
      isa<Float16Type, BFloat16Type>(type) &&
      (op.getKind() == ReduceKind::add || op.getKind() == ReduceKind::mul);
  if (widen) {
    type = b.getF32Type();
    value = arith::ExtFOp::create(b, loc, type, value);
  }
  bool shuffles =
      isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type) ||
      type.isInteger(32) || type.isInteger(64);
  bool fullWarps = numThreads % warpSize == 0;
  Value result;
  if (shuffles && fullWarps && group <= warpSize && llvm::isPowerOf2_64(group))
    result = dkernel::WarpReduceOp::create(b, loc, op.getKind(), value, group);
  else if (shuffles && fullWarps && group % warpSize == 0)
    result = combineThroughWarps(op, value, group);
  else if (group == numThreads)
    result = combineByTree(op, value);
  else
    result = combineSequentially(op, value, group);
  if (widen)
    result = arith::TruncFOp::create(b, loc, op.getValue().getType(), result);
  values.map(op.getResult(), result);
  return success();
}

Value KernelLowering::combineThroughWarps(dtile::CombineOp op, Value value,
                                          int64_t group) {
  Location loc = op.getLoc();
  Type type = value.getType();
  ReduceKind kind = op.getKind();
  int64_t warps = numThreads / warpSize;
  int64_t perGroup = group / warpSize; // partials per group, >= 2
  int64_t groups = numThreads / group;
  Value partials = allocShared(loc, {warps}, type);
  Value results = allocShared(loc, {groups}, type);
  Value lane = rem(loc, tid, warpSize);
  Value warp = div(loc, tid, warpSize);

  // Every warp folds its lanes; lane 0 publishes the warp's partial.
  Value folded = dkernel::WarpReduceOp::create(b, loc, kind, value, warpSize);
  ifThen(loc, cmpEq(loc, lane, 0),
         [&] { memref::StoreOp::create(b, loc, folded, partials, warp); });
  barrier(loc);

  // The first warp folds each group's partials and publishes the result.
  ifThen(loc, cmpEq(loc, warp, 0), [&] {
    int64_t width = llvm::PowerOf2Ceil(perGroup);
    int64_t used = groups * width;
    if (used <= warpSize) {
      // Lane l holds partial l % width of group l / width; a group padded to
      // a power of two gets the identity. Lanes past the groups compute
      // garbage that nobody stores.
      bool padded = width != perGroup;
      Value j = padded || groups > 1 ? rem(loc, lane, width) : Value();
      Value g = groups == 1 ? index(0) : div(loc, lane, width);
      Value x;
      if (!padded) {
        Value slot = used == warpSize ? lane : rem(loc, lane, used);
        x = memref::LoadOp::create(b, loc, partials, slot);
      } else {
        Value valid = cmpLt(loc, j, perGroup);
        if (used < warpSize)
          valid = arith::AndIOp::create(b, loc, valid, cmpLt(loc, lane, used));
        Value slot = add(loc, mul(loc, g, perGroup), j);
        slot = arith::SelectOp::create(b, loc, valid, slot, index(0));
        Value loaded = memref::LoadOp::create(b, loc, partials, slot);
        x = arith::SelectOp::create(b, loc, valid, loaded,
                                    constant(getReduceIdentity(kind, type)));
      }
      Value total = dkernel::WarpReduceOp::create(b, loc, kind, x, width);
      Value leader = groups == 1 ? cmpEq(loc, lane, 0) : cmpEq(loc, j, 0);
      if (groups > 1 && used < warpSize)
        leader = arith::AndIOp::create(b, loc, leader, cmpLt(loc, lane, used));
      ifThen(loc, leader,
             [&] { memref::StoreOp::create(b, loc, total, results, g); });
      return;
    }
    // Too many groups for one warp's shuffles: lane g folds group g.
    ifThen(loc, cmpLt(loc, lane, groups), [&] {
      Value base = mul(loc, lane, perGroup);
      Value first = memref::LoadOp::create(b, loc, partials, base);
      auto loop = scf::ForOp::create(b, loc, index(1), index(perGroup),
                                     index(1), ValueRange{first});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value next = memref::LoadOp::create(
            b, loc, partials, add(loc, base, loop.getInductionVar()));
        Value acc = buildCombiner(b, loc, kind, loop.getRegionIterArg(0), next);
        scf::YieldOp::create(b, loc, acc);
      }
      memref::StoreOp::create(b, loc, loop.getResult(0), results, lane);
    });
  });
  barrier(loc);
  Value slot = groups == 1 ? index(0) : div(loc, tid, group);
  return memref::LoadOp::create(b, loc, results, slot);
}

Value KernelLowering::combineByTree(dtile::CombineOp op, Value value) {
  Location loc = op.getLoc();
  Type type = value.getType();
  int64_t length = llvm::PowerOf2Ceil(numThreads);
  Value buffer = allocShared(loc, {length}, type);
  // The tree folds in place and everyone reads element 0 after it: in a
  // loop, the previous round's readers must be done before it is written.
  if (isInLoop(op))
    barrier(loc);
  memref::StoreOp::create(b, loc, value, buffer, tid);
  // Pad to a power of two with the identity (fewer than numThreads slots).
  if (length > numThreads)
    ifThen(loc, cmpLt(loc, tid, length - numThreads), [&] {
      memref::StoreOp::create(b, loc,
                              constant(getReduceIdentity(op.getKind(), type)),
                              buffer, add(loc, tid, index(numThreads)));
    });
  barrier(loc);
  return dkernel::TreeReduceOp::create(b, loc, op.getKind(), buffer, length);
}

Value KernelLowering::combineSequentially(dtile::CombineOp op, Value value,
                                          int64_t group) {
  Location loc = op.getLoc();
  Type type = value.getType();
  int64_t groups = numThreads / group;
  Value buffer = allocShared(loc, {numThreads}, type);
  Value results = allocShared(loc, {groups}, type);
  memref::StoreOp::create(b, loc, value, buffer, tid);
  barrier(loc);
  ifThen(loc, cmpLt(loc, tid, groups), [&] {
    Value base = mul(loc, tid, group);
    Value first = memref::LoadOp::create(b, loc, buffer, base);
    auto loop = scf::ForOp::create(b, loc, index(1), index(group), index(1),
                                   ValueRange{first});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value next = memref::LoadOp::create(
          b, loc, buffer, add(loc, base, loop.getInductionVar()));
      Value acc =
          buildCombiner(b, loc, op.getKind(), loop.getRegionIterArg(0), next);
      scf::YieldOp::create(b, loc, acc);
    }
    memref::StoreOp::create(b, loc, loop.getResult(0), results, tid);
  });
  barrier(loc);
  return memref::LoadOp::create(b, loc, results, div(loc, tid, group));
}
