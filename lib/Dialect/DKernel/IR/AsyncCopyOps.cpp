//===- AsyncCopyOps.cpp - cp.async, mbarrier and TMA ops --------*- C++ -*-===//
//
// The ops that move data from global to shared memory asynchronously:
// cp.async (sm_80) and TMA with its mbarriers (sm_90).
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

/// `64x32`.
static std::string formatShape(ArrayRef<int64_t> shape) {
  return llvm::join(
      llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), "x");
}

/// Verifies the operand holding mbarriers: a rank-1 shared buffer of i64.
static LogicalResult verifyMbarriers(Operation *op, Value mbarriers) {
  auto type = cast<MemRefType>(mbarriers.getType());
  if (type.getRank() != 1 || !type.getElementType().isInteger(64) ||
      !isSharedMemory(type))
    return op->emitOpError("mbarriers must be a rank-1 memref of i64 in "
                           "workgroup memory, got ")
           << type;
  return success();
}

//===----------------------------------------------------------------------===//
// CpAsyncOp
//===----------------------------------------------------------------------===//

/// Verifies a copy of a run of `bytes` (one of `allowed`) from
/// `src[srcIndices]` to `dst[dstIndices]`: index counts, one element type,
/// whole elements inside one innermost row.
static LogicalResult verifyRunCopy(Operation *op, Value src,
                                   ValueRange srcIndices, Value dst,
                                   ValueRange dstIndices, int64_t bytes,
                                   ArrayRef<int64_t> allowed) {
  auto srcType = cast<MemRefType>(src.getType());
  auto dstType = cast<MemRefType>(dst.getType());
  if (srcIndices.size() != static_cast<size_t>(srcType.getRank()))
    return op->emitOpError("expected ")
           << srcType.getRank() << " source indices, one per dimension, got "
           << srcIndices.size();
  if (dstIndices.size() != static_cast<size_t>(dstType.getRank()))
    return op->emitOpError("expected ")
           << dstType.getRank()
           << " destination indices, one per dimension, got "
           << dstIndices.size();
  Type element = srcType.getElementType();
  if (dstType.getElementType() != element)
    return op->emitOpError("source element type ")
           << element << " differs from the destination's "
           << dstType.getElementType();
  if (!llvm::is_contained(allowed, bytes))
    return op->emitOpError("bytes must be ")
           << (allowed.size() == 3 ? "4, 8 or 16" : "8 or 16") << ", got "
           << bytes;
  int64_t elementBytes = getScalarBytes(element);
  if (bytes % elementBytes != 0)
    return op->emitOpError("bytes ")
           << bytes << " is not a multiple of the element size "
           << elementBytes;
  // The copied run is contiguous, so it stays inside one innermost row.
  int64_t count = bytes / elementBytes;
  for (MemRefType type : {srcType, dstType})
    if (type.getRank() > 0 && type.getShape().back() < count)
      return op->emitOpError("copies ")
             << count << " elements, more than the innermost dimension of "
             << type;
  return success();
}

LogicalResult CpAsyncOp::verify() {
  auto srcType = cast<MemRefType>(getSrc().getType());
  auto dstType = cast<MemRefType>(getDst().getType());
  if (!isGlobalMemory(srcType))
    return emitOpError("source must be in global memory (no memory space), "
                       "got ")
           << srcType;
  if (!isSharedMemory(dstType))
    return emitOpError("destination must be in workgroup memory, got ")
           << dstType;
  return verifyRunCopy(*this, getSrc(), getSrcIndices(), getDst(),
                       getDstIndices(), getBytes(), {4, 8, 16});
}

//===----------------------------------------------------------------------===//
// VectorCopyOp
//===----------------------------------------------------------------------===//

LogicalResult VectorCopyOp::verify() {
  return verifyRunCopy(*this, getSrc(), getSrcIndices(), getDst(),
                       getDstIndices(), getBytes(), {8, 16});
}

//===----------------------------------------------------------------------===//
// CpAsyncWaitOp
//===----------------------------------------------------------------------===//

LogicalResult CpAsyncWaitOp::verify() {
  if (getPending() < 0)
    return emitOpError("pending group count must be non-negative, got ")
           << getPending();
  return success();
}

//===----------------------------------------------------------------------===//
// mbarrier ops
//===----------------------------------------------------------------------===//

/// The PTX limit on arrival counts and transaction bytes: 2^20 - 1.
static constexpr int64_t kMbarrierCountLimit = (1 << 20) - 1;

LogicalResult MbarrierInitOp::verify() {
  if (getCount() < 1 || getCount() > kMbarrierCountLimit)
    return emitOpError("arrival count must be in [1, ")
           << kMbarrierCountLimit << "], got " << getCount();
  return verifyMbarriers(*this, getMbarriers());
}

LogicalResult MbarrierArriveExpectTxOp::verify() {
  if (getBytes() < 1 || getBytes() > kMbarrierCountLimit)
    return emitOpError("transaction bytes must be in [1, ")
           << kMbarrierCountLimit << "], got " << getBytes();
  return verifyMbarriers(*this, getMbarriers());
}

LogicalResult MbarrierArriveOp::verify() {
  return verifyMbarriers(*this, getMbarriers());
}

LogicalResult MbarrierWaitOp::verify() {
  return verifyMbarriers(*this, getMbarriers());
}

//===----------------------------------------------------------------------===//
// TmaDescriptorOp
//===----------------------------------------------------------------------===//

unsigned TmaDescriptorOp::getDescriptorIndex() {
  return cast<BlockArgument>(getDescriptor()).getArgNumber();
}

unsigned TmaDescriptorOp::getBufferIndex() {
  return cast<BlockArgument>(getBuffer()).getArgNumber();
}

/// Whether `value` is a parameter of the kernel `op` sits in.
static bool isKernelParameter(Operation *op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner()->getParentOp() == op->getParentOp();
}

LogicalResult TmaDescriptorOp::verify() {
  if (!isKernelParameter(*this, getDescriptor()))
    return emitOpError("descriptor must be a parameter of the kernel");
  if (!isKernelParameter(*this, getBuffer()))
    return emitOpError("buffer must be a parameter of the kernel");
  TmaDescriptorType desc = getDescriptorType();
  auto buffer = cast<MemRefType>(getBuffer().getType());
  if (desc.getRank() != buffer.getRank())
    return emitOpError("descriptor rank ")
           << desc.getRank() << " differs from the buffer's rank "
           << buffer.getRank();
  if (desc.getElementType() != buffer.getElementType())
    return emitOpError("descriptor element type ")
           << desc.getElementType() << " differs from the buffer's "
           << buffer.getElementType();
  // A box may reach past the buffer's end (TMA fills what lies outside
  // with zeros), so it is not checked against the buffer's extents.
  // cuTensorMapEncodeTiled takes row strides in multiples of 16 bytes.
  int64_t rowBytes = buffer.getShape().back() * desc.getElementBytes();
  if (buffer.getRank() > 1 && rowBytes % 16 != 0)
    return emitOpError("buffer rows span ")
           << rowBytes << " bytes; TMA needs a multiple of 16";
  return success();
}

//===----------------------------------------------------------------------===//
// TmaLoadOp
//===----------------------------------------------------------------------===//

LogicalResult TmaLoadOp::verify() {
  TmaDescriptorType desc = getDescriptorType();
  if (getCoords().size() != desc.getRank())
    return emitOpError("expected ")
           << desc.getRank()
           << " coordinates, one per descriptor dimension, got "
           << getCoords().size();
  auto dst = cast<MemRefType>(getDst().getType());
  if (!isSharedMemory(dst))
    return emitOpError("destination must be in workgroup memory, got ") << dst;
  if (dst.getShape() != desc.getBoxShape())
    return emitOpError("destination shape ")
           << formatShape(dst.getShape()) << " differs from the box shape "
           << formatShape(desc.getBoxShape());
  if (dst.getElementType() != desc.getElementType())
    return emitOpError("destination element type ")
           << dst.getElementType() << " differs from the descriptor's "
           << desc.getElementType();
  // The bulk copy writes shared memory in 128-byte aligned boxes; a swizzle
  // permutes address bits, so its box starts where the pattern does.
  int64_t alignment = getTmaBoxAlignment(desc.getSwizzle());
  if (auto alloc = getDst().getDefiningOp<AllocSharedOp>())
    if (alloc.getOffset() % alignment != 0)
      return emitOpError("destination offset ")
             << alloc.getOffset() << " is not a multiple of " << alignment
             << " bytes";
  if (failed(verifyMbarriers(*this, getMbarriers())))
    return failure();
  return verifyMulticast();
}
