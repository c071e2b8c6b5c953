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

/// The two free loops blockify_launch put around a matmul's body: the
/// rows, then the columns, of the block's tile (null when of size 1).
struct TileLoops {
  dloop::ForOp rows, cols;
  Block *body;
};

std::optional<TileLoops> findTileLoops(TileOp tile) {
  TileLoops loops{};
  Block *block = &tile.getBody().front();
  for (dloop::ForOp *slot : {&loops.rows, &loops.cols}) {
    auto candidate = block->getOps<dloop::ForOp>();
    if (std::distance(candidate.begin(), candidate.end()) != 1)
      break;
    dloop::ForOp loop = *candidate.begin();
    StringRef axis = loop.getAxis();
    if (loop.isReduction() || !axis.ends_with("_i"))
      break;
    *slot = loop;
    block = loop.getBody();
  }
  loops.body = block;
  return loops;
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

class RegisterTile final : public Rule {
public:
  StringRef getName() const override { return "register_tile"; }

  SmallVector<KnobsAttr> getOptions(KernelOp kernel,
                                    const Target &target) const override {
    KnobsAttr knobs = kernel.getKnobs();
    std::optional<int64_t> bm = knobs.getInt("BM"), bn = knobs.getInt("BN");
    if (!bm || !bn || knobs.getInt("FM") ||
        !kernel.getTile().getThreadAxes().empty())
      return {};
    SmallVector<std::pair<int64_t, int64_t>> legal;
    // A factor that does not divide the tile (BM = 37) leaves the last
    // thread's extra rows masked.
    for (int64_t fm = 1; fm <= 16 && fm <= *bm; fm *= 2)
      for (int64_t fn = 1; fn <= 16 && fn <= *bn; fn *= 2) {
        int64_t threads = ceilDiv(*bm, fm) * ceilDiv(*bn, fn);
        // Accumulators, one operand row and column, and ~24 registers of
        // addresses and loop state must fit a thread.
        int64_t registers = fm * fn + fm + fn + 24;
        if (fm * fn <= 64 && registers <= target.maxRegistersPerThread &&
            threads <= target.maxThreads && (threads >= 32 || *bm * *bn < 32))
          legal.push_back({fm, fn});
      }
    if (legal.empty())
      return {};
    // About 256 threads, then square-ish tiles (FN >= FM keeps a thread's
    // stores contiguous).
    auto cost = [&](std::pair<int64_t, int64_t> f) {
      int64_t threads = ceilDiv(*bm, f.first) * ceilDiv(*bn, f.second);
      int64_t distance = threads > 256 ? threads / 256 : 256 / threads;
      int64_t shape =
          f.second >= f.first ? f.second / f.first : 2 * f.first / f.second;
      return std::make_pair(distance, shape);
    };
    auto best = *llvm::min_element(
        legal, [&](auto a, auto b) { return cost(a) < cost(b); });
    Builder b(kernel.getContext());
    auto option = [&](std::pair<int64_t, int64_t> f) {
      return KnobsAttr::get(
          kernel.getContext(),
          {b.getNamedAttr("FM", b.getI64IntegerAttr(f.first)),
           b.getNamedAttr("FN", b.getI64IntegerAttr(f.second))});
    };
    SmallVector<KnobsAttr> options{option(best)};
    for (auto f : legal)
      if (f != best)
        options.push_back(option(f));
    return options;
  }

  LogicalResult apply(KernelOp kernel, KnobsAttr option,
                      const Target &) const override {
    KnobsAttr knobs = kernel.getKnobs();
    int64_t bm = *knobs.getInt("BM"), bn = *knobs.getInt("BN");
    int64_t fm = *option.getInt("FM"), fn = *option.getInt("FN");
    TileOp tile = kernel.getTile();
    std::optional<TileLoops> loops = findTileLoops(tile);
    if (!loops)
      return failure();
    // With BM = 1 blockify_launch made only the column loop, which
    // findTileLoops found first.
    if (bm == 1)
      loops->cols = loops->rows, loops->rows = {};
    if ((bm > 1 && !loops->rows) || (bn > 1 && !loops->cols))
      return failure();
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

std::unique_ptr<Rule> dtile::createRegisterTile() {
  return std::make_unique<RegisterTile>();
}
