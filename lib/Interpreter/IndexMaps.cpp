//===- IndexMaps.cpp - dtensor.index_map computed when read ---------------===//

#include "Access.h"
#include "Odometer.h"
#include "Tensors.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

namespace {

/// The coefficient of dimension `dim` in `expr` when `expr` is a function of
/// the other dimensions plus a multiple of `dim`, else nullopt.
std::optional<int64_t> innerCoefficient(AffineExpr expr, unsigned dim) {
  if (!expr.isFunctionOfDim(dim))
    return 0;
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return 1; // It is `dim` itself.
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    std::optional<int64_t> a = innerCoefficient(bin.getLHS(), dim);
    std::optional<int64_t> b = innerCoefficient(bin.getRHS(), dim);
    int64_t sum;
    if (!a || !b || llvm::AddOverflow(*a, *b, sum))
      return std::nullopt;
    return sum;
  }
  if (expr.getKind() == AffineExprKind::Mul) {
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    AffineExpr other = bin.getLHS();
    if (!c) {
      c = dyn_cast<AffineConstantExpr>(bin.getLHS());
      other = bin.getRHS();
    }
    std::optional<int64_t> a = c ? innerCoefficient(other, dim) : std::nullopt;
    int64_t product;
    if (!a || llvm::MulOverflow(*a, c.getValue(), product))
      return std::nullopt;
    return product;
  }
  return std::nullopt; // floordiv, ceildiv or mod of `dim`.
}

/// A dtensor.index_map. Rows (along the innermost axis) are read one of
/// three ways: where the map is linear along the row, it is evaluated at
/// the row's start and the reads step by a stride; otherwise, where every
/// source is a buffer, the row's reads are tabulated once per value of the
/// outer coordinates the maps and predicates depend on (a broadcast reuses
/// one row many times); else element by element.
class IndexMapTensor final : public LazyTensor {
public:
  struct Source {
    TensorValue value;
    Access access;
    IntegerSet predicate;
  };

  IndexMapTensor(dtensor::IndexMapOp op, ArrayRef<int64_t> shape,
                 Type elementType)
      : LazyTensor(op, shape, elementType) {}

  LogicalResult read(int64_t start, int64_t count, double *out) override {
    if (count == 0)
      return success();
    if (!rowCoefs.empty() || (rowWise && shape.empty()))
      return readLinearRows(start, count, out);
    if (rowWise)
      return readTabulatedRows(start, count, out);
    Odometer o(shape, {}, start);
    for (int64_t j = 0; j < count; ++j, o.next()) {
      FailureOr<double> v = at(o.coords);
      if (failed(v))
        return failure();
      out[j] = *v;
    }
    return success();
  }

  bool hasRandomAccess() const override { return true; }

  FailureOr<double> at(ArrayRef<int64_t> coords) override {
    int which;
    SmallVector<int64_t, 4> index;
    if (failed(locate(coords, which, index)))
      return failure();
    if (which < 0)
      return padding;
    const TensorValue &value = sources[which].value;
    if (value.buffer)
      return value.buffer->get(linearize(which, index));
    return value.lazy->at(index);
  }

  const float *linearF32Rows() const override {
    if (rowCoefs.empty() && !(rowWise && shape.empty()))
      return nullptr;
    const ElementArray &data = sources[0].value.buffer->data;
    return data.storage() == runtime::DType::F32 ? data.as<float>() : nullptr;
  }

  /// The map is evaluated once and, as indices move monotonically along
  /// the row, both ends are checked.
  LogicalResult rowAt(ArrayRef<int64_t> coords, int64_t n, int64_t &at,
                      int64_t &step) override {
    const Source &source = sources[0];
    ArrayRef<int64_t> sourceShape = source.value.shape();
    unsigned rank = shape.size();
    at = 0;
    step = 0;
    for (auto [k, dim] : llvm::enumerate(source.access.dims)) {
      std::optional<int64_t> first = evaluateDim(dim, coords, rank);
      if (!first)
        return op->emitOpError("divides by a non-positive value in the map "
                               "of source #0");
      int64_t coef = rank ? rowCoefs[k] : 0;
      int64_t last = wrapMulAdd(*first, coef, n - 1);
      for (int64_t idx : {*first, last})
        if (idx < 0 || idx >= sourceShape[k])
          return outOfBounds(0, idx, k);
      at += *first * sourceStrides[0][k];
      step = wrapMulAdd(step, coef, sourceStrides[0][k]);
    }
    return success();
  }

  /// Chooses how rows are read; call once the sources are set.
  void prepareRows() {
    for (const Source &source : sources)
      sourceStrides.push_back(rowMajorStrides(source.value.shape()));
    if (!llvm::all_of(sources, [](const Source &s) { return s.value.buffer; }))
      return;
    rowWise = true;
    if (shape.empty())
      return;
    unsigned inner = shape.size() - 1;
    if (sources.size() == 1 && !sources[0].predicate) {
      // Linear along the row?
      SmallVector<int64_t, 4> coefs;
      for (const Access::Dim &dim : sources[0].access.dims) {
        std::optional<int64_t> coef = 0;
        if (dim.expr)
          coef = innerCoefficient(dim.expr, inner);
        else
          for (const auto &term : dim.terms)
            if (term.first == inner && coef &&
                llvm::AddOverflow(*coef, term.second, *coef))
              coef = std::nullopt;
        if (!coef)
          break;
        coefs.push_back(*coef);
      }
      if (coefs.size() == sources[0].access.dims.size() && !coefs.empty()) {
        rowCoefs = std::move(coefs);
        return;
      }
    }
    // A table of one row, keyed by the outer axes the op depends on.
    if (shape.back() > (int64_t(1) << 16)) {
      rowWise = false;
      return;
    }
    for (unsigned d = 0; d < inner; ++d)
      if (llvm::any_of(sources,
                       [&](const Source &s) { return dependsOn(s, d); }))
        keyAxes.push_back(d);
  }

  SmallVector<Source, 1> sources;
  double padding = 0;

private:
  InFlightDiagnostic outOfBounds(unsigned source, int64_t index, unsigned d) {
    return op->emitOpError("reads source #")
           << source << " out of bounds at index " << index << " of dimension "
           << d << " of size " << sources[source].value.shape()[d];
  }

  /// Whether the map or predicate of `source` depends on result axis `d`.
  static bool dependsOn(const Source &source, unsigned d) {
    for (const Access::Dim &dim : source.access.dims) {
      if (dim.expr ? dim.expr.isFunctionOfDim(d)
                   : llvm::any_of(dim.terms,
                                  [&](const auto &t) { return t.first == d; }))
        return true;
    }
    IntegerSet set = source.predicate;
    return set && llvm::any_of(set.getConstraints(), [&](AffineExpr e) {
             return e.isFunctionOfDim(d);
           });
  }

  /// The source `coords` reads (-1: none, the padding) and its index there.
  LogicalResult locate(ArrayRef<int64_t> coords, int &which,
                       SmallVectorImpl<int64_t> &index) {
    unsigned rank = shape.size();
    for (auto [i, source] : llvm::enumerate(sources)) {
      if (IntegerSet set = source.predicate) {
        bool holds = true;
        for (unsigned c = 0, m = set.getNumConstraints(); c < m && holds; ++c) {
          std::optional<int64_t> v =
              evaluateAffineExpr(set.getConstraint(c), coords, rank);
          if (!v)
            return op->emitOpError("divides by a non-positive value in the "
                                   "predicate of source #")
                   << i;
          holds = set.isEq(c) ? *v == 0 : *v >= 0;
        }
        if (!holds)
          continue;
      }
      ArrayRef<int64_t> sourceShape = source.value.shape();
      index.clear();
      for (auto [d, dim] : llvm::enumerate(source.access.dims)) {
        std::optional<int64_t> idx = evaluateDim(dim, coords, rank);
        if (!idx)
          return op->emitOpError("divides by a non-positive value in the "
                                 "map of source #")
                 << i;
        if (*idx < 0 || *idx >= sourceShape[d])
          return outOfBounds(i, *idx, d);
        index.push_back(*idx);
      }
      which = static_cast<int>(i);
      return success();
    }
    which = -1;
    return success();
  }

  /// The row-major offset of `index` in source `which` (a buffer).
  int64_t linearize(int which, ArrayRef<int64_t> index) const {
    int64_t at = 0;
    for (auto [i, stride] : llvm::zip(index, sourceStrides[which]))
      at += i * stride;
    return at;
  }

  /// Copies `n` elements of source `which` at `at`, `at + step`, ...
  static void gather(const ElementArray &data, int64_t at, int64_t step,
                     int64_t n, double *out) {
    // Every index is in bounds, so at + k * step does not overflow.
    if (data.storage() == runtime::DType::F32) {
      const float *f32 = data.as<float>();
      for (int64_t k = 0; k < n; ++k)
        out[k] = f32[at + k * step];
    } else {
      for (int64_t k = 0; k < n; ++k)
        out[k] = data.get(at + k * step);
    }
  }

  LogicalResult readLinearRows(int64_t start, int64_t count, double *out) {
    Odometer o(shape, {}, start);
    for (int64_t j = 0; j < count;) {
      int64_t n = std::min(count - j, o.rowLeft());
      int64_t at, step;
      if (failed(rowAt(o.coords, n, at, step)))
        return failure();
      gather(sources[0].value.buffer->data, at, step, n, out + j);
      o.skip(n);
      j += n;
    }
    return success();
  }

  LogicalResult readTabulatedRows(int64_t start, int64_t count, double *out) {
    Odometer o(shape, {}, start);
    for (int64_t j = 0; j < count;) {
      int64_t n = std::min(count - j, o.rowLeft());
      SmallVector<int64_t, 4> key;
      for (unsigned d : keyAxes)
        key.push_back(o.coords[d]);
      if (rowSource.empty() || key != rowKey) {
        // Tabulate the whole row.
        int64_t length = shape.back();
        rowSource.resize(length);
        rowOffset.resize(length);
        SmallVector<int64_t, 6> coords(o.coords);
        SmallVector<int64_t, 4> index;
        for (int64_t c = 0; c < length; ++c) {
          coords.back() = c;
          int which;
          if (failed(locate(coords, which, index)))
            return failure();
          rowSource[c] = which;
          rowOffset[c] = which < 0 ? 0 : linearize(which, index);
        }
        rowKey = std::move(key);
      }
      for (int64_t k = 0, c = o.coords.back(); k < n; ++k, ++c) {
        int which = rowSource[c];
        out[j + k] = which < 0 ? padding
                               : sources[which].value.buffer->get(rowOffset[c]);
      }
      o.skip(n);
      j += n;
    }
    return success();
  }

  /// How rows are read: linearly (rowCoefs set), tabulated, or element by
  /// element (rowWise false).
  bool rowWise = false;
  /// Per source index, its coefficient along the innermost result axis.
  SmallVector<int64_t, 4> rowCoefs;
  SmallVector<SmallVector<int64_t, 4>, 1> sourceStrides;
  /// The tabulated row: the outer axes it depends on, their values, and per
  /// element its source (-1: padding) and offset there.
  SmallVector<unsigned, 4> keyAxes;
  SmallVector<int64_t, 4> rowKey;
  std::vector<int> rowSource;
  std::vector<int64_t> rowOffset;
};

} // namespace

FailureOr<std::shared_ptr<LazyTensor>>
interp::makeIndexMap(dtensor::IndexMapOp op, ArrayRef<TensorValue> sources) {
  auto type = cast<ShapedType>(op.getType());
  auto tensor = std::make_shared<IndexMapTensor>(op, type.getShape(),
                                                 type.getElementType());
  if (std::optional<TypedAttr> pad = op.getPadding()) {
    if (auto fp = dyn_cast<FloatAttr>(*pad))
      tensor->padding = fp.getValueAsDouble();
    else
      tensor->padding = static_cast<double>(cast<IntegerAttr>(*pad).getInt());
    tensor->padding = roundTo(type.getElementType(), tensor->padding);
  }
  for (auto [i, value] : llvm::enumerate(sources)) {
    IndexMapTensor::Source source;
    source.value = value;
    // A fused elementwise op is read in order only: hold it.
    if (value.lazy && !value.lazy->hasRandomAccess()) {
      FailureOr<std::shared_ptr<Buffer>> held = materialize(*value.lazy);
      if (failed(held))
        return failure();
      source.value = TensorValue{*held, nullptr};
    }
    source.access = affineAccess(op.getMap(i), 0, type.getRank());
    source.predicate = op.getPredicate(i);
    tensor->sources.push_back(std::move(source));
  }
  tensor->prepareRows();
  return std::shared_ptr<LazyTensor>(std::move(tensor));
}
