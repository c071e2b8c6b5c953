//===- ControlFlow.cpp - Loops, branches and what they carry ----*- C++ -*-===//
//
// Loops and branches lower to scf; a slab flowing through them is carried
// as its slot index, checked to stay in one allocation. Scalar arith and
// math ops are cloned as they are.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

FailureOr<std::pair<Value, SlabAlloc *>>
KernelLowering::carried(Value old, Operation *user) {
  if (auto it = slabs.find(old); it != slabs.end()) {
    Value slot = it->second.slot ? it->second.slot : index(0);
    return std::make_pair(slot, it->second.alloc);
  }
  if (isa<MemRefType>(old.getType()))
    return user->emitOpError("carries a buffer that is not a staged slab; "
                             "only slabs can flow through loops and branches");
  Value v = lookup(old);
  if (!v)
    return user->emitOpError("carries a value that has no Kernel IR form");
  return std::make_pair(v, static_cast<SlabAlloc *>(nullptr));
}

void KernelLowering::mapCarried(Value old, Value value, SlabAlloc *alloc) {
  if (alloc)
    slabs[old] = Slab{alloc, alloc->buffers > 1 ? value : Value()};
  else
    values.map(old, value);
}

FailureOr<SmallVector<Value>>
KernelLowering::lowerYield(Operation *terminator,
                           MutableArrayRef<SlabAlloc *> allocs) {
  SmallVector<Value> result;
  for (auto [i, old] : llvm::enumerate(terminator->getOperands())) {
    FailureOr<std::pair<Value, SlabAlloc *>> c = carried(old, terminator);
    if (failed(c))
      return failure();
    if (!allocs[i])
      allocs[i] = c->second;
    else if (allocs[i] != c->second)
      return terminator->emitOpError("yields a slab of another stage in "
                                     "position ")
             << i << "; a carried slab must stay in one stage's buffers";
    result.push_back(c->first);
  }
  return result;
}

LogicalResult KernelLowering::lowerLoop(Operation *op, Value lb, Value ub,
                                        Value step, ValueRange inits,
                                        Block &body,
                                        std::optional<int64_t> unroll) {
  Location loc = op->getLoc();
  SmallVector<Value> newInits;
  SmallVector<SlabAlloc *> allocs;
  for (Value init : inits) {
    FailureOr<std::pair<Value, SlabAlloc *>> c = carried(init, op);
    if (failed(c))
      return failure();
    newInits.push_back(c->first);
    allocs.push_back(c->second);
  }
  auto loop = scf::ForOp::create(b, loc, lb, ub, step, newInits);
  if (unroll)
    dkernel::setUnrollFactor(loop, *unroll);
  Block *newBody = loop.getBody();
  values.map(body.getArgument(0), loop.getInductionVar());
  for (auto [old, arg, alloc] : llvm::zip(body.getArguments().drop_front(),
                                          loop.getRegionIterArgs(), allocs))
    mapCarried(old, arg, alloc);
  {
    OpBuilder::InsertionGuard guard(b);
    if (newBody->mightHaveTerminator())
      newBody->getTerminator()->erase();
    b.setInsertionPointToEnd(newBody);
    if (failed(lowerOps(body)))
      return failure();
    FailureOr<SmallVector<Value>> yielded =
        lowerYield(body.getTerminator(), allocs);
    if (failed(yielded))
      return failure();
    scf::YieldOp::create(b, loc, *yielded);
  }
  for (auto [old, result, alloc] :
       llvm::zip(op->getResults(), loop.getResults(), allocs))
    mapCarried(old, result, alloc);
  return success();
}

LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  Location loc = op.getLoc();
  Value cond = lookup(op.getCondition());
  if (!cond)
    return op.emitOpError("has a condition with no Kernel IR form");
  SmallVector<Type> types;
  for (Type type : op.getResultTypes())
    types.push_back(isa<MemRefType>(type) ? b.getIndexType() : type);
  bool hasElse = !op.getElseRegion().empty();
  auto newIf = scf::IfOp::create(b, loc, types, cond, hasElse);
  SmallVector<SlabAlloc *> allocs(types.size(), nullptr);
  auto lowerBranch = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    Block &block = to.front();
    if (block.mightHaveTerminator())
      block.getTerminator()->erase();
    b.setInsertionPointToEnd(&block);
    if (failed(lowerOps(from.front())))
      return failure();
    FailureOr<SmallVector<Value>> yielded =
        lowerYield(from.front().getTerminator(), allocs);
    if (failed(yielded))
      return failure();
    scf::YieldOp::create(b, loc, *yielded);
    return success();
  };
  if (failed(lowerBranch(op.getThenRegion(), newIf.getThenRegion())) ||
      (hasElse &&
       failed(lowerBranch(op.getElseRegion(), newIf.getElseRegion()))))
    return failure();
  for (auto [old, result, alloc] :
       llvm::zip(op.getResults(), newIf.getResults(), allocs))
    mapCarried(old, result, alloc);
  return success();
}

LogicalResult KernelLowering::cloneScalarOp(Operation *op) {
  for (Value operand : op->getOperands())
    if (!lookup(operand))
      return op->emitOpError("uses a value of type ")
             << operand.getType() << " that has no Kernel IR form here";
  b.clone(*op, values);
  return success();
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  if (role == Role::Producer) {
    FailureOr<bool> left = leaveToConsumers(op);
    if (failed(left))
      return failure();
    if (*left)
      return success();
  }
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp cst) {
        values.map(cst.getResult(), constant(cast<TypedAttr>(cst.getValue())));
        return success();
      })
      .Case([&](dtile::TileOp tileOp) { return lowerTile(tileOp); })
      .Case([&](dloop::ForOp loop) {
        return lowerLoop(loop, index(0), index(loop.getExtent()), index(1),
                         loop.getInitArgs(), *loop.getBody(), loop.getUnroll());
      })
      .Case([&](dtile::StridedForOp loop) -> LogicalResult {
        Value start = lookup(loop.getStart());
        if (!start)
          return loop.emitOpError("starts at a value with no Kernel IR form");
        std::optional<int64_t> unroll;
        if (IntegerAttr attr = loop.getUnrollAttr())
          unroll = attr.getInt();
        return lowerLoop(loop, start, index(loop.getExtent()),
                         index(loop.getStep()), loop.getInitArgs(),
                         loop.getBody().front(), unroll);
      })
      .Case([&](scf::ForOp loop) -> LogicalResult {
        FailureOr<SmallVector<Value>> bounds = lookupAll(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}, loop);
        if (failed(bounds))
          return failure();
        if (failed(lowerLoop(loop, (*bounds)[0], (*bounds)[1], (*bounds)[2],
                             loop.getInitArgs(), *loop.getBody(),
                             dkernel::getUnrollFactor(loop))))
          return failure();
        return success();
      })
      .Case([&](scf::IfOp ifOp) { return lowerIf(ifOp); })
      .Case([&](dloop::LoadOp load) { return lowerLoad(load); })
      .Case([&](dloop::StoreOp store) { return lowerStore(store); })
      .Case([&](memref::AllocaOp alloca) { return lowerPrivateBuffer(alloca); })
      .Case([&](affine::AffineApplyOp apply) { return lowerApply(apply); })
      .Case([&](dtile::StageOp stage) { return lowerStage(stage); })
      .Case([&](dtile::CombineOp combine) { return lowerCombine(combine); })
      .Case([&](dtile::AsyncWaitOp wait) { return lowerAsyncWait(wait); })
      .Case([&](dkernel::LdMatrixOp load) { return lowerLdMatrix(load); })
      .Case([&](dkernel::VectorLoadOp load) { return lowerVectorLoad(load); })
      .Case(
          [&](dkernel::VectorStoreOp store) { return lowerVectorStore(store); })
      .Case([&](dkernel::MmaSyncOp mma) { return cloneScalarOp(mma); })
      .Case([&](dkernel::WgmmaDescOp desc) { return lowerWgmmaDesc(desc); })
      .Case<dkernel::WgmmaFenceOp, dkernel::WgmmaMmaAsyncOp,
            dkernel::WgmmaCommitGroupOp, dkernel::WgmmaWaitGroupOp>(
          [&](Operation *op) { return cloneScalarOp(op); })
      .Default([&](Operation *op) -> LogicalResult {
        if (op->getNumRegions() == 0 &&
            isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                op->getDialect()))
          return cloneScalarOp(op);
        return op->emitOpError("cannot be lowered to Kernel IR");
      });
}

LogicalResult KernelLowering::lowerOps(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}
