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
#include "SplitWorkspace.h"
#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// Builds the sum kernel from `sum`, a copy of the unsplit kernel whose chunk
/// loop is `chunk`: the loop becomes a loop over the splits reading
/// `workspaces` (bound as inputs), in order.
static LogicalResult buildSumKernel(KernelOp sum, dloop::ForOp chunk,
                                    ValueRange workspaces, int64_t splits) {
  ValueRange spaces = appendBuffers(sum, workspaces, /*asInputs=*/true);
  TileOp tile = sum.getTile();
  ValueRange points = tile.getBody().front().getArguments();
  OpBuilder b(chunk);
  Location loc = chunk.getLoc();
  SmallVector<Value> zeros;
  for (Type type : chunk.getResultTypes())
    zeros.push_back(arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(type))));
  auto total = dloop::ForOp::create(
      b, loc, splits, LoopKind::reduce, getSplitAxis(chunk), zeros,
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
  return mapSecondKernel(sum);
}

LogicalResult dtile::splitThroughWorkspace(KernelOp kernel, dloop::ForOp chunk,
                                           ArrayRef<dloop::StoreOp> stores,
                                           int64_t splits) {
  if (!workspaceFitsIndices(kernel, splits))
    return failure();
  // One workspace per sum: [splits, block extents...].
  SmallVector<int64_t> shape{splits};
  llvm::append_range(shape, kernel.getTile().getBlockExtents());
  // The sum kernel starts as a copy of the unsplit kernel, after it.
  IRMapping mapping;
  FailureOr<KernelOp> copied = cloneSecondKernel(kernel, "_split_sum", mapping);
  if (failed(copied))
    return failure();
  KernelOp sum = *copied;
  SmallVector<Value> workspaces;
  for (Type type : chunk.getResultTypes())
    workspaces.push_back(allocWorkspace(kernel, shape, type));
  auto copy = cast<dloop::ForOp>(mapping.lookup(chunk.getOperation()));
  if (failed(buildSumKernel(sum, copy, workspaces, splits)))
    return failure();

  // The split kernel stores its partial sums and drops the epilogue.
  Value split = dealChunksToSplits(kernel, chunk, splits);
  ValueRange spaces = appendBuffers(kernel, workspaces, /*asInputs=*/false);
  SmallVector<Value> indices{split};
  llvm::append_range(
      indices, kernel.getTile().getBody().front().getArguments().drop_front());
  OpBuilder b(chunk.getContext());
  b.setInsertionPointAfter(chunk);
  for (auto [space, part] : llvm::zip(spaces, chunk.getResults()))
    dloop::StoreOp::create(b, chunk.getLoc(), part, space, indices);
  for (dloop::StoreOp store : stores)
    store.erase();
  cleanupKernel(kernel);
  dropUnusedBuffers(kernel);
  return success();
}
