//===- SplitKWorkspace.cpp - Split-K partial sums through a workspace -----===//
//
// The workspace form of split_matmul_k: every split block stores its partial
// sums (f32 or f64) to a workspace [split_k, block extents...], one
// `memref.alloc` per sum the chunk loop carries, and a second kernel,
// `@<kernel>_split_sum`, sums the splits of each output point in order,
// split 0 first, then runs the epilogue the matmul kernel had (residual
// loads, SiLU, products, the rounding to f16 or bf16) and stores the
// outputs. No atomics and no zeroed outputs: the result does not depend on
// the order blocks run in, the sum stays in f32 until the epilogue rounds
// it once, and any pointwise epilogue is legal.
//
// The sum kernel is born mapped (its innermost point axes over up to 256
// threads, as blockify_launch maps pointwise kernels, so the workspace's
// last dimension is read coalesced), because the lowering runs the rules
// only on the kernels it tileified: nothing is left for them to decide.
//
//===----------------------------------------------------------------------===//

#include "SplitMatmulK.h"
#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The most threads per block of the sum kernel.
static constexpr int64_t kSumThreads = 256;

/// The elements of one workspace: `splits` times the block points.
static std::optional<int64_t> workspaceElements(KernelOp kernel,
                                                int64_t splits) {
  int64_t elements = splits;
  for (int64_t extent : kernel.getTile().getBlockExtents())
    if (llvm::MulOverflow(elements, extent, elements))
      return std::nullopt;
  return elements;
}

bool dtile::workspaceFits(KernelOp kernel, dloop::ForOp chunk, int64_t splits) {
  std::optional<int64_t> elements = workspaceElements(kernel, splits);
  // 32-bit indices (the emitter's default) must reach every element.
  return elements && *elements <= std::numeric_limits<int32_t>::max();
}

/// Binds `buffers` to new block arguments of `kernel`, as inputs (before the
/// outputs' arguments) or outputs (after them).
static void appendBuffers(KernelOp kernel, ValueRange buffers, bool asInputs) {
  Block &body = kernel.getBody().front();
  unsigned at = asInputs ? kernel.getInputs().size() : body.getNumArguments();
  for (auto [i, buffer] : llvm::enumerate(buffers))
    body.insertArgument(at + i, buffer.getType(), buffer.getLoc());
  (asInputs ? kernel.getInputsMutable() : kernel.getOutputsMutable())
      .append(buffers);
}

/// Unbinds the buffers `kernel` no longer uses.
static void dropUnusedBuffers(KernelOp kernel) {
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

/// Threads of the sum kernel: warps up to the points rounded up to a power
/// of two, at most kSumThreads; fewer points than a warp share one block.
static int64_t sumThreads(int64_t points) {
  if (points < 32)
    return points;
  return std::min<int64_t>(kSumThreads, llvm::PowerOf2Ceil(points));
}

/// Builds the sum kernel from `sum`, a copy of the unsplit kernel whose chunk
/// loop is `chunk`: the loop becomes a loop over the splits reading
/// `workspaces` (bound as inputs), in order.
static LogicalResult buildSumKernel(KernelOp sum, dloop::ForOp chunk,
                                    ValueRange workspaces, int64_t splits) {
  appendBuffers(sum, workspaces, /*asInputs=*/true);
  ValueRange spaces = sum.getInputArgs().take_back(workspaces.size());
  TileOp tile = sum.getTile();
  ValueRange points = tile.getBody().front().getArguments();
  OpBuilder b(chunk);
  Location loc = chunk.getLoc();
  SmallVector<Value> zeros;
  for (Type type : chunk.getResultTypes())
    zeros.push_back(arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(type))));
  std::string axis = chunk.getAxis().str();
  if (StringRef(axis).ends_with("_o"))
    axis.resize(axis.size() - 2);
  auto total = dloop::ForOp::create(
      b, loc, splits, LoopKind::reduce, axis + "_s", zeros,
      [&](OpBuilder &nested, Location nestedLoc, Value split, ValueRange accs) {
        SmallVector<Value> indices{split};
        llvm::append_range(indices, points);
        SmallVector<Value> next;
        for (auto [space, acc] : llvm::zip(spaces, accs)) {
          Value part = dloop::LoadOp::create(nested, nestedLoc, space, indices);
          next.push_back(arith::AddFOp::create(nested, nestedLoc, acc, part));
        }
        dloop::YieldOp::create(nested, nestedLoc, next);
      });
  chunk.replaceAllUsesWith(total.getResults());
  chunk.erase();
  cleanupKernel(sum);
  dropUnusedBuffers(sum);
  int64_t count = product(sum.getTile().getBlockExtents());
  if (count > 1 && failed(dealRowsToThreads(sum, sumThreads(count))))
    return failure();
  cleanupKernel(sum);
  return success();
}

LogicalResult dtile::splitThroughWorkspace(KernelOp kernel, dloop::ForOp chunk,
                                           ArrayRef<dloop::StoreOp> stores,
                                           int64_t splits) {
  auto module = kernel->getParentOfType<ModuleOp>();
  std::string name = (kernel.getSymName() + "_split_sum").str();
  bool taken = false;
  module.walk([&](KernelOp other) { taken |= other.getSymName() == name; });
  if (taken || !workspaceFits(kernel, chunk, splits))
    return failure();
  // One workspace per sum: [splits, block extents...].
  SmallVector<int64_t> shape{splits};
  llvm::append_range(shape, kernel.getTile().getBlockExtents());
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  SmallVector<Value> workspaces;
  for (Type type : chunk.getResultTypes())
    workspaces.push_back(
        memref::AllocOp::create(b, loc, MemRefType::get(shape, type)));

  // The sum kernel starts as a copy of the unsplit kernel, after it.
  b.setInsertionPointAfter(kernel);
  IRMapping mapping;
  auto sum = cast<KernelOp>(b.clone(*kernel, mapping));
  sum.setSymName(name);
  sum.setKnobsAttr(KnobsAttr::get(b.getContext(), ArrayRef<NamedAttribute>{}));
  auto copy = cast<dloop::ForOp>(mapping.lookup(chunk.getOperation()));
  if (failed(buildSumKernel(sum, copy, workspaces, splits)))
    return failure();

  // The split kernel stores its partial sums and drops the epilogue.
  Value split = dealChunksToSplits(kernel, chunk, splits);
  appendBuffers(kernel, workspaces, /*asInputs=*/false);
  ValueRange spaces = kernel.getOutputArgs().take_back(workspaces.size());
  SmallVector<Value> indices{split};
  llvm::append_range(
      indices, kernel.getTile().getBody().front().getArguments().drop_front());
  b.setInsertionPointAfter(chunk);
  for (auto [space, part] : llvm::zip(spaces, chunk.getResults()))
    dloop::StoreOp::create(b, chunk.getLoc(), part, space, indices);
  for (dloop::StoreOp store : stores)
    store.erase();
  cleanupKernel(kernel);
  dropUnusedBuffers(kernel);
  return success();
}
