//===- Reduce.cpp - dtensor.reduce of held or lazy tensors ----------------===//

#include "Odometer.h"
#include "Program.h"
#include "Tensors.h"

#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

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
  LazyTensor *map = nullptr;
  const float *data = nullptr;

  static std::optional<DotOperand> of(const TensorValue &value) {
    DotOperand operand;
    if (value.buffer) {
      if (value.buffer->data.storage() != runtime::DType::F32)
        return std::nullopt;
      operand.data = value.buffer->data.as<float>();
      return operand;
    }
    operand.map = value.lazy.get();
    operand.data = operand.map->linearF32Rows();
    if (!operand.data)
      return std::nullopt;
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
  if (!input.lazy)
    return std::nullopt;
  LazyTensor &product = *input.lazy;
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
