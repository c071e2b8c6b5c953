//===- KernelEdits.cpp - Small edits of dloop kernels -----------*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

BlockArgument deplodock::dloop::addInput(KernelOp kernel, Value buffer) {
  for (auto [arg, input] : llvm::zip(kernel.getInputArgs(), kernel.getInputs()))
    if (input == buffer)
      return arg;
  auto numInputs = static_cast<int32_t>(kernel.getInputs().size());
  auto numOutputs = static_cast<int32_t>(kernel.getOutputs().size());
  kernel->insertOperands(numInputs, buffer);
  kernel.getProperties().setOperandSegmentSizes({numInputs + 1, numOutputs});
  return kernel.getBody()->insertArgument(numInputs, buffer.getType(),
                                          buffer.getLoc());
}

void deplodock::dloop::dropUnusedInputs(KernelOp kernel) {
  auto numInputs = static_cast<int32_t>(kernel.getInputs().size());
  auto numOutputs = static_cast<int32_t>(kernel.getOutputs().size());
  for (int32_t i = numInputs - 1; i >= 0; --i) {
    if (!kernel.getBody()->getArgument(i).use_empty())
      continue;
    kernel.getBody()->eraseArgument(i);
    kernel->eraseOperand(i);
    --numInputs;
  }
  kernel.getProperties().setOperandSegmentSizes({numInputs, numOutputs});
}

size_t deplodock::dloop::dedupeComputations(KernelOp kernel) {
  size_t erased = 0;
  SmallVector<Block *> blocks;
  kernel.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks) {
    SmallVector<Operation *> seen;
    for (Operation &op : llvm::make_early_inc_range(*block)) {
      if (op.getNumResults() == 0 || !isReadOnlyComputation(&op, kernel))
        continue;
      Operation *same = nullptr;
      for (Operation *earlier : seen)
        if (OperationEquivalence::isEquivalentTo(
                earlier, &op, OperationEquivalence::IgnoreLocations)) {
          same = earlier;
          break;
        }
      if (!same) {
        seen.push_back(&op);
        continue;
      }
      op.replaceAllUsesWith(same);
      op.erase();
      ++erased;
    }
  }
  return erased;
}

void deplodock::dloop::renameAxes(KernelOp kernel) {
  unsigned numFree = 0, numReduce = 0;
  Builder b(kernel.getContext());
  kernel.walk<WalkOrder::PreOrder>([&](ForOp loop) {
    std::string name = loop.isReduction() ? "r" + std::to_string(numReduce++)
                                          : "d" + std::to_string(numFree++);
    loop.setAxis(name);
  });
}

KernelCost deplodock::dloop::measureKernel(KernelOp kernel) {
  KernelCost cost;
  kernel.walk([&](Operation *op) {
    bool isLoad = isa<LoadOp>(op);
    bool isScalarMath = isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                            op->getDialect()) &&
                        op->getNumResults() == 1 &&
                        !op->getResult(0).getType().isIndex() &&
                        !isa<arith::ConstantOp>(op) &&
                        !isa<CastOpInterface>(op);
    if (!isLoad && !isScalarMath)
      return;
    double trips = 1;
    for (auto loop = op->getParentOfType<ForOp>(); loop;
         loop = loop->getParentOfType<ForOp>())
      trips *= static_cast<double>(loop.getExtent());
    (isLoad ? cost.reads : cost.work) += trips;
  });
  return cost;
}

/// The buffer `buffer` is a view of (itself when it is no view).
static Value viewedBuffer(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

bool deplodock::dloop::inputsStableUntil(KernelOp producer, KernelOp reader) {
  if (producer->getBlock() != reader->getBlock() ||
      !producer->isBeforeInBlock(reader))
    return false;
  SmallVector<Value> inputs;
  for (Value input : producer.getInputs())
    inputs.push_back(viewedBuffer(input));
  for (Operation *op = producer->getNextNode();; op = op->getNextNode()) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return false; // Unknown effects: it may write anything.
    for (const MemoryEffects::EffectInstance &effect : *effects)
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()) &&
          (!effect.getValue() ||
           llvm::is_contained(inputs, viewedBuffer(effect.getValue()))))
        return false;
    if (op == reader.getOperation())
      return true;
  }
}
