//===- AttentionMma.cpp - Half attention on tensor cores --------*- C++ -*-===//
//
// attention_mma: the online-softmax kernel of dloop-fuse-attention, with
// f16 or bf16 q, k and v, on warp-level mma.sync m16n8k16 (the
// FlashAttention-2 schedule). A warp owns 16 query rows; its q fragments are
// loaded once; each step of BKV keys computes S = q k^T into f32 C
// fragments, runs the kernel's own score code (scale, masks) on each
// element at the row and key the PTX layout gives it, folds the row maxima
// over the four lanes of a row, rescales the output fragments and feeds the
// probabilities, rounded to the half type, back as the A operand of p.v:
// the C fragments of two 8-key tiles are exactly the A fragment of one
// 16-key step. The kernel's epilogue then runs on each output accumulator.
// The rule forks between tensor cores and SIMT (attention_blocks).
//
//===----------------------------------------------------------------------===//

#include "AttentionMmaMatch.h"

#include "AttentionSplit.h"
#include "MmaFragments.h"
#include "Rules.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;
using namespace deplodock::dtile::attention_mma;

namespace {

/// Builds the mma.sync form of one attention kernel.
class AttentionBuilder {
public:
  AttentionBuilder(MmaAttention at, int64_t warps, int64_t bkv, bool swizzle)
      : at(std::move(at)), warps(warps), bkv(bkv), bq(warps * kTileM),
        swizzle(swizzle), b(this->at.tile) {}

  void build();

private:
  /// `expr` over (block coordinates..., warp, g, t, extra...).
  Value apply(AffineExpr expr, ValueRange extra = {});
  AffineExpr dim(unsigned pos) { return b.getAffineDimExpr(pos); }
  AffineExpr warp() { return dim(numBlocks); }
  AffineExpr lane() { return dim(numBlocks + 1) * 4 + dim(numBlocks + 2); }
  /// The stage of one operand; `step` the key step's variable. The k and v
  /// slabs (staged per step) are swizzled with `swizzle` where they can be.
  Value stage(Operand op, Value step);
  /// One ldmatrix of `matrices` 8 x 8 matrices (row `row`, column `col` of
  /// the slab's two innermost dimensions per lane).
  SmallVector<Value> load(Value slab, AffineExpr row, AffineExpr col,
                          unsigned matrices, bool trans);
  /// The B fragments of columns `n0` to `n0` + 7 and `n0` + 8 to `n0` + 15
  /// (4 values each) of a 16-deep step at `k0`, in one ldmatrix x4, of an
  /// operand held N x K (`kInner`) or K x N.
  SmallVector<Value> loadBPair(Value slab, bool kInner, AffineExpr n0,
                               AffineExpr k0);
  /// Maps `op`'s operands defined in the old tile outside the key loop
  /// (lazily cloning what computes them) and clones `op`.
  Operation *cloneWithDeps(Operation *op, IRMapping &mapping);
  void mapOutside(Value value, IRMapping &mapping);
  /// The score at (`row`, `key`) from the q.k sum `sum`.
  Value score(Value sum, Value row, Value key);
  Value constantF32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value negInf() {
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(b.getF32Type(),
                       APFloat::getInf(APFloat::IEEEsingle(), true)));
  }

  MmaAttention at;
  int64_t warps, bkv, bq;
  bool swizzle;
  OpBuilder b;
  Location loc = at.tile.getLoc();
  TileOp tile;
  SmallVector<Value> coords;
  unsigned numBlocks = 0;
  IRMapping base;
};

Value AttentionBuilder::apply(AffineExpr expr, ValueRange extra) {
  return applyOver(b, loc, expr, coords, extra);
}

void AttentionBuilder::mapOutside(Value value, IRMapping &mapping) {
  if (mapping.contains(value))
    return;
  Operation *def = value.getDefiningOp();
  // Values from outside the old tile stay; block arguments are mapped.
  if (!def || !at.tile->isProperAncestor(def))
    return;
  cloneWithDeps(def, mapping);
}

Operation *AttentionBuilder::cloneWithDeps(Operation *op, IRMapping &mapping) {
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && !op->isAncestor(def))
        mapOutside(operand, mapping);
  });
  return b.clone(*op, mapping);
}

Value AttentionBuilder::stage(Operand op, Value step) {
  MLIRContext *ctx = b.getContext();
  auto source = cast<MemRefType>(op.load.getMemRef().getType());
  AffineMap map = op.load.getMap();
  // Operands: the tile's coordinates, then the key step.
  unsigned stepPos = coords.size();
  SmallVector<AffineExpr> indexExprs;
  for (Value index : op.load.getIndices()) {
    APInt cst;
    auto arg = dyn_cast<BlockArgument>(index);
    if (matchPattern(index, m_ConstantInt(&cst)))
      indexExprs.push_back(getAffineConstantExpr(cst.getSExtValue(), ctx));
    else if (arg && arg.getOwner() == &at.tile.getBody().front())
      indexExprs.push_back(getAffineDimExpr(arg.getArgNumber(), ctx));
    else // The rows or the head; its own dimension is replaced below.
      indexExprs.push_back(getAffineConstantExpr(0, ctx));
  }
  SmallVector<AffineExpr> origin;
  SmallVector<int64_t> shape = at.slabShape(op, bq, bkv);
  bool overhang = false;
  for (auto [d, role] : llvm::enumerate(op.roles)) {
    int64_t extent = source.getDimSize(d);
    switch (role) {
    case Role::Fixed:
      origin.push_back(map.getResult(d).replaceDims(indexExprs));
      break;
    case Role::Head:
      origin.push_back(getAffineConstantExpr(0, ctx));
      break;
    case Role::Rows:
      origin.push_back(getAffineDimExpr(numBlocks - 1, ctx) * bq);
      overhang |= ceilDiv(at.queries, bq) * bq > extent;
      break;
    case Role::Keys:
      origin.push_back(getAffineDimExpr(stepPos, ctx) * bkv);
      overhang |= ceilDiv(at.keyCount, bkv) * bkv > extent;
      break;
    }
  }
  SmallVector<Value> operands(coords);
  if (step)
    operands.push_back(step);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto stage = StageOp::create(
      b, loc, MemRefType::get(shape, at.element, AffineMap(), workgroup),
      op.load.getMemRef(), operands, /*slot=*/Value(), /*inputs=*/ValueRange(),
      AffineMap::get(operands.size(), 0, origin, ctx),
      b.getDenseI64ArrayAttr(shape), /*pad=*/DenseI64ArrayAttr(),
      /*buffers=*/1, Transport::sync,
      swizzle && step ? slabSwizzle(shape, at.element) : 0);
  if (overhang)
    stage.setZeroFill(true);
  return stage;
}

SmallVector<Value> AttentionBuilder::load(Value slab, AffineExpr row,
                                          AffineExpr col, unsigned matrices,
                                          bool trans) {
  return loadMatrices(b, loc, slab, apply(row), apply(col), at.element,
                      matrices, trans);
}

SmallVector<Value> AttentionBuilder::loadBPair(Value slab, bool kInner,
                                               AffineExpr n0, AffineExpr k0) {
  // Lanes 8 m to 8 m + 7 name matrix m's rows: k 0-7 and 8-15 of the first
  // 8 columns, then of the next 8.
  AffineExpr l = lane();
  if (kInner)
    return load(slab, n0 + l.floorDiv(16) * 8 + l % 8,
                (l.floorDiv(8) % 2) * 8 + k0, 4, false);
  return load(slab, l % 16 + k0, n0 + l.floorDiv(16) * 8, 4, true);
}

Value AttentionBuilder::score(Value sum, Value row, Value key) {
  Block &old = at.tile.getBody().front();
  IRMapping mapping = base;
  mapping.map(old.getArgument(old.getNumArguments() - 1), row);
  mapping.map(at.keys.getInductionVar(), key);
  mapping.map(at.scores.getResult(0), sum);
  for (Operation *op : at.scoreOps)
    cloneWithDeps(op, mapping);
  return mapping.lookup(at.score);
}

void AttentionBuilder::build() {
  MLIRContext *ctx = b.getContext();
  // The tile: the batch axes, the query blocks, then warp x g x t.
  SmallVector<Axis> blockAxes = getBlockAxes(at.tile);
  blockAxes.back() = {blockAxes.back().name + "_o", ceilDiv(at.queries, bq)};
  numBlocks = blockAxes.size();
  SmallVector<StringRef> names;
  SmallVector<int64_t> extents;
  for (const Axis &axis : blockAxes) {
    names.push_back(axis.name);
    extents.push_back(axis.extent);
  }
  tile =
      TileOp::create(b, loc, names, extents, {"warp", "g", "t"}, {warps, 8, 4});
  Block &body = tile.getBody().front();
  b.setInsertionPoint(body.getTerminator());
  coords = SmallVector<Value>(body.getArguments());
  Block &old = at.tile.getBody().front();
  for (unsigned i = 0; i + 1 < numBlocks; ++i)
    base.map(old.getArgument(i), coords[i]);
  Type f32 = b.getF32Type();
  ArrayAttr overT = b.getStrArrayAttr({"t"});
  int64_t keyTiles = bkv / kTileN, headTiles = at.head / kTileN;
  int64_t steps = ceilDiv(at.keyCount, bkv);
  bool rowsOverhang = at.queries % bq != 0;
  bool keysOverhang = at.keyCount % bkv != 0;
  bool scoreLoads = llvm::any_of(at.scoreOps, llvm::IsaPred<dloop::LoadOp>);

  // q: staged once, its A fragments kept for the whole key loop.
  Value qs = stage(at.q, Value());
  AffineExpr rowBase = dim(numBlocks - 1) * bq + warp() * kTileM;
  SmallVector<SmallVector<Value>> qFrags;
  for (int64_t kd = 0; kd < at.head / kTileK; ++kd)
    qFrags.push_back(load(qs, warp() * kTileM + lane() % 16,
                          lane().floorDiv(16) * 8 + kd * kTileK, 4, false));
  // Each lane holds rows g and g + 8 of its warp's 16.
  Value rows[2];
  for (int h = 0; h < 2; ++h)
    rows[h] = apply(rowBase + dim(numBlocks + 1) + h * 8);

  // Iter args: the running maximum of both rows, the lane's partial sums of
  // both rows, the output fragments.
  Value ninf = negInf(), zero = constantF32(0);
  SmallVector<Value> inits = {ninf, ninf, zero, zero};
  inits.append(headTiles * 4, zero);
  auto loop = dloop::ForOp::create(
      b, loc, steps, LoopKind::reduce, (at.keys.getAxis() + "_o").str(), inits,
      [&](OpBuilder &nested, Location, Value kb, ValueRange iters) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value ks = stage(at.k, kb);
        Value vs = stage(at.v, kb);
        // S = q k^T: keyTiles C fragments.
        SmallVector<Value> s(keyTiles * 4, constantF32(0));
        // Key tiles in pairs: bkv is a multiple of 16.
        for (int64_t kd = 0; kd < at.head / kTileK; ++kd)
          for (int64_t j = 0; j < keyTiles; j += 2) {
            SmallVector<Value> frags = loadBPair(
                ks, at.k.headInner, getAffineConstantExpr(j * kTileN, ctx),
                getAffineConstantExpr(kd * kTileK, ctx));
            for (int64_t half = 0; half < 2; ++half) {
              auto mma = dkernel::MmaSyncOp::create(
                  b, loc, f32, f32, f32, f32, qFrags[kd],
                  ValueRange(frags).slice(half * 4, 4),
                  ValueRange(s).slice((j + half) * 4, 4));
              for (int e = 0; e < 4; ++e)
                s[(j + half) * 4 + e] = mma->getResult(e);
            }
          }
        // The kernel's score at each element: c[e] is row g + 8 (e / 2),
        // key 2 t + e % 2 of its tile; -inf past the queries or keys.
        SmallVector<Value> rowMax = {iters[0], iters[1]};
        for (int64_t j = 0; j < keyTiles; ++j)
          for (int e = 0; e < 4; ++e) {
            Value row = rows[e / 2];
            Value key = apply(getAffineDimExpr(numBlocks + 3, ctx) * bkv +
                                  j * kTileN + dim(numBlocks + 2) * 2 + e % 2,
                              kb);
            Value valid;
            if (rowsOverhang)
              valid = buildInRange(b, loc, row, at.queries);
            if (keysOverhang) {
              Value in = buildInRange(b, loc, key, at.keyCount);
              valid = valid ? arith::AndIOp::create(b, loc, valid, in) : in;
            }
            Value x;
            if (valid && scoreLoads) {
              auto guard = scf::IfOp::create(b, loc, TypeRange{f32}, valid,
                                             /*withElse=*/true);
              OpBuilder::InsertionGuard g(b);
              b.setInsertionPointToStart(guard.thenBlock());
              scf::YieldOp::create(b, loc, score(s[j * 4 + e], row, key));
              b.setInsertionPointToStart(guard.elseBlock());
              scf::YieldOp::create(b, loc, negInf());
              x = guard.getResult(0);
            } else {
              x = score(s[j * 4 + e], row, key);
              if (valid)
                x = arith::SelectOp::create(b, loc, valid, x, ninf);
            }
            s[j * 4 + e] = x;
            rowMax[e / 2] = arith::MaxNumFOp::create(b, loc, rowMax[e / 2], x);
          }
        // The new maxima (over the four lanes of a row), the rescale of the
        // old sums and outputs, the probabilities.
        SmallVector<Value> next(iters.size());
        Value scale[2], safe[2];
        for (int h = 0; h < 2; ++h) {
          Value m =
              CombineOp::create(b, loc, rowMax[h], ReduceKind::max, overT);
          next[h] = m;
          Value empty =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, ninf);
          safe[h] = arith::SelectOp::create(b, loc, empty, zero, m);
          scale[h] = math::ExpOp::create(
              b, loc, arith::SubFOp::create(b, loc, iters[h], safe[h]));
          next[2 + h] = arith::MulFOp::create(b, loc, iters[2 + h], scale[h]);
        }
        SmallVector<Value> p(keyTiles * 4);
        for (int64_t j = 0; j < keyTiles; ++j)
          for (int e = 0; e < 4; ++e) {
            Value x = math::ExpOp::create(
                b, loc,
                arith::SubFOp::create(b, loc, s[j * 4 + e], safe[e / 2]));
            next[2 + e / 2] = arith::AddFOp::create(b, loc, next[2 + e / 2], x);
            p[j * 4 + e] = arith::TruncFOp::create(b, loc, at.element, x);
          }
        SmallVector<Value> o(iters.drop_front(4));
        for (int64_t i = 0; i < headTiles; ++i)
          for (int e = 0; e < 4; ++e)
            o[i * 4 + e] =
                arith::MulFOp::create(b, loc, o[i * 4 + e], scale[e / 2]);
        // O += P v, 16 keys at a time: the C fragments of key tiles 2 kk
        // and 2 kk + 1 are the A fragment of one step.
        for (int64_t kk = 0; kk < bkv / kTileK; ++kk) {
          SmallVector<Value> a(p.begin() + kk * 8, p.begin() + kk * 8 + 8);
          // Head tiles in pairs: the head dimension is a multiple of 16.
          for (int64_t i = 0; i < headTiles; i += 2) {
            SmallVector<Value> frags = loadBPair(
                vs, !at.v.headInner, getAffineConstantExpr(i * kTileN, ctx),
                getAffineConstantExpr(kk * kTileK, ctx));
            for (int64_t half = 0; half < 2; ++half) {
              auto mma = dkernel::MmaSyncOp::create(
                  b, loc, f32, f32, f32, f32, a,
                  ValueRange(frags).slice(half * 4, 4),
                  ValueRange(o).slice((i + half) * 4, 4));
              for (int e = 0; e < 4; ++e)
                o[(i + half) * 4 + e] = mma->getResult(e);
            }
          }
        }
        llvm::copy(o, next.begin() + 4);
        dloop::YieldOp::create(b, loc, next);
      });

  // The row sums over the four lanes; the kernel's epilogue per output.
  Value sums[2];
  for (int h = 0; h < 2; ++h)
    sums[h] = CombineOp::create(b, loc, loop.getResult(2 + h), ReduceKind::add,
                                overT);
  Block *epilogue = at.epilogue.getBody();
  for (int64_t i = 0; i < headTiles; ++i)
    for (int e = 0; e < 4; ++e) {
      OpBuilder::InsertionGuard guard(b);
      Value row = rows[e / 2];
      if (rowsOverhang) {
        auto inside = scf::IfOp::create(
            b, loc, buildInRange(b, loc, row, at.queries), /*withElse=*/false);
        b.setInsertionPoint(inside.thenBlock()->getTerminator());
      }
      IRMapping mapping = base;
      mapping.map(old.getArgument(old.getNumArguments() - 1), row);
      mapping.map(at.epilogue.getInductionVar(),
                  apply(getAffineConstantExpr(i * kTileN, ctx) +
                        dim(numBlocks + 2) * 2 + e % 2));
      mapping.map(at.keys.getResult(at.maxIndex), loop.getResult(e / 2));
      mapping.map(at.keys.getResult(at.sumIndex), sums[e / 2]);
      for (Operation &op : epilogue->without_terminator()) {
        auto load = dyn_cast<dloop::LoadOp>(op);
        if (load && load.getMemRef() == at.acc.getResult())
          mapping.map(load.getResult(), loop.getResult(4 + i * 4 + e));
        else
          cloneWithDeps(&op, mapping);
      }
    }
}

class AttentionMma final : public TypedRule<AttentionMmaKnobs> {
public:
  /// attention_tensor_cores=true must be possible: say why not where it is
  /// not.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getAttentionTensorCores() != std::optional<bool>(true) ||
        !kernel.getTile() || hasDecided(*this, kernel) ||
        classify(kernel) != KernelClass::OnlineSoftmax)
      return success();
    llvm::Expected<MmaAttention> at = matchMmaAttention(kernel, target);
    if (at)
      return success();
    return kernel.emitOpError(
               "knob attention_tensor_cores=true: attention_mma cannot take @")
           << kernel.getSymName() << ": " << llvm::toString(at.takeError());
  }

protected:
  /// 1, 2, 4 warps and 16, 32, 64 keys per step, dropping blocks more than
  /// twice the rounded-up queries or keys and slabs that do not fit; then
  /// SIMT.
  SmallVector<AttentionMmaKnobs> listOptions(KernelOp kernel,
                                             TargetAttr target) const override {
    // getRefusal says why not; here a refusal is no options.
    std::optional<MmaAttention> at =
        llvm::expectedToOptional(matchMmaAttention(kernel, target));
    if (!at)
      return {};
    SmallVector<AttentionMmaKnobs> options;
    int64_t bytes = at->element.getIntOrFloatBitWidth() / 8;
    for (int64_t warps : {1, 2, 4})
      for (int64_t bkv : {16, 32, 64}) {
        if ((warps > 1 &&
             warps * kTileM >= 2 * ceilDiv(at->queries, kTileM) * kTileM) ||
            (bkv > kTileK && bkv >= 2 * ceilDiv(at->keyCount, kTileK) * kTileK))
          continue;
        if ((warps * kTileM + 2 * bkv) * at->head * bytes >
                target.getSmemPerBlock() ||
            warps * kWarpSize > target.getThreadsPerBlock())
          continue;
        // Swizzled first (conflict-free at no cost in shared memory) where
        // a k or v slab can be; then plain.
        if (slabSwizzle(at->slabShape(at->k, 0, bkv), at->element) ||
            slabSwizzle(at->slabShape(at->v, 0, bkv), at->element))
          options.push_back({true, warps, bkv, true});
        options.push_back({true, warps, bkv, false});
      }
    options.push_back({false, {}, {}, {}});
    return options;
  }

  /// Tensor cores, the most warps, then the most keys per step.
  size_t heuristic(KernelOp, ArrayRef<AttentionMmaKnobs> options,
                   TargetAttr) const override {
    size_t best = options.size() - 1;
    for (auto [i, o] : llvm::enumerate(options))
      if (o.attentionTensorCores &&
          (best == options.size() - 1 ||
           std::make_pair(*o.attentionWarps, *o.attentionBkv) >
               std::make_pair(*options[best].attentionWarps,
                              *options[best].attentionBkv)))
        best = i;
    return best;
  }

  LogicalResult rewrite(KernelOp kernel, const AttentionMmaKnobs &option,
                        TargetAttr target) const override {
    if (!option.attentionTensorCores)
      return success();
    llvm::Expected<MmaAttention> at = matchMmaAttention(kernel, target);
    if (!at)
      return kernel.emitOpError() << llvm::toString(at.takeError());
    TileOp old = at->tile;
    AttentionBuilder(std::move(*at), *option.attentionWarps,
                     *option.attentionBkv,
                     option.attentionSwizzle.value_or(false))
        .build();
    old.erase();
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createAttentionMmaRule() {
  return std::make_unique<AttentionMma>();
}
