//===- RegisterDoubleBuffer.cpp - Fragments one K step ahead ----*- C++ -*-===//
//
// register_double_buffer: a thread's loop over the K steps of a slab loads
// its fragments (dloop.load and dkernel.vector_load of shared slabs) and
// then multiplies them; the next step's loads wait on nothing, so they are
// moved one step ahead into a second register set: step 0's load before
// the loop, and step k loads step (k + 1) mod K's before its products, on
// the fragments carried from step k - 1. The last step reloads step 0's,
// a wasted read that keeps the extent (peeling a step would leave K - 1,
// which no unroll factor divides). Every product and sum stays where it
// was, so the result is bit-identical. Forks skip / apply where every inner
// slab loop allows it; the heuristic applies behind vector reads (where it
// was measured faster).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// One inner loop to double-buffer: its slab reads and the index arithmetic
/// of its body they use, in body order.
struct FragmentLoop {
  dloop::ForOp loop;
  SmallVector<Operation *> loads;
  SmallVector<Operation *> indexOps;
};

/// The shared buffer `op` reads when it is a fragment read of a slab.
Value getSlabRead(Operation *op) {
  Value buffer;
  if (auto load = dyn_cast<dloop::LoadOp>(op))
    buffer = load.getMemref();
  else if (auto load = dyn_cast<dkernel::VectorLoadOp>(op))
    buffer = load.getSrc();
  auto type = buffer ? dyn_cast<MemRefType>(buffer.getType()) : nullptr;
  return type && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type)
             ? buffer
             : Value();
}

/// Whether `op` reads memory at most.
bool onlyReads(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && effects.onlyHasEffect<MemoryEffects::Read>();
}

/// The slab reads directly in `body` of buffers from outside `parent`.
SmallVector<Operation *> getFragmentReads(Block &body, Operation *parent) {
  SmallVector<Operation *> reads;
  for (Operation &op : body)
    if (Value slab = getSlabRead(&op);
        slab && !parent->isAncestor(slab.getParentBlock()->getParentOp()))
      reads.push_back(&op);
  return reads;
}

/// Whether `op` holds no loop.
bool isInnermost(Operation *op) {
  WalkResult inner = op->walk([&](Operation *nested) {
    return nested != op && isa<LoopLikeOpInterface>(nested)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return !inner.wasInterrupted();
}

/// `loop`'s slab reads and their index arithmetic, or why they cannot move
/// one step ahead.
llvm::Expected<FragmentLoop> planLoop(dloop::ForOp loop) {
  auto refuse = [&](const Twine &why) {
    return llvm::createStringError("the K loop \"" + loop.getAxis() + "\" " +
                                   why);
  };
  if (loop.getExtent() < 2)
    return refuse("runs once: there is no next step to load ahead");
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return refuse("guards some accesses (a partial step)");
    if (!onlyReads(&op))
      return refuse("writes memory");
  }
  FragmentLoop plan{loop, getFragmentReads(*loop.getBody(), loop), {}};
  llvm::SetVector<Operation *> slice;
  // Walks the definitions of `v` inside the loop: only pure arithmetic on
  // the loop's variable and outside values may place a read.
  std::function<bool(Value)> placeable = [&](Value v) {
    if (v == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !isMemoryEffectFree(def))
      return false;
    if (!llvm::all_of(def->getOperands(), placeable))
      return false;
    slice.insert(def);
    return true;
  };
  for (Operation *read : plan.loads)
    if (!llvm::all_of(read->getOperands(), placeable))
      return refuse("indexes a slab read with a carried or loaded value");
  plan.indexOps = slice.takeVector();
  llvm::sort(plan.indexOps,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return plan;
}

/// The inner slab loops of `kernel`, or why one cannot be double-buffered.
llvm::Expected<SmallVector<FragmentLoop>> planKernel(KernelOp kernel) {
  SmallVector<FragmentLoop> plans;
  std::optional<llvm::Error> error;
  kernel.walk([&](LoopLikeOpInterface loopLike) {
    Operation *op = loopLike;
    if (!isInnermost(op) || op->getNumRegions() != 1 ||
        getFragmentReads(op->getRegion(0).front(), op).empty())
      return WalkResult::advance();
    auto loop = dyn_cast<dloop::ForOp>(op);
    if (!loop) {
      error = llvm::createStringError(
          "a loop reading slabs has a dynamic trip count");
      return WalkResult::interrupt();
    }
    if (!loop.isReduction())
      return WalkResult::advance();
    llvm::Expected<FragmentLoop> plan = planLoop(loop);
    if (!plan) {
      error = plan.takeError();
      return WalkResult::interrupt();
    }
    plans.push_back(std::move(*plan));
    return WalkResult::advance();
  });
  if (error)
    return std::move(*error);
  if (plans.empty())
    return llvm::createStringError("no inner reduce loop reads a shared slab");
  return plans;
}

/// Clones `plan`'s reads at `b` for step `step`; returns their values.
SmallVector<Value> cloneReads(OpBuilder &b, const FragmentLoop &plan,
                              Value step) {
  IRMapping mapping;
  mapping.map(dloop::ForOp(plan.loop).getInductionVar(), step);
  for (Operation *op : plan.indexOps)
    b.clone(*op, mapping);
  SmallVector<Value> values;
  for (Operation *read : plan.loads)
    llvm::append_range(values, b.clone(*read, mapping)->getResults());
  return values;
}

/// Rewrites `plan.loop` so that each step loads the next one's fragments.
void loadAhead(const FragmentLoop &plan) {
  dloop::ForOp loop = plan.loop;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  int64_t extent = loop.getExtent();
  SmallVector<Value> first =
      cloneReads(b, plan, arith::ConstantIndexOp::create(b, loc, 0));
  llvm::SmallPtrSet<Operation *, 16> reads(plan.loads.begin(),
                                           plan.loads.end());
  auto nextStep = [&](OpBuilder &b, Value k, ValueRange fragments,
                      IRMapping &mapping) -> SmallVector<Value> {
    unsigned i = 0;
    for (Operation *read : plan.loads)
      for (Value result : read->getResults())
        mapping.map(result, fragments[i++]);
    AffineExpr d = b.getAffineDimExpr(0);
    Value next = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, (d + 1) % extent), ValueRange{k});
    return cloneReads(b, plan, next);
  };
  carryAhead(loop, first, nextStep,
             [&](Operation *op) { return reads.contains(op); });
}

class RegisterDoubleBuffer final : public TypedRule<RegisterDoubleBufferKnobs> {
public:
  /// Why the inner slab loops cannot load ahead (list-forks says it).
  std::string getRefusal(KernelOp kernel, TargetAttr) const override {
    llvm::Expected<SmallVector<FragmentLoop>> plans = planKernel(kernel);
    if (!plans)
      return llvm::toString(plans.takeError());
    return {};
  }

protected:
  /// Skip, apply: where every inner slab loop can load a step ahead.
  SmallVector<RegisterDoubleBufferKnobs>
  listOptions(KernelOp kernel, TargetAttr) const override {
    // getRefusal says why not; here a refusal is no options.
    if (!llvm::expectedToOptional(planKernel(kernel)))
      return {};
    return {{false}, {true}};
  }

  /// Apply behind vector reads (measured there: FP32 GEMMs 0.99-1.04x),
  /// else skip (in FP32 attention it measured 0.97-1.00x at head dim 64;
  /// at 128 attention_blocks' default was measured without it).
  size_t heuristic(KernelOp kernel, ArrayRef<RegisterDoubleBufferKnobs> options,
                   TargetAttr) const override {
    std::optional<VectorReadsKnobs> reads =
        kernel.getKnobs().get<VectorReadsKnobs>();
    bool apply = reads && reads->vectorReads;
    return llvm::find(options, RegisterDoubleBufferKnobs{apply}) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel,
                        const RegisterDoubleBufferKnobs &option,
                        TargetAttr) const override {
    if (!option.regDouble)
      return success();
    llvm::Expected<SmallVector<FragmentLoop>> plans = planKernel(kernel);
    if (!plans) {
      llvm::consumeError(plans.takeError());
      return failure();
    }
    for (const FragmentLoop &plan : *plans)
      loadAhead(plan);
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createRegisterDoubleBufferRule() {
  return std::make_unique<RegisterDoubleBuffer>();
}
