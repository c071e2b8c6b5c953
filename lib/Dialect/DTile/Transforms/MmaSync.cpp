//===- MmaSync.cpp - Half-precision matmuls on tensor cores -----*- C++ -*-===//
//
// mma_sync: a matmul whose operands are f16 or bf16 becomes warps of
// m16n8k16 mma.sync tiles; one of f32 operands, where the module allows
// tf32 (precision=tf32), warps of tf32 m16n8k8 tiles, whose fragments are
// read with scalar slab loads (ldmatrix moves 16-bit elements only). Each block
// holds `warps` warps (lanes are 32 consecutive threads: thread axes "warp" x
// "lane"), each warp a WM x WN tile of accumulators, four f32 per 16 x 8 tile
// and lane. A loop over K in steps of mma_k stages both operands' slabs in
// shared memory (zero-filled past the edges, so ragged M, N and K need no guard
// in the loop; a factor a prologue computes, as a computed slab) and reads
// them with ldmatrix; the epilogue of the Loop kernel
// runs once per accumulator at the row and column the PTX fragment layout gives
// it. The rule forks between tensor cores and SIMT (the other matmul rules), so
// the tuner measures both.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "Prologue.h"
#include "Rules.h"
#include "SplitMatmulK.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DTile/Transforms/Precision.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The m16n8k16 shape of one mma.sync (K 8 for tf32).
constexpr int64_t kTileM = kMmaTileM, kTileN = kMmaTileN;
int64_t tileK(Type element) { return element.isF32() ? 8 : 16; }

/// What an index of an operand load walks.
enum class Role { Constant, M, N, K, Batch };

/// One multiplicand: its load, and per dimension what the index walks (the
/// constant, or the block axis of a batch index).
struct Operand {
  /// The load (of a prologue: its first, whose index all its loads share).
  dloop::LoadOp load;
  /// A computed operand: staged as a computed slab.
  std::optional<Prologue> prologue;
  SmallVector<Role> roles;
  SmallVector<int64_t> values;
  /// Whether the innermost dimension is K (else M for A, N for B).
  bool kInner = false;
};

/// A matmul mma.sync can take.
struct MmaMatmul {
  TileOp tile;
  dloop::ForOp loop;
  Operand a, b;
  Type element;
  int64_t m = 0, n = 0, k = 0;
};

llvm::Error refuse(const Twine &why) { return refuseMma(why); }

/// Reads the roles of `load`'s indices; `m` and `n` are the block axes of M
/// and N, `iv` the K loop's variable.
llvm::Expected<Operand> readOperand(dloop::LoadOp load, TileOp tile, Value iv,
                                    unsigned mAxis, unsigned nAxis) {
  Operand op;
  op.load = load;
  AffineMap map = load.getMap();
  Block &body = tile.getBody().front();
  for (AffineExpr expr : map.getResults()) {
    if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      op.roles.push_back(Role::Constant);
      op.values.push_back(cst.getValue());
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return refuse("an operand index is not a loop variable or a constant");
    Value index = load.getIndices()[dim.getPosition()];
    APInt constant;
    if (matchPattern(index, m_ConstantInt(&constant))) {
      op.roles.push_back(Role::Constant);
      op.values.push_back(constant.getSExtValue());
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(index);
    if (index == iv) {
      op.roles.push_back(Role::K);
    } else if (arg && arg.getOwner() == &body) {
      unsigned axis = arg.getArgNumber();
      op.roles.push_back(axis == mAxis   ? Role::M
                         : axis == nAxis ? Role::N
                                         : Role::Batch);
      op.values.push_back(axis);
      continue;
    } else {
      return refuse("an operand index is not a loop variable or a constant");
    }
    op.values.push_back(0);
  }
  return op;
}

/// Checks that `op` indexes its matrix by `outer` and K in its two innermost
/// dimensions (in either order) and by nothing else but constants and batch
/// axes.
llvm::Error checkMatrix(Operand &op, Role other, StringRef name) {
  size_t rank = op.roles.size();
  Role foreign = other == Role::M ? Role::N : Role::M;
  if (rank < 2 || llvm::count(op.roles, Role::K) != 1 ||
      llvm::count(op.roles, other) != 1 ||
      llvm::is_contained(op.roles, foreign))
    return refuse(name + " is not indexed by its matrix axes once each");
  Role inner = op.roles[rank - 1], outer = op.roles[rank - 2];
  if (!((inner == Role::K && outer == other) ||
        (inner == other && outer == Role::K)))
    return refuse(name + "'s matrix axes are not its two innermost dimensions");
  op.kInner = inner == Role::K;
  return llvm::Error::success();
}

/// The matmul of `kernel` if mma.sync can run it, else why not.
llvm::Expected<MmaMatmul> matchMmaMatmul(KernelOp kernel, TargetAttr target) {
  if (!target.has(GpuFeature::mma_sync))
    return refuse("target " + target.getName() +
                  " has no tensor cores (the 'mma_sync' feature)");
  llvm::Expected<dloop::ForOp> sum = getSoleSumLoop(kernel);
  if (!sum)
    return sum.takeError();
  TileOp tile = kernel.getTile();
  MmaMatmul mm;
  mm.tile = tile;
  mm.loop = *sum;
  dloop::ForOp loop = mm.loop;
  // The body: acc + x * y, x and y loads (extended or not), nothing else.
  Operation *add = loop.getYield().getValues()[0].getDefiningOp();
  Value product = add->getOperand(0) == loop.getIterArgs()[0]
                      ? add->getOperand(1)
                      : add->getOperand(0);
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!isa<arith::AddFOp>(add) || !mul)
    return refuse("the matmul loop does not sum products");
  // Each factor a load or a prologue computed from loads (its first load
  // standing for it), extended or not.
  Value xv = skipExtend(mul.getLhs()), yv = skipExtend(mul.getRhs());
  std::optional<Prologue> xp, yp;
  dloop::LoadOp x = readFactor(xv, kernel, xp), y = readFactor(yv, kernel, yp);
  // The body: the sum, the product, the extensions, and each factor's load
  // or prologue.
  auto size = [](const std::optional<Prologue> &p) {
    return p ? p->ops.size() + p->loads.size() : 1;
  };
  size_t ops =
      2 + (xv != mul.getLhs()) + (yv != mul.getRhs()) + size(xp) + size(yp);
  if (!x || !y || loop.getBody()->getOperations().size() != ops + 1)
    return refuse("the matmul loop computes more than a product of two loads "
                  "(or of their prologues)");
  mm.element = xv.getType();
  if (yv.getType() == mm.element && mm.element.isF32() && !allowsTf32(kernel))
    return refuse("the operands are f32, and the module does not allow tf32 "
                  "(precision=tf32)");
  if (!isa<Float16Type, BFloat16Type, Float32Type>(mm.element) ||
      yv.getType() != mm.element)
    return refuse("the operands are not both f16, both bf16 or both f32");
  Type acc = loop.getResult(0).getType();
  if (!acc.isF32() && acc != mm.element)
    return refuse("the accumulator is neither f32 nor the operands' type");
  for (dloop::LoadOp load : {x, y})
    if (!llvm::is_contained(kernel.getInputArgs(), load.getMemRef()))
      return refuse("an operand is not a kernel input");
  // M and N: the two innermost output axes.
  size_t axes = tile.getBlockAxes().size();
  unsigned mAxis = axes - 2, nAxis = axes - 1;
  mm.m = tile.getBlockExtents()[mAxis];
  mm.n = tile.getBlockExtents()[nAxis];
  mm.k = loop.getExtent();
  Value iv = loop.getInductionVar();
  auto first = readOperand(x, tile, iv, mAxis, nAxis);
  if (!first)
    return first.takeError();
  auto second = readOperand(y, tile, iv, mAxis, nAxis);
  if (!second)
    return second.takeError();
  first->prologue = xp;
  second->prologue = yp;
  bool xIsA = llvm::is_contained(first->roles, Role::M);
  mm.a = xIsA ? *first : *second;
  mm.b = xIsA ? *second : *first;
  if (llvm::Error e = checkMatrix(mm.a, Role::M, "A"))
    return std::move(e);
  if (llvm::Error e = checkMatrix(mm.b, Role::N, "B"))
    return std::move(e);
  // Zero fill stands for the products past K only where K ends the source.
  for (Operand *op : {&mm.a, &mm.b}) {
    auto type = cast<MemRefType>(op->load.getMemRef().getType());
    for (auto [role, dim] : llvm::zip(op->roles, type.getShape()))
      if (role == Role::K && dim != mm.k)
        return refuse("an operand's K dimension is longer than the loop");
  }
  return mm;
}

/// Warps along M for a block of `warps` warps (the rest along N).
int64_t warpsAlongM(int64_t warps) {
  return warps >= 8 ? 4 : std::min<int64_t>(warps, 2);
}

int64_t roundUp(int64_t v, int64_t to) { return ceilDiv(v, to) * to; }

/// The box of `op`'s slab: `box` along its M or N (`other`), `step` along K,
/// one along the rest.
SmallVector<int64_t> slabBox(const Operand &op, Role other, int64_t box,
                             int64_t step) {
  SmallVector<int64_t> shape;
  for (Role role : op.roles)
    shape.push_back(role == Role::K ? step : role == other ? box : 1);
  return shape;
}

class MmaSync final : public TypedRule<MmaSyncKnobs> {
public:
  /// tensor_cores=true must be possible: say why not where it is not.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getTensorCores() != std::optional<bool>(true) ||
        !kernel.getTile() || hasDecided(*this, kernel))
      return success();
    llvm::Expected<MmaMatmul> mm = matchMmaMatmul(kernel, target);
    if (mm)
      return success();
    return kernel.emitOpError("knob tensor_cores=true: mma_sync cannot take @")
           << kernel.getSymName() << ": " << llvm::toString(mm.takeError());
  }

protected:
  /// Every warp tile, warp count and K step whose block tile is at most twice
  /// the rounded-up extents and whose slabs fit, each followed by its K
  /// splits (getTensorCoreSplits) where its blocks leave the SMs short of
  /// blocks or warps; then SIMT. A thread holds at most 64 accumulators and
  /// 24 fragment registers of a 64 x 32 warp tile, and a block at most 256
  /// threads (255 registers each): no option outgrows the registers.
  SmallVector<MmaSyncKnobs> listOptions(KernelOp kernel,
                                        TargetAttr target) const override {
    // getRefusal says why not; here a refusal is no options.
    std::optional<MmaMatmul> mm =
        llvm::expectedToOptional(matchMmaMatmul(kernel, target));
    if (!mm)
      return {};
    SmallVector<MmaSyncKnobs> options;
    int64_t bytes = mm->element.getIntOrFloatBitWidth() / 8;
    int64_t kTileK = tileK(mm->element);
    for (auto [wm, wn] :
         {std::pair<int64_t, int64_t>{16, 8}, {32, 16}, {32, 32}, {64, 32}})
      for (int64_t warps : {1, 2, 4, 8})
        for (int64_t step : {16, 32, 64}) {
          int64_t bm = wm * warpsAlongM(warps);
          int64_t bn = wn * (warps / warpsAlongM(warps));
          bool small = bm == kTileM && bn == kTileN && step == 16;
          if (!small && (bm >= 2 * roundUp(mm->m, kTileM) ||
                         bn >= 2 * roundUp(mm->n, kTileN) ||
                         step >= 2 * roundUp(mm->k, kTileK)))
            continue;
          if ((bm + bn) * (step + 8) * bytes + 1024 >
                  target.getSmemPerBlock() ||
              warps * kWarpSize > target.getThreadsPerBlock())
            continue;
          // Swizzled first (conflict-free at no cost in shared memory) where
          // a slab can be; then padded, then plain.
          SmallVector<int64_t> splits =
              listSplits(kernel, *mm, bm, bn, warps, step, target);
          auto push = [&, wm = wm, wn = wn](bool pad, bool swizzle) {
            options.push_back({true, wm, wn, warps, step, pad, swizzle});
            for (int64_t s : splits)
              options.push_back({true, wm, wn, warps, step, pad, swizzle, s});
          };
          if (slabSwizzle(slabBox(mm->a, Role::M, bm, step), mm->element) ||
              slabSwizzle(slabBox(mm->b, Role::N, bn, step), mm->element))
            push(false, true);
          push(true, false);
          push(false, false);
        }
    options.push_back({false, {}, {}, {}, {}, {}});
    return options;
  }

  /// Tensor cores; a K step of 32 (or the largest legal); the largest block
  /// tile that fills half the SMs (else the one with most blocks), counting
  /// each split the K split it would take (chooseTensorCoreSplit), then 4
  /// warps.
  size_t heuristic(KernelOp kernel, ArrayRef<MmaSyncKnobs> options,
                   TargetAttr target) const override {
    int64_t step = 0;
    for (const MmaSyncKnobs &o : options)
      if (o.tensorCores && *o.mmaK <= 32)
        step = std::max(step, *o.mmaK);
    auto getSplit = [](const MmaSyncKnobs &o) { return o.mmaSplitK; };
    size_t best = options.size() - 1;
    int64_t bestSplit = 1;
    std::tuple<bool, int64_t, bool, int64_t, bool, bool> bestKey{};
    for (auto [i, o] : llvm::enumerate(options)) {
      if (!o.tensorCores || *o.mmaK != step || o.mmaSplitK)
        continue;
      int64_t bm = *o.WM * warpsAlongM(*o.warps);
      int64_t bn = *o.WN * (*o.warps / warpsAlongM(*o.warps));
      int64_t split =
          chooseTensorCoreSplit(countBlocks(kernel, bm, bn), *o.warps,
                                getSplitsAfter(options, i, getSplit), target);
      auto [fills, size] =
          rankBlockTile(kernel.getTile(), bm, bn, target.getSmCount(), split);
      std::tuple<bool, int64_t, bool, int64_t, bool, bool> key{
          fills,
          size,
          *o.warps == 4,
          *o.WM * *o.WN,
          o.mmaSwizzle.value_or(false),
          *o.mmaPad};
      if (best == options.size() - 1 || key > bestKey) {
        best = i;
        bestSplit = split;
        bestKey = key;
      }
    }
    return findSplitOption(options, best, bestSplit, getSplit);
  }

  LogicalResult rewrite(KernelOp kernel, const MmaSyncKnobs &option,
                        TargetAttr target) const override;

private:
  /// Blocks of a bm x bn block tile.
  static int64_t countBlocks(KernelOp kernel, int64_t bm, int64_t bn) {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    return product(extents.drop_back(2)) *
           ceilDiv(extents.drop_back().back(), bm) *
           ceilDiv(extents.back(), bn);
  }

  /// The K splits of a block tile (getTensorCoreSplits) the kernel can take.
  static SmallVector<int64_t> listSplits(KernelOp kernel, const MmaMatmul &mm,
                                         int64_t bm, int64_t bn, int64_t warps,
                                         int64_t step, TargetAttr target) {
    SmallVector<int64_t> splits = getTensorCoreSplits(
        countBlocks(kernel, bm, bn), warps, ceilDiv(mm.k, step), target);
    llvm::erase_if(splits, [&](int64_t s) {
      return !canSplitSumThroughWorkspace(kernel, mm.loop, s);
    });
    return splits;
  }
};

/// Builds the mma.sync form of one matmul.
class MmaBuilder {
public:
  MmaBuilder(MmaMatmul mm, const MmaSyncKnobs &o)
      : mm(mm), wm(*o.WM), wn(*o.WN), warps(*o.warps), step(*o.mmaK),
        splits(o.mmaSplitK.value_or(1)), perSplit(ceilDiv(mm.k, step) / splits),
        pad(*o.mmaPad), swizzle(o.mmaSwizzle.value_or(false)),
        warpsM(warpsAlongM(warps)), warpsN(warps / warpsM), bm(wm * warpsM),
        bn(wn * warpsN), tilesM(wm / kTileM), tilesN(wn / kTileN),
        kTileK(tileK(mm.element)), b(mm.tile) {}

  void build();

private:
  /// `expr` over (block coordinates..., warp, lane, extra...), at `b`.
  Value apply(AffineExpr expr, ValueRange extra = {});
  /// The stage of one operand's slab for chunk `ko`.
  Value stage(Operand op, Role other, int64_t box, Value ko);
  /// The ldmatrix loads of K step `ks`: A's fragments per M tile, or B's
  /// per N tile.
  SmallVector<SmallVector<Value>> loadFragments(Value slab, int64_t ks,
                                                bool isA);
  /// One ldmatrix of `matrices` 8 x 8 matrices, each lane naming the row at
  /// (`row`, `col`) of the slab's two innermost dimensions; its results
  /// are appended to `frags`.
  void load(Value slab, AffineExpr row, AffineExpr col, unsigned matrices,
            bool trans, SmallVectorImpl<SmallVector<Value>> &frags);
  /// The tf32 fragments of K step `ks`, one slab load per element.
  SmallVector<SmallVector<Value>> loadTf32Fragments(Value slab, int64_t ks,
                                                    bool isA);
  void epilogue(ValueRange accs);

  MmaMatmul mm;
  /// With `splits` > 1 the outermost block axis is the K split
  /// (splitSumThroughWorkspace's), each split taking `perSplit` steps.
  int64_t wm, wn, warps, step, splits, perSplit;
  bool pad, swizzle;
  int64_t warpsM, warpsN, bm, bn, tilesM, tilesN, kTileK;
  OpBuilder b;
  Location loc = mm.tile.getLoc();
  TileOp tile;
  /// The new tile's coordinates: batch axes, M block, N block, warp, lane.
  SmallVector<Value> coords;
  unsigned numBlocks = 0;
};

Value MmaBuilder::apply(AffineExpr expr, ValueRange extra) {
  return applyOver(b, loc, expr, coords, extra);
}

Value MmaBuilder::stage(Operand op, Role other, int64_t box, Value ko) {
  MLIRContext *ctx = b.getContext();
  auto source = cast<MemRefType>(op.load.getMemRef().getType());
  // Operands: the tile's coordinates, then ko.
  unsigned koPos = coords.size();
  SmallVector<int64_t> shape = slabBox(op, other, box, step);
  SmallVector<AffineExpr> origin;
  bool overhang = false;
  for (auto [d, role] : llvm::enumerate(op.roles)) {
    int64_t extent = source.getDimSize(d);
    switch (role) {
    case Role::Constant:
      origin.push_back(getAffineConstantExpr(op.values[d], ctx));
      break;
    case Role::Batch:
      // Batch axes keep their place among the block axes.
      origin.push_back(getAffineDimExpr(op.values[d], ctx));
      break;
    case Role::K: {
      // Split s runs steps s * perSplit + [0, perSplit).
      AffineExpr ko = getAffineDimExpr(koPos, ctx);
      if (splits > 1)
        ko = ko + getAffineDimExpr(0, ctx) * perSplit;
      origin.push_back(ko * step);
      overhang |= mm.k % step != 0;
      break;
    }
    default: {
      unsigned axis = other == Role::M ? numBlocks - 2 : numBlocks - 1;
      origin.push_back(getAffineDimExpr(axis, ctx) * box);
      overhang |= ceilDiv(other == Role::M ? mm.m : mm.n, box) * box > extent;
      break;
    }
    }
  }
  SmallVector<Value> operands(coords);
  operands.push_back(ko);
  // 16 bytes more per row: ldmatrix rows stay 16-byte aligned.
  DenseI64ArrayAttr padding;
  if (pad) {
    SmallVector<int64_t> rows(shape.size(), 0);
    rows.back() = 16 / (mm.element.getIntOrFloatBitWidth() / 8);
    padding = b.getDenseI64ArrayAttr(rows);
  }
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto stage = StageOp::create(
      b, loc, MemRefType::get(shape, mm.element, AffineMap(), workgroup),
      op.load.getMemRef(), operands, /*slot=*/Value(),
      op.prologue ? op.prologue->getApplyInputs() : SmallVector<Value>(),
      AffineMap::get(operands.size(), 0, origin, ctx),
      b.getDenseI64ArrayAttr(shape), padding,
      /*buffers=*/1, Transport::sync,
      swizzle ? slabSwizzle(shape, mm.element) : 0);
  if (overhang)
    stage.setZeroFill(true);
  if (op.prologue)
    buildApplyRegion(stage, *op.prologue);
  return stage;
}

void MmaBuilder::load(Value slab, AffineExpr row, AffineExpr col,
                      unsigned matrices, bool trans,
                      SmallVectorImpl<SmallVector<Value>> &frags) {
  frags.push_back(loadMatrices(b, loc, slab, apply(row), apply(col), mm.element,
                               matrices, trans));
}

SmallVector<SmallVector<Value>>
MmaBuilder::loadTf32Fragments(Value slab, int64_t ks, bool isA) {
  MLIRContext *ctx = b.getContext();
  AffineExpr warp = getAffineDimExpr(numBlocks, ctx);
  AffineExpr lane = getAffineDimExpr(numBlocks + 1, ctx);
  AffineExpr g = lane.floorDiv(4), t = lane % 4;
  int64_t k0 = ks * kTileK;
  int64_t rank = cast<MemRefType>(slab.getType()).getRank();
  // (M or N, K) of one element as the slab's two innermost indices.
  auto read = [&](AffineExpr outer, AffineExpr k, bool kInner) {
    SmallVector<AffineExpr> results(rank - 2, getAffineConstantExpr(0, ctx));
    results.push_back(kInner ? outer : k);
    results.push_back(kInner ? k : outer);
    auto map = AffineMap::get(coords.size(), 0, results, ctx);
    return dloop::LoadOp::create(b, loc, slab, map, coords).getResult();
  };
  SmallVector<SmallVector<Value>> frags;
  for (int64_t t0 = 0; t0 < (isA ? tilesM : tilesN); ++t0) {
    SmallVector<Value> frag;
    if (isA) {
      // a[i] is A[g + 8 (i % 2)][t + 4 (i / 2)].
      AffineExpr m0 = warp.floorDiv(warpsN) * wm + t0 * kTileM;
      for (int64_t i = 0; i < 4; ++i)
        frag.push_back(
            read(m0 + g + 8 * (i % 2), t + 4 * (i / 2) + k0, mm.a.kInner));
    } else {
      // b[i] is B[t + 4 i][g].
      AffineExpr n0 = (warp % warpsN) * wn + t0 * kTileN;
      for (int64_t i = 0; i < 2; ++i)
        frag.push_back(read(n0 + g, t + 4 * i + k0, mm.b.kInner));
    }
    frags.push_back(std::move(frag));
  }
  return frags;
}

SmallVector<SmallVector<Value>>
MmaBuilder::loadFragments(Value slab, int64_t ks, bool isA) {
  if (mm.element.isF32())
    return loadTf32Fragments(slab, ks, isA);
  MLIRContext *ctx = b.getContext();
  AffineExpr warp = getAffineDimExpr(numBlocks, ctx);
  AffineExpr lane = getAffineDimExpr(numBlocks + 1, ctx);
  int64_t k0 = ks * kTileK;
  SmallVector<SmallVector<Value>> frags;
  for (int64_t t = 0; t < (isA ? tilesM : tilesN); ++t) {
    if (isA) {
      // Lanes 8j..8j+7 name the rows of matrix j: (rows 0-7, k 0-7),
      // (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15); held as
      // K x M, each matrix is transposed on the way.
      AffineExpr m0 = warp.floorDiv(warpsN) * wm + t * kTileM;
      if (mm.a.kInner)
        load(slab, m0 + lane % 16, lane.floorDiv(16) * 8 + k0, 4,
             /*trans=*/false, frags);
      else
        load(slab, lane.floorDiv(16) * 8 + lane % 8 + k0,
             m0 + (lane.floorDiv(8) % 2) * 8, 4, /*trans=*/true, frags);
      continue;
    }
    // Two matrices, k 0-7 and 8-15 (lanes 16-31 repeat 0-15's rows); held
    // as N x K, B's rows are its columns already.
    AffineExpr n0 = (warp % warpsN) * wn + t * kTileN;
    if (mm.b.kInner)
      load(slab, n0 + lane % 8, (lane.floorDiv(8) % 2) * 8 + k0, 2,
           /*trans=*/false, frags);
    else
      load(slab, lane % 16 + k0, n0, 2, /*trans=*/true, frags);
  }
  return frags;
}

void MmaBuilder::epilogue(ValueRange accs) {
  MLIRContext *ctx = b.getContext();
  Block &old = mm.tile.getBody().front();
  size_t axes = old.getNumArguments();
  AffineExpr mo = getAffineDimExpr(numBlocks - 2, ctx);
  AffineExpr no = getAffineDimExpr(numBlocks - 1, ctx);
  AffineExpr warp = getAffineDimExpr(numBlocks, ctx);
  AffineExpr lane = getAffineDimExpr(numBlocks + 1, ctx);
  Type accType = mm.loop.getResult(0).getType();
  bool guardM = mm.m % bm != 0, guardN = mm.n % bn != 0;
  for (int64_t i = 0; i < tilesM; ++i)
    for (int64_t j = 0; j < tilesN; ++j)
      for (int64_t e = 0; e < 4; ++e) {
        // c[e] is C[g + 8 (e / 2)][2 t + e % 2], g = lane / 4, t = lane % 4.
        AffineExpr row = mo * bm + warp.floorDiv(warpsN) * wm + i * kTileM +
                         lane.floorDiv(4) + (e / 2) * 8;
        AffineExpr col = no * bn + (warp % warpsN) * wn + j * kTileN +
                         (lane % 4) * 2 + e % 2;
        Value r = apply(row), c = apply(col);
        OpBuilder::InsertionGuard guard(b);
        Value inside;
        if (guardM)
          inside = buildInRange(b, loc, r, mm.m);
        if (guardN) {
          Value inN = buildInRange(b, loc, c, mm.n);
          inside = inside
                       ? arith::AndIOp::create(b, loc, inside, inN).getResult()
                       : inN;
        }
        if (inside) {
          auto ifOp = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
          b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        }
        Value acc = accs[(i * tilesN + j) * 4 + e];
        if (accType != acc.getType())
          acc = arith::TruncFOp::create(b, loc, accType, acc);
        IRMapping mapping;
        for (size_t axis = 0; axis + 2 < axes; ++axis)
          mapping.map(old.getArgument(axis), coords[axis]);
        mapping.map(old.getArgument(axes - 2), r);
        mapping.map(old.getArgument(axes - 1), c);
        mapping.map(mm.loop.getResult(0), acc);
        for (Operation &op : old.without_terminator())
          if (&op != mm.loop.getOperation())
            b.clone(op, mapping);
      }
}

void MmaBuilder::build() {
  // The tile: batch axes, the M and N blocks, then warps and lanes.
  SmallVector<Axis> blockAxes = getBlockAxes(mm.tile);
  blockAxes[blockAxes.size() - 2] = {
      blockAxes[blockAxes.size() - 2].name + "_o", ceilDiv(mm.m, bm)};
  blockAxes.back() = {blockAxes.back().name + "_o", ceilDiv(mm.n, bn)};
  numBlocks = blockAxes.size();
  SmallVector<StringRef> names;
  SmallVector<int64_t> extents;
  for (const Axis &axis : blockAxes) {
    names.push_back(axis.name);
    extents.push_back(axis.extent);
  }
  tile = TileOp::create(b, loc, names, extents, {"warp", "lane"},
                        {warps, kWarpSize});
  Block &body = tile.getBody().front();
  b.setInsertionPoint(body.getTerminator());
  coords = SmallVector<Value>(body.getArguments());
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  SmallVector<Value> inits(tilesM * tilesN * 4, zero);
  auto chunks = dloop::ForOp::create(
      b, loc, perSplit, LoopKind::reduce, (mm.loop.getAxis() + "_o").str(),
      inits, [&](OpBuilder &nested, Location, Value ko, ValueRange iters) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value as = stage(mm.a, Role::M, bm, ko);
        Value bs = stage(mm.b, Role::N, bn, ko);
        SmallVector<Value> accs(iters);
        for (int64_t ks = 0; ks < step / kTileK; ++ks) {
          SmallVector<SmallVector<Value>> fa = loadFragments(as, ks, true);
          SmallVector<SmallVector<Value>> fb = loadFragments(bs, ks, false);
          for (int64_t i = 0; i < tilesM; ++i)
            for (int64_t j = 0; j < tilesN; ++j) {
              size_t at = (i * tilesN + j) * 4;
              auto mma = dkernel::MmaSyncOp::create(
                  b, loc, f32, f32, f32, f32, fa[i], fb[j],
                  ValueRange(accs).slice(at, 4));
              for (int64_t e = 0; e < 4; ++e)
                accs[at + e] = mma->getResult(e);
            }
        }
        dloop::YieldOp::create(b, loc, accs);
      });
  epilogue(chunks.getResults());
}

LogicalResult MmaSync::rewrite(KernelOp kernel, const MmaSyncKnobs &option,
                               TargetAttr target) const {
  if (!option.tensorCores)
    return success();
  llvm::Expected<MmaMatmul> mm = matchMmaMatmul(kernel, target);
  if (!mm)
    return kernel.emitOpError() << llvm::toString(mm.takeError());
  if (int64_t splits = option.mmaSplitK.value_or(1); splits > 1) {
    // The split axis is then a batch axis of the matmul.
    if (failed(splitSumThroughWorkspace(kernel, mm->loop, splits)))
      return failure();
    mm = matchMmaMatmul(kernel, target);
    if (!mm)
      return kernel.emitOpError() << llvm::toString(mm.takeError());
  }
  MmaBuilder(*mm, option).build();
  TileOp old = mm->tile;
  old.erase();
  cleanupKernel(kernel);
  return success();
}

} // namespace

std::unique_ptr<Rule> dtile::createMmaSyncRule() {
  return std::make_unique<MmaSync>();
}
