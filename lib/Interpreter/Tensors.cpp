//===- Tensors.cpp - dtensor values, held or computed when read -----------===//

#include "Tensors.h"
#include "Access.h"
#include "Program.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

LazyTensor::LazyTensor(Kind kind, Operation *op, ArrayRef<int64_t> shape,
                       Type elementType)
    : kind(kind), op(op), shape(shape), elementType(elementType),
      size(checkedNumElements(shape).value_or(0)) {}

LazyTensor::~LazyTensor() = default;

FailureOr<double> LazyTensor::at(ArrayRef<int64_t>) {
  return op->emitOpError("cannot be read out of order");
}

LogicalResult TensorValue::read(int64_t start, int64_t count,
                                double *out) const {
  if (buffer) {
    buffer->data.read(start, count, out);
    return success();
  }
  return lazy->read(start, count, out);
}

FailureOr<std::shared_ptr<Buffer>> interp::allocateFor(Operation *op,
                                                       ShapedType type) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  llvm::Expected<Buffer> buffer =
      Buffer::allocate(type.getShape(), type.getElementType(), name);
  if (!buffer)
    return op->emitOpError("cannot be interpreted within the memory limit: ")
           << llvm::toString(buffer.takeError());
  return std::make_shared<Buffer>(std::move(*buffer));
}

FailureOr<std::shared_ptr<Buffer>> interp::materialize(LazyTensor &tensor) {
  FailureOr<std::shared_ptr<Buffer>> buffer = allocateFor(
      tensor.op, RankedTensorType::get(tensor.shape, tensor.elementType));
  if (failed(buffer))
    return failure();
  double chunk[kChunk];
  for (int64_t e = 0; e < tensor.size; e += kChunk) {
    int64_t n = std::min(kChunk, tensor.size - e);
    if (failed(tensor.read(e, n, chunk)))
      return failure();
    (*buffer)->data.write(e, n, chunk);
  }
  return buffer;
}

namespace {

/// The row-major coordinates of the elements of a shape, from a start
/// element on, with an offset that moves by strides[d] along axis d.
class Odometer {
public:
  /// `strides` empty: no offset.
  Odometer(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t start,
           int64_t base = 0)
      : shape(shape), strides(strides), coords(shape.size(), 0), offset(base) {
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      coords[d] = start % shape[d];
      start /= shape[d];
      if (!strides.empty())
        offset += coords[d] * strides[d];
    }
  }

  void next() {
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      bool wraps = ++coords[d] == shape[d];
      if (!strides.empty())
        offset += wraps ? -(shape[d] - 1) * strides[d] : strides[d];
      if (!wraps)
        return;
      coords[d] = 0;
    }
  }

  /// Elements left in the current innermost row, and the offset's step
  /// along it.
  int64_t rowLeft() const {
    return shape.empty() ? 1 : shape.back() - coords.back();
  }
  int64_t rowStride() const {
    return shape.empty() || strides.empty() ? 0 : strides.back();
  }
  /// Moves `n` (at most rowLeft()) elements on.
  void skip(int64_t n) {
    if (shape.empty() || n == 0)
      return;
    if (n < rowLeft()) {
      coords.back() += n;
      offset += n * rowStride();
      return;
    }
    // To the last element of the row, then across its end.
    offset += (rowLeft() - 1) * rowStride();
    coords.back() = shape.back() - 1;
    next();
  }

  ArrayRef<int64_t> shape, strides;
  SmallVector<int64_t, 6> coords;
  int64_t offset;
};

/// Row-major strides of `shape`.
SmallVector<int64_t, 4> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

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

class SplatTensor final : public LazyTensor {
public:
  SplatTensor(Operation *op, ArrayRef<int64_t> shape, Type elementType,
              double value)
      : LazyTensor(Kind::Splat, op, shape, elementType), value(value) {}
  LogicalResult read(int64_t, int64_t count, double *out) override {
    std::fill(out, out + count, value);
    return success();
  }
  bool hasRandomAccess() const override { return true; }
  FailureOr<double> at(ArrayRef<int64_t>) override { return value; }

private:
  double value;
};

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
      : LazyTensor(Kind::IndexMap, op, shape, elementType) {}

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

  /// Whether rows are read linearly from an f32 buffer (rowAt and f32()
  /// then give them).
  bool hasLinearF32Rows() const {
    return (!rowCoefs.empty() || (rowWise && shape.empty())) &&
           sources[0].value.buffer->data.storage() == runtime::DType::F32;
  }
  const float *f32() const { return sources[0].value.buffer->data.as<float>(); }

  /// The source offset of the element at `coords` and the step to the next
  /// along the innermost axis, for `n` elements from `coords` on: the map is
  /// evaluated once and, as indices move monotonically along the row, both
  /// ends are checked.
  LogicalResult rowAt(ArrayRef<int64_t> coords, int64_t n, int64_t &at,
                      int64_t &step) {
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

/// Runs the scalar `instr` over `count` lanes: operand k reads lanes[k], or
/// uniforms[k] where lanes[k] is null.
void evalLanes(const Instr &instr, ArrayRef<const double *> lanes,
               ArrayRef<double> uniforms, int64_t count, double *out) {
  auto lane = [&](unsigned k, int64_t j) {
    return lanes[k] ? lanes[k][j] : uniforms[k];
  };
  // The hottest f32 ops skip evalScalar's dispatch; float arithmetic rounds
  // exactly as rounding the double result does.
  if (instr.type.isF32() && lanes.size() == 2) {
    switch (instr.code) {
    case Opcode::AddF:
      for (int64_t j = 0; j < count; ++j)
        out[j] =
            static_cast<float>(lane(0, j)) + static_cast<float>(lane(1, j));
      return;
    case Opcode::SubF:
      for (int64_t j = 0; j < count; ++j)
        out[j] =
            static_cast<float>(lane(0, j)) - static_cast<float>(lane(1, j));
      return;
    case Opcode::MulF:
      for (int64_t j = 0; j < count; ++j)
        out[j] =
            static_cast<float>(lane(0, j)) * static_cast<float>(lane(1, j));
      return;
    case Opcode::DivF:
      for (int64_t j = 0; j < count; ++j)
        out[j] =
            static_cast<float>(lane(0, j)) / static_cast<float>(lane(1, j));
      return;
    default:
      break;
    }
  }
  double args[8];
  SmallVector<double, 8> many;
  double *x = args;
  if (lanes.size() > 8) {
    many.resize(lanes.size());
    x = many.data();
  }
  for (int64_t j = 0; j < count; ++j) {
    for (unsigned k = 0, n = lanes.size(); k < n; ++k)
      x[k] = lane(k, j);
    out[j] = evalScalar(instr, x);
  }
}

class ElementwiseTensor final : public LazyTensor {
public:
  ElementwiseTensor(Operation *op, ShapedType type,
                    std::shared_ptr<const LaneBody> body,
                    ArrayRef<TensorValue> inputs)
      : LazyTensor(Kind::Elementwise, op, type.getShape(),
                   type.getElementType()),
        body(std::move(body)), inputs(inputs.begin(), inputs.end()) {}

  LogicalResult read(int64_t start, int64_t count, double *out) override {
    if (lanes.empty()) {
      lanes.resize(static_cast<size_t>(body->numValues) * kChunk);
      uniform.resize(body->numValues);
      uniforms.resize(body->numValues);
    }
    for (auto [i, input] : llvm::enumerate(inputs)) {
      uniform[i] = false;
      if (failed(input.read(start, count, lane(i))))
        return failure();
    }
    SmallVector<const double *, 8> in;
    SmallVector<double, 8> u;
    for (const LaneBody::Step &step : body->steps) {
      in.clear();
      u.clear();
      bool allUniform = true;
      for (unsigned v : step.in) {
        in.push_back(uniform[v] ? nullptr : lane(v));
        u.push_back(uniforms[v]);
        allUniform &= uniform[v];
      }
      uniform[step.out] = allUniform;
      if (allUniform)
        uniforms[step.out] = evalScalar(*step.instr, u.data());
      else
        evalLanes(*step.instr, in, u, count, lane(step.out));
    }
    if (uniform[body->result])
      std::fill(out, out + count, uniforms[body->result]);
    else
      std::copy(lane(body->result), lane(body->result) + count, out);
    return success();
  }

  /// The inputs, when the body is one f32 product of its two arguments.
  std::optional<std::pair<TensorValue, TensorValue>> productOperands() const {
    if (body->numArgs != 2 || body->steps.size() != 1 ||
        body->result != body->steps[0].out)
      return std::nullopt;
    const LaneBody::Step &step = body->steps[0];
    if (step.instr->code != Opcode::MulF || !isF32(step.instr->type))
      return std::nullopt;
    return std::make_pair(inputs[step.in[0]], inputs[step.in[1]]);
  }

private:
  double *lane(unsigned v) { return lanes.data() + v * kChunk; }

  std::shared_ptr<const LaneBody> body;
  SmallVector<TensorValue, 4> inputs;
  /// Per local value: its lanes, or a uniform value.
  std::vector<double> lanes;
  SmallVector<bool, 8> uniform;
  SmallVector<double, 8> uniforms;
};

} // namespace

FailureOr<std::shared_ptr<const LaneBody>>
interp::compileLanes(const Block &block) {
  auto body = std::make_shared<LaneBody>();
  llvm::DenseMap<unsigned, unsigned> local;
  for (unsigned arg : block.args)
    local[arg] = body->numValues++;
  body->numArgs = body->numValues;
  for (const Instr &instr : block.instrs) {
    if (instr.code > Opcode::LastScalar || instr.out.size() != 1)
      return failure();
    LaneBody::Step step;
    step.instr = &instr;
    for (unsigned slot : instr.in) {
      auto it = local.find(slot);
      if (it == local.end())
        return failure();
      step.in.push_back(it->second);
    }
    step.out = local[instr.out[0]] = body->numValues++;
    body->steps.push_back(std::move(step));
  }
  if (block.yields.size() != 1 || !local.count(block.yields[0]))
    return failure();
  body->result = local[block.yields[0]];
  return std::shared_ptr<const LaneBody>(std::move(body));
}

std::shared_ptr<LazyTensor> interp::makeSplat(Operation *op,
                                              ArrayRef<int64_t> shape,
                                              Type elementType, double value) {
  return std::make_shared<SplatTensor>(op, shape, elementType, value);
}

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

std::shared_ptr<LazyTensor>
interp::makeElementwise(Operation *op, ShapedType type,
                        std::shared_ptr<const LaneBody> body,
                        ArrayRef<TensorValue> inputs) {
  return std::make_shared<ElementwiseTensor>(op, type, std::move(body), inputs);
}

/// Folds `n` values into `acc` with `kind`, rounding to `element` at every
/// step, in order.
static double fold(ReduceKind kind, Type element, bool isF32, double acc,
                   const double *values, int64_t n) {
  if (kind == ReduceKind::add && isF32) {
    // Float addition rounds as rounding the double sum does.
    auto sum = static_cast<float>(acc);
    for (int64_t i = 0; i < n; ++i)
      sum += static_cast<float>(values[i]);
    return sum;
  }
  for (int64_t i = 0; i < n; ++i)
    acc = reduceCombine(kind, element, acc, values[i]);
  return acc;
}

/// An f32 operand of a dot product: an f32 buffer or an index map read
/// linearly from one.
namespace {
struct DotOperand {
  IndexMapTensor *map = nullptr;
  const float *data = nullptr;

  static std::optional<DotOperand> of(const TensorValue &value) {
    DotOperand operand;
    if (value.buffer) {
      if (value.buffer->data.storage() != runtime::DType::F32)
        return std::nullopt;
      operand.data = value.buffer->data.as<float>();
      return operand;
    }
    if (value.lazy->kind != LazyTensor::Kind::IndexMap)
      return std::nullopt;
    operand.map = static_cast<IndexMapTensor *>(value.lazy.get());
    if (!operand.map->hasLinearF32Rows())
      return std::nullopt;
    operand.data = operand.map->f32();
    return operand;
  }

  /// The offset and step of `n` elements along the innermost axis from
  /// `coords` (whose row-major offset is `linear`).
  LogicalResult row(ArrayRef<int64_t> coords, int64_t linear, int64_t n,
                    int64_t &at, int64_t &step) const {
    if (map)
      return map->rowAt(coords, n, at, step);
    at = linear;
    step = 1;
    return success();
  }
};
} // namespace

/// The f32 sum over the innermost axis of a product of two f32 operands,
/// one dot product per output, with no chunks in between; nullopt when
/// `input` is not such a product.
static std::optional<LogicalResult> reduceDots(const TensorValue &input,
                                               Buffer &result) {
  if (!input.lazy || input.lazy->kind != LazyTensor::Kind::Elementwise)
    return std::nullopt;
  auto &product = static_cast<ElementwiseTensor &>(*input.lazy);
  std::optional<std::pair<TensorValue, TensorValue>> operands =
      product.productOperands();
  if (!operands)
    return std::nullopt;
  std::optional<DotOperand> a = DotOperand::of(operands->first);
  std::optional<DotOperand> b = DotOperand::of(operands->second);
  if (!a || !b)
    return std::nullopt;
  ArrayRef<int64_t> shape = product.shape;
  int64_t run = shape.back();
  if (run == 0)
    return std::nullopt;
  // A group of outputs at a time, all of them stepping through their sums
  // together: neighbouring outputs read neighbouring elements (the columns
  // of a matmul's right operand), and the sums do not wait on each other.
  constexpr int64_t kGroup = 16;
  Odometer o(shape, {}, 0);
  for (int64_t first = 0, n = result.size(); first < n; first += kGroup) {
    int64_t group = std::min(kGroup, n - first);
    const float *rowA[kGroup], *rowB[kGroup];
    int64_t stepA[kGroup], stepB[kGroup];
    for (int64_t g = 0; g < group; ++g) {
      int64_t atA, atB;
      if (failed(a->row(o.coords, (first + g) * run, run, atA, stepA[g])) ||
          failed(b->row(o.coords, (first + g) * run, run, atB, stepB[g])))
        return failure();
      rowA[g] = a->data + atA;
      rowB[g] = b->data + atB;
      o.skip(run);
    }
    // Each sum adds its products in order, each product rounded to f32
    // first (no fused multiply-add, which would round once).
    float sums[kGroup] = {};
    for (int64_t k = 0; k < run; ++k)
      for (int64_t g = 0; g < group; ++g) {
        float p = rowA[g][k * stepA[g]] * rowB[g][k * stepB[g]];
        sums[g] += p;
      }
    for (int64_t g = 0; g < group; ++g)
      result.set(first + g, sums[g]);
  }
  return success();
}

FailureOr<std::shared_ptr<Buffer>> interp::reduce(dtensor::ReduceOp op,
                                                  const TensorValue &input) {
  auto type = cast<ShapedType>(op.getType());
  Type element = type.getElementType();
  FailureOr<std::shared_ptr<Buffer>> allocated = allocateFor(op, type);
  if (failed(allocated))
    return failure();
  Buffer &result = **allocated;
  ReduceKind kind = op.getKind();
  double identity = reduceIdentity(kind, element);
  bool isF32 = element.isF32();
  ArrayRef<int64_t> shape = input.shape();
  ArrayRef<int64_t> axes = op.getAxes();
  unsigned rank = shape.size();
  int64_t total = input.size();
  double chunk[kChunk];
  // Each output element folds its inputs in increasing index order, as a
  // walk of the input in row-major order does.
  bool trailing = true;
  for (auto [i, axis] : llvm::enumerate(axes))
    trailing &= axis == static_cast<int64_t>(rank - axes.size() + i);
  if (trailing && axes.size() == 1 && kind == ReduceKind::add && isF32)
    if (std::optional<LogicalResult> done = reduceDots(input, result))
      return failed(*done) ? FailureOr<std::shared_ptr<Buffer>>(failure())
                           : allocated;
  if (trailing) {
    // Each output folds one run of consecutive inputs.
    int64_t run = 1;
    for (int64_t axis : axes)
      run *= shape[axis];
    if (run == 0) {
      result.data.fill(identity);
      return allocated;
    }
    int64_t o = 0, pos = 0;
    double acc = identity;
    for (int64_t e = 0; e < total; e += kChunk) {
      int64_t n = std::min(kChunk, total - e);
      if (failed(input.read(e, n, chunk)))
        return failure();
      for (int64_t j = 0; j < n;) {
        int64_t take = std::min(n - j, run - pos);
        acc = fold(kind, element, isF32, acc, chunk + j, take);
        j += take;
        pos += take;
        if (pos == run) {
          result.set(o++, acc);
          acc = identity;
          pos = 0;
        }
      }
    }
    return allocated;
  }
  // Output strides over the input dimensions (0 along reduced axes).
  result.data.fill(identity);
  SmallVector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
    if (llvm::is_contained(axes, d))
      continue;
    strides[d] = stride;
    stride *= shape[d];
  }
  if (total == 0)
    return allocated;
  Odometer o(shape, strides, 0);
  for (int64_t e = 0; e < total; e += kChunk) {
    int64_t n = std::min(kChunk, total - e);
    if (failed(input.read(e, n, chunk)))
      return failure();
    for (int64_t j = 0; j < n; ++j, o.next())
      result.set(o.offset,
                 reduceCombine(kind, element, result.get(o.offset), chunk[j]));
  }
  return allocated;
}
