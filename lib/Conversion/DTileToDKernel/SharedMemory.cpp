//===- SharedMemory.cpp - The shared-memory pool ----------------*- C++ -*-===//
//
// One pool per kernel: every stage (or rotation of stages) and every
// combine that needs scratch gets its own slice, 16-byte aligned (TMA boxes
// to their pattern's repeat), so phases never share scratch and need no
// extra barriers.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "Deplodock/Dialect/Common/Swizzle.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

Value KernelLowering::allocShared(Location loc, ArrayRef<int64_t> shape,
                                  Type element, int64_t alignment) {
  int64_t offset = llvm::alignTo(smemBytes, alignment);
  Value view = viewShared(loc, shape, element, offset);
  smemBytes = offset + cast<MemRefType>(view.getType()).getNumElements() *
                           dkernel::getScalarBytes(element);
  return view;
}

Value KernelLowering::viewShared(Location loc, ArrayRef<int64_t> shape,
                                 Type element, int64_t offset) {
  auto type = MemRefType::get(
      shape, element, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  OpBuilder ab(kernel.getContext());
  ab.setInsertionPointToEnd(&allocs);
  return dkernel::AllocSharedOp::create(ab, loc, type, offset);
}

SlabAlloc *KernelLowering::getSlabAlloc(dtile::StageOp op) {
  SmallVector<int64_t> box(op.getSlabShape()), pad = op.getPadding();
  int64_t buffers = op.getBuffers();
  // The stages of one rotation fill the slots of one allocation.
  if (buffers > 1)
    for (const std::unique_ptr<SlabAlloc> &alloc : slabAllocs)
      if (alloc->buffers == buffers && alloc->source == op.getSource() &&
          ValueRange(alloc->inputs) == op.getInputs() && alloc->box == box &&
          alloc->pad == pad && alloc->transpose == op.getTranspose() &&
          alloc->transport == op.getTransport() &&
          alloc->swizzle == op.getSwizzle())
        return alloc.get();
  SmallVector<int64_t> shape;
  if (buffers > 1)
    shape.push_back(buffers);
  for (auto [extent, padding] : llvm::zip(box, pad))
    shape.push_back(extent + padding);
  int64_t swizzle = op.getSwizzle();
  if (swizzle != 0)
    shape = {ShapedType::getNumElements(shape)};
  auto alloc = std::make_unique<SlabAlloc>();
  // A TMA copy writes 128-byte aligned boxes, and a swizzled one boxes
  // aligned to the pattern's repeat; wgmma's descriptors swizzle by the
  // same address bits, whoever wrote the slab.
  int64_t alignment = kSmemAlignment;
  if (op.getTransport() == dtile::Transport::tma ||
      (swizzle != 0 && wgmmaReadsSlabs))
    alignment = getTmaBoxAlignment(swizzle);
  alloc->view =
      allocShared(op.getLoc(), shape,
                  cast<MemRefType>(op.getType()).getElementType(), alignment);
  alloc->swizzle = swizzle;
  alloc->buffers = buffers;
  alloc->source = op.getSource();
  alloc->inputs = llvm::to_vector(op.getInputs());
  alloc->box = box;
  alloc->pad = pad;
  alloc->transpose = op.getTranspose();
  alloc->transport = op.getTransport();
  slabAllocs.push_back(std::move(alloc));
  return slabAllocs.back().get();
}

void KernelLowering::ifThen(Location loc, Value cond,
                            function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

scf::ForOp
KernelLowering::forEachCooperatively(Location loc, int64_t count,
                                     function_ref<void(Value)> body) {
  if (count == numThreads) {
    body(tid);
    return {};
  }
  if (count < numThreads) {
    ifThen(loc, cmpLt(loc, tid, count), [&] { body(tid); });
    return {};
  }
  auto loop = scf::ForOp::create(b, loc, tid, index(count), index(numThreads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
  return loop;
}
