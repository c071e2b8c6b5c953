//===- Fuse.cpp - Fuse producer kernels into their consumers ----*- C++ -*-===//
//
// A producer stores element `B[f(i)]` at each point `i` of its free loops,
// with `f` a permutation of the loop variables (and zeros on size-1 axes).
// A consumer's load `B[g(j)]` therefore reads the value the producer
// computed at `i = f^-1(g(j))`: fusion clones that computation at the load
// with the loop variables replaced by the matching entries of `g(j)`.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"
#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "dloop-fuse"

namespace deplodock::dloop {
#define GEN_PASS_DEF_DLOOPFUSE
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"
} // namespace deplodock::dloop

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

namespace {

/// How a producer defines a buffer: one plain store inside free loops.
struct StoreInfo {
  StoreOp store;
  /// The free loops around the store, innermost first.
  SmallVector<ForOp> loops;
  /// For each loop, the position of the store index that is its variable.
  SmallVector<unsigned> position;
};

} // namespace

/// Analyses how `producer` writes its output argument `out`.
static FailureOr<StoreInfo> analyzeStore(KernelOp producer, Value out) {
  StoreInfo info;
  for (Operation *user : out.getUsers()) {
    auto store = dyn_cast<StoreOp>(user);
    if (!store || store.getValue() == out || info.store)
      return failure(); // Read back, passed on, or stored twice.
    info.store = store;
  }
  if (!info.store || info.store.isReducing())
    return failure();
  for (Operation *op = info.store->getParentOp(); op != producer;
       op = op->getParentOp()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop || loop.isReduction())
      return failure(); // Guarded or accumulated stores are not plain.
    info.loops.push_back(loop);
  }
  AffineMap map = info.store.getMap();
  ArrayRef<int64_t> shape = info.store.getMemRefType().getShape();
  info.position.assign(info.loops.size(), ~0u);
  for (auto [k, expr] : llvm::enumerate(map.getResults())) {
    if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      if (cst.getValue() != 0 || shape[k] != 1)
        return failure();
      continue;
    }
    // A symbol is an operand like a dimension (there is no affine scope).
    unsigned operand;
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      operand = dim.getPosition();
    else if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      operand = map.getNumDims() + symbol.getPosition();
    else
      return failure();
    Value index = info.store.getIndices()[operand];
    auto it = llvm::find_if(info.loops, [&](ForOp loop) {
      return loop.getInductionVar() == index;
    });
    if (it == info.loops.end() || info.position[it - info.loops.begin()] != ~0u)
      return failure();
    info.position[it - info.loops.begin()] = k;
  }
  // Every loop must pick a distinct element, or the store overwrites.
  if (llvm::is_contained(info.position, ~0u))
    return failure();
  return info;
}

/// The ops of `producer` that compute the value `info.store` stores: its
/// backward slice, with region ops (reduce loops, ifs) taken whole.
static llvm::SetVector<Operation *> storedSlice(StoreOp store) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist{store.getValue()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || slice.contains(def))
      continue; // Loop variables and buffers are substituted.
    slice.insert(def);
    llvm::append_range(worklist, def->getOperands());
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(def->getRegions(), above);
    llvm::append_range(worklist, above.getArrayRef());
  }
  return slice;
}

LogicalResult deplodock::dloop::fuseProducerInto(KernelOp producer,
                                                 Value buffer,
                                                 KernelOp consumer) {
  auto outIt = llvm::find(producer.getOutputs(), buffer);
  auto inIt = llvm::find(consumer.getInputs(), buffer);
  if (outIt == producer.getOutputs().end() ||
      inIt == consumer.getInputs().end())
    return failure();
  BlockArgument out =
      producer.getOutputArgs()[outIt - producer.getOutputs().begin()];
  BlockArgument in =
      consumer.getInputArgs()[inIt - consumer.getInputs().begin()];
  FailureOr<StoreInfo> info = analyzeStore(producer, out);
  if (failed(info))
    return failure();
  SmallVector<LoadOp> loads;
  for (Operation *user : in.getUsers()) {
    auto load = dyn_cast<LoadOp>(user);
    if (!load)
      return failure();
    loads.push_back(load);
  }
  // The consumer reads the producer's inputs where it runs: it may not
  // write them itself (nor take a buffer twice).
  for (Value input : producer.getInputs())
    if (llvm::is_contained(consumer.getOutputs(), input))
      return failure();
  llvm::SetVector<Operation *> slice = storedSlice(info->store);
  // The slice may only compute and read the producer's inputs: no loads of
  // its outputs, and no stores (a reduce loop taken whole could hold one).
  for (Operation *op : slice)
    if (!isReadOnlyComputation(op, producer))
      return failure();

  OpBuilder b(consumer.getContext());
  for (LoadOp load : loads) {
    b.setInsertionPoint(load);
    IRMapping mapping;
    for (auto [loop, k] : llvm::zip(info->loops, info->position)) {
      Value index = affine::AffineApplyOp::create(
          b, load.getLoc(), load.getMap().getSubMap({k}), load.getIndices());
      mapping.map(loop.getInductionVar(), index);
    }
    for (auto [arg, buffer] :
         llvm::zip(producer.getInputArgs(), producer.getInputs()))
      mapping.map(arg, addInput(consumer, buffer));
    // Pre-order keeps definitions before uses across nesting levels.
    producer.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!slice.contains(op))
        return WalkResult::advance();
      b.clone(*op, mapping);
      return WalkResult::skip();
    });
    load.getResult().replaceAllUsesWith(
        mapping.lookupOrDefault(info->store.getValue()));
    load.erase();
  }
  dropUnusedInputs(consumer);

  // Fold the substituted indices into the cloned accesses, then hoist what
  // no longer depends on the consumer's inner loops.
  RewritePatternSet patterns(consumer.getContext());
  LoadOp::getCanonicalizationPatterns(patterns, consumer.getContext());
  StoreOp::getCanonicalizationPatterns(patterns, consumer.getContext());
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns,
                                                     consumer.getContext());
  (void)applyPatternsGreedily(consumer, std::move(patterns));
  hoistLoopInvariants(consumer);
  dedupeComputations(consumer);
  renameAxes(consumer);
  return success();
}

namespace {

struct DLoopFusePass final
    : deplodock::dloop::impl::DLoopFuseBase<DLoopFusePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Tries to fuse the producer of `buffer` into every kernel reading it.
  bool tryFuse(memref::AllocOp alloc);
};

} // namespace

/// Whether some output of `kernel` is an intermediate buffer other kernels
/// read (so `kernel` may itself be fused away).
static bool feedsOtherKernels(KernelOp kernel) {
  for (Value output : kernel.getOutputs()) {
    if (!output.getDefiningOp<memref::AllocOp>())
      continue;
    bool onlyKernels = llvm::all_of(
        output.getUsers(), [](Operation *user) { return isa<KernelOp>(user); });
    bool read = llvm::any_of(output.getUsers(), [&](Operation *user) {
      return user != kernel.getOperation();
    });
    if (onlyKernels && read)
      return true;
  }
  return false;
}

/// Whether `scope` holds a reduction loop.
static bool hasReduction(Operation *scope) {
  return scope
      ->walk([](ForOp loop) {
        return loop.isReduction() ? WalkResult::interrupt()
                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether pointwise `producer` would fuse into `reader` as the prologue of
/// a contraction: every read of `buffer` lies in a reduction loop, at an
/// index that leaves out a free loop around it, so the threads of a tile
/// share each element and the Tile level (stage_inputs, mma_sync,
/// wgmma_async) computes it once per block as it stages it, not once per
/// reading thread, as the work counted here assumes. f32, and with `half`
/// f16 or bf16 (never 8-bit floats, which nothing computes in).
static bool isContractionPrologue(KernelOp producer, Value buffer,
                                  KernelOp reader, bool half) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  if (hasReduction(producer) ||
      !(element.isF32() || (half && isa<Float16Type, BFloat16Type>(element))))
    return false;
  auto in = reader.getInputArgs()[llvm::find(reader.getInputs(), buffer) -
                                  reader.getInputs().begin()];
  for (Operation *user : in.getUsers()) {
    auto load = dyn_cast<LoadOp>(user);
    auto reduction = load ? load->getParentOfType<ForOp>() : ForOp();
    if (!reduction || !reduction.isReduction())
      return false;
    bool nested = false;
    for (Operation &op : *reduction.getBody())
      nested |= hasReduction(&op);
    if (nested)
      return false;
    // A plain contraction: free loops around one reduction (not attention's
    // nested ones, whose rules read their operands as they are).
    bool shared = false;
    for (auto loop = reduction->getParentOfType<ForOp>(); loop;
         loop = loop->getParentOfType<ForOp>()) {
      if (loop.isReduction())
        return false;
      shared |= !llvm::is_contained(load.getIndices(), loop.getInductionVar());
    }
    if (!shared)
      return false;
  }
  return !in.use_empty();
}

bool DLoopFusePass::tryFuse(memref::AllocOp alloc) {
  Value buffer = alloc.getResult();
  SmallVector<KernelOp> producers, readers;
  for (Operation *user : buffer.getUsers()) {
    auto kernel = dyn_cast<KernelOp>(user);
    if (!kernel)
      return false; // Returned, or used by something we do not know.
    if (llvm::is_contained(kernel.getOutputs(), buffer))
      producers.push_back(kernel);
    else
      readers.push_back(kernel);
  }
  if (producers.size() != 1 || producers[0].getOutputs().size() != 1)
    return false;
  KernelOp producer = producers[0];
  if (readers.empty()) {
    // Nobody reads what it writes.
    producer.erase();
    alloc.erase();
    return true;
  }

  // Fuse into copies first; keep them only if the result is worth it.
  SmallVector<KernelOp> fused;
  auto discard = [&] {
    for (KernelOp kernel : fused)
      kernel.erase();
    return false;
  };
  auto keep = [&] {
    for (KernelOp reader : readers)
      reader.erase();
    producer.erase();
    alloc.erase();
    return true;
  };
  for (KernelOp reader : readers) {
    if (!inputsStableUntil(producer, reader))
      return discard();
    OpBuilder b(reader);
    auto copy = cast<KernelOp>(b.clone(*reader));
    fused.push_back(copy);
    if (failed(fuseProducerInto(producer, buffer, copy)))
      return discard();
  }
  // A prologue recomputes, but the Tile level stages it once per block: the
  // work counted here does not apply.
  if (prologues && llvm::all_of(readers, [&](KernelOp reader) {
        return isContractionPrologue(producer, buffer, reader, halfPrologues);
      })) {
    LLVM_DEBUG(llvm::dbgs() << "fuse " << producer.getSymName()
                            << " as a contraction prologue\n");
    return keep();
  }
  KernelCost before = measureKernel(producer), after;
  for (auto [reader, copy] : llvm::zip(readers, fused)) {
    KernelCost c = measureKernel(reader), f = measureKernel(copy);
    before.work += c.work;
    before.reads += c.reads;
    after.work += f.work;
    after.reads += f.reads;
  }
  // A reduction waits for a copy that reads it (a broadcast) to move into
  // the copy's consumers first, where it may run once per element it makes.
  if (hasReduction(producer))
    for (KernelOp reader : readers)
      if (measureKernel(reader).work == 0 && feedsOtherKernels(reader)) {
        LLVM_DEBUG(llvm::dbgs()
                   << "defer " << producer.getSymName() << ": read by copy "
                   << reader.getSymName() << "\n");
        return discard();
      }
  // An expensive producer (a matmul) is materialised, not computed twice.
  double elements = static_cast<double>(alloc.getType().getNumElements());
  KernelCost producerCost = measureKernel(producer);
  if (producerCost.work > reduceHeavy * elements &&
      after.work > before.work * (1 + 1e-9)) {
    LLVM_DEBUG(llvm::dbgs() << "refuse " << producer.getSymName()
                            << ": would recompute heavy work, " << before.work
                            << " -> " << after.work << "\n");
    return discard();
  }
  if (after.work > maxBlowup * std::max(before.work, 1.0) ||
      after.reads > maxBlowup * std::max(before.reads, 1.0)) {
    LLVM_DEBUG(llvm::dbgs() << "refuse " << producer.getSymName() << ": work "
                            << before.work << " -> " << after.work << "\n");
    return discard();
  }
  return keep();
}

void DLoopFusePass::runOnOperation() {
  func::FuncOp func = getOperation();
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<memref::AllocOp> allocs(func.getOps<memref::AllocOp>());
    for (memref::AllocOp alloc : allocs)
      if (tryFuse(alloc)) {
        changed = true;
        break; // Kernels changed: look again from the start.
      }
  }
  // Name the surviving kernels by position and by what they do.
  unsigned index = 0;
  Builder b(func.getContext());
  for (KernelOp kernel : func.getOps<KernelOp>()) {
    kernel.setSymName((func.getSymName() + "_" + Twine(index++) +
                       (hasReduction(kernel) ? "_reduce" : "_pointwise"))
                          .str());
    renameAxes(kernel);
  }
}
