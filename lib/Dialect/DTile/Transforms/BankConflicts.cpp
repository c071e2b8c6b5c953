//===- BankConflicts.cpp - Shared-memory bank-conflict analysis -*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"
#include "Deplodock/Dialect/Common/Swizzle.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

int64_t dtile::bankConflictDegree(ArrayRef<int64_t> byteAddresses) {
  // Distinct words per bank: equal words broadcast.
  llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> words;
  for (int64_t address : byteAddresses) {
    int64_t word = address / kBankBytes;
    words[word % kNumBanks].insert(word);
  }
  int64_t degree = 1;
  for (auto &[bank, set] : words)
    degree = std::max<int64_t>(degree, set.size());
  return degree;
}

std::optional<AffineTerms>
dtile::splitAffineExpr(AffineExpr expr, unsigned numDims, unsigned numSymbols) {
  AffineTerms terms;
  terms.coeffs.assign(numDims + numSymbols, 0);
  auto add = [](int64_t &into, int64_t value) {
    return !llvm::AddOverflow(into, value, into);
  };
  std::function<bool(AffineExpr, int64_t)> split = [&](AffineExpr e,
                                                       int64_t scale) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      int64_t value;
      return !llvm::MulOverflow(c.getValue(), scale, value) &&
             add(terms.constant, value);
    }
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return add(terms.coeffs[d.getPosition()], scale);
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      return add(terms.coeffs[numDims + s.getPosition()], scale);
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (bin.getKind() == AffineExprKind::Add)
      return split(bin.getLHS(), scale) && split(bin.getRHS(), scale);
    if (bin.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        int64_t scaled;
        return !llvm::MulOverflow(c.getValue(), scale, scaled) &&
               split(bin.getLHS(), scaled);
      }
    return add(terms.nonlinear[e], scale);
  };
  if (!split(expr, 1))
    return std::nullopt;
  return terms;
}

std::optional<SmallVector<int64_t>>
dtile::linearizeAffineExpr(AffineExpr expr, unsigned numDims,
                           unsigned numSymbols) {
  std::optional<AffineTerms> terms = splitAffineExpr(expr, numDims, numSymbols);
  if (!terms || !terms->nonlinear.empty())
    return std::nullopt;
  SmallVector<int64_t> coeffs = std::move(terms->coeffs);
  coeffs.push_back(terms->constant);
  return coeffs;
}

namespace {

/// Where the elements of a slab lie: row-major with padding, or (unpadded)
/// in the segments of a swizzle.
struct SlabLayout {
  ArrayRef<int64_t> box;
  SmallVector<int64_t> strides;
  int64_t rows = 0, elementBytes = 0, swizzle = 0;

  /// The layout of `stage`'s slab with `pad` or `swizzle`; nullopt for both
  /// at once.
  static std::optional<SlabLayout> get(StageOp stage, ArrayRef<int64_t> pad,
                                       int64_t swizzle) {
    if (swizzle != 0 && llvm::any_of(pad, [](int64_t p) { return p != 0; }))
      return std::nullopt;
    auto type = cast<MemRefType>(stage.getResult().getType());
    SlabLayout layout;
    layout.box = stage.getSlabShape();
    layout.elementBytes = (type.getElementTypeBitWidth() + 7) / 8;
    layout.rows =
        type.getNumElements() / std::max<int64_t>(1, type.getShape().back());
    layout.swizzle = swizzle;
    layout.strides.assign(layout.box.size(), 1);
    for (int64_t d = static_cast<int64_t>(layout.box.size()) - 2; d >= 0; --d)
      layout.strides[d] =
          layout.strides[d + 1] * (layout.box[d + 1] + pad[d + 1]);
    return layout;
  }

  /// The byte offset of the element at `indices`.
  int64_t byteOffset(ArrayRef<int64_t> indices) const {
    int64_t element = 0, row = 0;
    for (auto [d, index] : llvm::enumerate(indices)) {
      element += index * strides[d];
      if (d + 1 < box.size())
        row = row * box[d] + index;
    }
    if (swizzle != 0)
      element = getSwizzledSlabOffset(row, indices.back(), rows, swizzle,
                                      elementBytes);
    return element * elementBytes;
  }
};

} // namespace

std::optional<int64_t> dtile::slabReadConflicts(StageOp stage,
                                                dloop::LoadOp read,
                                                ArrayRef<int64_t> pad,
                                                int64_t swizzle) {
  auto tile = read->getParentOfType<TileOp>();
  std::optional<SlabLayout> layout = SlabLayout::get(stage, pad, swizzle);
  if (!tile || !layout || layout->elementBytes > kBankBytes)
    return std::nullopt;
  // Which thread axis each index operand is, if any.
  Block &body = tile.getBody().front();
  unsigned numBlockAxes = tile.getBlockAxes().size();
  ArrayRef<int64_t> extents = tile.getThreadExtents();
  SmallVector<int> threadAxisOf;
  for (Value operand : read.getIndices()) {
    // A loop strided over threads (split_kv's keys) starts at a thread
    // coordinate: in each iteration the lanes differ as they do.
    if (auto arg = dyn_cast<BlockArgument>(operand))
      if (auto strided = dyn_cast<StridedForOp>(arg.getOwner()->getParentOp());
          strided && arg == strided.getInductionVar())
        operand = strided.getStart();
    auto arg = dyn_cast<BlockArgument>(operand);
    bool isThread =
        arg && arg.getOwner() == &body && arg.getArgNumber() >= numBlockAxes;
    threadAxisOf.push_back(isThread ? arg.getArgNumber() - numBlockAxes : -1);
  }
  int64_t threads = tile.getNumThreads();
  // Each slab index as a linear function of the load's operands.
  AffineMap map = read.getMap();
  SmallVector<SmallVector<int64_t>> linear;
  for (AffineExpr expr : map.getResults()) {
    std::optional<SmallVector<int64_t>> coeffs =
        linearizeAffineExpr(expr, map.getNumDims(), map.getNumSymbols());
    if (!coeffs)
      return std::nullopt;
    linear.push_back(std::move(*coeffs));
  }
  int64_t worst = 1;
  for (int64_t warp = 0; warp < threads; warp += kNumBanks) {
    SmallVector<int64_t> addresses;
    for (int64_t id = warp; id < std::min(threads, warp + kNumBanks); ++id) {
      // Thread coordinates of `id`, last axis fastest.
      SmallVector<int64_t> coords(extents.size());
      int64_t rest = id;
      for (int64_t a = static_cast<int64_t>(extents.size()) - 1; a >= 0; --a) {
        coords[a] = rest % extents[a];
        rest /= extents[a];
      }
      SmallVector<int64_t> indices;
      for (const SmallVector<int64_t> &coeffs : linear) {
        int64_t index = coeffs.back();
        for (auto [i, axis] : llvm::enumerate(threadAxisOf))
          if (axis >= 0)
            index += coeffs[i] * coords[axis];
        indices.push_back(index);
      }
      addresses.push_back(layout->byteOffset(indices));
    }
    worst = std::max(worst, bankConflictDegree(addresses));
  }
  return worst;
}

std::optional<int64_t> dtile::slabReadCost(StageOp stage, ArrayRef<int64_t> pad,
                                           int64_t swizzle) {
  int64_t cost = 0;
  for (Operation *user : stage.getResult().getUsers()) {
    std::optional<int64_t> degree;
    if (auto read = dyn_cast<dloop::LoadOp>(user))
      degree = slabReadConflicts(stage, read, pad, swizzle);
    else if (auto vector = dyn_cast<dkernel::VectorLoadOp>(user))
      degree = vectorReadConflicts(stage, vector, pad, swizzle);
    if (!degree)
      return std::nullopt;
    cost += *degree;
  }
  return cost;
}

/// The value of `index` at tile coordinates `coords` (one per tile block
/// argument); nullopt unless it is a constant, a coordinate or an affine.apply
/// of those, or with `othersZero` another block argument (a loop variable),
/// taken as 0.
static std::optional<int64_t> evaluateIndex(Value index, Block &body,
                                            ArrayRef<int64_t> coords,
                                            bool othersZero = false) {
  APInt constant;
  if (matchPattern(index, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  if (auto arg = dyn_cast<BlockArgument>(index))
    return arg.getOwner() == &body
               ? std::optional<int64_t>(coords[arg.getArgNumber()])
           : othersZero ? std::optional<int64_t>(0)
                        : std::nullopt;
  auto apply = index.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return std::nullopt;
  Builder b(index.getContext());
  SmallVector<Attribute> operands;
  for (Value operand : apply.getMapOperands()) {
    std::optional<int64_t> v = evaluateIndex(operand, body, coords, othersZero);
    if (!v)
      return std::nullopt;
    operands.push_back(b.getIndexAttr(*v));
  }
  SmallVector<Attribute> results;
  if (failed(apply.getAffineMap().constantFold(operands, results)))
    return std::nullopt;
  return cast<IntegerAttr>(results.front()).getInt();
}

/// The byte address in the slab laid out as `layout` that `indices` (an
/// op's index operands inside `tile`) name for each thread of the block,
/// by linear thread id; nullopt where an index cannot be evaluated (see
/// evaluateIndex and `othersZero`).
static std::optional<SmallVector<int64_t>>
threadAddresses(TileOp tile, const SlabLayout &layout, ValueRange indices,
                bool othersZero) {
  Block &body = tile.getBody().front();
  size_t numBlockAxes = tile.getBlockAxes().size();
  ArrayRef<int64_t> extents = tile.getThreadExtents();
  SmallVector<int64_t> coords(body.getNumArguments(), 0);
  SmallVector<int64_t> addresses;
  for (int64_t id = 0; id < tile.getNumThreads(); ++id) {
    int64_t rest = id;
    for (int64_t a = static_cast<int64_t>(extents.size()) - 1; a >= 0; --a) {
      coords[numBlockAxes + a] = rest % extents[a];
      rest /= extents[a];
    }
    SmallVector<int64_t> values;
    for (Value index : indices) {
      std::optional<int64_t> v = evaluateIndex(index, body, coords, othersZero);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    addresses.push_back(layout.byteOffset(values));
  }
  return addresses;
}

namespace {
/// A read of a slab: its layout and each thread's byte address.
struct SlabRead {
  SlabLayout layout;
  SmallVector<int64_t> addresses;
};
} // namespace

/// `read` (indexing `stage`'s slab with `indices`) as the threads of its
/// tile issue it; nullopt outside a tile or where an address is unknown.
static std::optional<SlabRead> slabRead(StageOp stage, Operation *read,
                                        ValueRange indices,
                                        ArrayRef<int64_t> pad, int64_t swizzle,
                                        bool othersZero) {
  auto tile = read->getParentOfType<TileOp>();
  std::optional<SlabLayout> layout = SlabLayout::get(stage, pad, swizzle);
  if (!tile || !layout)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> addresses =
      threadAddresses(tile, *layout, indices, othersZero);
  if (!addresses)
    return std::nullopt;
  return SlabRead{*layout, std::move(*addresses)};
}

std::optional<int64_t> dtile::ldmatrixConflicts(StageOp stage,
                                                dkernel::LdMatrixOp read,
                                                ArrayRef<int64_t> pad,
                                                int64_t swizzle) {
  // Each lane's row: its byte address in the slab.
  std::optional<SlabRead> rows = slabRead(stage, read, read.getIndices(), pad,
                                          swizzle, /*othersZero=*/false);
  if (!rows)
    return std::nullopt;
  ArrayRef<int64_t> rowAddresses = rows->addresses;
  // One access per matrix of each warp: its eight rows' 16 bytes each.
  int64_t worst = 1;
  for (size_t warp = 0; warp + kNumBanks <= rowAddresses.size();
       warp += kNumBanks)
    for (unsigned m = 0; m < read.getNumMatrices(); ++m) {
      SmallVector<int64_t> words;
      for (unsigned r = 0; r < 8; ++r)
        for (int64_t w = 0; w < 16; w += kBankBytes)
          words.push_back(rowAddresses[warp + 8 * m + r] + w);
      worst = std::max(worst, bankConflictDegree(words));
    }
  return worst;
}

std::optional<int64_t> dtile::vectorReadConflicts(StageOp stage,
                                                  dkernel::VectorLoadOp read,
                                                  ArrayRef<int64_t> pad,
                                                  int64_t swizzle) {
  std::optional<SlabRead> runs = slabRead(stage, read, read.getIndices(), pad,
                                          swizzle, /*othersZero=*/true);
  if (!runs)
    return std::nullopt;
  int64_t runBytes =
      static_cast<int64_t>(read.getNumResults()) * runs->layout.elementBytes;
  // Lanes served together: 128 bytes' worth of runs.
  int64_t perPhase = kNumBanks * kBankBytes / runBytes;
  const SmallVector<int64_t> *starts = &runs->addresses;
  int64_t worst = 1;
  for (size_t phase = 0; phase < starts->size(); phase += perPhase) {
    SmallVector<int64_t> words;
    for (size_t l = phase; l < std::min(starts->size(), phase + perPhase); ++l)
      for (int64_t w = 0; w < runBytes; w += kBankBytes)
        words.push_back((*starts)[l] + w);
    worst = std::max(worst, bankConflictDegree(words));
  }
  return worst;
}

std::optional<int64_t> dtile::transposedWriteConflicts(StageOp stage,
                                                       ArrayRef<int64_t> pad) {
  auto tile = stage->getParentOfType<TileOp>();
  std::optional<SlabLayout> layout = SlabLayout::get(stage, pad, 0);
  if (!stage.getTranspose() || !tile || !layout ||
      layout->elementBytes > kBankBytes)
    return std::nullopt;
  ArrayRef<int64_t> box = stage.getBox();
  int64_t rank = box.size(), threads = tile.getNumThreads();
  int64_t count = ShapedType::getNumElements(box);
  // The slab address of element `e` of the box in source order.
  auto address = [&](int64_t e) {
    SmallVector<int64_t> index(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      index[d] = e % box[d];
      e /= box[d];
    }
    std::swap(index[rank - 1], index[rank - 2]);
    return layout->byteOffset(index);
  };
  int64_t worst = 1;
  for (int64_t first = 0; first < count; first += threads)
    for (int64_t warp = 0; warp < threads; warp += kNumBanks) {
      SmallVector<int64_t> addresses;
      for (int64_t lane = warp;
           lane < std::min(threads, warp + kNumBanks) && first + lane < count;
           ++lane)
        addresses.push_back(address(first + lane));
      worst = std::max(worst, bankConflictDegree(addresses));
    }
  return worst;
}
