//===- ReductionOps.cpp - Warp, block and atomic reductions -----*- C++ -*-===//
//
// The ops that combine values across threads: warp shuffles, tree halving in
// shared memory, and atomics on global buffers.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

//===----------------------------------------------------------------------===//
// WarpReduceOp
//===----------------------------------------------------------------------===//

LogicalResult WarpReduceOp::verify() {
  int64_t width = getWidth();
  if (width < 2 || width > 32 || !llvm::isPowerOf2_64(width))
    return emitOpError("width must be a power of two in [2, 32], got ")
           << width;
  return verifyReduceKind(*this, getKind(), getType());
}

//===----------------------------------------------------------------------===//
// TreeReduceOp
//===----------------------------------------------------------------------===//

LogicalResult TreeReduceOp::verify() {
  auto type = cast<MemRefType>(getBuffer().getType());
  if (type.getRank() != 1 || !isSharedMemory(type))
    return emitOpError("buffer must be a rank-1 memref in workgroup memory, "
                       "got ")
           << type;
  if (type.getElementType() != getType())
    return emitOpError("result type ")
           << getType() << " differs from the buffer's element type "
           << type.getElementType();
  int64_t length = getLength();
  if (length < 2 || !llvm::isPowerOf2_64(length))
    return emitOpError("length must be a power of two >= 2, got ") << length;
  if (length > type.getDimSize(0))
    return emitOpError("length ") << length << " exceeds the buffer's "
                                  << type.getDimSize(0) << " elements";
  // The first step has length / 2 threads each fold one pair.
  auto kernel = (*this)->getParentOfType<FuncOp>();
  if (kernel && length / 2 > kernel.getNumThreads())
    return emitOpError("length ")
           << length << " needs " << length / 2
           << " threads, but the block has " << kernel.getNumThreads();
  return verifyReduceKind(*this, getKind(), getType());
}

//===----------------------------------------------------------------------===//
// AtomicStoreOp
//===----------------------------------------------------------------------===//

LogicalResult AtomicStoreOp::verify() {
  auto type = cast<MemRefType>(getMemref().getType());
  if (!isGlobalMemory(type))
    return emitOpError("buffer must be in global memory (no memory space), "
                       "got ")
           << type;
  if (getIndices().size() != static_cast<size_t>(type.getRank()))
    return emitOpError("expected ")
           << type.getRank() << " indices, one per dimension, got "
           << getIndices().size();
  // CUDA has no 8-bit atomics, not even compare-and-swap.
  if (getScalarBytes(type.getElementType()) < 2)
    return emitOpError("atomics need elements of 2, 4 or 8 bytes, got ")
           << type.getElementType();
  return verifyReduceKind(*this, getKind(), type.getElementType());
}
