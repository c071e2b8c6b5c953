//===- Execute.cpp - Run a compiled function --------------------*- C++ -*-===//

#include "Deplodock/Interpreter/Interpreter.h"
#include "Program.h"
#include "Simt.h"

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

namespace {

/// Executes compiled blocks over one frame of slots.
class Machine {
public:
  explicit Machine(unsigned numSlots) : frame(numSlots) {}

  /// Runs the function body bound to `inputs`; fills `results`.
  LogicalResult runFunction(const interp::Block &body, ArrayRef<Buffer> inputs,
                            SmallVectorImpl<Buffer> &results);

private:
  LogicalResult runBlock(const interp::Block &block);
  LogicalResult exec(const Instr &instr);
  LogicalResult execElementwise(const Instr &instr);
  LogicalResult execReduce(const Instr &instr);
  LogicalResult execIndexMap(const Instr &instr);
  LogicalResult execScfFor(const Instr &instr);
  LogicalResult execScfIf(const Instr &instr);
  LogicalResult execLoopFor(const Instr &instr);
  /// Runs the body of loop `instr` for iv = lb, lb + step, ... < ub, its
  /// carried values starting from operands firstInit, firstInit + 1, ...
  LogicalResult runLoop(const Instr &instr, int64_t lb, int64_t ub,
                        int64_t step, unsigned firstInit);
  LogicalResult execAffineApply(const Instr &instr);
  /// The linear element of `buffer` at the affine access `map` applied to
  /// the index operands `in[from, ...)`.
  FailureOr<int64_t> access(const Instr &instr, AffineMap map,
                            const Buffer &buffer, unsigned from);
  /// The linear element of `buffer` at the index operands `in[from, ...)`.
  FailureOr<int64_t> element(const Instr &instr, const Buffer &buffer,
                             unsigned from);

  double &scalar(unsigned slot) { return frame[slot].s; }
  Buffer &buffer(unsigned slot) { return *frame[slot].buffer; }

  std::vector<Slot> frame;
  SmallVectorImpl<Buffer> *results = nullptr;
};

} // namespace

LogicalResult Machine::runFunction(const interp::Block &body,
                                   ArrayRef<Buffer> inputs,
                                   SmallVectorImpl<Buffer> &out) {
  // Each run works on copies: the kernels may write their arguments.
  for (auto [slot, input] : llvm::zip(body.args, inputs)) {
    if (input.shape.empty())
      frame[slot].s = input.data[0]; // A scalar argument, or a 0-d buffer.
    frame[slot].buffer = std::make_shared<Buffer>(input);
  }
  results = &out;
  return runBlock(body);
}

LogicalResult Machine::runBlock(const interp::Block &block) {
  for (const Instr &instr : block.instrs)
    if (failed(exec(instr)))
      return failure();
  return success();
}

FailureOr<int64_t> Machine::element(const Instr &instr, const Buffer &buf,
                                    unsigned from) {
  int64_t linear = 0;
  for (auto [d, size] : llvm::enumerate(buf.shape)) {
    auto i = static_cast<int64_t>(scalar(instr.in[from + d]));
    if (i < 0 || i >= size)
      return instr.op->emitOpError("accesses index ")
             << i << " of dimension " << d << " of size " << size;
    linear = linear * size + i;
  }
  return linear;
}

LogicalResult Machine::exec(const Instr &instr) {
  if (instr.code <= Opcode::LastScalar) {
    double args[8];
    unsigned n = instr.in.size();
    SmallVector<double, 8> many;
    double *x = args;
    if (n > 8) {
      many.resize(n);
      x = many.data();
    }
    for (unsigned i = 0; i < n; ++i)
      x[i] = scalar(instr.in[i]);
    scalar(instr.out[0]) = evalScalar(instr, x);
    return success();
  }
  switch (instr.code) {
  case Opcode::DenseConstant:
  case Opcode::GetGlobal:
    frame[instr.out[0]].buffer = instr.data;
    return success();
  case Opcode::TensorEmpty:
  case Opcode::Alloc: {
    // Reading memory nobody wrote shows up in the results.
    auto shaped = cast<ShapedType>(instr.type);
    auto buffer =
        std::make_shared<Buffer>(shaped.getShape(), shaped.getElementType());
    std::fill(buffer->data.begin(), buffer->data.end(),
              poisonValue(shaped.getElementType()));
    frame[instr.out[0]].buffer = std::move(buffer);
    return success();
  }
  case Opcode::AffineApply:
    return execAffineApply(instr);
  case Opcode::Elementwise:
    return execElementwise(instr);
  case Opcode::Reduce:
    return execReduce(instr);
  case Opcode::IndexMap:
    return execIndexMap(instr);
  case Opcode::MemLoad: {
    Buffer &buf = buffer(instr.in[0]);
    FailureOr<int64_t> e = element(instr, buf, 1);
    if (failed(e))
      return failure();
    scalar(instr.out[0]) = buf.data[*e];
    return success();
  }
  case Opcode::MemStore: {
    Buffer &buf = buffer(instr.in[1]);
    FailureOr<int64_t> e = element(instr, buf, 2);
    if (failed(e))
      return failure();
    buf.data[*e] = scalar(instr.in[0]);
    return success();
  }
  case Opcode::LoopKernel: {
    // The body sees the kernel's buffers, which must not alias (two
    // get_globals of one global are different values but one buffer);
    // kernels run one after another.
    for (unsigned i = 0, e = instr.in.size(); i < e; ++i)
      for (unsigned j = 0; j < i; ++j)
        if (frame[instr.in[i]].buffer == frame[instr.in[j]].buffer)
          return instr.op->emitOpError("binds one buffer to its arguments #")
                 << j << " and #" << i << ", which must not alias";
    const interp::Block &body = *instr.regions[0];
    for (auto [arg, in] : llvm::zip(body.args, instr.in))
      frame[arg] = frame[in];
    return runBlock(body);
  }
  case Opcode::LoopFor:
    return execLoopFor(instr);
  case Opcode::TileKernel:
  case Opcode::KernelLaunch: {
    // GPU-level kernels run on the SIMT engine, over the frame's buffers.
    SmallVector<std::shared_ptr<Buffer>, 4> buffers;
    for (unsigned slot : instr.in)
      buffers.push_back(frame[slot].buffer);
    return simt::run(instr, buffers);
  }
  case Opcode::LoopLoad: {
    auto load = cast<dloop::LoadOp>(instr.op);
    Buffer &buf = buffer(instr.in[0]);
    FailureOr<int64_t> e = access(instr, load.getMap(), buf, 1);
    if (failed(e))
      return failure();
    scalar(instr.out[0]) = buf.data[*e];
    return success();
  }
  case Opcode::LoopStore: {
    auto store = cast<dloop::StoreOp>(instr.op);
    Buffer &buf = buffer(instr.in[1]);
    FailureOr<int64_t> e = access(instr, store.getMap(), buf, 2);
    if (failed(e))
      return failure();
    double v = scalar(instr.in[0]);
    if (std::optional<ReduceKind> kind = store.getReduceKind())
      v = reduceCombine(*kind, instr.type, buf.data[*e], v);
    buf.data[*e] = v;
    return success();
  }
  case Opcode::ScfFor:
    return execScfFor(instr);
  case Opcode::ScfIf:
    return execScfIf(instr);
  case Opcode::Return:
    for (auto [slot, operand] : llvm::zip(instr.in, instr.op->getOperands())) {
      if (isa<ShapedType>(operand.getType())) {
        results->push_back(*frame[slot].buffer);
        continue;
      }
      // A scalar result is returned as a 0-d buffer.
      Buffer scalar({}, operand.getType());
      scalar.data[0] = frame[slot].s;
      results->push_back(std::move(scalar));
    }
    return success();
  case Opcode::Nop:
    return success();
  default:
    return instr.op->emitOpError("cannot be interpreted");
  }
}

LogicalResult Machine::execElementwise(const Instr &instr) {
  const interp::Block &body = *instr.regions[0];
  auto result =
      std::make_shared<Buffer>(cast<ShapedType>(instr.type).getShape(),
                               cast<ShapedType>(instr.type).getElementType());
  SmallVector<const Buffer *, 4> inputs;
  for (unsigned slot : instr.in)
    inputs.push_back(&buffer(slot));
  for (int64_t e = 0, n = result->size(); e < n; ++e) {
    for (auto [arg, input] : llvm::zip(body.args, inputs))
      scalar(arg) = input->data[e];
    if (failed(runBlock(body)))
      return failure();
    result->data[e] = scalar(body.yields[0]);
  }
  frame[instr.out[0]].buffer = std::move(result);
  return success();
}

LogicalResult Machine::execReduce(const Instr &instr) {
  auto op = cast<dtensor::ReduceOp>(instr.op);
  const Buffer &input = buffer(instr.in[0]);
  auto type = cast<ShapedType>(instr.type);
  Type element = type.getElementType();
  auto result = std::make_shared<Buffer>(type.getShape(), element);
  std::fill(result->data.begin(), result->data.end(),
            reduceIdentity(op.getKind(), element));
  // Output strides over the input dimensions (0 along reduced axes).
  ArrayRef<int64_t> axes = op.getAxes();
  SmallVector<int64_t> strides(input.shape.size(), 0);
  int64_t stride = 1;
  for (int d = input.shape.size() - 1; d >= 0; --d) {
    if (llvm::is_contained(axes, d))
      continue;
    strides[d] = stride;
    stride *= input.shape[d];
  }
  SmallVector<int64_t> index(input.shape.size(), 0);
  for (int64_t e = 0, n = input.size(); e < n; ++e) {
    int64_t out = 0;
    for (auto [i, s] : llvm::zip(index, strides))
      out += i * s;
    result->data[out] =
        reduceCombine(op.getKind(), element, result->data[out], input.data[e]);
    for (int d = index.size() - 1; d >= 0; --d) {
      if (++index[d] < input.shape[d])
        break;
      index[d] = 0;
    }
  }
  frame[instr.out[0]].buffer = std::move(result);
  return success();
}

LogicalResult Machine::execIndexMap(const Instr &instr) {
  auto op = cast<dtensor::IndexMapOp>(instr.op);
  auto type = cast<ShapedType>(instr.type);
  auto result =
      std::make_shared<Buffer>(type.getShape(), type.getElementType());
  double padding = 0;
  if (std::optional<TypedAttr> pad = op.getPadding()) {
    if (auto fp = dyn_cast<FloatAttr>(*pad))
      padding = fp.getValueAsDouble();
    else
      padding = static_cast<double>(cast<IntegerAttr>(*pad).getInt());
    padding = roundTo(type.getElementType(), padding);
  }
  unsigned rank = type.getRank(), numSources = instr.in.size();
  SmallVector<AffineMap> maps;
  SmallVector<IntegerSet> predicates;
  for (unsigned i = 0; i < numSources; ++i) {
    maps.push_back(op.getMap(i));
    predicates.push_back(op.getPredicate(i));
  }
  SmallVector<int64_t> coords(rank, 0), at;
  for (int64_t e = 0, n = result->size(); e < n; ++e) {
    double value = padding;
    for (unsigned i = 0; i < numSources; ++i) {
      if (IntegerSet set = predicates[i]) {
        bool holds = true;
        for (unsigned c = 0, m = set.getNumConstraints(); c < m && holds; ++c) {
          std::optional<int64_t> v =
              evaluateAffineExpr(set.getConstraint(c), coords, rank);
          if (!v)
            return op.emitOpError("divides by a non-positive value in the "
                                  "predicate of source #")
                   << i;
          holds = set.isEq(c) ? *v == 0 : *v >= 0;
        }
        if (!holds)
          continue;
      }
      const Buffer &source = buffer(instr.in[i]);
      int64_t linear = 0;
      for (auto [d, expr] : llvm::enumerate(maps[i].getResults())) {
        std::optional<int64_t> idx = evaluateAffineExpr(expr, coords, rank);
        if (!idx)
          return op.emitOpError("divides by a non-positive value in the "
                                "map of source #")
                 << i;
        if (*idx < 0 || *idx >= source.shape[d])
          return op.emitOpError("reads source #")
                 << i << " out of bounds at index " << *idx << " of dimension "
                 << d << " of size " << source.shape[d];
        linear = linear * source.shape[d] + *idx;
      }
      value = source.data[linear];
      break;
    }
    result->data[e] = value;
    for (int d = rank - 1; d >= 0; --d) {
      if (++coords[d] < type.getDimSize(d))
        break;
      coords[d] = 0;
    }
  }
  frame[instr.out[0]].buffer = std::move(result);
  return success();
}

LogicalResult Machine::execScfFor(const Instr &instr) {
  auto lb = static_cast<int64_t>(scalar(instr.in[0]));
  auto ub = static_cast<int64_t>(scalar(instr.in[1]));
  auto step = static_cast<int64_t>(scalar(instr.in[2]));
  if (step <= 0)
    return instr.op->emitOpError("has a non-positive step");
  return runLoop(instr, lb, ub, step, /*firstInit=*/3);
}

FailureOr<int64_t> Machine::access(const Instr &instr, AffineMap map,
                                   const Buffer &buf, unsigned from) {
  SmallVector<int64_t, 4> operands;
  for (unsigned i = from, e = instr.in.size(); i < e; ++i)
    operands.push_back(static_cast<int64_t>(scalar(instr.in[i])));
  int64_t linear = 0;
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    std::optional<int64_t> i =
        evaluateAffineExpr(expr, operands, map.getNumDims());
    if (!i)
      return instr.op->emitOpError("divides by a non-positive value in its "
                                   "index");
    if (*i < 0 || *i >= buf.shape[d])
      return instr.op->emitOpError("accesses index ")
             << *i << " of dimension " << d << " of size " << buf.shape[d];
    linear = linear * buf.shape[d] + *i;
  }
  return linear;
}

LogicalResult Machine::execAffineApply(const Instr &instr) {
  auto apply = cast<affine::AffineApplyOp>(instr.op);
  SmallVector<int64_t, 4> operands;
  for (unsigned slot : instr.in)
    operands.push_back(static_cast<int64_t>(scalar(slot)));
  AffineMap map = apply.getAffineMap();
  std::optional<int64_t> v =
      evaluateAffineExpr(map.getResult(0), operands, map.getNumDims());
  if (!v)
    return apply.emitOpError("divides by a non-positive value");
  scalar(instr.out[0]) = static_cast<double>(*v);
  return success();
}

LogicalResult Machine::execLoopFor(const Instr &instr) {
  auto loop = cast<dloop::ForOp>(instr.op);
  return runLoop(instr, 0, loop.getExtent(), 1, /*firstInit=*/0);
}

LogicalResult Machine::runLoop(const Instr &instr, int64_t lb, int64_t ub,
                               int64_t step, unsigned firstInit) {
  const interp::Block &body = *instr.regions[0];
  unsigned numIters = instr.out.size();
  SmallVector<Slot, 4> carried;
  for (unsigned i = 0; i < numIters; ++i)
    carried.push_back(frame[instr.in[firstInit + i]]);
  for (int64_t iv = lb; iv < ub; iv += step) {
    scalar(body.args[0]) = static_cast<double>(iv);
    for (unsigned i = 0; i < numIters; ++i)
      frame[body.args[1 + i]] = carried[i];
    if (failed(runBlock(body)))
      return failure();
    for (unsigned i = 0; i < numIters; ++i)
      carried[i] = frame[body.yields[i]];
  }
  for (unsigned i = 0; i < numIters; ++i)
    frame[instr.out[i]] = carried[i];
  return success();
}

LogicalResult Machine::execScfIf(const Instr &instr) {
  bool cond = scalar(instr.in[0]) != 0;
  const interp::Block &branch = *instr.regions[cond ? 0 : 1];
  if (failed(runBlock(branch)))
    return failure();
  for (auto [out, yield] : llvm::zip(instr.out, branch.yields))
    frame[out] = frame[yield];
  return success();
}

FailureOr<SmallVector<Buffer>> interp::runFunction(func::FuncOp func,
                                                   ArrayRef<Buffer> inputs) {
  FailureOr<std::unique_ptr<Program>> program = compile(func);
  if (failed(program))
    return failure();
  if (inputs.size() != func.getNumArguments())
    return func.emitOpError("expects ")
           << func.getNumArguments() << " inputs, one per argument, but "
           << inputs.size() << " were given";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(func.getArgumentTypes(), inputs))) {
    auto [type, input] = pair;
    auto shaped = dyn_cast<ShapedType>(type);
    ArrayRef<int64_t> shape = shaped ? shaped.getShape() : ArrayRef<int64_t>();
    Type element = shaped ? shaped.getElementType() : type;
    if (shape != ArrayRef<int64_t>(input.shape) ||
        element != input.elementType ||
        input.size() != Buffer::numElements(input.shape))
      return func.emitOpError("argument #")
             << i << " has type " << type << ", but the input is a "
             << RankedTensorType::get(input.shape, input.elementType);
  }
  Machine machine((*program)->numSlots);
  SmallVector<Buffer> results;
  if (failed(machine.runFunction((*program)->body, inputs, results)))
    return failure();
  return results;
}
