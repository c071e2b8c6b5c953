//===- AttentionMmaMatch.cpp - Attention kernels mma.sync can run --------===//
//
// Reads an online-softmax kernel into MmaAttention: its q, k, v operands,
// the key loop, the score ops and the accumulators; or says why mma.sync
// cannot run it.
//
//===----------------------------------------------------------------------===//

#include "AttentionMmaMatch.h"
#include "AttentionSplit.h"
#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace deplodock::dtile::attention_mma {

static llvm::Error refuse(const Twine &why) { return refuseMma(why); }

/// Reads the roles of `load`'s dimensions: `rows` (the query axis, or the
/// key loop's variable) and `head` stand for whole extents, any other
/// index must be fixed within a block.
static llvm::Expected<Operand> readOperand(dloop::LoadOp load, Value rows,
                                           Role rowRole, Value head,
                                           TileOp tile, StringRef name) {
  Operand op;
  op.load = load;
  Block &body = tile.getBody().front();
  unsigned queryAxis = tile.getBlockAxes().size() - 1;
  for (AffineExpr expr : load.getMap().getResults()) {
    std::optional<Role> role;
    bool fixed = true;
    for (auto [pos, index] : llvm::enumerate(load.getIndices())) {
      if (!expr.isFunctionOfDim(pos))
        continue;
      if (index == rows || index == head) {
        if (expr != getAffineDimExpr(pos, expr.getContext()))
          return refuse(name + " is indexed by an expression of its rows or "
                               "head dimension");
        role = index == rows ? rowRole : Role::Head;
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(index);
      APInt cst;
      if (matchPattern(index, m_ConstantInt(&cst)))
        continue;
      fixed &= arg && arg.getOwner() == &body && arg.getArgNumber() < queryAxis;
    }
    if (!role && !fixed)
      return refuse(name + " has an index that varies within a block");
    op.roles.push_back(role.value_or(Role::Fixed));
  }
  size_t rank = op.roles.size();
  if (rank < 2 || llvm::count(op.roles, Role::Head) != 1 ||
      llvm::count(op.roles, rowRole) != 1)
    return refuse(name + " is not indexed by its rows and the head dimension "
                         "once each");
  Role inner = op.roles[rank - 1], outer = op.roles[rank - 2];
  if (!((inner == Role::Head && outer == rowRole) ||
        (inner == rowRole && outer == Role::Head)))
    return refuse(name + "'s rows and head dimension are not its two "
                         "innermost dimensions");
  op.headInner = inner == Role::Head;
  return op;
}

/// The first op of the key loop's body that is the q.k^T sum over the head
/// dimension, with q and k.
static llvm::Error matchScores(MmaAttention &at) {
  for (auto loop : at.keys.getBody()->getOps<dloop::ForOp>()) {
    if (!loop.isReduction() || loop.getInitArgs().size() != 1)
      continue;
    if (getAccumulatorKind(loop, 0) != ReduceKind::add ||
        !isIdentity(loop.getInitArgs()[0], ReduceKind::add))
      return refuse("the q.k sum does not add from zero");
    Operation *add = loop.getYield().getValues()[0].getDefiningOp();
    Value product = add->getOperand(0) == loop.getIterArgs()[0]
                        ? add->getOperand(1)
                        : add->getOperand(0);
    auto mul = product.getDefiningOp<arith::MulFOp>();
    if (!isa<arith::AddFOp>(add) || !mul)
      return refuse("the q.k loop does not sum products");
    auto x = skipExtend(mul.getLhs()).getDefiningOp<dloop::LoadOp>();
    auto y = skipExtend(mul.getRhs()).getDefiningOp<dloop::LoadOp>();
    size_t ops = 4 + (x != mul.getLhs().getDefiningOp()) +
                 (y != mul.getRhs().getDefiningOp());
    if (!x || !y || loop.getBody()->getOperations().size() != ops + 1)
      return refuse("the q.k loop computes more than a product of two loads");
    Value iv = at.keys.getInductionVar();
    auto usesKeys = [&](dloop::LoadOp load) {
      return llvm::is_contained(load.getIndices(), iv);
    };
    if (usesKeys(x) == usesKeys(y))
      return refuse("the q.k loop does not read one operand by key");
    at.scores = loop;
    at.head = loop.getExtent();
    Block &body = at.tile.getBody().front();
    Value query = body.getArgument(body.getNumArguments() - 1);
    auto q = readOperand(usesKeys(x) ? y : x, query, Role::Rows,
                         loop.getInductionVar(), at.tile, "q");
    if (!q)
      return q.takeError();
    auto k = readOperand(usesKeys(x) ? x : y, iv, Role::Keys,
                         loop.getInductionVar(), at.tile, "k");
    if (!k)
      return k.takeError();
    at.q = *q;
    at.k = *k;
    return llvm::Error::success();
  }
  return refuse("the key loop has no q.k sum");
}

/// The kernel's online softmax if mma.sync can run it, else why not.
llvm::Expected<MmaAttention> matchMmaAttention(KernelOp kernel,
                                               TargetAttr target) {
  if (!target.has(GpuFeature::mma_sync))
    return refuse("target " + target.getName() +
                  " has no tensor cores (the 'mma_sync' feature)");
  TileOp tile = kernel.getTile();
  if (!tile || !tile.getThreadAxes().empty())
    return refuse("the kernel is mapped to threads already");
  MmaAttention at;
  at.tile = tile;
  at.keys = getOnlineSoftmaxLoop(tile);
  std::optional<unsigned> maxIndex =
      at.keys ? getRunningMaxIndex(at.keys, /*stepped=*/false) : std::nullopt;
  if (!maxIndex)
    return refuse("the kernel is not an online softmax");
  at.maxIndex = *maxIndex;
  at.sumIndex = 1 - *maxIndex;
  at.keyCount = at.keys.getExtent();
  at.queries = tile.getBlockExtents().back();
  if (llvm::Error e = matchScores(at))
    return std::move(e);
  if (at.head % kTileK != 0)
    return refuse("the head dimension (" + Twine(at.head) +
                  ") is not a multiple of 16");

  // The accumulators: one alloca of head-dimension f32s, zeroed before the
  // key loop, updated by one loop in it and read by one loop after it.
  Block &body = tile.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      if (at.acc)
        return refuse("the kernel has more than one private buffer");
      at.acc = alloca;
      continue;
    }
    auto loop = dyn_cast<dloop::ForOp>(op);
    if (&op == at.keys.getOperation())
      continue;
    if (loop && op.isBeforeInBlock(at.keys)) {
      // Zeroing the accumulators, which the output fragments start as.
      auto stores = loop.getBody()->getOps<dloop::StoreOp>();
      if (loop.isReduction() || loop.getBody()->getOperations().size() != 2 ||
          stores.empty() ||
          !matchPattern((*stores.begin()).getValue(), m_PosZeroFloat()))
        return refuse("the accumulators do not start at zero");
      continue;
    }
    if (loop && !loop.isReduction() && !at.epilogue) {
      at.epilogue = loop;
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return refuse("the kernel does more than zero, update and store its "
                    "accumulators");
  }
  auto accType = at.acc ? dyn_cast<MemRefType>(at.acc.getType()) : nullptr;
  if (!accType || accType.getShape() != ArrayRef<int64_t>{at.head} ||
      !accType.getElementType().isF32() || !at.epilogue ||
      at.epilogue.getExtent() != at.head)
    return refuse("the accumulators are not one f32 per head element, read "
                  "by one loop after the keys");
  // The epilogue reads the accumulator of its own element once.
  int64_t reads = 0;
  WalkResult walk = at.epilogue.walk([&](dloop::LoadOp load) {
    if (load.getMemRef() != at.acc.getResult())
      return WalkResult::advance();
    ++reads;
    if (load.getIndices().size() != 1 ||
        load.getIndices()[0] != at.epilogue.getInductionVar() ||
        load->getParentOp() != at.epilogue.getOperation())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || reads != 1)
    return refuse("the epilogue does not read each accumulator once");
  at.epilogue.walk([&](dloop::StoreOp store) {
    if (store.getMemRef() == at.acc.getResult())
      reads = 0;
  });
  if (reads == 0)
    return refuse("the epilogue writes the accumulators");

  // The key loop: the q.k sum, the update loop, and ops without memory
  // effects but the score's loads.
  Value yielded = at.keys.getYield().getValues()[at.maxIndex];
  Operation *fold = yielded.getDefiningOp();
  Value running = at.keys.getIterArgs()[at.maxIndex];
  at.score = fold->getOperand(fold->getOperand(0) == running ? 1 : 0);
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work = {at.score};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getParentOp() != at.keys.getOperation() ||
        def == at.scores.getOperation() || !slice.insert(def))
      continue;
    llvm::append_range(work, def->getOperands());
    def->walk([&](Operation *inner) {
      llvm::append_range(work, inner->getOperands());
    });
  }
  for (Operation &op : at.keys.getBody()->without_terminator()) {
    if (slice.contains(&op)) {
      at.scoreOps.push_back(&op);
      continue;
    }
    if (&op == at.scores.getOperation())
      continue;
    auto loop = dyn_cast<dloop::ForOp>(op);
    if (loop && !loop.isReduction() && !at.update) {
      at.update = loop;
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return refuse("the key loop does more than score and update");
  }
  if (!at.update || at.update.getExtent() != at.head)
    return refuse("the key loop has no accumulator update");
  if (llvm::any_of(at.scoreOps, [&](Operation *op) {
        return op->getNumRegions() != 0 || isa<dloop::StoreOp>(op);
      }))
    return refuse("the score is computed with loops or stores");

  // v: the load in the update that is not the accumulator's; p must be
  // rounded to its type (getRunningMaxIndex proved a' = a * c + p * v).
  dloop::LoadOp v;
  at.update.walk([&](dloop::LoadOp load) {
    if (load.getMemRef() != at.acc.getResult())
      v = load;
  });
  if (!v)
    return refuse("the accumulator update reads no v");
  at.element = at.q.load.getType();
  if (!isa<Float16Type, BFloat16Type>(at.element) ||
      at.k.load.getType() != at.element || v.getType() != at.element)
    return refuse("q, k and v are not all f16 or all bf16");
  // getRunningMaxIndex proved a' = a * c + p * v; p must reach it rounded
  // to the operands' type, as the half P fragments hold it.
  bool rounded = false;
  at.update.walk([&](arith::MulFOp mul) {
    for (Value operand : mul->getOperands())
      if (auto ext = operand.getDefiningOp<arith::ExtFOp>())
        if (auto trunc = ext.getIn().getDefiningOp<arith::TruncFOp>())
          rounded |=
              trunc.getType() == at.element && !at.update->isAncestor(trunc);
  });
  if (!rounded)
    return refuse(Twine("the probabilities are not rounded to ") +
                  (at.element.isF16() ? "f16" : "bf16") + " before p.v");
  auto vOperand = readOperand(v, at.keys.getInductionVar(), Role::Keys,
                              at.update.getInductionVar(), tile, "v");
  if (!vOperand)
    return vOperand.takeError();
  at.v = *vOperand;
  if (!at.q.headInner)
    return refuse("q's head dimension is not innermost");
  for (Operand *op : {&at.q, &at.k, &at.v})
    if (!llvm::is_contained(kernel.getInputArgs(), op->load.getMemRef()))
      return refuse("an operand is not a kernel input");
  return at;
}

} // namespace deplodock::dtile::attention_mma
