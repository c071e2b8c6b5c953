//===- LaneLoops.cpp - dloop.kernels whose free loop runs as lanes --------===//
//
// The sequential interpreter pays its dispatch for every op of every
// iteration; the SIMT engine pays it once per op for all lanes. A
// dloop.kernel runs on the SIMT engine, iteration i of one free loop on lane
// i, when that gives exactly what running the iterations one after another
// does: the kernel holds only ops the engine runs (and no effects besides
// its stores), every store is inside the loop, writes a kernel buffer that
// nothing inside the loop loads, at an index that differs between any two
// iterations (one of its indices is c * iv + values from outside the loop,
// c != 0). Then no iteration sees what another one writes, and each element
// is written by one lane in the order that lane's iteration writes it.
//
//===----------------------------------------------------------------------===//

#include "Access.h"
#include "Simt.h"

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

/// The most lanes a lane loop may have (their values take a double per lane
/// per SSA value).
static constexpr int64_t kMaxLanes = 16384;

/// Whether `op` is one the SIMT engine runs inside a dloop.kernel with no
/// effect on memory but its loads and stores.
static bool isLaneOp(Operation *op) {
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return true;
  return isa<affine::AffineApplyOp, dloop::ForOp, dloop::LoadOp, dloop::StoreOp,
             dloop::YieldOp, scf::IfOp, scf::ForOp, scf::YieldOp,
             memref::LoadOp, memref::StoreOp>(op);
}

/// The buffer, index map and index operands of a store.
static std::tuple<Value, AffineMap, OperandRange> storeTarget(Operation *op) {
  if (auto store = dyn_cast<dloop::StoreOp>(op))
    return {store.getMemRef(), store.getMap(), store.getIndices()};
  auto store = cast<memref::StoreOp>(op);
  return {store.getMemRef(),
          AffineMap::getMultiDimIdentityMap(store.getIndices().size(),
                                            op->getContext()),
          store.getIndices()};
}

/// Whether `store` writes different elements in different iterations of
/// `loop`: one index is c * iv (c != 0) plus values defined outside `loop`.
static bool isInjectiveIn(Operation *store, dloop::ForOp loop) {
  auto [memref, map, indices] = storeTarget(store);
  Value iv = loop.getInductionVar();
  Access access = affineAccess(map, 0, indices.size());
  for (const Access::Dim &dim : access.dims) {
    if (dim.expr)
      continue;
    int64_t coef = 0;
    bool outside = true;
    for (auto [pos, c] : dim.terms) {
      Value operand = indices[pos];
      if (operand == iv)
        coef += c;
      else
        outside &= !loop.getRegion().isAncestor(operand.getParentRegion());
    }
    if (coef != 0 && outside)
      return true;
  }
  return false;
}

/// How many loops enclose `loop` in its kernel.
static unsigned depthOf(dloop::ForOp loop) {
  unsigned depth = 0;
  for (Operation *p = loop->getParentOp(); !isa<dloop::KernelOp>(p);
       p = p->getParentOp())
    ++depth;
  return depth;
}

/// Whether `a` makes better lanes than `b`: enough of them to amortise the
/// dispatch, then the innermost (whose index is usually the contiguous one,
/// so that lanes read neighbouring elements), then the most.
static bool preferred(dloop::ForOp a, dloop::ForOp b) {
  auto key = [](dloop::ForOp loop) {
    return std::make_tuple(loop.getExtent() >= 32, depthOf(loop),
                           loop.getExtent());
  };
  return key(a) > key(b);
}

Operation *simt::chooseLaneLoop(Operation *op) {
  auto kernel = cast<dloop::KernelOp>(op);
  mlir::Block &body = kernel.getRegion().front();
  SmallVector<Operation *> stores;
  bool runnable = true;
  kernel.getRegion().walk([&](Operation *inner) {
    runnable &= isLaneOp(inner);
    if (isa<dloop::StoreOp, memref::StoreOp>(inner))
      stores.push_back(inner);
  });
  if (!runnable || stores.empty())
    return nullptr;
  dloop::ForOp best;
  kernel.getRegion().walk([&](dloop::ForOp loop) {
    if (loop.isReduction() || loop.getNumResults() != 0 ||
        loop.getExtent() < 2 || loop.getExtent() > kMaxLanes)
      return;
    if (!llvm::all_of(stores,
                      [&](Operation *s) { return loop->isProperAncestor(s); }))
      return;
    llvm::DenseSet<Value> loaded;
    loop.walk([&](Operation *inner) {
      if (auto load = dyn_cast<dloop::LoadOp>(inner))
        loaded.insert(load.getMemRef());
      else if (auto load = dyn_cast<memref::LoadOp>(inner))
        loaded.insert(load.getMemRef());
    });
    for (Operation *store : stores) {
      Value memref = std::get<0>(storeTarget(store));
      auto arg = dyn_cast<BlockArgument>(memref);
      if (!arg || arg.getOwner() != &body || loaded.contains(memref) ||
          !isInjectiveIn(store, loop))
        return;
    }
    if (!best || preferred(loop, best))
      best = loop;
  });
  return best;
}
