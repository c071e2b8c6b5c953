//===- Prologue.cpp - Pointwise computations of contraction operands -----===//

#include "Prologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

std::optional<Prologue> dtile::matchPrologue(Operation *root, KernelOp kernel) {
  auto computes = [&](Operation *op) {
    return op->getNumResults() == 1 && op->getNumRegions() == 0 &&
           isMemoryEffectFree(op) && !isa<dloop::LoadOp>(op) &&
           isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
               op->getDialect());
  };
  if (!computes(root) || isa<arith::ConstantOp>(root) ||
      !root->getResult(0).getType().isIntOrFloat())
    return std::nullopt;
  Prologue p;
  p.root = root;
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work{root};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (isa_and_nonnull<arith::ConstantOp>(def))
        continue; // Cloned into the apply region.
      if (!def || def->getBlock() != root->getBlock())
        return std::nullopt; // A loop variable or a value from above.
      if (auto load = dyn_cast<dloop::LoadOp>(def)) {
        if (!llvm::is_contained(kernel.getInputArgs(), load.getMemRef()))
          return std::nullopt;
        slice.insert(load);
        continue;
      }
      if (!computes(def))
        return std::nullopt;
      work.push_back(def);
    }
  }
  // Every load at one index, and nothing outside reads inside.
  for (Operation *op : slice) {
    if (auto load = dyn_cast<dloop::LoadOp>(op)) {
      // One index into buffers of one shape (a computed stage reads its
      // apply buffers at the source's index).
      if (!p.loads.empty() &&
          (load.getMap() != p.loads.front().getMap() ||
           load.getIndices() != p.loads.front().getIndices() ||
           load.getMemRefType().getShape() !=
               p.loads.front().getMemRefType().getShape()))
        return std::nullopt;
      if (llvm::any_of(p.loads, [&](dloop::LoadOp other) {
            return other.getMemRef() == load.getMemRef();
          }))
        return std::nullopt; // Read twice: CSE did not run, keep it simple.
      p.loads.push_back(load);
    }
    if (op != root && llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !slice.contains(user);
        }))
      return std::nullopt;
  }
  // A conversion alone (a widened bf16 operand) is read as it is.
  if (p.loads.empty() || llvm::all_of(slice, [](Operation *op) {
        return isa<dloop::LoadOp, CastOpInterface>(op);
      }))
    return std::nullopt;
  llvm::sort(p.loads, [](dloop::LoadOp a, dloop::LoadOp b) {
    return cast<BlockArgument>(a.getMemRef()).getArgNumber() <
           cast<BlockArgument>(b.getMemRef()).getArgNumber();
  });
  for (Operation &op : *root->getBlock())
    if (slice.contains(&op) && !isa<dloop::LoadOp>(op))
      p.ops.push_back(&op);
  return p;
}

SmallVector<Value> Prologue::getApplyInputs() const {
  SmallVector<Value> inputs;
  for (dloop::LoadOp load : ArrayRef(loads).drop_front())
    inputs.push_back(load.getMemRef());
  return inputs;
}

bool dtile::sameComputation(Value a, Value b) {
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y)
    return a == b;
  auto lx = dyn_cast<dloop::LoadOp>(x), ly = dyn_cast<dloop::LoadOp>(y);
  if (lx || ly)
    return lx && ly && lx.getMemRef() == ly.getMemRef();
  // The ops alike (name, attributes, properties, types), their operands
  // computed alike in turn.
  return OperationEquivalence::isEquivalentTo(
      x, y, [](Value u, Value v) { return success(sameComputation(u, v)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

dloop::LoadOp dtile::readFactor(Value factor, KernelOp kernel,
                                std::optional<Prologue> &prologue) {
  if (auto ext = factor.getDefiningOp<arith::ExtFOp>())
    factor = ext.getIn();
  if (auto load = factor.getDefiningOp<dloop::LoadOp>())
    return load;
  if (Operation *def = factor.getDefiningOp())
    prologue = matchPrologue(def, kernel);
  return prologue ? prologue->loads.front() : nullptr;
}

void dtile::buildApplyRegion(StageOp stage, const Prologue &p) {
  SmallVector<Type> types;
  SmallVector<Location> locs;
  for (dloop::LoadOp load : p.loads) {
    types.push_back(load.getType());
    locs.push_back(load.getLoc());
  }
  Block *block = new Block();
  stage.getBody().push_back(block);
  block->addArguments(types, locs);
  OpBuilder b = OpBuilder::atBlockEnd(block);
  IRMapping mapping;
  for (auto [load, arg] : llvm::zip(p.loads, block->getArguments()))
    mapping.map(load->getResult(0), arg);
  for (Operation *op : p.ops) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand))
        mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    b.clone(*op, mapping);
  }
  YieldOp::create(b, p.root->getLoc(),
                  ValueRange{mapping.lookup(p.root->getResult(0))});
}
