//===- Tileify.cpp - Loop IR kernels to Tile IR kernels ---------*- C++ -*-===//
//
// The outer chain of free loops of a dloop.kernel becomes the block axes of
// a dtile.tile: one block per output element of that chain and one thread
// per block. Scalar code between the loops of the chain, loads of buffers
// the kernel only reads included (the per-tensor scales of an FP8 matmul,
// which dloop-hoist-invariants lifted out), moves into the innermost body
// (it was invariant there, so it only runs more often).
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// Whether `op` may run more often without changing the kernel: pure, or a
/// load of a buffer no op of `kernel` writes.
static bool isInvariant(Operation *op, dloop::KernelOp kernel) {
  if (isPure(op))
    return true;
  auto load = dyn_cast<dloop::LoadOp>(op);
  if (!load)
    return false;
  Value buffer = load.getMemRef();
  WalkResult written = kernel.walk([&](dloop::StoreOp store) {
    return store.getMemRef() == buffer ? WalkResult::interrupt()
                                       : WalkResult::advance();
  });
  return !written.wasInterrupted();
}

/// The free loop beside which every op of `block` is invariant, if any.
static dloop::ForOp soleFreeLoop(Block &block, dloop::KernelOp kernel) {
  dloop::ForOp loop;
  for (Operation &op : block.without_terminator()) {
    auto candidate = dyn_cast<dloop::ForOp>(op);
    if (candidate && !candidate.isReduction() && !loop) {
      loop = candidate;
      continue;
    }
    if (!isInvariant(&op, kernel))
      return {};
  }
  return loop;
}

FailureOr<KernelOp> dtile::tileify(dloop::KernelOp kernel) {
  // The chain of free loops, outermost first.
  SmallVector<dloop::ForOp> chain;
  for (Block *block = kernel.getBody();;) {
    dloop::ForOp loop = soleFreeLoop(*block, kernel);
    if (!loop)
      break;
    chain.push_back(loop);
    block = loop.getBody();
  }

  OpBuilder b(kernel);
  MLIRContext *ctx = kernel.getContext();
  auto tiled = KernelOp::create(b, kernel.getLoc(), kernel.getSymName(),
                                KnobsAttr::get(ctx, ArrayRef<NamedAttribute>{}),
                                kernel.getInputs(), kernel.getOutputs());
  IRMapping mapping;
  for (auto [from, to] : llvm::zip(kernel.getBody()->getArguments(),
                                   tiled.getBody().front().getArguments()))
    mapping.map(from, to);

  SmallVector<StringRef> axes;
  SmallVector<int64_t> extents;
  for (dloop::ForOp loop : chain) {
    axes.push_back(loop.getAxis());
    extents.push_back(loop.getExtent());
  }
  if (chain.empty()) {
    // A kernel with no free loop (a full reduction) still needs a launch.
    axes.push_back("unit");
    extents.push_back(1);
  }
  b.setInsertionPoint(tiled.getBody().front().getTerminator());
  auto tile = TileOp::create(b, kernel.getLoc(), axes, extents, {}, {});
  Block &body = tile.getBody().front();
  for (auto [loop, coord] : llvm::zip(chain, body.getArguments()))
    mapping.map(loop.getInductionVar(), coord);

  // Every op of the kernel and of the chain's bodies, in order, goes into
  // the tile body; the chain's loops themselves do not.
  b.setInsertionPoint(body.getTerminator());
  SmallVector<Block *> blocks{kernel.getBody()};
  for (dloop::ForOp loop : chain)
    blocks.push_back(loop.getBody());
  for (Block *block : blocks)
    for (Operation &op : block->without_terminator())
      if (!llvm::is_contained(chain, dyn_cast<dloop::ForOp>(&op)))
        b.clone(op, mapping);
  kernel.erase();
  return tiled;
}
