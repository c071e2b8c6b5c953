//===- StageInputs.cpp - Stage input slabs in shared memory -----*- C++ -*-===//
//
// stage_inputs: inside each chunk of a chunked reduction (the outer K loop
// chunk_matmul_k or chunk_reduce made), an input that several threads read
// is copied once into shared memory, and the reads go to the copy. The slab
// of a chunk is what the reads cover while the threads and the inner loops
// vary: its origin depends only on the block and the chunk. Forks over which
// inputs to stage (every subset whose slabs fit in shared memory, largest
// first, ending with none); the heuristic stages the most.
//
//===----------------------------------------------------------------------===//

#include "Prologue.h"
#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// A load, its index over its operands (symbols as trailing dimensions),
/// split into the slab origin (block and chunk only) and the offset inside
/// the slab (threads and inner loops, linear with non-negative weights).
struct Access {
  dloop::LoadOp load;
  SmallVector<AffineExpr> origin, offset;
};

/// The staging plan of one input in one chunk loop. A computed slab (a
/// prologue's) holds what its `prologues` compute (of one kind, also
/// reading their apply inputs); its accesses are their source loads, in the
/// same order.
struct Slab {
  Value buffer;
  /// The slab's element: the buffer's, or what the prologues yield.
  Type element;
  SmallVector<Access> accesses;
  SmallVector<int64_t> box;
  int64_t bytes = 0;
  SmallVector<Prologue, 1> prologues;
};

/// Whether `expr` is a sum of constants and dimensions times non-negative
/// constants.
bool isNonNegativeLinear(AffineExpr expr) {
  bool ok = true;
  expr.walk([&](AffineExpr e) {
    switch (e.getKind()) {
    case AffineExprKind::Add:
    case AffineExprKind::DimId:
      return;
    case AffineExprKind::Constant:
      ok &= cast<AffineConstantExpr>(e).getValue() >= 0;
      return;
    case AffineExprKind::Mul: {
      auto bin = cast<AffineBinaryOpExpr>(e);
      auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
      ok &= c && c.getValue() >= 0;
      return;
    }
    default:
      ok = false;
    }
  });
  return ok;
}

/// Splits the access of `load` inside `chunk`; nullopt when its index mixes
/// what varies inside the chunk with anything non-linear.
std::optional<Access> splitAccess(dloop::LoadOp load, dloop::ForOp chunk,
                                  TileOp tile) {
  AffineMap map = load.getMap();
  MLIRContext *ctx = load.getContext();
  SmallVector<AffineExpr> symbolsAsDims;
  for (unsigned s = 0; s < map.getNumSymbols(); ++s)
    symbolsAsDims.push_back(getAffineDimExpr(map.getNumDims() + s, ctx));
  // Varying: thread coordinates and variables of loops inside the chunk.
  auto varies = [&](Value v) {
    if (llvm::is_contained(tile.getBody().front().getArguments().drop_front(
                               tile.getBlockAxes().size()),
                           v))
      return true;
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && chunk->isProperAncestor(arg.getOwner()->getParentOp());
  };
  SmallVector<AffineExpr> zeroVarying;
  for (auto [i, operand] : llvm::enumerate(load.getIndices())) {
    if (varies(operand))
      zeroVarying.push_back(getAffineConstantExpr(0, ctx));
    else if (operand == chunk.getInductionVar() ||
             chunk.isDefinedOutsideOfLoop(operand))
      zeroVarying.push_back(getAffineDimExpr(i, ctx));
    else
      return std::nullopt; // Computed inside the chunk: not an origin.
  }
  Access access{load, {}, {}};
  for (AffineExpr expr : map.getResults()) {
    AffineExpr full = expr.replaceSymbols(symbolsAsDims);
    AffineExpr origin = simplifyAffineExpr(full.replaceDims(zeroVarying),
                                           load.getIndices().size(), 0);
    // A non-negative constant (the register-tile copy's column) belongs to
    // the offset, so the copies share one origin.
    if (auto sum = dyn_cast<AffineBinaryOpExpr>(origin);
        sum && sum.getKind() == AffineExprKind::Add)
      if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS());
          c && c.getValue() > 0)
        origin = sum.getLHS();
    if (auto c = dyn_cast<AffineConstantExpr>(origin); c && c.getValue() > 0)
      origin = getAffineConstantExpr(0, ctx);
    AffineExpr offset =
        simplifyAffineExpr(full - origin, load.getIndices().size(), 0);
    bool onlyVarying = true;
    offset.walk([&](AffineExpr e) {
      if (auto d = dyn_cast<AffineDimExpr>(e))
        onlyVarying &= varies(load.getIndices()[d.getPosition()]);
    });
    if (!onlyVarying || !isNonNegativeLinear(offset))
      return std::nullopt;
    access.origin.push_back(origin);
    access.offset.push_back(offset);
  }
  return access;
}

/// The values a non-negative linear `offset` of `load` takes.
std::optional<Interval> offsetRange(AffineExpr offset, dloop::LoadOp load) {
  SmallVector<Interval> ranges;
  for (Value operand : load.getIndices()) {
    std::optional<Interval> range = dloop::getIndexRange(operand);
    ranges.push_back(range.value_or(Interval{0, 0}));
  }
  return boundAffineExpr(offset, ranges);
}

/// The prologues of `chunk`, grouped by what they compute: the largest
/// ones (a prologue inside another is not one of its own).
SmallVector<SmallVector<Prologue, 1>> findPrologues(KernelOp kernel,
                                                    dloop::ForOp chunk) {
  SmallVector<SmallVector<Prologue, 1>> groups;
  DenseSet<Operation *> taken;
  SmallVector<Block *> blocks;
  chunk->walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    for (Operation &op : llvm::reverse(*block)) {
      if (taken.contains(&op))
        continue;
      std::optional<Prologue> p = matchPrologue(&op, kernel);
      if (!p)
        continue;
      taken.insert(p->ops.begin(), p->ops.end());
      auto group = llvm::find_if(groups, [&](SmallVector<Prologue, 1> &g) {
        return sameComputation(g.front().root->getResult(0),
                               p->root->getResult(0));
      });
      if (group == groups.end())
        groups.push_back({*p});
      else
        group->push_back(*p);
    }
  return groups;
}

/// The chunk loops: reduce loops at the top level of the tile body whose
/// bodies hold a further reduce loop (the K chunks), or a strided one
/// (attention's key steps whose keys split_kv deals to threads).
SmallVector<dloop::ForOp> getChunkLoops(TileOp tile) {
  SmallVector<dloop::ForOp> chunks;
  for (dloop::ForOp loop : getTopLevelReductions(tile))
    if (!loop.getBody()->getOps<dloop::ForOp>().empty() ||
        !loop.getBody()->getOps<StridedForOp>().empty())
      chunks.push_back(loop);
  return chunks;
}

/// Completes the plan of `slab` from the reads `loads` of its buffer (the
/// source's loads of its prologues for a computed slab): false when they do
/// not split, share no origin, or no threads share them.
bool planSlab(Slab &slab, ArrayRef<dloop::LoadOp> loads, dloop::ForOp chunk,
              TileOp tile) {
  for (dloop::LoadOp load : loads) {
    std::optional<Access> access = splitAccess(load, chunk, tile);
    if (!access)
      return false;
    slab.accesses.push_back(*access);
  }
  // One origin for all reads (compared as exprs over the same operands).
  Access &first = slab.accesses.front();
  for (Access &a : slab.accesses)
    for (auto [x, y] : llvm::zip(a.origin, first.origin))
      if (a.load.getIndices() != first.load.getIndices() || x != y)
        return false;
  // The box spans the offsets the reads take. Offsets that never reach
  // zero in some dimension (a fixed row, or a column past the first of a
  // register tile) move their smallest value into the origin, so the slab
  // holds only what is read.
  auto type = cast<MemRefType>(slab.buffer.getType());
  SmallVector<int64_t> lo(type.getRank(), INT64_MAX),
      hi(type.getRank(), INT64_MIN);
  for (Access &a : slab.accesses)
    for (auto [d, offset] : llvm::enumerate(a.offset)) {
      std::optional<Interval> range = offsetRange(offset, a.load);
      if (!range)
        return false;
      lo[d] = std::min(lo[d], range->lo);
      hi[d] = std::max(hi[d], range->hi);
    }
  slab.box.assign(type.getRank(), 1);
  for (unsigned d = 0; d < type.getRank(); ++d) {
    slab.box[d] = hi[d] - lo[d] + 1;
    if (lo[d] == 0)
      continue;
    for (Access &a : slab.accesses) {
      unsigned numDims = a.load.getIndices().size();
      a.origin[d] = simplifyAffineExpr(a.origin[d] + lo[d], numDims, 0);
      a.offset[d] = simplifyAffineExpr(a.offset[d] - lo[d], numDims, 0);
    }
  }
  // Staging pays only when threads share the slab.
  bool shared = false;
  for (BlockArgument thread : tile.getBody().front().getArguments().drop_front(
           tile.getBlockAxes().size()))
    shared |= llvm::none_of(slab.accesses, [&](Access &a) {
      return llvm::is_contained(a.load.getIndices(), thread);
    });
  if (!shared)
    return false;
  slab.bytes =
      product(slab.box) * ((slab.element.getIntOrFloatBitWidth() + 7) / 8);
  return true;
}

/// The slabs worth staging in `chunk`: inputs whose reads all split, share
/// one origin, and skip some thread axis (so threads share the slab). The
/// inputs that only prologues of one kind read make one computed slab
/// instead, keyed by the first of them.
SmallVector<Slab, 2> planSlabs(KernelOp kernel, dloop::ForOp chunk) {
  TileOp tile = kernel.getTile();
  llvm::MapVector<Value, SmallVector<dloop::LoadOp>> reads;
  chunk.walk([&](dloop::LoadOp load) {
    if (llvm::is_contained(kernel.getInputArgs(), load.getMemRef()))
      reads[load.getMemRef()].push_back(load);
  });
  llvm::MapVector<Value, Slab> computedSlabs;
  DenseSet<Value> computed;
  for (SmallVector<Prologue, 1> &group : findPrologues(kernel, chunk)) {
    // Every read of its buffers must be one of the group's.
    bool whole = true;
    for (dloop::LoadOp load : group.front().loads)
      whole &= !computed.contains(load.getMemRef()) &&
               reads.lookup(load.getMemRef()).size() == group.size();
    if (!whole)
      continue;
    Slab slab;
    slab.buffer = group.front().loads.front().getMemRef();
    slab.element = group.front().root->getResult(0).getType();
    SmallVector<dloop::LoadOp> loads;
    for (Prologue &p : group)
      loads.push_back(p.loads.front());
    if (!planSlab(slab, loads, chunk, tile))
      continue;
    slab.prologues = group;
    for (dloop::LoadOp load : group.front().loads)
      computed.insert(load.getMemRef());
    computedSlabs[slab.buffer] = std::move(slab);
  }
  // In the order of first reads, a computed slab at its source's place.
  SmallVector<Slab, 2> slabs;
  for (auto &[buffer, loads] : reads) {
    if (computedSlabs.count(buffer))
      slabs.push_back(std::move(computedSlabs[buffer]));
    if (computed.contains(buffer))
      continue;
    Slab slab;
    slab.buffer = buffer;
    slab.element = cast<MemRefType>(buffer.getType()).getElementType();
    if (planSlab(slab, loads, chunk, tile))
      slabs.push_back(std::move(slab));
  }
  return slabs;
}

/// Drops the mask guard around `read` (`scf.if` yielding it, else zero): a
/// read of the slab stays inside it, and what a masked-out thread computes
/// from it is never stored.
void unguardSlabRead(dloop::LoadOp read) {
  auto ifOp = dyn_cast<scf::IfOp>(read->getParentOp());
  if (!ifOp || ifOp.getNumResults() != 1 || ifOp.getElseRegion().empty() ||
      ifOp.thenBlock()->getOperations().size() != 2 ||
      ifOp.thenYield().getOperand(0) != read.getResult())
    return;
  Value zero = ifOp.elseYield().getOperand(0);
  if (!matchPattern(zero, m_AnyZeroFloat()) && !matchPattern(zero, m_Zero()))
    return;
  read->moveBefore(ifOp);
  ifOp.getResult(0).replaceAllUsesWith(read.getResult());
  ifOp.erase();
}

class StageInputs final : public TypedRule<StageInputsKnobs> {
protected:
  SmallVector<StageInputsKnobs> listOptions(KernelOp kernel,
                                            TargetAttr target) const override {
    if (kernel.getTile().getThreadAxes().empty())
      return {};
    // Candidate inputs (by kernel input position) and the bytes they need
    // across all chunk loops.
    std::map<int64_t, int64_t> bytes;
    for (dloop::ForOp chunk : getChunkLoops(kernel.getTile()))
      for (const Slab &slab : planSlabs(kernel, chunk))
        bytes[cast<BlockArgument>(slab.buffer).getArgNumber()] += slab.bytes;
    if (bytes.empty())
      return {};
    SmallVector<int64_t> candidates;
    for (auto &[input, size] : bytes)
      candidates.push_back(input);
    // Every subset that fits, most inputs (then most bytes) first; the
    // empty subset (stage nothing) last. 1 KB stays free for combines.
    struct Subset {
      SmallVector<int64_t> inputs;
      int64_t bytes;
      unsigned mask;
    };
    SmallVector<Subset> subsets;
    for (unsigned mask = (1u << candidates.size()) - 1;; --mask) {
      SmallVector<int64_t> subset;
      int64_t total = 0;
      for (auto [i, input] : llvm::enumerate(candidates))
        if (mask & (1u << i)) {
          subset.push_back(input);
          total += bytes[input];
        }
      if (total + 1024 <= target.getSmemPerBlock())
        subsets.push_back({subset, total, mask});
      if (mask == 0)
        break;
    }
    llvm::sort(subsets, [](const Subset &a, const Subset &b) {
      return std::make_tuple(a.inputs.size(), a.bytes, a.mask) >
             std::make_tuple(b.inputs.size(), b.bytes, b.mask);
    });
    SmallVector<StageInputsKnobs> options;
    for (const Subset &subset : subsets)
      options.push_back({subset.inputs});
    return options;
  }

  /// Stage the most.
  size_t heuristic(KernelOp, ArrayRef<StageInputsKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp kernel, const StageInputsKnobs &option,
                        TargetAttr) const override {
    ArrayRef<int64_t> staged = option.stage;
    OpBuilder b(kernel.getContext());
    MLIRContext *ctx = kernel.getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    for (dloop::ForOp chunk : getChunkLoops(kernel.getTile())) {
      // Stages go first in the chunk, in input order.
      b.setInsertionPointToStart(chunk.getBody());
      for (Slab &slab : planSlabs(kernel, chunk)) {
        if (!llvm::is_contained(
                staged, cast<BlockArgument>(slab.buffer).getArgNumber()))
          continue;
        Access &first = slab.accesses.front();
        // The origin over the operands it uses (block coordinates, the
        // chunk variable and values from above the chunk).
        SmallVector<Value> operands;
        SmallVector<AffineExpr> dims;
        for (auto [i, operand] : llvm::enumerate(first.load.getIndices())) {
          unsigned pos = i;
          bool used = llvm::any_of(first.origin, [&](AffineExpr e) {
            return e.isFunctionOfDim(pos);
          });
          dims.push_back(getAffineDimExpr(operands.size(), ctx));
          if (used)
            operands.push_back(operand);
        }
        SmallVector<AffineExpr> origin;
        for (AffineExpr e : first.origin)
          origin.push_back(e.replaceDims(dims));
        auto stage = StageOp::create(
            b, chunk.getLoc(),
            MemRefType::get(slab.box, slab.element, AffineMap(), workgroup),
            slab.buffer, operands, /*slot=*/Value(),
            slab.prologues.empty() ? SmallVector<Value>()
                                   : slab.prologues.front().getApplyInputs(),
            AffineMap::get(operands.size(), 0, origin, ctx),
            b.getDenseI64ArrayAttr(slab.box), /*pad=*/DenseI64ArrayAttr(),
            /*buffers=*/1, Transport::sync, /*swizzle=*/0);
        // A box that may reach past the source (the last tile of a masked
        // extent) reads zeros there; the reads past it are guarded anyway.
        for (unsigned d = 0, e = origin.size(); d < e; ++d)
          if (stage.mayOverhang(d))
            stage.setZeroFill(true);
        if (!slab.prologues.empty())
          buildApplyRegion(stage, slab.prologues.front());
        OpBuilder::InsertionGuard guard(b);
        for (auto [i, a] : llvm::enumerate(slab.accesses)) {
          // A computed slab's read replaces the prologue (after its ops).
          Operation *read = slab.prologues.empty() ? a.load.getOperation()
                                                   : slab.prologues[i].root;
          b.setInsertionPoint(read);
          auto offsetMap =
              AffineMap::get(a.load.getIndices().size(), 0, a.offset, ctx);
          Value value = dloop::LoadOp::create(b, a.load.getLoc(), stage,
                                              offsetMap, a.load.getIndices());
          read->getResult(0).replaceAllUsesWith(value);
          if (slab.prologues.empty()) {
            a.load.erase();
          } else {
            for (Operation *op : llvm::reverse(slab.prologues[i].ops))
              op->erase();
            for (dloop::LoadOp load : slab.prologues[i].loads)
              load.erase();
          }
          unguardSlabRead(cast<dloop::LoadOp>(value.getDefiningOp()));
        }
      }
    }
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createStageInputsRule() {
  return std::make_unique<StageInputs>();
}
