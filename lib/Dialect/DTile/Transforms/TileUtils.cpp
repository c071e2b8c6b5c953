//===- TileUtils.cpp - Shared pieces of the Tile rules ----------*- C++ -*-===//

#include "TileUtils.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

int64_t dtile::product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

SmallVector<int64_t> dtile::divisorsIn(int64_t n, int64_t lo, int64_t hi) {
  SmallVector<int64_t> result;
  for (int64_t d = std::max<int64_t>(lo, 1); d <= std::min(n, hi); ++d)
    if (n % d == 0)
      result.push_back(d);
  return result;
}

SmallVector<dloop::ForOp> dtile::getTopLevelReductions(TileOp tile) {
  SmallVector<dloop::ForOp> loops;
  for (auto loop : tile.getBody().front().getOps<dloop::ForOp>())
    if (loop.isReduction())
      loops.push_back(loop);
  return loops;
}

llvm::Expected<dloop::ForOp> dtile::getSoleSumLoop(KernelOp kernel) {
  auto refuse = [](const char *why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
  };
  TileOp tile = kernel.getTile();
  if (!tile || !tile.getThreadAxes().empty())
    return refuse("the kernel is mapped to threads already");
  if (classify(kernel) != KernelClass::Matmul)
    return refuse("the kernel is not a matmul");
  SmallVector<dloop::ForOp> reductions = getTopLevelReductions(tile);
  if (reductions.size() != 1 ||
      llvm::any_of(
          tile.getBody().front().without_terminator(), [&](Operation &op) {
            return op.getNumRegions() != 0 && &op != reductions.front();
          }))
    return refuse("the kernel has more loops than one matmul loop");
  dloop::ForOp loop = reductions.front();
  if (loop.getInitArgs().size() != 1 ||
      getAccumulatorKind(loop, 0) != ReduceKind::add ||
      !isIdentity(loop.getInitArgs()[0], ReduceKind::add))
    return refuse("the matmul loop does not sum one value from zero");
  return loop;
}

int64_t dtile::getRegisterBudget(dkernel::TargetAttr target, int64_t threads) {
  return std::min(target.getRegistersPerThread(),
                  target.getRegistersPerSM() / threads / 8 * 8);
}

std::pair<bool, int64_t> dtile::rankBlockTile(TileOp tile, int64_t bm,
                                              int64_t bn, int64_t smCount,
                                              int64_t splits) {
  ArrayRef<int64_t> extents = tile.getBlockExtents();
  int64_t blocks = splits * product(extents.drop_back(2)) *
                   ceilDiv(extents.drop_back().back(), bm) *
                   ceilDiv(extents.back(), bn);
  bool fills = 2 * blocks >= smCount;
  return {fills, fills ? bm * bn : blocks};
}

void dtile::cloneAccumulatorEpilogue(OpBuilder &b, TileOp old,
                                     dloop::ForOp loop, ValueRange batch,
                                     Value row, Value col, Value acc,
                                     std::optional<int64_t> rowLimit,
                                     std::optional<int64_t> colLimit) {
  Location loc = old.getLoc();
  OpBuilder::InsertionGuard guard(b);
  Value inside;
  if (rowLimit)
    inside = buildInRange(b, loc, row, *rowLimit);
  if (colLimit) {
    Value inCol = buildInRange(b, loc, col, *colLimit);
    inside = inside ? arith::AndIOp::create(b, loc, inside, inCol).getResult()
                    : inCol;
  }
  if (inside) {
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  Block &body = old.getBody().front();
  size_t axes = body.getNumArguments();
  IRMapping mapping;
  for (size_t axis = 0; axis + 2 < axes; ++axis)
    mapping.map(body.getArgument(axis), batch[axis]);
  mapping.map(body.getArgument(axes - 2), row);
  mapping.map(body.getArgument(axes - 1), col);
  mapping.map(loop.getResult(0), acc);
  for (Operation &op : body.without_terminator())
    if (&op != loop.getOperation())
      b.clone(op, mapping);
}

bool dtile::isMatmulLoop(dloop::ForOp loop) {
  if (!loop.isReduction() || loop.getInitArgs().empty())
    return false;
  Value iv = loop.getInductionVar();
  llvm::SmallPtrSet<Value, 4> buffers;
  loop.walk([&](dloop::LoadOp load) {
    AffineMap map = load.getMap();
    for (auto [i, index] : llvm::enumerate(load.getIndices())) {
      unsigned pos = i;
      if (index == iv && pos < map.getNumDims() &&
          llvm::any_of(map.getResults(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(pos); }))
        buffers.insert(load.getMemRef());
    }
  });
  return buffers.size() >= 2;
}

KernelClass dtile::classify(KernelOp kernel) {
  TileOp tile = kernel.getTile();
  if (getOnlineSoftmaxLoop(tile))
    return KernelClass::OnlineSoftmax;
  SmallVector<dloop::ForOp> reductions = getTopLevelReductions(tile);
  bool anyReduction = false;
  tile.walk([&](dloop::ForOp loop) { anyReduction |= loop.isReduction(); });
  if (!anyReduction)
    return KernelClass::Pointwise;
  // Matmuls need an output tile of at least two axes (M and N) to reuse
  // operands across; a single output axis is a dot product per element.
  if (!reductions.empty() && tile.getBlockAxes().size() >= 2 &&
      tile.getThreadAxes().empty() && llvm::all_of(reductions, isMatmulLoop))
    return KernelClass::Matmul;
  return KernelClass::Reduction;
}

std::optional<ReduceKind> dtile::getAccumulatorKind(dloop::ForOp loop,
                                                    unsigned i) {
  Value acc = loop.getIterArgs()[i];
  Operation *def = loop.getYield().getValues()[i].getDefiningOp();
  if (!def || def->getNumOperands() != 2 ||
      !llvm::is_contained(def->getOperands(), acc) || !acc.hasOneUse())
    return std::nullopt;
  return getCombinerKind(def);
}

bool dtile::isIdentity(Value value, ReduceKind kind) {
  Attribute attr;
  return matchPattern(value, m_Constant(&attr)) && isReduceIdentity(attr, kind);
}

void dtile::substituteCoord(OpBuilder &b, TileOp tile, Value coord,
                            AffineMap map, ValueRange operands) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&tile.getBody().front());
  Value replacement =
      affine::AffineApplyOp::create(b, tile.getLoc(), map, operands);
  coord.replaceUsesWithIf(replacement, [&](OpOperand &use) {
    return use.getOwner() != replacement.getDefiningOp();
  });
}

void dtile::cleanupKernel(KernelOp kernel) {
  MLIRContext *ctx = kernel.getContext();
  RewritePatternSet patterns(ctx);
  dloop::LoadOp::getCanonicalizationPatterns(patterns, ctx);
  dloop::StoreOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    if (name.getDialectNamespace() == "arith")
      name.getCanonicalizationPatterns(patterns, ctx);
  populateMaskFoldingPatterns(patterns);
  (void)applyPatternsGreedily(kernel, std::move(patterns));
  IRRewriter rewriter(ctx);
  {
    DominanceInfo dominance(kernel);
    eliminateCommonSubExpressions(rewriter, dominance, kernel);
  }
  // Merged guards expose their contents' users to another round of CSE.
  mergeEquivalentGuards(kernel);
  DominanceInfo dominance(kernel);
  eliminateCommonSubExpressions(rewriter, dominance, kernel);
}

int64_t dtile::getPrivateWords(TileOp tile) {
  int64_t words = 0;
  for (auto buffer : tile.getBody().front().getOps<memref::AllocaOp>()) {
    MemRefType type = buffer.getType();
    words += llvm::divideCeil(
        type.getNumElements() * type.getElementTypeBitWidth(), 32);
  }
  return words;
}

Value dtile::addInnermostThreadAxis(TileOp &tile, StringRef name,
                                    int64_t extent) {
  SmallVector<Axis> threadAxes = getThreadAxes(tile);
  threadAxes.push_back({name.str(), extent});
  tile = rebuildTile(tile, getBlockAxes(tile), threadAxes,
                     [&](OpBuilder &b, Location, ValueRange blockCoords,
                         ValueRange threadCoords) {
                       SmallVector<Value> old(blockCoords);
                       llvm::append_range(old, threadCoords.drop_back());
                       return std::make_pair(b.getBlock(), old);
                     });
  return tile.getThreadCoord(threadAxes.size() - 1);
}

SmallVector<Axis> dtile::getBlockAxes(TileOp tile) {
  SmallVector<Axis> axes;
  for (auto [name, extent] :
       llvm::zip(tile.getBlockAxes(), tile.getBlockExtents()))
    axes.push_back({cast<StringAttr>(name).str(), extent});
  return axes;
}

SmallVector<Axis> dtile::getThreadAxes(TileOp tile) {
  SmallVector<Axis> axes;
  for (auto [name, extent] :
       llvm::zip(tile.getThreadAxes(), tile.getThreadExtents()))
    axes.push_back({cast<StringAttr>(name).str(), extent});
  return axes;
}

SmallVector<AffineExpr>
dtile::getTileCoords(AffineExpr t, ArrayRef<int64_t> extents, int64_t group) {
  SmallVector<AffineExpr> coords;
  int64_t stride = product(extents);
  for (auto [i, extent] : llvm::enumerate(extents)) {
    stride /= extent;
    AffineExpr e = t.floorDiv(stride);
    coords.push_back(i == 0 ? e : e % extent);
  }
  if (group <= 1)
    return coords;
  int64_t cols = extents.back();
  unsigned n = extents.size();
  // The position among the rows x columns tiles of the outer coordinates.
  AffineExpr r = n > 2 ? t % (extents[n - 2] * cols) : t;
  AffineExpr inGroup = r % (group * cols);
  coords[n - 2] = r.floorDiv(group * cols) * group + inGroup % group;
  coords[n - 1] = inGroup.floorDiv(group);
  return coords;
}

TileOp dtile::rebuildTile(TileOp tile, ArrayRef<Axis> blockAxes,
                          ArrayRef<Axis> threadAxes, TileBodyBuilder build) {
  SmallVector<StringRef> blockNames, threadNames;
  SmallVector<int64_t> blockExtents, threadExtents;
  for (const Axis &axis : blockAxes) {
    blockNames.push_back(axis.name);
    blockExtents.push_back(axis.extent);
  }
  for (const Axis &axis : threadAxes) {
    threadNames.push_back(axis.name);
    threadExtents.push_back(axis.extent);
  }
  OpBuilder b(tile);
  Location loc = tile.getLoc();
  auto rebuilt = TileOp::create(b, loc, blockNames, blockExtents, threadNames,
                                threadExtents);
  Block &newBody = rebuilt.getBody().front();
  b.setInsertionPointToStart(&newBody);
  ValueRange coords = newBody.getArguments();
  auto [target, replacements] =
      build(b, loc, coords.take_front(blockAxes.size()),
            coords.drop_front(blockAxes.size()));
  Block &oldBody = tile.getBody().front();
  target->getOperations().splice(target->getTerminator()->getIterator(),
                                 oldBody.getOperations(), oldBody.begin(),
                                 std::prev(oldBody.end()));
  for (auto [old, value] : llvm::zip(oldBody.getArguments(), replacements))
    old.replaceAllUsesWith(value);
  tile.erase();
  return rebuilt;
}

dloop::ForOp dtile::splitReduceLoop(dloop::ForOp loop, int64_t chunk) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  std::string axis = loop.getAxis().str();
  int64_t extent = loop.getExtent();
  bool masked = extent % chunk != 0;
  auto outer = dloop::ForOp::create(
      b, loc, ceilDiv(extent, chunk), LoopKind::reduce, axis + "_o",
      loop.getInitArgs(),
      [&](OpBuilder &b, Location loc, Value ko, ValueRange outerIters) {
        auto inner = dloop::ForOp::create(
            b, loc, chunk, LoopKind::reduce, axis + "_i", outerIters,
            [&](OpBuilder &b, Location loc, Value ki, ValueRange innerIters) {
              AffineExpr o, i;
              bindDims(b.getContext(), o, i);
              Value k = affine::AffineApplyOp::create(
                  b, loc, AffineMap::get(2, 0, o * chunk + i), {ko, ki});
              IRMapping mapping;
              mapping.map(loop.getInductionVar(), k);
              mapping.map(loop.getIterArgs(), innerIters);
              // The last chunk skips the iterations past the extent.
              scf::IfOp guard;
              bool carries = !innerIters.empty();
              if (masked) {
                Value inside = buildInRange(b, loc, k, extent);
                if (carries) {
                  guard = scf::IfOp::create(b, loc, innerIters.getTypes(),
                                            inside, /*withElseRegion=*/true);
                  b.setInsertionPointToStart(guard.elseBlock());
                  scf::YieldOp::create(b, loc, innerIters);
                  b.setInsertionPointToStart(guard.thenBlock());
                } else {
                  guard = scf::IfOp::create(b, loc, inside,
                                            /*withElseRegion=*/false);
                  b.setInsertionPoint(guard.thenBlock()->getTerminator());
                }
              }
              for (Operation &op : loop.getBody()->without_terminator())
                b.clone(op, mapping);
              SmallVector<Value> next;
              for (Value v : loop.getYield().getValues())
                next.push_back(mapping.lookupOrDefault(v));
              if (masked) {
                if (carries)
                  scf::YieldOp::create(b, loc, next);
                b.setInsertionPointAfter(guard);
                next.assign(guard.getResults().begin(),
                            guard.getResults().end());
              }
              dloop::YieldOp::create(b, loc, next);
            });
        dloop::YieldOp::create(b, loc, inner.getResults());
      });
  loop.replaceAllUsesWith(outer.getResults());
  loop.erase();
  return outer;
}

dloop::ForOp dtile::carryAhead(dloop::ForOp loop, ValueRange inits,
                               AheadBuilder ahead,
                               function_ref<bool(Operation *)> skip) {
  OpBuilder b(loop);
  unsigned numAccs = loop.getInitArgs().size();
  SmallVector<Value> allInits(loop.getInitArgs());
  llvm::append_range(allInits, inits);
  auto carried = dloop::ForOp::create(
      b, loop.getLoc(), loop.getExtent(), loop.getKind(), loop.getAxis(),
      allInits, [&](OpBuilder &b, Location loc, Value k, ValueRange iters) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), k);
        mapping.map(loop.getIterArgs(), iters.take_front(numAccs));
        SmallVector<Value> next =
            ahead(b, k, iters.drop_front(numAccs), mapping);
        for (Operation &op : loop.getBody()->without_terminator())
          if (!skip(&op))
            b.clone(op, mapping);
        SmallVector<Value> yields;
        for (Value v : loop.getYield().getValues())
          yields.push_back(mapping.lookupOrDefault(v));
        llvm::append_range(yields, next);
        dloop::YieldOp::create(b, loc, yields);
      });
  if (std::optional<int64_t> unroll = loop.getUnroll())
    carried.setUnroll(unroll);
  loop.replaceAllUsesWith(carried.getResults().take_front(numAccs));
  loop.erase();
  return carried;
}
