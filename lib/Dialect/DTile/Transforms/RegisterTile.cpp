//===- RegisterTile.cpp - Deal a matmul tile out to threads -----*- C++ -*-===//
//
// register_tile: the BM x BN outputs blockify_launch gave a block become
// (BM / FM) x (BN / FN) threads of FM x FN outputs each. Each thread's body
// is the old body unrolled FM x FN times and jammed: the copies' reduce
// loops merge into one loop carrying all FM x FN accumulators, so a value
// loaded once feeds FN (or FM) products. Forks over (FM, FN).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The BM x BN tile blockify_launch gave each block of a matmul, as the IR
/// shows it: the last two block axes are `<m>_o` and `<n>_o`, no thread
/// axis yet, and free loops `<m>_i` then `<n>_i` walk the tile (either is
/// missing when its side is 1).
struct BlockTile {
  dloop::ForOp rows, cols;
  /// The body of the innermost of them.
  Block *body;
  int64_t bm, bn;
};

std::optional<BlockTile> findBlockTile(TileOp tile) {
  SmallVector<Axis> axes = getBlockAxes(tile);
  if (!tile.getThreadAxes().empty() || axes.size() < 2)
    return std::nullopt;
  StringRef m = axes[axes.size() - 2].name, n = axes.back().name;
  if (!m.consume_back("_o") || !n.consume_back("_o"))
    return std::nullopt;
  BlockTile found{};
  Block *block = &tile.getBody().front();
  // The loop over `axis`_i, when it is the only loop of `block`.
  auto walk = [&](StringRef axis) -> dloop::ForOp {
    auto loops = block->getOps<dloop::ForOp>();
    if (std::distance(loops.begin(), loops.end()) != 1)
      return {};
    dloop::ForOp loop = *loops.begin();
    if (loop.isReduction() || loop.getAxis() != (axis + "_i").str())
      return {};
    block = loop.getBody();
    return loop;
  };
  found.rows = walk(m);
  found.cols = walk(n);
  found.body = block;
  found.bm = found.rows ? found.rows.getExtent() : 1;
  found.bn = found.cols ? found.cols.getExtent() : 1;
  return found;
}

/// Whether `value` stands for the same value in every copy.
bool sameInAll(Value value, ArrayRef<IRMapping> copies) {
  Value first = copies.front().lookupOrDefault(value);
  return llvm::all_of(copies, [&](const IRMapping &mapping) {
    return mapping.lookupOrDefault(value) == first;
  });
}

/// Clones the ops of `src` once per copy (each with its own mapping) at
/// `b`, merging the copies of every reduce loop that carries values into
/// one loop carrying all their values, and of every `scf.if` whose
/// condition all copies share into one branch. Pure ops that all copies
/// compute alike (a masked chunk's bound check) are cloned once.
void jam(OpBuilder &b, Block &src, MutableArrayRef<IRMapping> copies) {
  for (Operation &op : src.without_terminator()) {
    if (op.getNumRegions() == 0 && isPure(&op) &&
        llvm::all_of(op.getOperands(),
                     [&](Value v) { return sameInAll(v, copies); })) {
      Operation *clone = b.clone(op, copies.front());
      for (IRMapping &mapping : MutableArrayRef(copies).drop_front())
        mapping.map(op.getResults(), clone->getResults());
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op);
        ifOp && sameInAll(ifOp.getCondition(), copies)) {
      SmallVector<Type> types;
      for (size_t c = 0; c < copies.size(); ++c)
        llvm::append_range(types, ifOp.getResultTypes());
      bool hasElse = !ifOp.getElseRegion().empty();
      auto merged = scf::IfOp::create(
          b, ifOp.getLoc(), types,
          copies.front().lookupOrDefault(ifOp.getCondition()), hasElse);
      auto jamBranch = [&](Region &from, Region &to) {
        OpBuilder::InsertionGuard guard(b);
        Block &block = to.front();
        if (block.mightHaveTerminator())
          block.getTerminator()->erase();
        b.setInsertionPointToEnd(&block);
        jam(b, from.front(), copies);
        SmallVector<Value> yielded;
        for (IRMapping &mapping : copies)
          for (Value v : from.front().getTerminator()->getOperands())
            yielded.push_back(mapping.lookupOrDefault(v));
        scf::YieldOp::create(b, ifOp.getLoc(), yielded);
      };
      jamBranch(ifOp.getThenRegion(), merged.getThenRegion());
      if (hasElse)
        jamBranch(ifOp.getElseRegion(), merged.getElseRegion());
      unsigned n = ifOp.getNumResults();
      for (auto [c, mapping] : llvm::enumerate(copies))
        mapping.map(ifOp.getResults(), merged.getResults().slice(c * n, n));
      continue;
    }
    auto loop = dyn_cast<dloop::ForOp>(op);
    if (!loop || !loop.isReduction() || loop.getInitArgs().empty()) {
      for (IRMapping &mapping : copies)
        b.clone(op, mapping);
      continue;
    }
    SmallVector<Value> inits;
    for (IRMapping &mapping : copies)
      for (Value init : loop.getInitArgs())
        inits.push_back(mapping.lookupOrDefault(init));
    unsigned n = loop.getInitArgs().size();
    auto merged = dloop::ForOp::create(
        b, loop.getLoc(), loop.getExtent(), LoopKind::reduce, loop.getAxis(),
        inits, [&](OpBuilder &b, Location loc, Value iv, ValueRange iters) {
          for (auto [c, mapping] : llvm::enumerate(copies)) {
            mapping.map(loop.getInductionVar(), iv);
            mapping.map(loop.getIterArgs(), iters.slice(c * n, n));
          }
          jam(b, *loop.getBody(), copies);
          SmallVector<Value> next;
          for (IRMapping &mapping : copies)
            for (Value v : loop.getYield().getValues())
              next.push_back(mapping.lookupOrDefault(v));
          dloop::YieldOp::create(b, loc, next);
        });
    if (std::optional<int64_t> unroll = loop.getUnroll())
      merged.setUnroll(unroll);
    for (auto [c, mapping] : llvm::enumerate(copies))
      mapping.map(loop.getResults(), merged.getResults().slice(c * n, n));
  }
}

class RegisterTile final : public TypedRule<RegisterTileKnobs> {
protected:
  /// Powers of two up to 16 with at most 64 outputs per thread whose
  /// accumulators fit the registers and whose threads fit a block (32 at
  /// least, unless the tile holds fewer outputs), by preference.
  SmallVector<RegisterTileKnobs> listOptions(KernelOp kernel,
                                             TargetAttr target) const override {
    std::optional<BlockTile> tile = findBlockTile(kernel.getTile());
    if (!tile)
      return {};
    int64_t bm = tile->bm, bn = tile->bn;
    SmallVector<RegisterTileKnobs> options;
    // A factor that does not divide the tile (BM = 37) leaves the last
    // thread's extra rows masked.
    for (int64_t fm = 1; fm <= 16 && fm <= bm; fm *= 2)
      for (int64_t fn = 1; fn <= 16 && fn <= bn; fn *= 2) {
        int64_t threads = ceilDiv(bm, fm) * ceilDiv(bn, fn);
        // Accumulators, one operand row and column, and ~24 registers of
        // addresses and loop state must fit a thread.
        int64_t registers = fm * fn + fm + fn + 24;
        if (fm * fn <= 64 && registers <= target.getRegistersPerThread() &&
            threads <= target.getThreadsPerBlock() &&
            (threads >= 32 || bm * bn < 32))
          options.push_back({fm, fn});
      }
    // Nearest the heuristic's choice first: a search that tries a few
    // options of a fork at a time meets the likely ones first.
    llvm::stable_sort(
        options, [&](const RegisterTileKnobs &a, const RegisterTileKnobs &b) {
          return preference(bm, bn, a) < preference(bm, bn, b);
        });
    return options;
  }

  /// About 256 threads, then square-ish tiles (FN >= FM keeps a thread's
  /// stores contiguous).
  static std::pair<int64_t, int64_t> preference(int64_t bm, int64_t bn,
                                                const RegisterTileKnobs &f) {
    int64_t threads = ceilDiv(bm, f.FM) * ceilDiv(bn, f.FN);
    int64_t distance = threads > 256 ? threads / 256 : 256 / threads;
    int64_t shape = f.FN >= f.FM ? f.FN / f.FM : 2 * f.FM / f.FN;
    return {distance, shape};
  }

  /// The first: options are listed by preference.
  size_t heuristic(KernelOp, ArrayRef<RegisterTileKnobs>,
                   TargetAttr) const override {
    return 0;
  }

  LogicalResult rewrite(KernelOp kernel, const RegisterTileKnobs &option,
                        TargetAttr) const override {
    int64_t fm = option.FM, fn = option.FN;
    TileOp tile = kernel.getTile();
    std::optional<BlockTile> loops = findBlockTile(tile);
    if (!loops)
      return failure();
    int64_t bm = loops->bm, bn = loops->bn;
    std::string rowName = loops->rows ? loops->rows.getAxis().str() : "m_i";
    std::string colName = loops->cols ? loops->cols.getAxis().str() : "n_i";
    int64_t rowThreads = ceilDiv(bm, fm);
    int64_t colThreads = ceilDiv(bn, fn);
    SmallVector<Axis> threadAxes;
    if (rowThreads > 1)
      threadAxes.push_back({rowName, rowThreads});
    if (colThreads > 1)
      threadAxes.push_back({colName, colThreads});
    // The old body stays in place (inside the loops) as the jam template.
    // Where a factor does not divide the tile, each copy guards its
    // accesses by its own row (column) of the tile.
    Block *templ = loops->body;
    SmallVector<Mask> masks;
    if (bm % fm != 0)
      masks.push_back({loops->rows.getInductionVar(), bm});
    if (bn % fn != 0)
      masks.push_back({loops->cols.getInductionVar(), bn});
    guardAccesses(*templ, masks);
    Operation *outer =
        loops->rows ? loops->rows.getOperation() : loops->cols.getOperation();
    if (!outer)
      return failure();
    outer->remove();
    tile = rebuildTile(
        tile, getBlockAxes(tile), threadAxes,
        [&](OpBuilder &b, Location, ValueRange blockCoords, ValueRange) {
          return std::make_pair(b.getBlock(), SmallVector<Value>(blockCoords));
        });
    Block &body = tile.getBody().front();
    OpBuilder b(body.getTerminator());
    Location loc = tile.getLoc();
    // Thread coordinates, or 0 when the tile is one thread wide.
    unsigned next = 0;
    auto coord = [&](int64_t threads) -> Value {
      if (threads == 1)
        return arith::ConstantIndexOp::create(b, loc, 0);
      return tile.getThreadCoord(next++);
    };
    Value rowThread = coord(rowThreads), colThread = coord(colThreads);
    SmallVector<IRMapping> copies(fm * fn);
    AffineExpr t = b.getAffineDimExpr(0);
    for (int64_t i = 0; i < fm; ++i)
      for (int64_t j = 0; j < fn; ++j) {
        IRMapping &mapping = copies[i * fn + j];
        if (loops->rows)
          mapping.map(loops->rows.getInductionVar(),
                      affine::AffineApplyOp::create(
                          b, loc, AffineMap::get(1, 0, t * fm + i), rowThread));
        if (loops->cols)
          mapping.map(loops->cols.getInductionVar(),
                      affine::AffineApplyOp::create(
                          b, loc, AffineMap::get(1, 0, t * fn + j), colThread));
      }
    jam(b, *templ, copies);
    outer->erase();
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createRegisterTileRule() {
  return std::make_unique<RegisterTile>();
}
