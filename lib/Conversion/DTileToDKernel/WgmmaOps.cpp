//===- WgmmaOps.cpp - Warpgroup MMA on staged slabs -------------*- C++ -*-===//
//
// The wgmma_async rule's Kernel ops pass through, but a descriptor names a
// slab: it becomes a descriptor of the slab's shared slice at the element
// the slab read would index (through the slot and the swizzle, whose
// pattern the descriptor's swizzle mode then reproduces from the address).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

LogicalResult KernelLowering::lowerWgmmaDesc(dkernel::WgmmaDescOp op) {
  auto it = slabs.find(op.getSrc());
  if (it == slabs.end())
    return op.emitOpError("describes a buffer that is not a staged slab");
  if (it->second.alloc->swizzle != op.getSwizzle())
    return op.emitOpError("describes a slab in swizzle ")
           << op.getSwizzle() << ", but the slab is staged with swizzle "
           << it->second.alloc->swizzle;
  FailureOr<SmallVector<Value>> indices = lookupAll(op.getIndices(), op);
  if (failed(indices))
    return failure();
  Value view = slabAccess(op.getLoc(), it->second, *indices);
  auto desc =
      dkernel::WgmmaDescOp::create(b, op.getLoc(), op.getType(), view, *indices,
                                   op.getSwizzle(), op.getLbo(), op.getSbo());
  values.map(op.getResult(), desc.getResult());
  return success();
}
