//===- ForkCursor.cpp - Walking the fork tree of one kernel -----*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/ForkCursor.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

FailureOr<ForkCursor> ForkCursor::start(dloop::KernelOp kernel,
                                        const Target &target) {
  OpBuilder b(kernel.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(b, kernel.getLoc());
  b.setInsertionPointToEnd(module->getBody());
  auto copy = cast<dloop::KernelOp>(b.clone(*kernel));
  if (failed(tileify(copy)))
    return failure();
  ForkCursor cursor(std::move(module), target);
  cursor.advance(0);
  return cursor;
}

KernelOp ForkCursor::getKernel() const {
  return *module->getBody()->getOps<KernelOp>().begin();
}

void ForkCursor::advance(size_t from) {
  options.clear();
  for (ruleIndex = from; !isDone(); ++ruleIndex) {
    options = getRule().getOptions(getKernel(), target);
    if (!options.empty())
      return;
  }
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
