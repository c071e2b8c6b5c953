//===- Execute.cpp - Run a compiled function --------------------*- C++ -*-===//

#include "Deplodock/Interpreter/Interpreter.h"
#include "Program.h"
#include "Simt.h"

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "Deplodock/Interpreter/Memory.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

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
  LogicalResult runFunction(func::FuncOp func, const interp::Block &body,
                            ArrayRef<Buffer> inputs,
                            SmallVectorImpl<Buffer> &results);

private:
  LogicalResult runBlock(const interp::Block &block);
  LogicalResult exec(const Instr &instr);
  LogicalResult execReturn(const Instr &instr);
  LogicalResult execElementwise(const Instr &instr);
  LogicalResult execIndexMap(const Instr &instr);
  LogicalResult execScfFor(const Instr &instr);
  LogicalResult execScfIf(const Instr &instr);
  /// Runs the body of loop `instr` for iv = lb, lb + step, ... < ub, its
  /// carried values starting from operands firstInit, firstInit + 1, ...
  LogicalResult runLoop(const Instr &instr, int64_t lb, int64_t ub,
                        int64_t step, unsigned firstInit);
  LogicalResult execAffineApply(const Instr &instr);
  /// The linear element of `buffer` that the access of `instr` names.
  FailureOr<int64_t> element(const Instr &instr, const Buffer &buffer);

  double &scalar(unsigned slot) { return frame[slot].s; }
  int64_t index(unsigned slot) { return wrapToInt64(frame[slot].s); }
  Buffer &buffer(unsigned slot) { return *frame[slot].buffer; }
  /// The tensor in `slot`.
  TensorValue tensor(unsigned slot) {
    return TensorValue{frame[slot].buffer, frame[slot].lazy};
  }
  /// Makes the tensor in `slot` a buffer (an operand that needs one); errors
  /// are reported at the op that computes it.
  LogicalResult hold(unsigned slot);

  std::vector<Slot> frame;
  SmallVectorImpl<Buffer> *results = nullptr;
  /// Loop-body operations executed so far, against the work limit.
  uint64_t workSpent = 0;
};

} // namespace

LogicalResult Machine::runFunction(func::FuncOp func, const interp::Block &body,
                                   ArrayRef<Buffer> inputs,
                                   SmallVectorImpl<Buffer> &out) {
  for (auto [i, slot, input, type] :
       llvm::enumerate(body.args, inputs, func.getArgumentTypes())) {
    if (input.shape.empty())
      frame[slot].s = input.get(0); // A scalar argument, or a 0-d buffer.
    if (!isa<MemRefType>(type)) {
      // Tensors are never written: the run reads the input itself.
      frame[slot].buffer = std::shared_ptr<Buffer>(
          std::shared_ptr<Buffer>(), const_cast<Buffer *>(&input));
      continue;
    }
    // Each run works on copies of memrefs: the kernels may write them.
    llvm::Expected<Buffer> copy = input.clone();
    if (!copy)
      return func.emitOpError("cannot be interpreted within the memory "
                              "limit: argument #")
             << i << ": " << llvm::toString(copy.takeError());
    frame[slot].buffer = std::make_shared<Buffer>(std::move(*copy));
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

LogicalResult Machine::hold(unsigned slot) {
  Slot &value = frame[slot];
  if (!value.lazy)
    return success();
  FailureOr<std::shared_ptr<Buffer>> held = materialize(*value.lazy);
  if (failed(held))
    return failure();
  value.buffer = std::move(*held);
  value.lazy.reset();
  return success();
}

FailureOr<int64_t> Machine::element(const Instr &instr, const Buffer &buf) {
  const Access &access = instr.access;
  int64_t linear = 0;
  SmallVector<int64_t, 8> operands;
  for (auto [d, dim] : llvm::enumerate(access.dims)) {
    int64_t i;
    if (!dim.expr) {
      i = dim.constant;
      for (auto [pos, coef] : dim.terms)
        i = wrapMulAdd(i, coef, index(instr.in[access.first + pos]));
    } else {
      if (operands.empty())
        for (unsigned k = 0; k < access.count; ++k)
          operands.push_back(index(instr.in[access.first + k]));
      std::optional<int64_t> v =
          evaluateAffineExpr(dim.expr, operands, access.numMapDims);
      if (!v)
        return instr.op->emitOpError("divides by a non-positive value in its "
                                     "index");
      i = *v;
    }
    int64_t size = buf.shape[d];
    if (i < 0 || i >= size)
      return instr.op->emitOpError("accesses index ")
             << i << " of dimension " << d << " of size " << size;
    linear = linear * size + i;
  }
  return linear;
}

LogicalResult Machine::exec(const Instr &instr) {
  if (instr.code <= Opcode::LastScalar) {
    // The hottest f32 ops skip evalScalar's dispatch; float arithmetic
    // rounds as rounding the double result does.
    if (instr.in.size() == 2 && isF32(instr.type)) {
      auto a = static_cast<float>(scalar(instr.in[0]));
      auto b = static_cast<float>(scalar(instr.in[1]));
      double &out = scalar(instr.out[0]);
      switch (instr.code) {
      case Opcode::AddF:
        out = a + b;
        return success();
      case Opcode::SubF:
        out = a - b;
        return success();
      case Opcode::MulF:
        out = a * b;
        return success();
      case Opcode::DivF:
        out = a / b;
        return success();
      default:
        break;
      }
    }
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
    frame[instr.out[0]].lazy = instr.splat;
    return success();
  case Opcode::TensorEmpty: {
    // Reading memory nobody wrote shows up in the results; poison takes no
    // memory until something needs it held.
    auto shaped = cast<ShapedType>(instr.type);
    frame[instr.out[0]].buffer.reset();
    frame[instr.out[0]].lazy =
        makeSplat(instr.op, shaped.getShape(), shaped.getElementType(),
                  poisonValue(shaped.getElementType()));
    return success();
  }
  case Opcode::Alloc: {
    auto shaped = cast<ShapedType>(instr.type);
    FailureOr<std::shared_ptr<Buffer>> buffer = allocateFor(instr.op, shaped);
    if (failed(buffer))
      return failure();
    (*buffer)->data.fill(poisonValue(shaped.getElementType()));
    frame[instr.out[0]].buffer = std::move(*buffer);
    return success();
  }
  case Opcode::AffineApply:
    return execAffineApply(instr);
  case Opcode::Elementwise:
    return execElementwise(instr);
  case Opcode::Reduce: {
    FailureOr<std::shared_ptr<Buffer>> result =
        reduce(cast<dtensor::ReduceOp>(instr.op), tensor(instr.in[0]));
    if (failed(result))
      return failure();
    frame[instr.out[0]].buffer = std::move(*result);
    frame[instr.out[0]].lazy.reset();
    return success();
  }
  case Opcode::IndexMap:
    return execIndexMap(instr);
  case Opcode::MemLoad:
  case Opcode::LoopLoad: {
    Buffer &buf = buffer(instr.in[0]);
    FailureOr<int64_t> e = element(instr, buf);
    if (failed(e))
      return failure();
    scalar(instr.out[0]) = buf.get(*e);
    return success();
  }
  case Opcode::MemStore:
  case Opcode::LoopStore: {
    Buffer &buf = buffer(instr.in[1]);
    FailureOr<int64_t> e = element(instr, buf);
    if (failed(e))
      return failure();
    double v = scalar(instr.in[0]);
    if (instr.reduce)
      v = reduceCombine(*instr.reduce, instr.type, buf.get(*e), v);
    buf.set(*e, v);
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
    if (instr.simt) {
      // One iteration of its lane loop per lane of the SIMT engine.
      SmallVector<std::shared_ptr<Buffer>, 4> buffers;
      for (unsigned slot : instr.in)
        buffers.push_back(frame[slot].buffer);
      return simt::run(instr, buffers);
    }
    const interp::Block &body = *instr.regions[0];
    for (auto [arg, in] : llvm::zip(body.args, instr.in))
      frame[arg] = frame[in];
    return runBlock(body);
  }
  case Opcode::LoopFor:
    return runLoop(instr, 0, instr.extent, 1, /*firstInit=*/0);
  case Opcode::TileKernel:
  case Opcode::KernelLaunch: {
    // GPU-level kernels run on the SIMT engine, over the frame's buffers.
    SmallVector<std::shared_ptr<Buffer>, 4> buffers;
    for (unsigned slot : instr.in)
      buffers.push_back(frame[slot].buffer);
    return simt::run(instr, buffers);
  }
  case Opcode::ScfFor:
    return execScfFor(instr);
  case Opcode::ScfIf:
    return execScfIf(instr);
  case Opcode::Return:
    return execReturn(instr);
  case Opcode::Nop:
    return success();
  default:
    return instr.op->emitOpError("cannot be interpreted");
  }
}

LogicalResult Machine::execReturn(const Instr &instr) {
  for (auto [i, slot, operand] :
       llvm::enumerate(instr.in, instr.op->getOperands())) {
    if (!isa<ShapedType>(operand.getType())) {
      // A scalar result is returned as a 0-d buffer.
      Buffer scalar({}, operand.getType());
      scalar.set(0, frame[slot].s);
      results->push_back(std::move(scalar));
      continue;
    }
    if (failed(hold(slot)))
      return failure();
    // The frame's buffer moves out when nothing else can see it.
    std::shared_ptr<Buffer> &held = frame[slot].buffer;
    bool again = llvm::is_contained(ArrayRef(instr.in).drop_front(i + 1), slot);
    if (held.use_count() == 1 && !again) {
      results->push_back(std::move(*held));
      held.reset();
      continue;
    }
    llvm::Expected<Buffer> copy = held->clone();
    if (!copy)
      return instr.op->emitOpError("cannot be interpreted within the memory "
                                   "limit: ")
             << llvm::toString(copy.takeError());
    results->push_back(std::move(*copy));
  }
  return success();
}

LogicalResult Machine::execElementwise(const Instr &instr) {
  SmallVector<TensorValue, 4> inputs;
  for (unsigned slot : instr.in)
    inputs.push_back(tensor(slot));
  Slot &out = frame[instr.out[0]];
  out.buffer.reset();
  out.lazy = makeElementwise(instr.op, cast<ShapedType>(instr.type),
                             instr.lanes, inputs);
  // Fused into its one user, or held: several users would each compute it.
  return instr.fused ? success() : hold(instr.out[0]);
}

LogicalResult Machine::execIndexMap(const Instr &instr) {
  SmallVector<TensorValue, 4> sources;
  for (unsigned slot : instr.in)
    sources.push_back(tensor(slot));
  FailureOr<std::shared_ptr<LazyTensor>> lazy =
      makeIndexMap(cast<dtensor::IndexMapOp>(instr.op), sources);
  if (failed(lazy))
    return failure();
  frame[instr.out[0]].buffer.reset();
  frame[instr.out[0]].lazy = std::move(*lazy);
  return success();
}

LogicalResult Machine::execScfFor(const Instr &instr) {
  int64_t lb = index(instr.in[0]), ub = index(instr.in[1]),
          step = index(instr.in[2]);
  if (step <= 0)
    return instr.op->emitOpError("has a non-positive step");
  return runLoop(instr, lb, ub, step, /*firstInit=*/3);
}

LogicalResult Machine::execAffineApply(const Instr &instr) {
  auto apply = cast<affine::AffineApplyOp>(instr.op);
  SmallVector<int64_t, 4> operands;
  for (unsigned slot : instr.in)
    operands.push_back(index(slot));
  AffineMap map = apply.getAffineMap();
  std::optional<int64_t> v =
      evaluateAffineExpr(map.getResult(0), operands, map.getNumDims());
  if (!v)
    return apply.emitOpError("divides by a non-positive value");
  scalar(instr.out[0]) = static_cast<double>(*v);
  return success();
}

LogicalResult Machine::runLoop(const Instr &instr, int64_t lb, int64_t ub,
                               int64_t step, unsigned firstInit) {
  const interp::Block &body = *instr.regions[0];
  unsigned numIters = instr.out.size();
  SmallVector<Slot, 4> carried;
  for (unsigned i = 0; i < numIters; ++i)
    carried.push_back(frame[instr.in[firstInit + i]]);
  // The trip count first: stepping past ub must not overflow.
  uint64_t trips =
      lb < ub ? (static_cast<uint64_t>(ub) - static_cast<uint64_t>(lb) - 1) /
                        static_cast<uint64_t>(step) +
                    1
              : 0;
  if (llvm::Error tooMuch =
          checkWork(workSpent, llvm::SaturatingMultiply(trips, body.minWork),
                    /*estimate=*/true))
    return instr.op->emitOpError("cannot be interpreted: ")
           << llvm::toString(std::move(tooMuch));
  uint64_t limit = getWorkLimit();
  for (uint64_t k = 0; k < trips; ++k) {
    workSpent = llvm::SaturatingAdd(workSpent,
                                    static_cast<uint64_t>(body.instrs.size()));
    if (workSpent > limit)
      return instr.op->emitOpError("stopped: the run ")
             << llvm::toString(checkWork(workSpent, 0, /*estimate=*/false));
    scalar(body.args[0]) = static_cast<double>(
        static_cast<int64_t>(static_cast<uint64_t>(lb) + k * step));
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
        checkedNumElements(input.shape) != input.size())
      return func.emitOpError("argument #")
             << i << " has type " << type << ", but the input is a "
             << RankedTensorType::get(input.shape, input.elementType);
  }
  Machine machine((*program)->numSlots);
  SmallVector<Buffer> results;
  if (failed(machine.runFunction(func, (*program)->body, inputs, results)))
    return failure();
  return results;
}
