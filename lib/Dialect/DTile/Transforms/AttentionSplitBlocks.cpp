//===- AttentionSplitBlocks.cpp - A query row's keys over blocks -*- C++
//-*-===//
//
// attention_blocks' split_kv_blocks (flash-decoding): with few query rows
// and many keys, even a warp per row leaves most multiprocessors idle. The
// key steps are dealt to S blocks along a new outermost block axis `<k>_s`,
// split s taking a contiguous range of steps, and each block stores its
// partial softmax (m_s, l_s, a_s[d]) to f32 workspaces instead of the
// output. A second kernel, `@<kernel>_kv_merge`, a copy of the unsplit
// kernel born mapped, merges them exactly, in a fixed order (split 0 first):
//
//   M = max_s m_s,   c_s = exp(m_s - M) (0 where m_s = -inf),
//   L = sum_s l_s c_s,   A[d] = sum_s a_s[d] c_s,
//
// and runs the kernel's own epilogue on (M, L, A) (A[d] / L, the rounding
// to the output type, the store). Masks are the kernel's own, on the global
// key index, so a split whose keys are all masked for a row contributes
// m = -inf, l = 0. It composes with split_kv (threads of a block sharing its
// keys), whose merge the split's stores go through first.
//
//===----------------------------------------------------------------------===//

#include "AttentionSplit.h"
#include "SplitMatmulK.h"
#include "SplitWorkspace.h"
#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The suffix of the merge kernel's name.
static constexpr llvm::StringLiteral kMergeSuffix = "_kv_merge";

llvm::Expected<memref::AllocaOp>
dtile::getBlockSplitAccumulators(KernelOp kernel, dloop::ForOp keys,
                                 bool stepped) {
  auto refuse = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  if (!getRunningMaxIndex(keys, stepped))
    return refuse("its key loop does not carry just an online softmax's "
                  "running maximum and sum");
  if (!llvm::all_of(keys.getResultTypes(), llvm::IsaPred<Float32Type>))
    return refuse("its running maximum and sum are not f32");
  TileOp tile = kernel.getTile();
  Block &body = tile.getBody().front();
  SmallVector<memref::AllocaOp> accumulators;
  for (auto buffer : body.getOps<memref::AllocaOp>())
    if (llvm::any_of(buffer->getUsers(), [&](Operation *user) {
          return isa<dloop::StoreOp>(user) && keys->isProperAncestor(user);
        }))
      accumulators.push_back(buffer);
  if (accumulators.size() != 1 || accumulators[0].getType().getRank() != 1 ||
      !accumulators[0].getType().hasStaticShape() ||
      !accumulators[0].getType().getElementType().isF32())
    return refuse("it does not keep one static row of f32 accumulators");
  // A split block stores only its partial softmax: nothing before the key
  // loop may write memory other blocks see, and nothing may read the
  // outputs.
  bool writes = false, readsOutput = false;
  for (Operation &op : body) {
    if (&op == keys.getOperation())
      break;
    op.walk([&](dloop::StoreOp store) {
      writes |= !store.getMemRef().getDefiningOp<memref::AllocaOp>();
    });
  }
  kernel.walk([&](dloop::LoadOp load) {
    readsOutput |= llvm::is_contained(kernel.getOutputArgs(), load.getMemRef());
  });
  if (writes || readsOutput)
    return refuse("it writes memory before its key loop or reads its outputs");
  return accumulators[0];
}

/// The workspace indices of the point of `kernel`'s tile that split `split`
/// handles (the block arguments past the first, the split's own), then
/// `inner`.
static SmallVector<Value> workspacePoint(ValueRange points, Value split,
                                         ValueRange inner = {}) {
  SmallVector<Value> indices{split};
  llvm::append_range(indices, points);
  llvm::append_range(indices, inner);
  return indices;
}

/// Builds the merge kernel from `merge`, a copy of the unsplit kernel whose
/// key loop is `keys` and accumulators `acc`: the key loop becomes a loop
/// over the splits for M and one for L and A, reading `spaces` (m, l, a).
static LogicalResult buildMergeKernel(KernelOp merge, dloop::ForOp keys,
                                      unsigned maxIndex, Value acc,
                                      ValueRange workspaces, int64_t splits) {
  SmallVector<Value> spaces(appendBuffers(merge, workspaces, true));
  SmallVector<Value> points(merge.getTile().getBody().front().getArguments());
  int64_t dims = cast<MemRefType>(acc.getType()).getDimSize(0);
  std::string axis = getSplitAxis(keys);
  OpBuilder b(keys);
  Location loc = keys.getLoc();
  Type f32 = b.getF32Type();
  Value ninf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(f32, -std::numeric_limits<double>::infinity()));
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, 0.0));
  auto maxLoop = dloop::ForOp::create(
      b, loc, splits, LoopKind::reduce, axis, ValueRange{ninf},
      [&](OpBuilder &nb, Location nl, Value split, ValueRange iter) {
        Value m = dloop::LoadOp::create(nb, nl, spaces[0],
                                        workspacePoint(points, split));
        Value max = arith::MaximumFOp::create(nb, nl, iter[0], m);
        dloop::YieldOp::create(nb, nl, ValueRange{max});
      });
  Value rowMax = maxLoop.getResult(0);
  auto sumLoop = dloop::ForOp::create(
      b, loc, splits, LoopKind::reduce, axis, ValueRange{zero},
      [&](OpBuilder &nb, Location nl, Value split, ValueRange iter) {
        SmallVector<Value> at = workspacePoint(points, split);
        Value m = dloop::LoadOp::create(nb, nl, spaces[0], at);
        Value scale = buildPartialScale(nb, nl, m, rowMax);
        Value l = dloop::LoadOp::create(nb, nl, spaces[1], at);
        dloop::ForOp::create(
            nb, nl, dims, LoopKind::free, "kv_d", ValueRange{},
            [&](OpBuilder &db, Location dl, Value d, ValueRange) {
              Value a = dloop::LoadOp::create(db, dl, acc, ValueRange{d});
              Value part = dloop::LoadOp::create(
                  db, dl, spaces[2], workspacePoint(points, split, d));
              Value scaled = arith::MulFOp::create(db, dl, part, scale);
              Value sum = arith::AddFOp::create(db, dl, a, scaled);
              dloop::StoreOp::create(db, dl, sum, acc, ValueRange{d});
              dloop::YieldOp::create(db, dl, ValueRange{});
            });
        Value scaled = arith::MulFOp::create(nb, nl, l, scale);
        Value sum = arith::AddFOp::create(nb, nl, iter[0], scaled);
        dloop::YieldOp::create(nb, nl, ValueRange{sum});
      });
  keys.getResult(maxIndex).replaceAllUsesWith(rowMax);
  keys.getResult(1 - maxIndex).replaceAllUsesWith(sumLoop.getResult(0));
  keys.erase();
  return mapSecondKernel(merge);
}

LogicalResult dtile::splitKeysOverBlocks(KernelOp kernel, dloop::ForOp steps,
                                         int64_t splits) {
  std::optional<memref::AllocaOp> acc = llvm::expectedToOptional(
      getBlockSplitAccumulators(kernel, steps, /*stepped=*/true));
  if (!acc || splits < 2 || steps.getExtent() % splits != 0)
    return failure();
  unsigned maxIndex = *getRunningMaxIndex(steps, /*stepped=*/true);
  int64_t dims = acc->getType().getDimSize(0);
  if (!workspaceFitsIndices(kernel, splits, dims))
    return failure();
  IRMapping mapping;
  FailureOr<KernelOp> merge = cloneSecondKernel(kernel, kMergeSuffix, mapping);
  if (failed(merge))
    return failure();
  // Workspaces of m and l: [splits, block extents...]; of a: [..., d].
  SmallVector<int64_t> shape{splits};
  llvm::append_range(shape, kernel.getTile().getBlockExtents());
  SmallVector<int64_t> rowShape(shape);
  rowShape.push_back(dims);
  Type f32 = Float32Type::get(kernel.getContext());
  SmallVector<Value> workspaces = {allocWorkspace(kernel, shape, f32),
                                   allocWorkspace(kernel, shape, f32),
                                   allocWorkspace(kernel, rowShape, f32)};
  if (failed(buildMergeKernel(
          *merge, cast<dloop::ForOp>(mapping.lookup(steps.getOperation())),
          maxIndex, mapping.lookup(acc->getResult()), workspaces, splits)))
    return failure();

  // The split kernel stores its partial softmax instead of the epilogue.
  Value split = dealChunksToSplits(kernel, steps, splits);
  Block &body = kernel.getTile().getBody().front();
  SmallVector<Operation *> epilogue;
  for (Operation &op : llvm::make_range(std::next(Block::iterator(steps)),
                                        body.without_terminator().end()))
    epilogue.push_back(&op);
  for (Operation *op : llvm::reverse(epilogue))
    op->erase();
  SmallVector<Value> spaces(appendBuffers(kernel, workspaces, false));
  SmallVector<Value> points(body.getArguments().drop_front());
  OpBuilder b(kernel.getContext());
  b.setInsertionPointAfter(steps);
  Location loc = steps.getLoc();
  SmallVector<Value> at = workspacePoint(points, split);
  dloop::StoreOp::create(b, loc, steps.getResult(maxIndex), spaces[0], at);
  dloop::StoreOp::create(b, loc, steps.getResult(1 - maxIndex), spaces[1], at);
  dloop::ForOp::create(
      b, loc, dims, LoopKind::free, "kv_d", ValueRange{},
      [&](OpBuilder &db, Location dl, Value d, ValueRange) {
        Value a =
            dloop::LoadOp::create(db, dl, acc->getResult(), ValueRange{d});
        dloop::StoreOp::create(db, dl, a, spaces[2],
                               workspacePoint(points, split, d));
        dloop::YieldOp::create(db, dl, ValueRange{});
      });
  cleanupKernel(kernel);
  dropUnusedBuffers(kernel);
  return success();
}
