//===- WgmmaAsync.cpp - Half and FP8 matmuls on warpgroup MMA -*- C++ -*-===//
//
// wgmma_async: a matmul of f16 or bf16 operands summing in f32 becomes
// warpgroups of m64nNk16 wgmma.mma_async, one of 8-bit floats (f8E4M3FN,
// f8E5M2, both K-major) m64nNk32. A is K-major (held M x K) or
// MN-major (K x M, a transposed activation); B is K-major (N x K, as
// nn.Linear holds a weight) or MN-major (K x N, as `x @ W` reads it). Each
// block holds `warpgroups` x 128 threads (thread axes "warpgroup" x
// "thread"), each warpgroup 64 rows and N columns of accumulators. Per
// 128-byte K chunk (64 halves or 128 8-bit floats) a TMA copies both
// operands' slabs with the 128-byte swizzle, zero-filling past the edges: a
// K-major slab row is one 128-byte line of K; an MN-major slab is 64 rows of K,
// its M or N split into 64-wide segments of 128-byte lines (a 64-byte swizzle
// where B's N is 32), one segment per warpgroup for A. The descriptors name
// those slabs in the same swizzle, so the tensor cores read what the TMA wrote
// without a proxy fence. An operand a prologue computes (silu(gate) * up)
// is staged by the threads instead, through registers into the same
// swizzle (its stores then need a proxy fence, which the lowering puts
// after them). The epilogue of the Loop kernel runs once per
// accumulator, at the row and column the warpgroup layout gives it. The
// rule forks between wgmma and the rules after it (mma_sync, SIMT), so the
// tuner measures all.
//
//===----------------------------------------------------------------------===//

#include "ChunkStages.h"
#include "Prologue.h"
#include "Rules.h"
#include "SplitMatmulK.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

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

constexpr int64_t kWarpgroupRows = 64, kWarpgroup = 128;
/// The smallest block tile (rows x columns) the heuristic runs unsplit in
/// preference to a K split: on the H200, 64 x 128 and 128 x 64 tiles beat
/// 128 x 256 tiles split four or eight ways by 1.2-2.1x on the suite's
/// M = 128 and 512 GEMMs (bench/results/forks-h200-2026-11-27b.md).
constexpr int64_t kMinUnsplitArea = 8192;
/// The swizzle of the slabs and the bytes of a K chunk (one 128-byte line)
/// and of the K of one instruction.
constexpr int64_t kSwizzle = 128, kChunkBytes = 128, kInstrKBytes = 32;

/// What one index of an operand walks: a constant, a block axis (batch, M
/// or N) or the K loop.
struct Index {
  enum Kind { Constant, Axis, K } kind;
  int64_t value = 0;
};

/// A multiplicand: the input it reads, what each index walks and its
/// layout: K-major (the last two indices its row axis, M or N, then K) or
/// MN-major (K, then the row axis).
struct Operand {
  Value source;
  SmallVector<Index> indices;
  dkernel::WgmmaMajor major = dkernel::WgmmaMajor::k;
  Type element;
  /// A computed operand (its first load the source): staged through
  /// registers as a computed slab, not by TMA.
  std::optional<Prologue> prologue;
};

/// A matmul wgmma can take.
struct WgmmaMatmul {
  TileOp tile;
  dloop::ForOp loop;
  Operand a, b;
  int64_t m = 0, n = 0, k = 0;

  /// Bytes of an element of either operand (2, or 1 for 8-bit floats).
  int64_t elementBytes() const { return a.element.getIntOrFloatBitWidth() / 8; }
  /// Elements of K in a chunk (a 128-byte slab row) and in one wgmma.
  int64_t chunk() const { return kChunkBytes / elementBytes(); }
  int64_t instrK() const { return kInstrKBytes / elementBytes(); }
};

llvm::Error refuse(const Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

/// The indices of `load`, if each is a constant, a coordinate of `tile` or
/// `iv`.
std::optional<SmallVector<Index>> readIndices(dloop::LoadOp load, TileOp tile,
                                              Value iv) {
  SmallVector<Index> indices;
  Block *body = &tile.getBody().front();
  for (AffineExpr expr : load.getMap().getResults()) {
    if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      indices.push_back({Index::Constant, cst.getValue()});
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    Value index = load.getIndices()[dim.getPosition()];
    APInt constant;
    auto arg = dyn_cast<BlockArgument>(index);
    if (index == iv)
      indices.push_back({Index::K, 0});
    else if (matchPattern(index, m_ConstantInt(&constant)))
      indices.push_back({Index::Constant, constant.getSExtValue()});
    else if (arg && arg.getOwner() == body)
      indices.push_back({Index::Axis, arg.getArgNumber()});
    else
      return std::nullopt;
  }
  return indices;
}

/// How `indices` hold axis `row` and K: K-major when they end in `row`
/// then K, MN-major when in K then `row`, with otherwise only constants and
/// axes other than M and N; nullopt when neither.
std::optional<dkernel::WgmmaMajor> getMajor(ArrayRef<Index> indices,
                                            unsigned row, unsigned mAxis,
                                            unsigned nAxis) {
  if (indices.size() < 2 ||
      !llvm::all_of(indices.drop_back(2), [&](const Index &i) {
        return i.kind == Index::Constant ||
               (i.kind == Index::Axis && i.value != mAxis && i.value != nAxis);
      }))
    return std::nullopt;
  auto isRow = [&](const Index &i) {
    return i.kind == Index::Axis && i.value == row;
  };
  const Index &outer = indices[indices.size() - 2], &inner = indices.back();
  if (isRow(outer) && inner.kind == Index::K)
    return dkernel::WgmmaMajor::k;
  if (outer.kind == Index::K && isRow(inner))
    return dkernel::WgmmaMajor::mn;
  return std::nullopt;
}

/// The matmul of `kernel` if wgmma can run it, else why not.
llvm::Expected<WgmmaMatmul> matchWgmmaMatmul(KernelOp kernel,
                                             TargetAttr target) {
  if (!target.has(GpuFeature::wgmma))
    return refuse("target " + target.getName() +
                  " has no warpgroup MMA (the 'wgmma' feature)");
  llvm::Expected<dloop::ForOp> sum = getSoleSumLoop(kernel);
  if (!sum)
    return sum.takeError();
  WgmmaMatmul mm;
  mm.tile = kernel.getTile();
  mm.loop = *sum;
  dloop::ForOp loop = mm.loop;
  TileOp tile = mm.tile;
  if (!loop.getResult(0).getType().isF32())
    return refuse("the matmul loop does not sum in f32, as wgmma does");
  // The body: acc + x * y of two loads (extended or not), nothing else.
  auto add = loop.getYield().getValues()[0].getDefiningOp<arith::AddFOp>();
  Value product = add && add.getLhs() == loop.getIterArgs()[0] ? add.getRhs()
                  : add                                        ? add.getLhs()
                                                               : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  // Each factor a load or a prologue (its first load standing for it),
  // extended or not.
  std::optional<Prologue> xp, yp;
  dloop::LoadOp x = mul ? readFactor(mul.getLhs(), kernel, xp) : nullptr;
  dloop::LoadOp y = mul ? readFactor(mul.getRhs(), kernel, yp) : nullptr;
  auto inPrologue = [&](Operation &op) {
    for (const std::optional<Prologue> &p : {xp, yp})
      if (p && (llvm::is_contained(p->ops, &op) ||
                llvm::is_contained(p->loads, dyn_cast<dloop::LoadOp>(&op))))
        return true;
    return false;
  };
  if (!x || !y ||
      !llvm::all_of(loop.getBody()->without_terminator(), [&](Operation &op) {
        return &op == add || &op == mul || op.getResult(0) == mul.getLhs() ||
               op.getResult(0) == mul.getRhs() || &op == x || &op == y ||
               inPrologue(op);
      }))
    return refuse("the matmul loop computes more than a sum of products of "
                  "two loads (or of their prologues)");
  Type element = xp ? xp->root->getResult(0).getType() : x.getType();
  Type elementY = yp ? yp->root->getResult(0).getType() : y.getType();
  if ((xp && !isa<Float16Type, BFloat16Type>(element)) ||
      (yp && !isa<Float16Type, BFloat16Type>(elementY)))
    return refuse("a factor computed by a prologue is not f16 or bf16");
  bool f8 = dkernel::isWgmmaF8(element);
  if (!(isa<Float16Type, BFloat16Type>(element) && elementY == element) &&
      !(f8 && dkernel::isWgmmaF8(elementY)))
    return refuse("the operands are not both f16, both bf16 or both 8-bit "
                  "floats (f8E4M3FN, f8E5M2)");
  for (dloop::LoadOp load : {x, y})
    if (!llvm::is_contained(kernel.getInputArgs(), load.getMemRef()))
      return refuse("an operand is not a kernel input");
  size_t axes = tile.getBlockAxes().size();
  if (axes < 2)
    return refuse("the kernel has no M and N axes");
  unsigned mAxis = axes - 2, nAxis = axes - 1;
  mm.m = tile.getBlockExtents()[mAxis];
  mm.n = tile.getBlockExtents()[nAxis];
  mm.k = loop.getExtent();
  Value iv = loop.getInductionVar();
  std::optional<SmallVector<Index>> xi = readIndices(x, tile, iv);
  std::optional<SmallVector<Index>> yi = readIndices(y, tile, iv);
  if (!xi || !yi)
    return refuse("an operand index is not a loop variable or a constant");
  bool xIsA = getMajor(*xi, mAxis, mAxis, nAxis).has_value();
  Operand first{x.getMemRef(), *xi, dkernel::WgmmaMajor::k, element, xp};
  Operand second{y.getMemRef(), *yi, dkernel::WgmmaMajor::k, elementY, yp};
  mm.a = xIsA ? first : second;
  mm.b = xIsA ? second : first;
  std::optional<dkernel::WgmmaMajor> majorA =
      getMajor(mm.a.indices, mAxis, mAxis, nAxis);
  std::optional<dkernel::WgmmaMajor> majorB =
      getMajor(mm.b.indices, nAxis, mAxis, nAxis);
  if (!majorA || !majorB)
    return refuse("the operands are not indexed [..., M, K] or [..., K, M] "
                  "for A and [..., N, K] or [..., K, N] for B, the layouts "
                  "wgmma reads");
  mm.a.major = *majorA;
  mm.b.major = *majorB;
  if (f8 && (mm.a.major != dkernel::WgmmaMajor::k ||
             mm.b.major != dkernel::WgmmaMajor::k))
    return refuse("8-bit operands must both be K-major ([..., M, K] and "
                  "[..., N, K], as nn.Linear holds a weight): wgmma reads "
                  "them no other way");
  // TMA zero-fills past K only where K ends the source's dimension.
  for (Operand *op : {&mm.a, &mm.b}) {
    ArrayRef<int64_t> shape = cast<MemRefType>(op->source.getType()).getShape();
    if (shape[shape.size() - (op->major == dkernel::WgmmaMajor::k ? 1 : 2)] !=
        mm.k)
      return refuse("an operand's K dimension is longer than the loop");
  }
  return mm;
}

/// Builds the wgmma form of one matmul; with `splits` > 1 its outermost
/// block axis is the K split (splitSumThroughWorkspace's), each split
/// taking its share of the K chunks.
class WgmmaBuilder {
public:
  WgmmaBuilder(WgmmaMatmul mm, int64_t warpgroups, int64_t n, int64_t splits)
      : mm(mm), warpgroups(warpgroups), instrN(n),
        bm(kWarpgroupRows * warpgroups), splits(splits),
        perSplit(ceilDiv(mm.k, mm.chunk()) / splits), b(mm.tile) {}

  /// The tile, before the old one is erased.
  TileOp build();
  /// Whether TMA can copy both slabs of the built tile (a computed one
  /// travels through registers).
  bool slabsCopyByTma() const {
    return llvm::all_of(std::array<StageOp, 2>{slabA, slabB}, [](StageOp s) {
      return s.isComputed() || canCopyTma(s);
    });
  }

private:
  Value apply(AffineExpr expr);
  /// The TMA stage of one operand's slab for chunk `ko`: `rows` rows of
  /// the block's axis `axis` by the chunk, in `swizzle`.
  StageOp stage(const Operand &op, unsigned axis, int64_t rows, Value ko,
                int64_t swizzle);
  /// The accumulators after the four m64nNk16 of one chunk.
  SmallVector<Value> multiply(ValueRange accs);
  void epilogue(ValueRange accs);

  WgmmaMatmul mm;
  int64_t warpgroups, instrN, bm, splits, perSplit;
  OpBuilder b;
  Location loc = mm.tile.getLoc();
  /// The new tile's coordinates: block axes, then warpgroup and thread.
  SmallVector<Value> coords;
  unsigned numBlocks = 0;
  StageOp slabA, slabB;
};

Value WgmmaBuilder::apply(AffineExpr expr) {
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(coords.size(), 0, expr), coords);
}

StageOp WgmmaBuilder::stage(const Operand &op, unsigned axis, int64_t rows,
                            Value ko, int64_t swizzle) {
  MLIRContext *ctx = b.getContext();
  unsigned koPos = coords.size();
  SmallVector<AffineExpr> origin;
  SmallVector<int64_t> box;
  for (const Index &index : op.indices) {
    if (index.kind == Index::Constant) {
      origin.push_back(getAffineConstantExpr(index.value, ctx));
      box.push_back(1);
    } else if (index.kind == Index::K) {
      // Split s runs chunks s * perSplit + [0, perSplit).
      AffineExpr chunk = getAffineDimExpr(koPos, ctx);
      if (splits > 1)
        chunk = chunk + getAffineDimExpr(0, ctx) * perSplit;
      origin.push_back(chunk * mm.chunk());
      box.push_back(mm.chunk());
    } else if (index.value == axis) {
      origin.push_back(getAffineDimExpr(axis, ctx) * rows);
      box.push_back(rows);
    } else {
      // Batch axes keep their place among the block axes.
      origin.push_back(getAffineDimExpr(index.value, ctx));
      box.push_back(1);
    }
  }
  int64_t extent = axis == numBlocks - 2 ? mm.m : mm.n;
  bool overhang = mm.k % mm.chunk() != 0 || extent % rows != 0;
  SmallVector<Value> operands(coords);
  operands.push_back(ko);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // A computed slab is written by the threads, through the same swizzle.
  auto slab = StageOp::create(
      b, loc, MemRefType::get(box, op.element, AffineMap(), workgroup),
      op.source, operands, /*slot=*/Value(),
      op.prologue ? op.prologue->getApplyInputs() : SmallVector<Value>(),
      AffineMap::get(operands.size(), 0, origin, ctx),
      b.getDenseI64ArrayAttr(box), /*pad=*/DenseI64ArrayAttr(),
      /*buffers=*/1, op.prologue ? Transport::sync : Transport::tma, swizzle);
  if (overhang)
    slab.setZeroFill(true);
  if (op.prologue)
    buildApplyRegion(slab, *op.prologue);
  return slab;
}

SmallVector<Value> WgmmaBuilder::multiply(ValueRange accs) {
  MLIRContext *ctx = b.getContext();
  AffineExpr wg = getAffineDimExpr(numBlocks, ctx);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  // A descriptor names 16 of K from `k` and the operand's rows (M or N)
  // from `row`; the leading unit dimensions of a slab are indexed at zero.
  auto descriptor = [&](StageOp slab, dkernel::WgmmaMajor major, Value row,
                        int64_t k) {
    int64_t rank = slab.getBox().size(), swizzle = slab.getSwizzle();
    SmallVector<Value> indices(rank - 2, zero);
    Value kIndex = arith::ConstantIndexOp::create(b, loc, k);
    if (major == dkernel::WgmmaMajor::k) {
      indices.append({row, kIndex});
      // Rows are swizzle-wide lines; core matrices of 8 rows are 8 lines
      // apart (LBO is unused with a swizzle).
      return dkernel::WgmmaDescOp::create(b, loc, b.getI64Type(), slab, indices,
                                          swizzle, /*lbo=*/16,
                                          /*sbo=*/8 * swizzle)
          .getResult();
    }
    indices.append({kIndex, row});
    // K rows are swizzle-wide lines, 8 of them a core matrix; the next
    // swizzle-wide atom of N is the slab's next segment, all its K rows on.
    int64_t segmentBytes = ShapedType::getNumElements(slab.getBox()) /
                           slab.getBox().back() * swizzle;
    return dkernel::WgmmaDescOp::create(b, loc, b.getI64Type(), slab, indices,
                                        swizzle, /*lbo=*/segmentBytes,
                                        /*sbo=*/8 * swizzle)
        .getResult();
  };
  Value rowA = apply(wg * kWarpgroupRows);
  dkernel::WgmmaFenceOp::create(b, loc);
  SmallVector<Value> results(accs);
  SmallVector<Type> types(results.size(), b.getF32Type());
  // The type of B where it differs from A's (8-bit floats may mix).
  TypeAttr elementB =
      mm.b.element == mm.a.element ? TypeAttr() : TypeAttr::get(mm.b.element);
  for (int64_t k = 0; k < mm.chunk(); k += mm.instrK()) {
    Value da = descriptor(slabA, mm.a.major, rowA, k);
    Value db = descriptor(slabB, mm.b.major, zero, k);
    auto mma = dkernel::WgmmaMmaAsyncOp::create(b, loc, types, da, db, results,
                                                instrN, mm.a.element, elementB,
                                                mm.a.major, mm.b.major);
    results.assign(mma.getResults().begin(), mma.getResults().end());
  }
  dkernel::WgmmaCommitGroupOp::create(b, loc);
  auto wait =
      dkernel::WgmmaWaitGroupOp::create(b, loc, types, /*pending=*/0, results);
  return SmallVector<Value>(wait.getResults());
}

void WgmmaBuilder::epilogue(ValueRange accs) {
  MLIRContext *ctx = b.getContext();
  AffineExpr mo = getAffineDimExpr(numBlocks - 2, ctx);
  AffineExpr no = getAffineDimExpr(numBlocks - 1, ctx);
  AffineExpr wg = getAffineDimExpr(numBlocks, ctx);
  AffineExpr thread = getAffineDimExpr(numBlocks + 1, ctx);
  AffineExpr warp = thread.floorDiv(32), lane = thread % 32;
  std::optional<int64_t> rowLimit, colLimit;
  if (mm.m % bm != 0)
    rowLimit = mm.m;
  if (mm.n % instrN != 0)
    colLimit = mm.n;
  for (auto [index, acc] : llvm::enumerate(accs)) {
    // Accumulator 4 j + i: row 16 w + g + 8 (i / 2), column 8 j + 2 t +
    // i % 2, with w the warp, g = lane / 4 and t = lane % 4.
    int64_t j = index / 4, i = index % 4;
    Value r = apply(mo * bm + wg * kWarpgroupRows + warp * 16 +
                    lane.floorDiv(4) + (i / 2) * 8);
    Value c = apply(no * instrN + j * 8 + (lane % 4) * 2 + i % 2);
    cloneAccumulatorEpilogue(b, mm.tile, mm.loop,
                             ValueRange(coords).take_front(numBlocks - 2), r, c,
                             acc, rowLimit, colLimit);
  }
}

TileOp WgmmaBuilder::build() {
  // The tile: batch axes, the M and N blocks, then warpgroups and threads.
  SmallVector<Axis> blockAxes = getBlockAxes(mm.tile);
  Axis &mBlock = blockAxes[blockAxes.size() - 2];
  mBlock = {mBlock.name + "_o", ceilDiv(mm.m, bm)};
  blockAxes.back() = {blockAxes.back().name + "_o", ceilDiv(mm.n, instrN)};
  numBlocks = blockAxes.size();
  SmallVector<StringRef> names;
  SmallVector<int64_t> extents;
  for (const Axis &axis : blockAxes) {
    names.push_back(axis.name);
    extents.push_back(axis.extent);
  }
  TileOp tile = TileOp::create(b, loc, names, extents, {"warpgroup", "thread"},
                               {warpgroups, kWarpgroup});
  Block &body = tile.getBody().front();
  b.setInsertionPoint(body.getTerminator());
  coords = SmallVector<Value>(body.getArguments());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  SmallVector<Value> inits(instrN / 2, zero);
  auto chunks = dloop::ForOp::create(
      b, loc, perSplit, LoopKind::reduce, (mm.loop.getAxis() + "_o").str(),
      inits, [&](OpBuilder &nested, Location, Value ko, ValueRange iters) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        // An MN-major slab row holds M (64 or more halves: 128 bytes) or N,
        // swizzled as wide as it fills.
        slabA = stage(mm.a, numBlocks - 2, bm, ko, kSwizzle);
        slabB = stage(mm.b, numBlocks - 1, instrN, ko,
                      mm.b.major == dkernel::WgmmaMajor::k
                          ? kSwizzle
                          : std::min(kSwizzle, instrN * 2));
        AsyncWaitOp::create(b, loc, /*keep=*/0);
        dloop::YieldOp::create(b, loc, multiply(iters));
      });
  epilogue(chunks.getResults());
  return tile;
}

/// Registers a wgmma thread needs beyond its accumulators: slab addresses,
/// descriptors, the loop and the epilogue's indices. ptxas asked for 26
/// more than the 128 accumulators of an m64n256 kernel; 32 rounds that up
/// to the allocation granule of 8 registers with room to spare.
constexpr int64_t kRegisterMargin = 32;

/// Whether a thread of a block of `warpgroups` warpgroups holds its
/// `n` / 2 f32 accumulators of an m64nNk16 and the margin within its share
/// of the registers (past it ptxas refuses the kernel: it cannot spill the
/// operands of one wgmma).
bool fitsRegisters(TargetAttr target, int64_t warpgroups, int64_t n) {
  return n / 2 + kRegisterMargin <=
         getRegisterBudget(target, warpgroups * kWarpgroup);
}

class WgmmaAsync final : public TypedRule<WgmmaAsyncKnobs> {
public:
  /// wgmma=true must be possible: say why not where it is not.
  LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                             KnobsAttr requested) const override {
    if (requested.getWgmma() != std::optional<bool>(true) ||
        !kernel.getTile() || hasDecided(*this, kernel))
      return success();
    llvm::Expected<WgmmaMatmul> mm = matchWgmmaMatmul(kernel, target);
    if (!mm)
      return kernel.emitOpError("knob wgmma=true: wgmma_async cannot take @")
             << kernel.getSymName() << ": " << llvm::toString(mm.takeError());
    if (listOptions(kernel, target).size() < 2)
      return kernel.emitOpError("knob wgmma=true: wgmma_async cannot take @")
             << kernel.getSymName() << ": " << getRefusal(kernel, target);
    if (std::optional<int64_t> swizzle = requested.getSwizzle();
        swizzle && *swizzle != kSwizzle)
      return kernel.emitOpError("knob wgmma=true: its descriptors read slabs "
                                "in the 128-byte swizzle, but swizzle=")
             << *swizzle << " is asked for";
    return success();
  }

  /// Why the matmul cannot run on wgmma (list-forks says it).
  std::string getRefusal(KernelOp kernel, TargetAttr target) const override {
    llvm::Expected<WgmmaMatmul> mm = matchWgmmaMatmul(kernel, target);
    if (!mm)
      return llvm::toString(mm.takeError());
    return (Twine("TMA cannot copy the slabs of any block tile (M ") +
            Twine(mm->m) + ", N " + Twine(mm->n) + ", K " + Twine(mm->k) +
            "): the boxes must lie inside the operands (but for M rows short "
            "of the last warpgroup's 64), whose rows must span multiples of "
            "16 bytes")
        .str();
  }

protected:
  /// Every warpgroup count and N whose slabs TMA can copy, shared memory
  /// holds and whose accumulators fit in registers, each followed by its K
  /// splits (getTensorCoreSplits) where its blocks leave the SMs short of
  /// warps; then not wgmma.
  SmallVector<WgmmaAsyncKnobs> listOptions(KernelOp kernel,
                                           TargetAttr target) const override {
    // getRefusal says why not; here a refusal is no options.
    std::optional<WgmmaMatmul> mm =
        llvm::expectedToOptional(matchWgmmaMatmul(kernel, target));
    if (!mm)
      return {};
    SmallVector<WgmmaAsyncKnobs> options;
    for (int64_t warpgroups : {1, 2, 4})
      for (int64_t n : {32, 64, 128, 192, 256}) {
        int64_t bm = kWarpgroupRows * warpgroups;
        if ((bm + n) * kChunkBytes > target.getSmemPerBlock() ||
            warpgroups * kWarpgroup > target.getThreadsPerBlock() ||
            !fitsRegisters(target, warpgroups, n) || !tmaFits(*mm, bm, n))
          continue;
        options.push_back({true, warpgroups, n});
        for (int64_t s : listSplits(kernel, *mm, warpgroups, n, target))
          options.push_back({true, warpgroups, n, s});
      }
    if (options.empty())
      return {};
    options.push_back({false, {}, {}});
    return options;
  }

  /// wgmma; the largest block tile of 8192 accumulators or more whose own
  /// blocks give half the SMs one, without a split (its second kernel and
  /// workspace cost more than smaller tiles do); else the largest tile that
  /// fills half the SMs (else the one with most blocks), counting each
  /// tile's blocks times the K split it would take (chooseTensorCoreSplit);
  /// ties to 2 warpgroups. N a power of two, but for an unsplit N = 256
  /// tile whose last wave leaves more SMs idle than N = 192's would (one
  /// block an SM): H200, TinyLlama and Qwen gate_proj s512 1.18x and 1.19x
  /// (88 -> 120 and 296 -> 396 blocks on 132 SMs); N = 192 chosen instead
  /// of smaller tiles lost (0.65-0.78x;
  /// bench/results/forks-h200-2026-11-28.md).
  size_t heuristic(KernelOp kernel, ArrayRef<WgmmaAsyncKnobs> options,
                   TargetAttr target) const override {
    auto measured = [](const WgmmaAsyncKnobs &o) {
      return o.wgmma && !o.wgmmaSplitK && llvm::isPowerOf2_64(*o.wgmmaN);
    };
    std::optional<size_t> unsplit;
    std::pair<int64_t, bool> unsplitKey{};
    for (auto [i, o] : llvm::enumerate(options)) {
      if (!measured(o))
        continue;
      int64_t area = kWarpgroupRows * *o.warpgroups * *o.wgmmaN;
      if (area < kMinUnsplitArea ||
          2 * countBlocks(kernel, *o.warpgroups, *o.wgmmaN) <
              target.getSmCount())
        continue;
      std::pair<int64_t, bool> key{area, *o.warpgroups == 2};
      if (!unsplit || key > unsplitKey) {
        unsplit = i;
        unsplitKey = key;
      }
    }
    if (unsplit)
      return roundWaves(kernel, options, *unsplit, target.getSmCount());
    auto getSplit = [](const WgmmaAsyncKnobs &o) { return o.wgmmaSplitK; };
    size_t best = options.size() - 1;
    int64_t bestSplit = 1;
    std::tuple<bool, int64_t, bool> bestKey{};
    for (auto [i, o] : llvm::enumerate(options)) {
      if (!measured(o))
        continue;
      int64_t bm = kWarpgroupRows * *o.warpgroups, bn = *o.wgmmaN;
      int64_t split = chooseTensorCoreSplit(
          countBlocks(kernel, *o.warpgroups, bn), *o.warpgroups * 4,
          getSplitsAfter(options, i, getSplit), target);
      auto [fills, size] =
          rankBlockTile(kernel.getTile(), bm, bn, target.getSmCount(), split);
      std::tuple<bool, int64_t, bool> key{fills, size, *o.warpgroups == 2};
      if (best == options.size() - 1 || key > bestKey) {
        best = i;
        bestSplit = split;
        bestKey = key;
      }
    }
    if (std::optional<size_t> narrow =
            findNarrowSplit(kernel, options, best, bestSplit, target))
      return *narrow;
    return findSplitOption(options, best, bestSplit, getSplit);
  }

  LogicalResult rewrite(KernelOp kernel, const WgmmaAsyncKnobs &option,
                        TargetAttr target) const override;

private:
  /// For a 128-row tile split 8 ways with fewer than 8 K chunks a split
  /// (a pipeline that barely fills, behind 8 f32 copies of the output in
  /// the workspace): the 64 x 256 tile split 4 ways, where it is listed and
  /// makes 64 blocks or more (H200, BF16: 1.17x and 1.26x on TinyLlama's
  /// and Qwen's q_proj at s128, 1.00x on Qwen's kv_proj at s512, where
  /// 128 x 128 tiles split twice lost 0.88x;
  /// bench/results/forks-h200-2026-11-28b.md).
  static std::optional<size_t>
  findNarrowSplit(KernelOp kernel, ArrayRef<WgmmaAsyncKnobs> options,
                  size_t best, int64_t split, TargetAttr target) {
    std::optional<WgmmaMatmul> mm =
        llvm::expectedToOptional(matchWgmmaMatmul(kernel, target));
    constexpr int64_t kMinChunksPerSplit = 8;
    if (!mm || split != 8 || options[best].warpgroups != 2 ||
        ceilDiv(mm->k, mm->chunk()) / split >= kMinChunksPerSplit)
      return std::nullopt;
    const auto *narrow = llvm::find(options, WgmmaAsyncKnobs{true, 1, 256, 4});
    if (narrow == options.end() || 4 * countBlocks(kernel, 1, 256) < 64)
      return std::nullopt;
    return narrow - options.begin();
  }

  /// `pick`, or its warpgroups' unsplit N = 192 option where `pick` is an
  /// unsplit N = 256 tile and N = 192's blocks fill the SMs of their waves
  /// better.
  static size_t roundWaves(KernelOp kernel, ArrayRef<WgmmaAsyncKnobs> options,
                           size_t pick, int64_t sms) {
    const WgmmaAsyncKnobs &o = options[pick];
    WgmmaAsyncKnobs narrower{true, o.warpgroups, 192};
    const auto *it = llvm::find(options, narrower);
    if (o.wgmmaN != 256 || o.wgmmaSplitK || it == options.end())
      return pick;
    auto filled = [&](int64_t n) {
      int64_t blocks = countBlocks(kernel, *o.warpgroups, n);
      return double(blocks) / double(ceilDiv(blocks, sms) * sms);
    };
    return filled(192) > filled(256) ? it - options.begin() : pick;
  }

  /// Blocks of a tile of `warpgroups` x 64 rows by `n` columns.
  static int64_t countBlocks(KernelOp kernel, int64_t warpgroups, int64_t n) {
    ArrayRef<int64_t> extents = kernel.getTile().getBlockExtents();
    return product(extents.drop_back(2)) *
           ceilDiv(extents.drop_back().back(), kWarpgroupRows * warpgroups) *
           ceilDiv(extents.back(), n);
  }

  /// The K splits of a block tile (getTensorCoreSplits) the kernel can take.
  static SmallVector<int64_t> listSplits(KernelOp kernel, const WgmmaMatmul &mm,
                                         int64_t warpgroups, int64_t n,
                                         TargetAttr target) {
    SmallVector<int64_t> splits =
        getTensorCoreSplits(countBlocks(kernel, warpgroups, n), warpgroups * 4,
                            ceilDiv(mm.k, mm.chunk()), target);
    llvm::erase_if(splits, [&](int64_t s) {
      return !canSplitSumThroughWorkspace(kernel, mm.loop, s);
    });
    return splits;
  }

  /// Whether TMA can copy the slabs of a bm x n block tile: the boxes lie
  /// inside the operands, but for M rows short of the last warpgroup's 64
  /// (TMA zero-fills them: a 32-row activation still streams the weight
  /// through wgmma), and their rows span multiples of 16 bytes.
  static bool tmaFits(const WgmmaMatmul &mm, int64_t bm, int64_t n) {
    auto rowBytes = [&](const Operand &op) {
      return cast<MemRefType>(op.source.getType()).getShape().back() *
             mm.elementBytes();
    };
    return bm - kWarpgroupRows < mm.m && n <= mm.n && mm.chunk() <= mm.k &&
           rowBytes(mm.a) % 16 == 0 && rowBytes(mm.b) % 16 == 0;
  }
};

LogicalResult WgmmaAsync::rewrite(KernelOp kernel,
                                  const WgmmaAsyncKnobs &option,
                                  TargetAttr target) const {
  if (!option.wgmma)
    return success();
  llvm::Expected<WgmmaMatmul> mm = matchWgmmaMatmul(kernel, target);
  if (!mm)
    return kernel.emitOpError() << llvm::toString(mm.takeError());
  int64_t splits = option.wgmmaSplitK.value_or(1);
  if (splits > 1) {
    // The split axis is then a batch axis of the matmul.
    if (failed(splitSumThroughWorkspace(kernel, mm->loop, splits)))
      return failure();
    mm = matchWgmmaMatmul(kernel, target);
    if (!mm)
      return kernel.emitOpError() << llvm::toString(mm.takeError());
  }
  WgmmaBuilder builder(*mm, *option.warpgroups, *option.wgmmaN, splits);
  TileOp tile = builder.build();
  if (!builder.slabsCopyByTma()) {
    tile.erase();
    return kernel.emitOpError("wgmma_async: TMA cannot copy the slabs");
  }
  mm->tile.erase();
  // The descriptors describe the slabs in the 128-byte swizzle: that
  // decides split_inner_for_swizzle.
  kernel.setKnobsAttr(kernel.getKnobs().merge(
      SplitInnerForSwizzleKnobs{kSwizzle}.toAttr(kernel.getContext())));
  cleanupKernel(kernel);
  return success();
}

} // namespace

std::unique_ptr<Rule> dtile::createWgmmaAsyncRule() {
  return std::make_unique<WgmmaAsync>();
}
