//===- PermuteRegisterTile.cpp - Interleave register-tile columns -*- C++
//-*-===//
//
// permute_register_tile: register_tile gives thread n the FN adjacent
// columns n * FN + j. Reading them from a slab, the lanes of a warp are FN
// words apart: with FN = 4, 32 lanes share 8 banks, a 4-way conflict.
// Interleaving the columns instead (thread n takes j * T + n, T the column
// threads) puts neighbouring lanes on neighbouring words. Every column is
// still computed exactly once; only which thread holds it changes, so the
// rewrite replaces the column c = n * FN + j by pi(c) = j * T + n in every
// index of the tile. The rule forks (permute / keep) only when the
// bank-conflict analysis of the slab reads says the permutation helps.
//
//===----------------------------------------------------------------------===//

#include "PermuteRegisterTile.h"
#include "Rules.h"
#include "TileUtils.h"

#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// One index expression that uses the column thread coordinate.
struct ColumnUse {
  Operation *op;
  unsigned result;
  int64_t coeff;    // of the coordinate: s * FN
  int64_t constant; // other constant + s * j
};

/// The map and operands of an op whose indices may use the coordinate.
std::optional<std::pair<AffineMap, OperandRange>> getIndexing(Operation *op) {
  if (auto load = dyn_cast<dloop::LoadOp>(op))
    return std::make_pair(load.getMap(), load.getIndices());
  if (auto store = dyn_cast<dloop::StoreOp>(op))
    return std::make_pair(store.getMap(), store.getIndices());
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
    return std::make_pair(apply.getAffineMap(), apply.getMapOperands());
  return std::nullopt;
}

void setMap(Operation *op, AffineMap map) {
  if (auto load = dyn_cast<dloop::LoadOp>(op))
    return load.setMap(map);
  if (auto store = dyn_cast<dloop::StoreOp>(op))
    return store.setMap(map);
  cast<affine::AffineApplyOp>(op).setMap(map);
}

} // namespace

std::optional<ColumnThreads> dtile::getRegisterColumnThreads(KernelOp kernel) {
  TileOp tile = kernel.getTile();
  std::optional<RegisterTileKnobs> registers =
      kernel.getKnobs().get<RegisterTileKnobs>();
  if (!tile || !registers || registers->FN < 2)
    return std::nullopt;
  ArrayRef<Attribute> blockAxes = tile.getBlockAxes().getValue();
  ArrayRef<Attribute> threadAxes = tile.getThreadAxes().getValue();
  if (blockAxes.empty() || threadAxes.empty() || threadAxes.size() > 2)
    return std::nullopt;
  StringRef columns = cast<StringAttr>(blockAxes.back()).getValue();
  if (!columns.consume_back("_o") ||
      cast<StringAttr>(threadAxes.back()).getValue() != (columns + "_i").str())
    return std::nullopt;
  int64_t threads = tile.getThreadExtents().back();
  if (threads < 2)
    return std::nullopt;
  return ColumnThreads{tile.getThreadCoord(threadAxes.size() - 1), threads,
                       registers->FN};
}

LogicalResult dtile::permuteRegisterColumns(KernelOp kernel, int64_t granule) {
  std::optional<ColumnThreads> column = getRegisterColumnThreads(kernel);
  if (!column || granule < 1 || column->fn % granule != 0)
    return failure();
  auto [coord, threads, fn] = *column;
  // Group the uses by everything but their constant: the FN copies of one
  // access differ in it only, by s * j.
  std::map<std::vector<std::pair<void *, int64_t>>, SmallVector<ColumnUse>>
      groups;
  for (OpOperand &use : coord.getUses()) {
    Operation *op = use.getOwner();
    std::optional<std::pair<AffineMap, OperandRange>> indexing =
        getIndexing(op);
    if (!indexing)
      return failure();
    auto [map, operands] = *indexing;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      std::optional<SmallVector<int64_t>> coeffs =
          linearizeAffineExpr(expr, map.getNumDims(), map.getNumSymbols());
      if (!coeffs)
        return failure();
      std::map<void *, int64_t> byValue;
      for (auto [i, operand] : llvm::enumerate(operands))
        if ((*coeffs)[i] != 0)
          byValue[operand.getAsOpaquePointer()] += (*coeffs)[i];
      int64_t coeff = byValue[coord.getAsOpaquePointer()];
      if (coeff == 0)
        continue;
      if (coeff < 0 || coeff % fn != 0)
        return failure();
      std::vector<std::pair<void *, int64_t>> key(byValue.begin(),
                                                  byValue.end());
      groups[key].push_back(
          {op, static_cast<unsigned>(r), coeff, coeffs->back()});
    }
  }
  // j of each use: its constant less the group's base, in steps of s; the
  // base is a multiple of s * FN, so a shifted index (n * FN + j + 1) that
  // would make j ambiguous is refused.
  DenseMap<std::pair<Operation *, unsigned>, std::pair<int64_t, int64_t>>
      copyOf; // (s, j)
  for (auto &[key, uses] : groups) {
    int64_t s = uses.front().coeff / fn;
    int64_t lo = llvm::min_element(uses, [](auto &a, auto &b) {
                   return a.constant < b.constant;
                 })->constant;
    int64_t base = lo - ((lo % (s * fn)) + s * fn) % (s * fn);
    for (ColumnUse &use : uses) {
      int64_t offset = use.constant - base;
      if (offset % s != 0 || offset / s >= fn)
        return failure();
      copyOf[{use.op, use.result}] = {s, offset / s};
    }
  }
  // Rewrite: with j = q * g + r, s * (n * FN + j) + rest becomes
  // s * (q * g * T + g * n + r) + rest.
  for (OpOperand &use : llvm::make_early_inc_range(coord.getUses())) {
    Operation *op = use.getOwner();
    auto [map, operands] = *getIndexing(op);
    unsigned pos = use.getOperandNumber() - operands.getBeginOperandIndex();
    AffineExpr n =
        pos < map.getNumDims()
            ? getAffineDimExpr(pos, op->getContext())
            : getAffineSymbolExpr(pos - map.getNumDims(), op->getContext());
    SmallVector<AffineExpr> results;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      auto it = copyOf.find({op, static_cast<unsigned>(r)});
      bool usesN = pos < map.getNumDims()
                       ? expr.isFunctionOfDim(pos)
                       : expr.isFunctionOfSymbol(pos - map.getNumDims());
      if (it == copyOf.end() || !usesN) {
        results.push_back(expr);
        continue;
      }
      auto [s, j] = it->second;
      int64_t q = j / granule;
      results.push_back(expr + n * (s * granule - s * fn) +
                        s * q * granule * (threads - 1));
      copyOf.erase(it); // Once per result, whichever position holds n.
    }
    setMap(op, AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                              op->getContext()));
  }
  return success();
}

namespace {

/// The summed worst conflict degree of every slab read of `kernel`.
int64_t kernelReadCost(KernelOp kernel) {
  int64_t cost = 0;
  kernel.walk([&](StageOp stage) {
    for (Operation *user : stage.getResult().getUsers())
      if (auto read = dyn_cast<dloop::LoadOp>(user))
        cost += slabReadConflicts(stage, read, stage.getPadding()).value_or(1);
  });
  return cost;
}

/// K splits from which atomic adds of the output outweigh the slab reads.
constexpr int64_t kManyAtomicSplits = 16;

class PermuteRegisterTile final : public TypedRule<PermuteRegisterTileKnobs> {
protected:
  /// Keep, permute: only where the permutation makes the slab reads
  /// conflict less (tried on a copy).
  SmallVector<PermuteRegisterTileKnobs> listOptions(KernelOp kernel,
                                                    TargetAttr) const override {
    if (!getRegisterColumnThreads(kernel))
      return {};
    auto copy = cast<KernelOp>(kernel->clone());
    bool helps = succeeded(permuteRegisterColumns(copy, 1)) &&
                 kernelReadCost(copy) < kernelReadCost(kernel);
    copy->erase();
    if (!helps)
      return {};
    return {{false}, {true}};
  }

  /// Keep where vector_reads can deal the columns in runs instead (its
  /// 4 x 4 sub-tiles read conflict-free, a vector at a time; measured
  /// faster), but for outputs that 16 or more K splits add atomically:
  /// interleaved, a warp's atomics land on adjacent words (H200: TinyLlama
  /// and Qwen kv_proj at s32 and s128, split 28-32 ways, ran 1.2-1.5x
  /// faster permuted than kept and read as vectors). Else permute: it helps
  /// (listOptions checked).
  size_t heuristic(KernelOp kernel, ArrayRef<PermuteRegisterTileKnobs> options,
                   TargetAttr) const override {
    std::optional<SplitMatmulKKnobs> split =
        kernel.getKnobs().get<SplitMatmulKKnobs>();
    bool manyAtomicSplits = split && split->splitK >= kManyAtomicSplits &&
                            !split->splitWorkspace.value_or(false);
    bool permute = manyAtomicSplits || !formsVectorReads(kernel);
    return llvm::find(options, PermuteRegisterTileKnobs{permute}) -
           options.begin();
  }

  LogicalResult rewrite(KernelOp kernel, const PermuteRegisterTileKnobs &option,
                        TargetAttr) const override {
    if (!option.permute)
      return success();
    if (failed(permuteRegisterColumns(kernel, 1)))
      return failure();
    cleanupKernel(kernel);
    return success();
  }
};

} // namespace

std::unique_ptr<Rule> dtile::createPermuteRegisterTileRule() {
  return std::make_unique<PermuteRegisterTile>();
}
