//===- ConvertDTileToDKernel.cpp - Tile IR to Kernel IR ---------*- C++ -*-===//
//
// Each dtile.kernel becomes a dkernel.func built next to the source, op by op,
// through a value mapping; the source is only replaced (by dkernel.launch)
// once every kernel of the module has lowered, so a failure leaves the module
// as it was.
//
// Launch geometry: block axes on blockIdx (last axis on x) or linearised into
// x; thread axes on a one-dimensional block, the linear thread id split with
// div/rem, last axis fastest.
//
// Shared memory: one pool; every stage (or rotation of stages) and every
// combine that needs scratch gets its own 16-byte aligned slice, so phases
// never share scratch and need no extra barriers.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Conversion/Passes.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

#define DEBUG_TYPE "convert-dtile-to-dkernel"

namespace deplodock {
#define GEN_PASS_DEF_CONVERTDTILETODKERNEL
#include "Deplodock/Conversion/Passes.h.inc"
} // namespace deplodock

using namespace mlir;
using namespace deplodock;

namespace {

/// Lanes per warp.
constexpr int64_t kWarpSize = 32;
/// Alignment of every shared-memory slice, in bytes.
constexpr int64_t kSmemAlignment = 16;
/// Grid limits (x, then y and z).
constexpr int64_t kMaxGridX = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxGridYZ = 65535;

/// A shared-memory slice holding the slabs of one stage, or of one rotation
/// of stages (`buffers N` with the same source, box, padding and transport).
struct SlabAlloc {
  /// The dkernel.alloc_shared view: `[N x] padded box`; swizzled, the slots
  /// one after the other as a flat array (see Common/Swizzle.h).
  Value view;
  /// The number of slabs; with one there is no slot dimension.
  int64_t buffers = 1;
  /// What makes two stages one rotation.
  Value source;
  SmallVector<int64_t> box, pad;
  dtile::Transport transport = dtile::Transport::sync;
  int64_t swizzle = 0;
  /// For TMA: the descriptor parameter, the first of the `buffers`
  /// mbarriers the slots complete on, and per slot the box-shaped views
  /// tma_loads write (one per swizzle segment; one without a swizzle).
  Value descriptor;
  int64_t mbarrierBase = 0;
  SmallVector<SmallVector<Value, 1>> slotViews;
};

/// A slab as the kernel body sees it.
struct Slab {
  SlabAlloc *alloc = nullptr;
  /// The slot index; null with a single buffer.
  Value slot;
};

/// Lowers one dtile.kernel into a detached dkernel.func.
class KernelLowering {
public:
  KernelLowering(dtile::KernelOp kernel, dkernel::TargetAttr target)
      : kernel(kernel), target(target), b(kernel.getContext()) {}

  /// The new kernel, not inserted anywhere; on failure a located error has
  /// been emitted and nothing was created.
  FailureOr<dkernel::FuncOp> run();

private:
  //===--------------------------------------------------------------------===//
  // Structure
  //===--------------------------------------------------------------------===//

  /// Lowers the ops of `block` but its terminator at the insertion point.
  LogicalResult lowerOps(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerTile(dtile::TileOp tile);
  LogicalResult lowerLoop(Operation *op, Value lb, Value ub, Value step,
                          ValueRange inits, Block &body,
                          std::optional<int64_t> unroll);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerLoad(dloop::LoadOp op);
  LogicalResult lowerStore(dloop::StoreOp op);
  LogicalResult lowerApply(affine::AffineApplyOp op);
  LogicalResult lowerStage(dtile::StageOp op);
  LogicalResult lowerCombine(dtile::CombineOp op);
  LogicalResult lowerAsyncWait(dtile::AsyncWaitOp op);
  /// Sets up the TMA stages of `tileOp`: their slabs, descriptors and
  /// mbarriers (initialised by thread 0), and each thread's phase tracking.
  LogicalResult setUpTma(dtile::TileOp tileOp);
  LogicalResult lowerTmaStage(dtile::StageOp op, Value source);
  /// The index into `alloc`'s flat swizzled view of element `coords` of the
  /// slab in `slot` (null with one buffer).
  Value swizzledSlabIndex(Location loc, const SlabAlloc &alloc, Value slot,
                          ArrayRef<Value> coords);
  /// The box origin of `op` as Kernel IR index values, and the Kernel IR
  /// form of its slot (null when it has none).
  LogicalResult lowerStagePlacement(dtile::StageOp op,
                                    SmallVector<Value> &origin, Value &slot) {
    FailureOr<SmallVector<Value>> expanded =
        expandMap(op.getLoc(), op.getMap(), op.getOrigin(), op);
    if (failed(expanded))
      return failure();
    origin = std::move(*expanded);
    slot = op.getSlot() ? lookup(op.getSlot()) : Value();
    if (op.getSlot() && !slot)
      return op.emitOpError("slot has no Kernel IR form");
    return success();
  }
  /// Waits for every mbarrier a TMA copy was issued on since its last wait.
  void waitForTma(Location loc);
  LogicalResult cloneScalarOp(Operation *op);

  /// The value carried in place of `old` by a loop or branch (the slot of a
  /// slab, the mapped value of a scalar), and the slab allocation it refers
  /// to (null for scalars). Fails on values with no Kernel IR form.
  FailureOr<std::pair<Value, SlabAlloc *>> carried(Value old, Operation *user);
  /// Maps `old` (a result or block argument) to the carried `value`.
  void mapCarried(Value old, Value value, SlabAlloc *alloc);
  /// The carried values for the operands of `terminator`; checks that each
  /// slab stays in its allocation (`allocs`, filled where null).
  FailureOr<SmallVector<Value>> lowerYield(Operation *terminator,
                                           MutableArrayRef<SlabAlloc *> allocs);

  //===--------------------------------------------------------------------===//
  // Values and arithmetic
  //===--------------------------------------------------------------------===//

  /// The lowered scalar for `old`, or null.
  Value lookup(Value old) { return values.lookupOrNull(old); }
  /// The lowered scalars for `olds`; fails (at `user`) if one has none.
  FailureOr<SmallVector<Value>> lookupAll(ValueRange olds, Operation *user);
  /// A constant at the kernel entry, shared by all uses.
  Value constant(TypedAttr attr);
  Value index(int64_t v) { return constant(b.getIndexAttr(v)); }
  Value add(Location loc, Value lhs, Value rhs);
  Value mul(Location loc, Value lhs, int64_t rhs);
  Value div(Location loc, Value lhs, int64_t rhs);
  Value rem(Location loc, Value lhs, int64_t rhs);
  Value cmpLt(Location loc, Value lhs, int64_t rhs);
  Value cmpEq(Location loc, Value lhs, int64_t rhs);
  /// Splits `linear` in [0, prod(extents)) into coordinates, the last
  /// fastest; extent-1 coordinates are the constant 0.
  SmallVector<Value> delinearize(Location loc, Value linear,
                                 ArrayRef<int64_t> extents);
  /// `map` applied to the lowered `operands`, in arith. Divisions of values
  /// known to be non-negative (checked on the source, where `user` is) are
  /// unsigned; others take the signed floor semantics of affine.
  FailureOr<SmallVector<Value>> expandMap(Location loc, AffineMap map,
                                          ValueRange operands, Operation *user);
  /// One result of expandMap; null (after an error at `loc`) for what arith
  /// cannot express.
  Value expandExpr(Location loc, AffineExpr expr, ValueRange dims,
                   ValueRange symbols,
                   ArrayRef<std::optional<Interval>> ranges);

  //===--------------------------------------------------------------------===//
  // Synchronisation and shared memory
  //===--------------------------------------------------------------------===//

  void barrier(Location loc) { gpu::BarrierOp::create(b, loc); }
  /// An `alignment`-byte aligned slice of the pool of type `shape x element`.
  Value allocShared(Location loc, ArrayRef<int64_t> shape, Type element,
                    int64_t alignment = kSmemAlignment);
  /// A view of type `shape x element` of the pool at byte `offset`.
  Value viewShared(Location loc, ArrayRef<int64_t> shape, Type element,
                   int64_t offset);
  /// The allocation for the slab of `op`, shared by a rotation.
  SlabAlloc *getSlabAlloc(dtile::StageOp op);
  /// Runs `body(e)` for e in [0, count) spread over the threads: thread t
  /// takes t, t + N, ...
  void forEachCooperatively(Location loc, int64_t count,
                            function_ref<void(Value)> body);
  /// Runs `body` at the insertion point guarded by `cond`.
  void ifThen(Location loc, Value cond, function_ref<void()> body);
  /// The result of `op` for groups of `group` threads, a multiple of 32:
  /// warp reductions, warp partials in shared memory, the first warp folds.
  Value combineThroughWarps(dtile::CombineOp op, Value value, int64_t group);
  /// The result of `op` over the whole block: a shared buffer padded to a
  /// power of two, folded by dkernel.tree_reduce.
  Value combineByTree(dtile::CombineOp op, Value value);
  /// The result of `op` for groups of `group` threads: values in shared
  /// memory, thread g folds group g.
  Value combineSequentially(dtile::CombineOp op, Value value, int64_t group);

  dtile::KernelOp kernel;
  dkernel::TargetAttr target;
  OpBuilder b;
  dkernel::FuncOp func;
  /// Ops hoisted to the kernel entry, spliced in at the end: the shared
  /// slices, then the constants.
  Block allocs, constants;
  DenseMap<Attribute, Value> constantCache;
  /// Scalars and kernel buffers: source value -> lowered value.
  IRMapping values;
  /// Slabs: source memref value -> slab.
  DenseMap<Value, Slab> slabs;
  SmallVector<std::unique_ptr<SlabAlloc>> slabAllocs;
  int64_t smemBytes = 0;
  /// The linear thread id and the thread count (1 without thread axes).
  Value tid;
  int64_t numThreads = 1;
  dtile::TileOp tile;
  /// TMA: the mbarriers (one per slot of each TMA slab), and per thread the
  /// parity each one's next phase completes with and whether a copy is
  /// pending on it. Null without TMA stages.
  Value mbarriers, tmaPhase, tmaPending;
  int64_t numMbarriers = 0;
  /// The slab of each TMA stage, set up before the body is lowered.
  DenseMap<Operation *, SlabAlloc *> tmaSlabs;
};

} // namespace

//===----------------------------------------------------------------------===//
// Values and arithmetic
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> KernelLowering::lookupAll(ValueRange olds,
                                                        Operation *user) {
  SmallVector<Value> result;
  for (Value old : olds) {
    Value v = lookup(old);
    if (!v)
      return user->emitOpError("uses a value of type ")
             << old.getType() << " that has no Kernel IR form here";
    result.push_back(v);
  }
  return result;
}

Value KernelLowering::constant(TypedAttr attr) {
  Value &cached = constantCache[attr];
  if (!cached) {
    OpBuilder cb(kernel.getContext());
    cb.setInsertionPointToEnd(&constants);
    cached = arith::ConstantOp::create(cb, kernel.getLoc(), attr);
  }
  return cached;
}

Value KernelLowering::add(Location loc, Value lhs, Value rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return index(*l + *r);
  if (l == 0)
    return rhs;
  if (r == 0)
    return lhs;
  return arith::AddIOp::create(b, loc, lhs, rhs);
}

Value KernelLowering::mul(Location loc, Value lhs, int64_t rhs) {
  if (std::optional<int64_t> l = getConstantIntValue(lhs))
    return index(*l * rhs);
  if (rhs == 1)
    return lhs;
  return arith::MulIOp::create(b, loc, lhs, index(rhs));
}

Value KernelLowering::div(Location loc, Value lhs, int64_t rhs) {
  if (std::optional<int64_t> l = getConstantIntValue(lhs))
    return index(*l / rhs);
  if (rhs == 1)
    return lhs;
  return arith::DivUIOp::create(b, loc, lhs, index(rhs));
}

Value KernelLowering::rem(Location loc, Value lhs, int64_t rhs) {
  if (std::optional<int64_t> l = getConstantIntValue(lhs))
    return index(*l % rhs);
  if (rhs == 1)
    return index(0);
  return arith::RemUIOp::create(b, loc, lhs, index(rhs));
}

Value KernelLowering::cmpLt(Location loc, Value lhs, int64_t rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs,
                               index(rhs));
}

Value KernelLowering::cmpEq(Location loc, Value lhs, int64_t rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs,
                               index(rhs));
}

SmallVector<Value> KernelLowering::delinearize(Location loc, Value linear,
                                               ArrayRef<int64_t> extents) {
  SmallVector<Value> coords(extents.size());
  int64_t stride = 1;
  for (int i = static_cast<int>(extents.size()) - 1; i >= 0; --i) {
    if (extents[i] == 1) {
      coords[i] = index(0);
      continue;
    }
    Value q = div(loc, linear, stride);
    // The outermost non-unit coordinate needs no wrap-around: linear is
    // below the product of the extents.
    bool outermost =
        llvm::all_of(extents.take_front(i), [](int64_t e) { return e == 1; });
    coords[i] = outermost ? q : rem(loc, q, extents[i]);
    stride *= extents[i];
  }
  return coords;
}

Value KernelLowering::expandExpr(Location loc, AffineExpr expr, ValueRange dims,
                                 ValueRange symbols,
                                 ArrayRef<std::optional<Interval>> ranges) {
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return index(cst.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[sym.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhsExpr = binary.getLHS(), rhsExpr = binary.getRHS();
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    Value lhs = expandExpr(loc, lhsExpr, dims, symbols, ranges);
    Value rhs = lhs ? expandExpr(loc, rhsExpr, dims, symbols, ranges) : Value();
    return rhs ? add(loc, lhs, rhs) : Value();
  }
  case AffineExprKind::Mul:
    if (auto cst = dyn_cast<AffineConstantExpr>(rhsExpr)) {
      Value lhs = expandExpr(loc, lhsExpr, dims, symbols, ranges);
      return lhs ? mul(loc, lhs, cst.getValue()) : Value();
    }
    break;
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod:
  case AffineExprKind::CeilDiv: {
    // Unsigned division is exact when the dividend cannot be negative.
    auto cst = dyn_cast<AffineConstantExpr>(rhsExpr);
    if (!cst || cst.getValue() <= 0 || symbols.size() > 0)
      break;
    SmallVector<Interval> known;
    for (const std::optional<Interval> &range : ranges) {
      if (!range)
        break;
      known.push_back(*range);
    }
    if (known.size() != ranges.size())
      break;
    std::optional<Interval> bound = boundAffineExpr(lhsExpr, known);
    if (!bound || bound->lo < 0)
      break;
    Value lhs = expandExpr(loc, lhsExpr, dims, symbols, ranges);
    if (!lhs)
      return {};
    int64_t c = cst.getValue();
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return div(loc, lhs, c);
    if (expr.getKind() == AffineExprKind::Mod)
      return rem(loc, lhs, c);
    return div(loc, add(loc, lhs, index(c - 1)), c);
  }
  default:
    break;
  }
  return affine::expandAffineExpr(b, loc, expr, dims, symbols);
}

FailureOr<SmallVector<Value>> KernelLowering::expandMap(Location loc,
                                                        AffineMap map,
                                                        ValueRange operands,
                                                        Operation *user) {
  FailureOr<SmallVector<Value>> lowered = lookupAll(operands, user);
  if (failed(lowered))
    return failure();
  unsigned numDims = map.getNumDims();
  SmallVector<std::optional<Interval>> ranges;
  for (Value operand : operands.take_front(numDims))
    ranges.push_back(dloop::getIndexRange(operand, user));
  ValueRange dims = ValueRange(*lowered).take_front(numDims);
  ValueRange symbols = ValueRange(*lowered).drop_front(numDims);
  SmallVector<Value> result;
  for (AffineExpr expr : map.getResults()) {
    AffineExpr simple = simplifyWithRanges(expr, ranges);
    // Null after upstream's expansion reported an error (a division by a
    // non-positive constant).
    Value value = expandExpr(loc, simple, dims, symbols, ranges);
    if (!value)
      return failure();
    result.push_back(value);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

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
  SmallVector<int64_t> box(op.getBox()), pad = op.getPadding();
  int64_t buffers = op.getBuffers();
  // The stages of one rotation fill the slots of one allocation.
  if (buffers > 1)
    for (const std::unique_ptr<SlabAlloc> &alloc : slabAllocs)
      if (alloc->buffers == buffers && alloc->source == op.getSource() &&
          alloc->box == box && alloc->pad == pad &&
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
  // aligned to the pattern's repeat.
  int64_t alignment = kSmemAlignment;
  if (op.getTransport() == dtile::Transport::tma)
    alignment = getTmaBoxAlignment(swizzle);
  alloc->view = allocShared(
      op.getLoc(), shape,
      cast<MemRefType>(op.getSource().getType()).getElementType(), alignment);
  alloc->swizzle = swizzle;
  alloc->buffers = buffers;
  alloc->source = op.getSource();
  alloc->box = box;
  alloc->pad = pad;
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

void KernelLowering::forEachCooperatively(Location loc, int64_t count,
                                          function_ref<void(Value)> body) {
  if (count == numThreads) {
    body(tid);
    return;
  }
  if (count < numThreads) {
    ifThen(loc, cmpLt(loc, tid, count), [&] { body(tid); });
    return;
  }
  auto loop = scf::ForOp::create(b, loc, tid, index(count), index(numThreads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

/// Whether `stage`, directly in the body of `loop`, fills slot (k + c) mod N
/// of its N >= 2 slabs at iteration k, and a barrier follows it in every
/// iteration (its own after a sync copy, an async wait's otherwise). Then
/// the readers of the slot it fills (iteration k - N or earlier) all passed
/// the previous iteration's barrier, and only what precedes the loop can
/// still conflict with the copy.
static bool isFencedRotation(dtile::StageOp stage, dloop::ForOp loop) {
  int64_t buffers = stage.getBuffers();
  auto apply = stage.getSlot()
                   ? stage.getSlot().getDefiningOp<affine::AffineApplyOp>()
                   : nullptr;
  if (buffers < 2 || stage->getParentOp() != loop || !apply ||
      apply.getMapOperands().size() != 1 ||
      apply.getMapOperands()[0] != loop.getInductionVar())
    return false;
  // (d0 + c) mod N
  auto mod = dyn_cast<AffineBinaryOpExpr>(apply.getAffineMap().getResult(0));
  auto divisor =
      mod ? dyn_cast<AffineConstantExpr>(mod.getRHS()) : AffineConstantExpr();
  if (!mod || mod.getKind() != AffineExprKind::Mod || !divisor ||
      divisor.getValue() != buffers)
    return false;
  AffineExpr k = mod.getLHS();
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(k);
      sum && sum.getKind() == AffineExprKind::Add &&
      isa<AffineConstantExpr>(sum.getRHS()))
    k = sum.getLHS();
  if (k != getAffineDimExpr(0, stage.getContext()))
    return false;
  if (stage.getTransport() == dtile::Transport::sync)
    return true;
  for (Operation *next = stage->getNextNode(); next; next = next->getNextNode())
    if (isa<dtile::AsyncWaitOp>(next))
      return true;
  return false;
}

/// Whether the block must synchronise before the stage `op` overwrites its
/// slab: some thread may still read it, or read global memory written before.
/// Walking back in program order, nothing but pure ops and other stages'
/// copies since the last barrier (or the start of the tile) means no.
static bool needsBarrierBefore(Operation *op) {
  Operation *cursor = op;
  while (true) {
    if (Operation *prev = cursor->getPrevNode()) {
      cursor = prev;
      // A stage just before either needed no barrier (then neither do we:
      // the walk back from it is ours) or put one before its copies.
      if (isa<dtile::StageOp>(prev))
        return false;
      // An async wait ends with a barrier.
      if (isa<dtile::AsyncWaitOp>(prev))
        return false;
      if (isMemoryEffectFree(prev))
        continue;
      return true;
    }
    Operation *parent = cursor->getParentOp();
    // Nothing ran before the tile body but constants.
    if (isa<dtile::TileOp>(parent))
      return false;
    // A loop: the previous iteration may still read, unless the stage's
    // slots rotate behind a barrier; then what precedes the loop decides.
    auto loop = dyn_cast<dloop::ForOp>(parent);
    auto stage = dyn_cast<dtile::StageOp>(op);
    if (!isa<scf::IfOp>(parent) &&
        !(loop && stage && isFencedRotation(stage, loop)))
      return true;
    cursor = parent;
  }
}

/// Whether the next op after `op`, past pure ops, is a sync stage: it then
/// puts the barrier after both copies.
static bool nextIsSyncStage(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto stage = dyn_cast<dtile::StageOp>(next))
      return stage.getTransport() == dtile::Transport::sync;
    if (!isMemoryEffectFree(next))
      return false;
  }
  return false;
}

LogicalResult KernelLowering::lowerStage(dtile::StageOp op) {
  Location loc = op.getLoc();
  dtile::Transport transport = op.getTransport();
  if (transport == dtile::Transport::cp_async &&
      !target.has(GpuFeature::cp_async))
    return op.emitOpError("transport cp_async needs the 'cp_async' feature; "
                          "target ")
           << target.getName() << " lacks it";
  Value source = lookup(op.getSource());
  auto sourceArg = dyn_cast_or_null<BlockArgument>(source);
  if (!sourceArg || sourceArg.getOwner()->getParentOp() != func)
    return op.emitOpError("stages a buffer that is not a kernel buffer");
  if (transport == dtile::Transport::tma)
    return lowerTmaStage(op, source);
  auto sourceType = cast<MemRefType>(source.getType());
  Type element = sourceType.getElementType();
  ArrayRef<int64_t> box = op.getBox();
  int64_t rank = box.size();

  // Copies of `chunk` elements: one element for sync stages; for cp.async
  // the widest aligned run of 16, 8 or 4 bytes.
  int64_t chunk = 1, bytes = 0;
  if (transport == dtile::Transport::cp_async) {
    std::optional<int64_t> run = op.getCpAsyncRunBytes();
    if (!run)
      return op.emitOpError("cannot be copied with cp.async: no run of 4, 8 "
                            "or 16 bytes of ")
             << element << " is aligned in both the source and the slab";
    bytes = *run;
    chunk = bytes / dkernel::getScalarBytes(element);
  }

  SmallVector<Value> origin;
  Value slot;
  if (failed(lowerStagePlacement(op, origin, slot)))
    return failure();
  SlabAlloc *alloc = getSlabAlloc(op);

  if (needsBarrierBefore(op))
    barrier(loc);
  SmallVector<int64_t> chunks(box);
  if (rank)
    chunks.back() /= chunk;
  int64_t count = 1;
  for (int64_t c : chunks)
    count *= c;
  // With zero_fill, the dimensions whose box may reach past the source.
  SmallVector<bool> mayOverhang(rank, false);
  if (op.getZeroFill())
    for (auto [d, expr] : llvm::enumerate(op.getMap().getResults())) {
      std::optional<Interval> range = dloop::getAccessRange(
          expr, op.getMap().getNumDims(), op.getOrigin(), op);
      mayOverhang[d] = !range || range->hi + box[d] > sourceType.getDimSize(d);
    }
  forEachCooperatively(loc, count, [&](Value e) {
    SmallVector<Value> coords = delinearize(loc, e, chunks);
    if (rank)
      coords.back() = mul(loc, coords.back(), chunk);
    SmallVector<Value> src, dst;
    if (slot)
      dst.push_back(slot);
    Value valid;
    for (auto [d, o, c] : llvm::enumerate(origin, coords)) {
      src.push_back(add(loc, o, c));
      dst.push_back(c);
      if (!mayOverhang[d])
        continue;
      // Runs never straddle the end: the source's inner extent is a
      // multiple of the run (checked above), and so is the run's start.
      Value inside = cmpLt(loc, src.back(), sourceType.getDimSize(d));
      valid = valid ? arith::AndIOp::create(b, loc, valid, inside) : inside;
    }
    if (transport == dtile::Transport::cp_async) {
      if (valid) {
        // The address is formed even when nothing is read: keep it inside.
        for (Value &i : src)
          i = arith::SelectOp::create(b, loc, valid, i, index(0));
      }
      dkernel::CpAsyncOp::create(b, loc, source, src, alloc->view, dst, valid,
                                 bytes);
      return;
    }
    Value v;
    if (!valid) {
      v = memref::LoadOp::create(b, loc, source, src);
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{element}, valid,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(
          b, loc, ValueRange{memref::LoadOp::create(b, loc, source, src)});
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, constant(b.getZeroAttr(element)));
      v = ifOp.getResult(0);
    }
    memref::StoreOp::create(b, loc, v, alloc->view, dst);
  });
  if (transport == dtile::Transport::cp_async)
    dkernel::CpAsyncCommitOp::create(b, loc);
  else if (!nextIsSyncStage(op))
    barrier(loc);
  slabs[op.getResult()] = Slab{alloc, slot};
  return success();
}

LogicalResult KernelLowering::lowerAsyncWait(dtile::AsyncWaitOp op) {
  // One commit group per stage, so `keep` counts groups; the wait covers the
  // calling thread's copies, the barrier everybody's. A target without
  // cp.async has no cp.async stages (they are rejected), so only the
  // barrier remains.
  // A kernel's stages use cp.async or TMA, never both (the Tile rules see
  // to it); with TMA every pending copy is waited for, whatever `keep`.
  if (mbarriers)
    waitForTma(op.getLoc());
  else if (target.has(GpuFeature::cp_async))
    dkernel::CpAsyncWaitOp::create(b, op.getLoc(), op.getKeep());
  barrier(op.getLoc());
  return success();
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::setUpTma(dtile::TileOp tileOp) {
  SmallVector<dtile::StageOp> stages;
  tileOp.walk([&](dtile::StageOp stage) {
    if (stage.getTransport() == dtile::Transport::tma)
      stages.push_back(stage);
  });
  if (stages.empty())
    return success();
  MLIRContext *ctx = kernel.getContext();
  Location loc = tileOp.getLoc();
  OpBuilder ab(ctx);
  ab.setInsertionPointToEnd(&allocs);
  Block &entry = func.getBody().front();
  for (dtile::StageOp stage : stages) {
    if (!target.has(GpuFeature::tma))
      return stage.emitOpError("transport tma needs the 'tma' feature; "
                               "target ")
             << target.getName() << " lacks it";
    auto sourceArg = dyn_cast_or_null<BlockArgument>(lookup(stage.getSource()));
    if (!sourceArg || sourceArg.getOwner()->getParentOp() != func)
      return stage.emitOpError("stages a buffer that is not a kernel buffer");
    auto sourceType = cast<MemRefType>(sourceArg.getType());
    Type element = sourceType.getElementType();
    // Swizzled, each segment of the inner dimension is a box of its own.
    SmallVector<int64_t> box(stage.getBox());
    int64_t swizzle = stage.getSwizzle(), segments = 1;
    if (swizzle != 0) {
      int64_t perSegment = swizzle / dkernel::getScalarBytes(element);
      segments = box.back() / perSegment;
      box.back() = perSegment;
    }
    auto descType = dkernel::TmaDescriptorType::getChecked(
        [&] { return stage.emitOpError(); }, ctx, ArrayRef<int64_t>(box),
        element, swizzle);
    if (!descType)
      return failure();
    SlabAlloc *alloc = getSlabAlloc(stage);
    tmaSlabs[stage] = alloc;
    if (alloc->descriptor)
      continue; // another stage of the same rotation
    // One descriptor parameter per slab; the runtime encodes it from the
    // source buffer before each launch.
    alloc->descriptor = entry.addArgument(descType, stage.getLoc());
    func.setFunctionType(FunctionType::get(ctx, entry.getArgumentTypes(), {}));
    dkernel::TmaDescriptorOp::create(ab, stage.getLoc(), alloc->descriptor,
                                     sourceArg);
    alloc->mbarrierBase = numMbarriers;
    numMbarriers += alloc->buffers;
    if (alloc->buffers == 1 && swizzle == 0) {
      alloc->slotViews.push_back({alloc->view});
      continue;
    }
    // The boxes of slot s lie at s * segments, s * segments + 1, ...
    int64_t base =
        alloc->view.getDefiningOp<dkernel::AllocSharedOp>().getOffset();
    for (int64_t slot = 0; slot < alloc->buffers; ++slot) {
      SmallVector<Value, 1> views;
      for (int64_t segment = 0; segment < segments; ++segment)
        views.push_back(viewShared(stage.getLoc(), box, element,
                                   base + (slot * segments + segment) *
                                              descType.getBoxBytes()));
      alloc->slotViews.push_back(std::move(views));
    }
  }

  mbarriers = allocShared(loc, {numMbarriers}, b.getI64Type(), 8);
  // Per-thread phase tracking: every thread runs every stage and wait, so
  // each counts the phases of every mbarrier for itself.
  auto local = MemRefType::get({numMbarriers}, b.getI32Type());
  tmaPhase = memref::AllocaOp::create(b, loc, local);
  tmaPending = memref::AllocaOp::create(b, loc, local);
  Value zero = constant(b.getI32IntegerAttr(0));
  for (int64_t i = 0; i < numMbarriers; ++i) {
    memref::StoreOp::create(b, loc, zero, tmaPhase, index(i));
    memref::StoreOp::create(b, loc, zero, tmaPending, index(i));
  }
  // One arrival per phase: the issuing thread's expect_tx.
  ifThen(loc, cmpEq(loc, tid, 0), [&] {
    for (int64_t i = 0; i < numMbarriers; ++i)
      dkernel::MbarrierInitOp::create(b, loc, mbarriers, index(i), 1);
  });
  barrier(loc);
  return success();
}

LogicalResult KernelLowering::lowerTmaStage(dtile::StageOp op, Value source) {
  Location loc = op.getLoc();
  SlabAlloc *alloc = tmaSlabs.lookup(op);
  if (!alloc)
    return op.emitOpError("tma stage outside the dtile.tile");
  SmallVector<Value> origin;
  Value slot;
  if (failed(lowerStagePlacement(op, origin, slot)))
    return failure();
  // The slab's previous contents may still be read.
  if (needsBarrierBefore(op))
    barrier(loc);
  Value mb = slot ? add(loc, slot, index(alloc->mbarrierBase))
                  : index(alloc->mbarrierBase);
  // Every thread notes the copy its next wait must cover.
  memref::StoreOp::create(b, loc, constant(b.getI32IntegerAttr(1)), tmaPending,
                          mb);
  auto descType = cast<dkernel::TmaDescriptorType>(alloc->descriptor.getType());
  int64_t segments = alloc->slotViews.front().size();
  // One box per swizzle segment, all completing on the slot's mbarrier.
  auto loadSlot = [&](ArrayRef<Value> views) {
    for (auto [segment, view] : llvm::enumerate(views)) {
      SmallVector<Value> coords(origin);
      coords.back() = add(loc, coords.back(),
                          index(segment * descType.getBoxShape().back()));
      dkernel::TmaLoadOp::create(b, loc, alloc->descriptor, coords, view,
                                 mbarriers, mb);
    }
  };
  ifThen(loc, cmpEq(loc, tid, 0), [&] {
    dkernel::MbarrierArriveExpectTxOp::create(
        b, loc, mbarriers, mb, segments * descType.getBoxBytes());
    std::optional<int64_t> fixed =
        slot ? getConstantIntValue(slot) : std::optional<int64_t>(0);
    if (fixed)
      return loadSlot(alloc->slotViews[*fixed]);
    // tma_load writes a whole box-shaped view: pick the slot's.
    for (auto [i, views] : llvm::enumerate(alloc->slotViews))
      ifThen(loc, cmpEq(loc, slot, i),
             [&, &views = views] { loadSlot(views); });
  });
  slabs[op.getResult()] = Slab{alloc, slot};
  return success();
}

void KernelLowering::waitForTma(Location loc) {
  Value zero = constant(b.getI32IntegerAttr(0));
  Value one = constant(b.getI32IntegerAttr(1));
  for (int64_t i = 0; i < numMbarriers; ++i) {
    Value pending = memref::LoadOp::create(b, loc, tmaPending, index(i));
    Value issued =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, pending, zero);
    // Uniform: every thread issued (or noted) the same copies.
    ifThen(loc, issued, [&] {
      Value phase = memref::LoadOp::create(b, loc, tmaPhase, index(i));
      dkernel::MbarrierWaitOp::create(b, loc, mbarriers, index(i), phase);
      memref::StoreOp::create(b, loc, arith::XOrIOp::create(b, loc, phase, one),
                              tmaPhase, index(i));
      memref::StoreOp::create(b, loc, zero, tmaPending, index(i));
    });
  }
}

//===----------------------------------------------------------------------===//
// Combine
//===----------------------------------------------------------------------===//

/// Whether `op` runs repeatedly within its tile.
static bool isInLoop(Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<dtile::TileOp>(parent); parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return true;
  return false;
}

LogicalResult KernelLowering::lowerCombine(dtile::CombineOp op) {
  Type type = op.getValue().getType();
  if (type.isInteger(1) || !dkernel::isKernelScalar(type))
    return op.emitOpError("cannot combine values of type ")
           << type << " in Kernel IR";
  Value value = lookup(op.getValue());
  if (!value)
    return op.emitOpError("combines a value that has no Kernel IR form");

  // The threads sharing a result are contiguous exactly when the combined
  // axes are the innermost non-unit ones: groups of `group` consecutive
  // linear ids, aligned to multiples of `group`.
  llvm::StringSet<> over;
  for (Attribute name : op.getOver())
    over.insert(cast<StringAttr>(name).getValue());
  int64_t group = 1;
  bool combining = false;
  for (auto [name, extent] :
       llvm::zip(tile.getThreadAxes(), tile.getThreadExtents())) {
    if (extent == 1)
      continue;
    if (over.contains(cast<StringAttr>(name).getValue())) {
      combining = true;
      group *= extent;
    } else if (combining) {
      return op.emitOpError("combines over thread axes that are not the "
                            "innermost ones (")
             << tile.getThreadAxes()
             << "), so the threads sharing a result are not contiguous lanes";
    }
  }
  if (group == 1) {
    values.map(op.getResult(), value);
    return success();
  }

  Location loc = op.getLoc();
  bool shuffles =
      isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type) ||
      type.isInteger(32) || type.isInteger(64);
  bool fullWarps = numThreads % kWarpSize == 0;
  Value result;
  if (shuffles && fullWarps && group <= kWarpSize && llvm::isPowerOf2_64(group))
    result = dkernel::WarpReduceOp::create(b, loc, op.getKind(), value, group);
  else if (shuffles && fullWarps && group % kWarpSize == 0)
    result = combineThroughWarps(op, value, group);
  else if (group == numThreads)
    result = combineByTree(op, value);
  else
    result = combineSequentially(op, value, group);
  values.map(op.getResult(), result);
  return success();
}

Value KernelLowering::combineThroughWarps(dtile::CombineOp op, Value value,
                                          int64_t group) {
  Location loc = op.getLoc();
  Type type = value.getType();
  ReduceKind kind = op.getKind();
  int64_t warps = numThreads / kWarpSize;
  int64_t perGroup = group / kWarpSize; // partials per group, >= 2
  int64_t groups = numThreads / group;
  Value partials = allocShared(loc, {warps}, type);
  Value results = allocShared(loc, {groups}, type);
  Value lane = rem(loc, tid, kWarpSize);
  Value warp = div(loc, tid, kWarpSize);

  // Every warp folds its lanes; lane 0 publishes the warp's partial.
  Value folded = dkernel::WarpReduceOp::create(b, loc, kind, value, kWarpSize);
  ifThen(loc, cmpEq(loc, lane, 0),
         [&] { memref::StoreOp::create(b, loc, folded, partials, warp); });
  barrier(loc);

  // The first warp folds each group's partials and publishes the result.
  ifThen(loc, cmpEq(loc, warp, 0), [&] {
    int64_t width = llvm::PowerOf2Ceil(perGroup);
    int64_t used = groups * width;
    if (used <= kWarpSize) {
      // Lane l holds partial l % width of group l / width; a group padded to
      // a power of two gets the identity. Lanes past the groups compute
      // garbage that nobody stores.
      bool padded = width != perGroup;
      Value j = padded || groups > 1 ? rem(loc, lane, width) : Value();
      Value g = groups == 1 ? index(0) : div(loc, lane, width);
      Value x;
      if (!padded) {
        Value slot = used == kWarpSize ? lane : rem(loc, lane, used);
        x = memref::LoadOp::create(b, loc, partials, slot);
      } else {
        Value valid = cmpLt(loc, j, perGroup);
        if (used < kWarpSize)
          valid = arith::AndIOp::create(b, loc, valid, cmpLt(loc, lane, used));
        Value slot = add(loc, mul(loc, g, perGroup), j);
        slot = arith::SelectOp::create(b, loc, valid, slot, index(0));
        Value loaded = memref::LoadOp::create(b, loc, partials, slot);
        x = arith::SelectOp::create(b, loc, valid, loaded,
                                    constant(getReduceIdentity(kind, type)));
      }
      Value total = dkernel::WarpReduceOp::create(b, loc, kind, x, width);
      Value leader = groups == 1 ? cmpEq(loc, lane, 0) : cmpEq(loc, j, 0);
      if (groups > 1 && used < kWarpSize)
        leader = arith::AndIOp::create(b, loc, leader, cmpLt(loc, lane, used));
      ifThen(loc, leader,
             [&] { memref::StoreOp::create(b, loc, total, results, g); });
      return;
    }
    // Too many groups for one warp's shuffles: lane g folds group g.
    ifThen(loc, cmpLt(loc, lane, groups), [&] {
      Value base = mul(loc, lane, perGroup);
      Value first = memref::LoadOp::create(b, loc, partials, base);
      auto loop = scf::ForOp::create(b, loc, index(1), index(perGroup),
                                     index(1), ValueRange{first});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value next = memref::LoadOp::create(
            b, loc, partials, add(loc, base, loop.getInductionVar()));
        Value acc = buildCombiner(b, loc, kind, loop.getRegionIterArg(0), next);
        scf::YieldOp::create(b, loc, acc);
      }
      memref::StoreOp::create(b, loc, loop.getResult(0), results, lane);
    });
  });
  barrier(loc);
  Value slot = groups == 1 ? index(0) : div(loc, tid, group);
  return memref::LoadOp::create(b, loc, results, slot);
}

Value KernelLowering::combineByTree(dtile::CombineOp op, Value value) {
  Location loc = op.getLoc();
  Type type = value.getType();
  int64_t length = llvm::PowerOf2Ceil(numThreads);
  Value buffer = allocShared(loc, {length}, type);
  // The tree folds in place and everyone reads element 0 after it: in a
  // loop, the previous round's readers must be done before it is written.
  if (isInLoop(op))
    barrier(loc);
  memref::StoreOp::create(b, loc, value, buffer, tid);
  // Pad to a power of two with the identity (fewer than numThreads slots).
  if (length > numThreads)
    ifThen(loc, cmpLt(loc, tid, length - numThreads), [&] {
      memref::StoreOp::create(b, loc,
                              constant(getReduceIdentity(op.getKind(), type)),
                              buffer, add(loc, tid, index(numThreads)));
    });
  barrier(loc);
  return dkernel::TreeReduceOp::create(b, loc, op.getKind(), buffer, length);
}

Value KernelLowering::combineSequentially(dtile::CombineOp op, Value value,
                                          int64_t group) {
  Location loc = op.getLoc();
  Type type = value.getType();
  int64_t groups = numThreads / group;
  Value buffer = allocShared(loc, {numThreads}, type);
  Value results = allocShared(loc, {groups}, type);
  memref::StoreOp::create(b, loc, value, buffer, tid);
  barrier(loc);
  ifThen(loc, cmpLt(loc, tid, groups), [&] {
    Value base = mul(loc, tid, group);
    Value first = memref::LoadOp::create(b, loc, buffer, base);
    auto loop = scf::ForOp::create(b, loc, index(1), index(group), index(1),
                                   ValueRange{first});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value next = memref::LoadOp::create(
          b, loc, buffer, add(loc, base, loop.getInductionVar()));
      Value acc =
          buildCombiner(b, loc, op.getKind(), loop.getRegionIterArg(0), next);
      scf::YieldOp::create(b, loc, acc);
    }
    memref::StoreOp::create(b, loc, loop.getResult(0), results, tid);
  });
  barrier(loc);
  return memref::LoadOp::create(b, loc, results, div(loc, tid, group));
}

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

Value KernelLowering::swizzledSlabIndex(Location loc, const SlabAlloc &alloc,
                                        Value slot, ArrayRef<Value> coords) {
  ArrayRef<int64_t> box = alloc.box;
  int64_t elementBytes = dkernel::getScalarBytes(
      cast<MemRefType>(alloc.view.getType()).getElementType());
  int64_t perSegment = alloc.swizzle / elementBytes;
  int64_t rows = ShapedType::getNumElements(box.drop_back());
  // The dense offset in the segmented slab (getSwizzledSlabOffset).
  Value row = index(0);
  for (auto [extent, coord] : llvm::zip(box.drop_back(), coords.drop_back()))
    row = add(loc, mul(loc, row, extent), coord);
  Value inner = coords.back();
  Value dense =
      add(loc,
          add(loc, mul(loc, div(loc, inner, perSegment), rows * perSegment),
              mul(loc, row, perSegment)),
          rem(loc, inner, perSegment));
  if (slot)
    dense = add(loc, mul(loc, slot, rows * box.back()), dense);
  if (std::optional<int64_t> known = getConstantIntValue(dense))
    return index(swizzleByteOffset(*known * elementBytes, alloc.swizzle) /
                 elementBytes);
  // The 16-byte chunk index XOR the 128-byte line index modulo swizzle / 16.
  Value line =
      rem(loc, div(loc, dense, 128 / elementBytes), alloc.swizzle / 16);
  return arith::XOrIOp::create(b, loc, dense,
                               mul(loc, line, 16 / elementBytes));
}

LogicalResult KernelLowering::lowerLoad(dloop::LoadOp op) {
  Location loc = op.getLoc();
  FailureOr<SmallVector<Value>> indices =
      expandMap(loc, op.getMap(), op.getIndices(), op);
  if (failed(indices))
    return failure();
  Value memref;
  if (auto it = slabs.find(op.getMemref()); it != slabs.end()) {
    const SlabAlloc &alloc = *it->second.alloc;
    memref = alloc.view;
    if (alloc.swizzle != 0)
      *indices = {swizzledSlabIndex(loc, alloc, it->second.slot, *indices)};
    else if (alloc.buffers > 1)
      indices->insert(indices->begin(), it->second.slot);
  } else {
    memref = lookup(op.getMemref());
  }
  if (!memref)
    return op.emitOpError("reads a buffer that has no Kernel IR form");
  values.map(op.getResult(),
             memref::LoadOp::create(b, loc, memref, *indices).getResult());
  return success();
}

LogicalResult KernelLowering::lowerStore(dloop::StoreOp op) {
  Location loc = op.getLoc();
  if (slabs.count(op.getMemref()))
    return op.emitOpError("writes a staged slab; slabs are read-only");
  Value memref = lookup(op.getMemref());
  Value value = lookup(op.getValue());
  if (!memref || !value)
    return op.emitOpError("stores to a buffer that has no Kernel IR form");
  FailureOr<SmallVector<Value>> indices =
      expandMap(loc, op.getMap(), op.getIndices(), op);
  if (failed(indices))
    return failure();
  if (std::optional<ReduceKind> kind = op.getReduceKind()) {
    Type element = op.getMemRefType().getElementType();
    if (dkernel::getScalarBytes(element) < 2)
      return op.emitOpError("reduces into ")
             << element
             << " elements, but atomics need elements of 2, 4 or 8 bytes";
    dkernel::AtomicStoreOp::create(b, loc, *kind, value, memref, *indices);
    return success();
  }
  memref::StoreOp::create(b, loc, value, memref, *indices);
  return success();
}

LogicalResult KernelLowering::lowerApply(affine::AffineApplyOp op) {
  FailureOr<SmallVector<Value>> result =
      expandMap(op.getLoc(), op.getAffineMap(), op.getMapOperands(), op);
  if (failed(result))
    return failure();
  values.map(op.getResult(), result->front());
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

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
      .Case([&](affine::AffineApplyOp apply) { return lowerApply(apply); })
      .Case([&](dtile::StageOp stage) { return lowerStage(stage); })
      .Case([&](dtile::CombineOp combine) { return lowerCombine(combine); })
      .Case([&](dtile::AsyncWaitOp wait) { return lowerAsyncWait(wait); })
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

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Whether the block axes of `tile` fit blockIdx x/y/z as they are.
static bool blocksFitGrid(dtile::TileOp tile) {
  ArrayRef<int64_t> extents = tile.getBlockExtents();
  if (extents.size() > 3)
    return false;
  for (auto [i, extent] : llvm::enumerate(llvm::reverse(extents)))
    if (extent > (i == 0 ? kMaxGridX : kMaxGridYZ))
      return false;
  return true;
}

LogicalResult KernelLowering::lowerTile(dtile::TileOp tileOp) {
  tile = tileOp;
  Location loc = tileOp.getLoc();
  Block &body = tileOp.getBody().front();
  ArrayRef<int64_t> blockExtents = tileOp.getBlockExtents();
  unsigned numBlockAxes = blockExtents.size();

  // Blocks: the last axis on x, the one before on y, the first on z; or all
  // of them linearised into x.
  if (blocksFitGrid(tileOp)) {
    for (unsigned i = 0; i < numBlockAxes; ++i) {
      int64_t extent = blockExtents[i];
      auto dim = static_cast<gpu::Dimension>(numBlockAxes - 1 - i);
      values.map(body.getArgument(i),
                 extent == 1 ? index(0)
                             : gpu::BlockIdOp::create(b, loc, dim).getResult());
    }
  } else {
    bool allUnit = llvm::all_of(blockExtents, [](int64_t e) { return e == 1; });
    Value linear =
        allUnit ? index(0)
                : gpu::BlockIdOp::create(b, loc, gpu::Dimension::x).getResult();
    for (auto [i, coord] :
         llvm::enumerate(delinearize(loc, linear, blockExtents)))
      values.map(body.getArgument(i), coord);
  }

  // Threads: a one-dimensional block, the last axis fastest.
  numThreads = tileOp.getNumThreads();
  tid = numThreads == 1
            ? index(0)
            : gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x).getResult();
  for (auto [i, coord] :
       llvm::enumerate(delinearize(loc, tid, tileOp.getThreadExtents())))
    values.map(body.getArgument(numBlockAxes + i), coord);

  if (failed(setUpTma(tileOp)))
    return failure();
  return lowerOps(body);
}

FailureOr<dkernel::FuncOp> KernelLowering::run() {
  Location loc = kernel.getLoc();
  Block &source = kernel.getBody().front();
  int64_t numInputs = kernel.getInputs().size();

  // Parameters: the inputs, then the outputs.
  SmallVector<Type> params;
  for (auto [i, buffer] : llvm::enumerate(kernel.getBuffers())) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.getMemorySpace())
      return kernel.emitOpError("buffer #")
             << i << " has type " << type
             << "; kernel parameters live in global memory (no memory space)";
    if (!dkernel::isKernelScalar(type.getElementType()))
      return kernel.emitOpError("buffer #")
             << i << " has element type " << type.getElementType()
             << ", which Kernel IR cannot hold";
    params.push_back(type);
  }
  SmallVector<int64_t> outputs, zeroInit;
  for (auto [i, arg] : llvm::enumerate(kernel.getOutputArgs())) {
    int64_t param = numInputs + i;
    outputs.push_back(param);
    // Zeroed at the Tile level (split-K), or written only by reducing
    // stores: atomics into a buffer the runtime zeroes.
    bool reducing = false, plain = false;
    for (Operation *user : arg.getUsers())
      if (auto store = dyn_cast<dloop::StoreOp>(user);
          store && store.getMemref() == arg)
        (store.isReducing() ? reducing : plain) = true;
    if (kernel.isZeroInit(i) || (reducing && !plain))
      zeroInit.push_back(param);
  }
  // Geometry.
  dtile::TileOp tileOp = kernel.getTile();
  SmallVector<int64_t> grid = {1, 1, 1}, block = {1, 1, 1};
  if (tileOp) {
    ArrayRef<int64_t> extents = tileOp.getBlockExtents();
    if (blocksFitGrid(tileOp)) {
      for (auto [i, extent] : llvm::enumerate(llvm::reverse(extents)))
        grid[i] = extent;
    } else {
      int64_t blocks = tileOp.getNumBlocks();
      if (blocks > kMaxGridX)
        return tileOp.emitOpError("binds ")
               << blocks << " blocks; a grid has at most " << kMaxGridX;
      grid[0] = blocks;
    }
    block[0] = tileOp.getNumThreads();
  }

  OpBuilder fb(kernel.getContext());
  func = dkernel::FuncOp::create(fb, loc, kernel.getSymName(),
                                 fb.getFunctionType(params, {}), grid, block,
                                 /*smem=*/0, outputs, zeroInit);
  if (!kernel.getKnobs().empty())
    func->setAttr("dtile.knobs", kernel.getKnobs());
  Block *entry = new Block();
  func.getBody().push_back(entry);
  for (auto [param, arg] : llvm::zip(params, source.getArguments())) {
    values.map(arg, entry->addArgument(param, arg.getLoc()));
  }
  auto ret = dkernel::ReturnOp::create(fb, loc);
  entry->push_back(ret);
  b.setInsertionPoint(ret);

  auto fail = [&]() -> FailureOr<dkernel::FuncOp> {
    // Drop the hoisted ops and the half-built kernel together.
    allocs.dropAllDefinedValueUses();
    constants.dropAllDefinedValueUses();
    func->dropAllReferences();
    func->erase();
    allocs.clear();
    constants.clear();
    return failure();
  };

  for (Operation &op : source.without_terminator()) {
    // Outside the tile every thread would run the op: only pure scalar
    // code may live there.
    if (tileOp && !isa<dtile::TileOp>(op) && !isMemoryEffectFree(&op)) {
      op.emitOpError("outside the dtile.tile would run on every thread; only "
                     "side-effect-free ops may be there");
      return fail();
    }
    if (failed(lowerOp(&op)))
      return fail();
  }

  entry->getOperations().splice(entry->begin(), constants.getOperations());
  entry->getOperations().splice(entry->begin(), allocs.getOperations());
  func.setSmem(smemBytes);
  // Every access expands its own index arithmetic; share what repeats.
  // Kernel IR keeps its synchronisation under CSE (see the dkernel tests).
  IRRewriter rewriter(kernel.getContext());
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);
  // Coordinates and constants nobody reads would print as unused locals.
  func.walk<WalkOrder::PostOrder, mlir::ReverseIterator>([](Operation *op) {
    if (isOpTriviallyDead(op))
      op->erase();
  });
  if (smemBytes > target.getSmemPerBlock()) {
    kernel.emitOpError("needs ")
        << smemBytes << " bytes of shared memory, more than the "
        << target.getSmemPerBlock() << " a block may use on "
        << target.getName();
    return fail();
  }
  return func;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

LogicalResult deplodock::convertDTileToDKernel(ModuleOp module,
                                               StringRef targetName) {
  FailureOr<dkernel::TargetAttr> target =
      dkernel::resolveTarget(module, targetName);
  if (failed(target))
    return failure();

  // What the kernels are built from; the pass has them loaded already.
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<dkernel::DKernelDialect, arith::ArithDialect,
                   gpu::GPUDialect, math::MathDialect, memref::MemRefDialect,
                   scf::SCFDialect>();

  SmallVector<dtile::KernelOp> kernels;
  // Kernels of nested modules belong to those modules' symbol tables.
  module.walk([&](dtile::KernelOp kernel) {
    if (kernel->getParentOfType<ModuleOp>() == module)
      kernels.push_back(kernel);
  });

  // Build every kernel before touching the module.
  SmallVector<dkernel::FuncOp> funcs;
  bool ok = true;
  for (dtile::KernelOp kernel : kernels) {
    KernelLowering lowering(kernel, *target);
    FailureOr<dkernel::FuncOp> func = lowering.run();
    if (failed(func)) {
      ok = false;
      continue;
    }
    funcs.push_back(*func);
  }
  if (!ok) {
    for (dkernel::FuncOp func : funcs)
      func->erase();
    return failure();
  }

  // Commit: kernels before the function that launched them, launches in
  // place of the dtile.kernels. A kernel keeps its name unless another
  // symbol has it (often the host function of the same name); the symbol
  // table then makes it unique (`@name_0`).
  Block *top = module.getBody();
  SymbolTable symbols(module);
  for (auto [kernel, func] : llvm::zip(kernels, funcs)) {
    Operation *anchor = top->findAncestorOpInBlock(*kernel);
    symbols.insert(func, anchor->getIterator());
    OpBuilder b(kernel);
    dkernel::LaunchOp::create(b, kernel.getLoc(), func, kernel.getBuffers());
    kernel.erase();
  }
  return success();
}

namespace {

struct ConvertDTileToDKernelPass final
    : deplodock::impl::ConvertDTileToDKernelBase<ConvertDTileToDKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(convertDTileToDKernel(getOperation(), target)))
      return signalPassFailure();
  }
};

} // namespace
