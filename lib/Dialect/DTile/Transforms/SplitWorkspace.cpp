//===- SplitWorkspace.cpp - Splits that meet through a workspace ----------===//
//
// See SplitWorkspace.h.
//
//===----------------------------------------------------------------------===//

#include "SplitWorkspace.h"
#include "TileUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The most threads per block of a second kernel.
static constexpr int64_t kSecondKernelThreads = 256;

std::optional<int64_t> dtile::workspaceElements(KernelOp kernel, int64_t splits,
                                                int64_t inner) {
  int64_t elements = splits;
  if (llvm::MulOverflow(elements, inner, elements))
    return std::nullopt;
  for (int64_t extent : kernel.getTile().getBlockExtents())
    if (llvm::MulOverflow(elements, extent, elements))
      return std::nullopt;
  return elements;
}

bool dtile::workspaceFitsIndices(KernelOp kernel, int64_t splits,
                                 int64_t inner) {
  std::optional<int64_t> elements = workspaceElements(kernel, splits, inner);
  return elements && *elements <= std::numeric_limits<int32_t>::max();
}

Value dtile::allocWorkspace(KernelOp kernel, ArrayRef<int64_t> shape,
                            Type type) {
  OpBuilder b(kernel);
  return memref::AllocOp::create(b, kernel.getLoc(),
                                 MemRefType::get(shape, type));
}

ValueRange dtile::appendBuffers(KernelOp kernel, ValueRange buffers,
                                bool asInputs) {
  Block &body = kernel.getBody().front();
  unsigned at = asInputs ? kernel.getInputs().size() : body.getNumArguments();
  for (auto [i, buffer] : llvm::enumerate(buffers))
    body.insertArgument(at + i, buffer.getType(), buffer.getLoc());
  (asInputs ? kernel.getInputsMutable() : kernel.getOutputsMutable())
      .append(buffers);
  return body.getArguments().slice(at, buffers.size());
}

void dtile::dropUnusedBuffers(KernelOp kernel) {
  Block &body = kernel.getBody().front();
  unsigned inputs = kernel.getInputs().size();
  for (unsigned i = body.getNumArguments(); i-- > 0;) {
    if (!body.getArgument(i).use_empty())
      continue;
    body.eraseArgument(i);
    if (i < inputs)
      kernel.getInputsMutable().erase(i);
    else
      kernel.getOutputsMutable().erase(i - inputs);
  }
}

FailureOr<KernelOp> dtile::cloneSecondKernel(KernelOp kernel, StringRef suffix,
                                             IRMapping &mapping) {
  auto module = kernel->getParentOfType<ModuleOp>();
  std::string name = (kernel.getSymName() + suffix).str();
  bool taken = false;
  module.walk([&](KernelOp other) { taken |= other.getSymName() == name; });
  if (taken)
    return failure();
  OpBuilder b(kernel);
  b.setInsertionPointAfter(kernel);
  auto second = cast<KernelOp>(b.clone(*kernel, mapping));
  second.setSymName(name);
  second.setKnobsAttr(
      KnobsAttr::get(b.getContext(), ArrayRef<NamedAttribute>{}));
  return second;
}

/// Threads of a second kernel: warps up to the points rounded up to a
/// power of two, at most kSecondKernelThreads; fewer points than a warp
/// share one block.
static int64_t secondKernelThreads(int64_t points) {
  if (points < 32)
    return points;
  return std::min<int64_t>(kSecondKernelThreads, llvm::PowerOf2Ceil(points));
}

/// The most threads from `threads` halving down to a warp that deal
/// `extents` evenly; `threads` (masked) when none does.
static int64_t evenThreads(ArrayRef<int64_t> extents, int64_t threads) {
  for (int64_t t = threads; t >= 32; t /= 2)
    if (dealsRowsEvenly(extents, t))
      return t;
  return threads;
}

LogicalResult dtile::mapSecondKernel(KernelOp kernel, bool even) {
  cleanupKernel(kernel);
  dropUnusedBuffers(kernel);
  ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
  int64_t count = product(extents);
  int64_t threads = secondKernelThreads(count);
  if (even)
    threads = evenThreads(extents, threads);
  if (count > 1 && failed(dealRowsToThreads(kernel, threads)))
    return failure();
  cleanupKernel(kernel);
  return success();
}
