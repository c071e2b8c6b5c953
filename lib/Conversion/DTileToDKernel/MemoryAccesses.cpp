//===- MemoryAccesses.cpp - Loads, stores and slab reads --------*- C++ -*-===//
//
// Global accesses lower to memref loads and stores (reducing stores to
// atomics); slab reads index the slab's slice, through the slot of a
// rotation and the XOR of a swizzle.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

Value KernelLowering::swizzledSlabIndex(Location loc, const SlabAlloc &alloc,
                                        Value slot, ArrayRef<Value> coords) {
  ArrayRef<int64_t> box = alloc.box;
  int64_t elementBytes = dkernel::getScalarBytes(
      cast<MemRefType>(alloc.view.getType()).getElementType());
  int64_t perSegment = alloc.swizzle / elementBytes;
  int64_t rows = ShapedType::getNumElements(box.drop_back());
  // The dense offset in the segmented slab (getSwizzledSlabOffset).
  Value row = index(0);
  for (auto [extent, coord] : llvm::zip(box.drop_back(), coords.drop_back()))
    row = add(loc, mul(loc, row, extent), coord);
  Value inner = coords.back();
  Value dense =
      add(loc,
          add(loc, mul(loc, div(loc, inner, perSegment), rows * perSegment),
              mul(loc, row, perSegment)),
          rem(loc, inner, perSegment));
  if (slot)
    dense = add(loc, mul(loc, slot, rows * box.back()), dense);
  if (std::optional<int64_t> known = getConstantIntValue(dense))
    return index(swizzleByteOffset(*known * elementBytes, alloc.swizzle) /
                 elementBytes);
  // The 16-byte chunk index XOR the 128-byte line index modulo swizzle / 16.
  Value line =
      rem(loc, div(loc, dense, 128 / elementBytes), alloc.swizzle / 16);
  return arith::XOrIOp::create(b, loc, dense,
                               mul(loc, line, 16 / elementBytes));
}

Value KernelLowering::slabAccess(Location loc, const Slab &slab,
                                 SmallVectorImpl<Value> &indices) {
  const SlabAlloc &alloc = *slab.alloc;
  if (alloc.swizzle != 0) {
    Value index = swizzledSlabIndex(loc, alloc, slab.slot, indices);
    indices.assign({index});
  } else if (alloc.buffers > 1) {
    indices.insert(indices.begin(), slab.slot);
  }
  return alloc.view;
}

LogicalResult KernelLowering::lowerLdMatrix(dkernel::LdMatrixOp op) {
  auto it = slabs.find(op.getSrc());
  if (it == slabs.end())
    return op.emitOpError("reads a buffer that is not a staged slab");
  FailureOr<SmallVector<Value>> indices = lookupAll(op.getIndices(), op);
  if (failed(indices))
    return failure();
  // A row is 16 aligned bytes, so a swizzle (which moves 16-byte chunks)
  // keeps it whole.
  Value view = slabAccess(op.getLoc(), it->second, *indices);
  auto load = dkernel::LdMatrixOp::create(b, op.getLoc(), op.getResultTypes(),
                                          op.getTrans(), view, *indices);
  values.map(op.getResults(), load.getResults());
  return success();
}

LogicalResult KernelLowering::lowerVectorLoad(dkernel::VectorLoadOp op) {
  FailureOr<SmallVector<Value>> indices = lookupAll(op.getIndices(), op);
  if (failed(indices))
    return failure();
  Value memref;
  if (auto it = slabs.find(op.getSrc()); it != slabs.end())
    memref = slabAccess(op.getLoc(), it->second, *indices);
  else
    memref = lookup(op.getSrc());
  if (!memref)
    return op.emitOpError("reads a buffer that has no Kernel IR form");
  auto load = dkernel::VectorLoadOp::create(b, op.getLoc(), op.getResultTypes(),
                                            memref, *indices);
  values.map(op.getResults(), load.getResults());
  return success();
}

LogicalResult KernelLowering::lowerVectorStore(dkernel::VectorStoreOp op) {
  if (slabs.count(op.getDst()))
    return op.emitOpError("writes a staged slab; slabs are read-only");
  FailureOr<SmallVector<Value>> stored = lookupAll(op.getValues(), op);
  if (failed(stored))
    return failure();
  FailureOr<SmallVector<Value>> indices = lookupAll(op.getIndices(), op);
  if (failed(indices))
    return failure();
  Value memref = lookup(op.getDst());
  if (!memref)
    return op.emitOpError("writes a buffer that has no Kernel IR form");
  dkernel::VectorStoreOp::create(b, op.getLoc(), *stored, memref, *indices);
  return success();
}

LogicalResult KernelLowering::lowerLoad(dloop::LoadOp op) {
  Location loc = op.getLoc();
  FailureOr<SmallVector<Value>> indices =
      expandMap(loc, op.getMap(), op.getIndices(), op);
  if (failed(indices))
    return failure();
  Value memref;
  if (auto it = slabs.find(op.getMemref()); it != slabs.end())
    memref = slabAccess(loc, it->second, *indices);
  else
    memref = lookup(op.getMemref());
  if (!memref)
    return op.emitOpError("reads a buffer that has no Kernel IR form");
  values.map(op.getResult(),
             memref::LoadOp::create(b, loc, memref, *indices).getResult());
  return success();
}

LogicalResult KernelLowering::lowerStore(dloop::StoreOp op) {
  Location loc = op.getLoc();
  if (slabs.count(op.getMemref()))
    return op.emitOpError("writes a staged slab; slabs are read-only");
  Value memref = lookup(op.getMemref());
  Value value = lookup(op.getValue());
  if (!memref || !value)
    return op.emitOpError("stores to a buffer that has no Kernel IR form");
  FailureOr<SmallVector<Value>> indices =
      expandMap(loc, op.getMap(), op.getIndices(), op);
  if (failed(indices))
    return failure();
  if (std::optional<ReduceKind> kind = op.getReduceKind()) {
    Type element = op.getMemRefType().getElementType();
    if (dkernel::getScalarBytes(element) < 2)
      return op.emitOpError("reduces into ")
             << element
             << " elements, but atomics need elements of 2, 4 or 8 bytes";
    dkernel::AtomicStoreOp::create(b, loc, *kind, value, memref, *indices);
    return success();
  }
  memref::StoreOp::create(b, loc, value, memref, *indices);
  return success();
}

LogicalResult KernelLowering::lowerPrivateBuffer(memref::AllocaOp op) {
  // The Loop verifier admits only static private buffers, which every
  // thread allocates for itself.
  values.map(
      op.getResult(),
      memref::AllocaOp::create(b, op.getLoc(), op.getType()).getResult());
  return success();
}

LogicalResult KernelLowering::lowerApply(affine::AffineApplyOp op) {
  FailureOr<SmallVector<Value>> result =
      expandMap(op.getLoc(), op.getAffineMap(), op.getMapOperands(), op);
  if (failed(result))
    return failure();
  values.map(op.getResult(), result->front());
  return success();
}
