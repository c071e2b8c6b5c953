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

LazyTensor::LazyTensor(Operation *op, ArrayRef<int64_t> shape, Type elementType)
    : op(op), shape(shape), elementType(elementType),
      size(checkedNumElements(shape).value_or(0)) {}

LazyTensor::~LazyTensor() = default;

FailureOr<double> LazyTensor::at(ArrayRef<int64_t>) {
  return op->emitOpError("cannot be read out of order");
}

LogicalResult LazyTensor::rowAt(ArrayRef<int64_t>, int64_t, int64_t &,
                                int64_t &) {
  return op->emitOpError("has no linear rows");
}

std::optional<std::pair<TensorValue, TensorValue>>
LazyTensor::productOperands() const {
  return std::nullopt;
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

class SplatTensor final : public LazyTensor {
public:
  SplatTensor(Operation *op, ArrayRef<int64_t> shape, Type elementType,
              double value)
      : LazyTensor(op, shape, elementType), value(value) {}
  LogicalResult read(int64_t, int64_t count, double *out) override {
    std::fill(out, out + count, value);
    return success();
  }
  bool hasRandomAccess() const override { return true; }
  FailureOr<double> at(ArrayRef<int64_t>) override { return value; }

private:
  double value;
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
      : LazyTensor(op, type.getShape(), type.getElementType()),
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

  std::optional<std::pair<TensorValue, TensorValue>>
  productOperands() const override {
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

std::shared_ptr<LazyTensor>
interp::makeElementwise(Operation *op, ShapedType type,
                        std::shared_ptr<const LaneBody> body,
                        ArrayRef<TensorValue> inputs) {
  return std::make_shared<ElementwiseTensor>(op, type, std::move(body), inputs);
}
