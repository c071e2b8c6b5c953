//===- ForkCursor.cpp - Walking the fork tree of one kernel -----*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/ForkCursor.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DTile/Transforms/Precision.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

FailureOr<ForkCursor> ForkCursor::start(dloop::KernelOp kernel,
                                        TargetAttr target) {
  MLIRContext *context = kernel.getContext();
  context->getOrLoadDialect<func::FuncDialect>();
  OpBuilder b(context);
  Location loc = kernel.getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(b, loc);
  // The target travels with the copy: the Kernel lowering of a variant checks
  // its ops against the module's target (wgmma needs sm_90a), and a module
  // naming none would be checked against the default.
  if (target)
    (*module)->setAttr(dkernel::kTargetAttrName, target);
  // The precision the kernel's module allows travels with the copy.
  if (allowsTf32(kernel))
    (*module)->setAttr(kTf32AttrName, b.getUnitAttr());
  // The copy lives in a function whose arguments stand for the kernel's
  // buffers: it uses no value of the input IR, so the input's use lists stay
  // as they were, the copy verifies on its own, and it may outlive the input.
  llvm::SetVector<Value> buffers(kernel->operand_begin(),
                                 kernel->operand_end());
  SmallVector<Type> types;
  for (Value buffer : buffers)
    types.push_back(buffer.getType());
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, kernel.getSymName(),
                                   b.getFunctionType(types, {}));
  Block *entry = func.addEntryBlock();
  IRMapping mapping;
  mapping.map(buffers.getArrayRef(), entry->getArguments());
  b.setInsertionPointToStart(entry);
  auto copy = cast<dloop::KernelOp>(b.clone(*kernel, mapping));
  func::ReturnOp::create(b, loc);
  if (failed(tileify(copy)))
    return failure();
  ForkCursor cursor(std::move(module), target);
  cursor.advance(0);
  return cursor;
}

KernelOp ForkCursor::getKernel() const {
  KernelOp kernel;
  module->walk([&](KernelOp op) {
    kernel = op;
    return WalkResult::interrupt();
  });
  return kernel;
}

void ForkCursor::advance(size_t from) {
  options.clear();
  for (ruleIndex = from; !isDone(); ++ruleIndex) {
    options = getForkOptions(getRule(), getKernel(), target, &defaultRank);
    if (!options.empty())
      return;
  }
}

SmallVector<unsigned> ForkCursor::getSearchOrder() const {
  // getOptions() is the default, then the canonical order without it:
  // canonical rank r sits at r + 1 below the default's rank, at r above.
  size_t n = options.size(), pick = defaultRank;
  if (n == 0)
    return {};
  auto position = [&](size_t rank) {
    return unsigned(rank == pick ? 0 : rank < pick ? rank + 1 : rank);
  };
  SmallVector<unsigned> order{0};
  for (size_t d = 1; order.size() < n; ++d) {
    if (pick + d < n)
      order.push_back(position(pick + d));
    if (d <= pick)
      order.push_back(position(pick - d));
  }
  return order;
}

FailureOr<ForkCursor> ForkCursor::choose(KnobsAttr option) const {
  ForkCursor next(module->clone(), target);
  KernelOp kernel = next.getKernel();
  if (failed(getRule().apply(kernel, option, target)))
    return failure();
  kernel.setKnobsAttr(kernel.getKnobs().merge(option));
  next.advance(ruleIndex + 1);
  return next;
}

FailureOr<SmallVector<KnobsAttr>> ForkCursor::enumerate(size_t limit) const {
  SmallVector<KnobsAttr> leaves;
  std::function<LogicalResult(const ForkCursor &)> walk =
      [&](const ForkCursor &cursor) -> LogicalResult {
    if (leaves.size() >= limit)
      return success();
    if (cursor.isDone()) {
      leaves.push_back(cursor.getKnobs());
      return success();
    }
    for (KnobsAttr option : cursor.getOptions()) {
      if (leaves.size() >= limit)
        break;
      FailureOr<ForkCursor> next = cursor.choose(option);
      if (failed(next) || failed(walk(*next)))
        return failure();
    }
    return success();
  };
  if (failed(walk(*this)))
    return failure();
  return leaves;
}

FailureOr<KnobsAttr> ForkCursor::sample(std::mt19937_64 &rng) const {
  if (isDone())
    return getKnobs();
  // Modulo keeps the choice identical across standard libraries.
  KnobsAttr option = options[rng() % options.size()];
  FailureOr<ForkCursor> next = choose(option);
  if (failed(next))
    return failure();
  return next->sample(rng);
}

FailureOr<size_t> ForkCursor::count(size_t limit) const {
  if (limit == 0)
    return 0;
  if (isDone())
    return 1;
  size_t total = 0;
  for (KnobsAttr option : options) {
    FailureOr<ForkCursor> next = choose(option);
    if (failed(next))
      return failure();
    FailureOr<size_t> below = next->count(limit - std::min(total, limit));
    if (failed(below))
      return failure();
    total += *below;
    if (total >= limit)
      return limit;
  }
  return total;
}
