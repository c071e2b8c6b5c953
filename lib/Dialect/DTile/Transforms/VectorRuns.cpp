//===- VectorRuns.cpp - Accesses that make one aligned vector ---*- C++ -*-===//

#include "VectorRuns.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// An access as a run member: its buffer, map and operands.
struct Access {
  Operation *op;
  Value buffer;
  AffineMap map;
  OperandRange indices;
};

std::optional<Access> getAccess(Operation *op, bool stores) {
  if (!stores)
    if (auto load = dyn_cast<dloop::LoadOp>(op))
      return Access{op, load.getMemref(), load.getMap(), load.getIndices()};
  if (stores)
    if (auto store = dyn_cast<dloop::StoreOp>(op); store && !store.isReducing())
      return Access{op, store.getMemref(), store.getMap(), store.getIndices()};
  return std::nullopt;
}

/// What the members of one run share: the block, buffer, operands, the
/// outer index expressions and the innermost coefficients.
using RunKey = std::vector<std::pair<const void *, int64_t>>;

} // namespace

SmallVector<int64_t, 2> dtile::vectorWidths(Type element) {
  int64_t bytes = dkernel::getScalarBytes(element);
  SmallVector<int64_t, 2> widths;
  for (int64_t run : {16, 8})
    if (bytes > 0 && run % bytes == 0 && run / bytes >= 2)
      widths.push_back(run / bytes);
  return widths;
}

bool dtile::isAlignedGlobalBuffer(KernelOp kernel, Value buffer,
                                  int64_t width) {
  auto arg = dyn_cast<BlockArgument>(buffer);
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return arg && arg.getOwner()->getParentOp() == kernel.getOperation() &&
         type && type.hasStaticShape() && type.getLayout().isIdentity() &&
         dkernel::isGlobalMemory(type) && type.getRank() > 0 &&
         type.getShape().back() % width == 0 &&
         llvm::is_contained(vectorWidths(type.getElementType()), width);
}

SmallVector<VectorRun> dtile::findVectorRuns(KernelOp kernel, bool stores,
                                             int64_t width,
                                             function_ref<bool(Value)> accept) {
  // Members by key, then by innermost constant (the first of duplicates).
  std::map<RunKey, std::map<int64_t, Operation *>> byKey;
  kernel.walk([&](Operation *op) {
    std::optional<Access> access = getAccess(op, stores);
    if (!access || !accept(access->buffer) || access->map.getNumResults() == 0)
      return;
    AffineMap map = access->map;
    std::optional<SmallVector<int64_t>> coeffs = linearizeAffineExpr(
        map.getResults().back(), map.getNumDims(), map.getNumSymbols());
    if (!coeffs)
      return;
    // Coefficients by operand value: one value may fill several positions.
    std::map<const void *, int64_t> byValue;
    for (auto [i, operand] : llvm::enumerate(access->indices))
      byValue[operand.getAsOpaquePointer()] += (*coeffs)[i];
    RunKey key{{op->getBlock(), 0}, {access->buffer.getAsOpaquePointer(), 0}};
    for (auto [value, coeff] : byValue) {
      if (coeff % width != 0)
        return;
      key.push_back({value, coeff});
    }
    for (AffineExpr outer : map.getResults().drop_back())
      key.push_back({outer.getAsOpaquePointer(), 0});
    for (Value operand : access->indices)
      key.push_back({operand.getAsOpaquePointer(), -1});
    byKey[key].try_emplace(coeffs->back(), op);
  });
  SmallVector<VectorRun> runs;
  for (auto &[key, members] : byKey)
    for (auto [constant, first] : members) {
      if (((constant % width) + width) % width != 0)
        continue;
      VectorRun run;
      for (int64_t k = 0; k < width; ++k) {
        auto it = members.find(constant + k);
        if (it == members.end())
          break;
        run.push_back(it->second);
      }
      if (static_cast<int64_t>(run.size()) != width)
        continue;
      // Only effect-free ops between the first and the last member.
      auto [lo, hi] = std::minmax_element(
          run.begin(), run.end(),
          [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
      // (All members share a block: the key holds it.)
      llvm::SmallPtrSet<Operation *, 8> inRun(run.begin(), run.end());
      bool clean = true;
      for (Operation *op = (*lo)->getNextNode(); op && op != *hi;
           op = op->getNextNode())
        clean &= inRun.contains(op) || isMemoryEffectFree(op);
      if (clean)
        runs.push_back(std::move(run));
    }
  return runs;
}

/// The indices of `access` as values at `b`'s insertion point: one
/// affine.apply per map result.
static SmallVector<Value> materialize(OpBuilder &b, Location loc,
                                      const Access &access) {
  SmallVector<Value> indices;
  for (AffineExpr expr : access.map.getResults())
    indices.push_back(affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(access.map.getNumDims(), access.map.getNumSymbols(),
                       expr),
        access.indices));
  return indices;
}

void dtile::rewriteVectorRuns(ArrayRef<VectorRun> runs) {
  for (const VectorRun &run : runs) {
    bool stores = isa<dloop::StoreOp>(run.front());
    auto before = [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    };
    Operation *at = stores ? *llvm::max_element(run, before)
                           : *llvm::min_element(run, before);
    OpBuilder b(at);
    Access first = *getAccess(run.front(), stores);
    SmallVector<Value> indices = materialize(b, at->getLoc(), first);
    if (stores) {
      SmallVector<Value> values;
      for (Operation *op : run)
        values.push_back(cast<dloop::StoreOp>(op).getValue());
      dkernel::VectorStoreOp::create(b, at->getLoc(), values, first.buffer,
                                     indices);
    } else {
      SmallVector<Type> types(run.size(), run.front()->getResult(0).getType());
      auto load = dkernel::VectorLoadOp::create(b, at->getLoc(), types,
                                                first.buffer, indices);
      for (auto [op, result] : llvm::zip(run, load.getResults()))
        op->getResult(0).replaceAllUsesWith(result);
    }
    for (Operation *op : run)
      op->erase();
  }
}
