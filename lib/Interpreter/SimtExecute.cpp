//===- SimtExecute.cpp - Launches, blocks, control flow, scalars ----------===//
//
// Lanes and masks: every slot holds one double per thread of the block, or
// one uniform double. Pure ops compute on the active lanes only (uniform
// operands give a uniform result, computed once). `scf.if` on a per-lane
// condition runs the then-side under the lanes that take it, then the
// else-side under the others, and merges its results lane by lane (sides
// that may wait on each other's mbarrier arrivals run as tasks instead,
// SimtTasks.cpp). A loop
// whose bounds differ across lanes runs while any lane is still in range,
// masking the lanes that are done; a loop with uniform bounds runs under the
// mask it was reached with.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

//===----------------------------------------------------------------------===//
// Launches and blocks
//===----------------------------------------------------------------------===//

/// Bytes of one element of `type`.
static int64_t bytesOf(Type type) {
  if (type.isIndex())
    return 8;
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

/// Sets the integer poison of `view`.
static void setPoison(View &view) {
  view.integer = !isa<FloatType>(view.elementType);
  if (view.integer)
    view.intPoison = roundTo(view.elementType, -559038737.0);
}

Machine::Machine(const Kernel &kernel, ArrayRef<std::shared_ptr<Buffer>> bufs)
    : kernel(kernel), numThreads(static_cast<uint32_t>(kernel.numThreads)),
      buffers(bufs.begin(), bufs.end()) {}

LogicalResult Machine::setUp() {
  // Slots are staggered so that lane l of different slots does not share
  // its address modulo 4 KiB (which would stall loads behind stores).
  size_t stride = numThreads + 40;
  // What the launch holds besides the host's buffers: lanes, block-local
  // storage, the shared pool and its race tracking.
  uint64_t bytes = static_cast<uint64_t>(kernel.numSlots) * stride * 8 +
                   static_cast<uint64_t>(kernel.smem) *
                       (sizeof(double) + sizeof(PoolAccess));
  for (auto [elements, type] : kernel.storage)
    bytes += static_cast<uint64_t>(elements) * sizeof(double);
  llvm::Expected<Reservation> reserved =
      Reservation::reserve(bytes, "the block-local state of the kernel");
  if (!reserved)
    return kernel.op->emitOpError("cannot be interpreted within the memory "
                                  "limit: ")
           << llvm::toString(reserved.takeError());
  reservation = std::move(*reserved);

  laneStore.assign(static_cast<size_t>(kernel.numSlots) * stride, 0.0);
  frame.resize(kernel.numSlots);
  for (unsigned i = 0; i < kernel.numSlots; ++i)
    frame[i].v = laneStore.data() + static_cast<size_t>(i) * stride;
  for (const std::shared_ptr<Buffer> &buffer : buffers) {
    View view;
    view.global = buffer.get();
    view.shape = buffer->shape;
    view.size = buffer->size();
    view.elementType = buffer->elementType;
    setPoison(view);
    params.push_back(std::move(view));
  }
  for (auto [elements, type] : kernel.storage)
    storage.emplace_back(static_cast<size_t>(elements), 0.0);
  pool.assign(static_cast<size_t>(kernel.smem), 0.0);
  for (const ViewSpec &spec : kernel.views) {
    View view;
    view.shape = spec.shape;
    view.size = *checkedNumElements(spec.shape);
    view.elementType = spec.elementType;
    view.space = spec.space;
    setPoison(view);
    switch (spec.space) {
    case Space::Shared:
      view.local = pool.data();
      view.offset = spec.offset;
      view.scale = bytesOf(spec.elementType);
      break;
    case Space::Local:
      view.local = storage[spec.offset].data();
      view.laneStride = view.size;
      break;
    default:
      view.local = storage[spec.offset].data();
      break;
    }
    views.push_back(std::move(view));
  }
  for (auto [slot, view] : llvm::zip(kernel.bufferSlots, params))
    frame[slot].view = &view;
  for (auto [slot, index] : kernel.descriptorSlots)
    frame[slot].view = &params[index];
  identity.resize(numThreads);
  for (uint32_t t = 0; t < numThreads; ++t)
    identity[t] = t;
  fullMask = Mask{identity.data(), numThreads, true};
  threadCopies.resize(numThreads);
  warpSyncs.assign((numThreads + 31) / 32, 0);
  poolAccess.resize(kernel.smem);
  scratch.resize(numThreads);
  scratch2.resize(numThreads);
  return success();
}

void Machine::startBlock(ArrayRef<int64_t> coords) {
  blockCoords.assign(coords.begin(), coords.end());
  double nan = std::numeric_limits<double>::quiet_NaN();
  std::fill(pool.begin(), pool.end(), nan);
  for (const ViewSpec &spec : kernel.views)
    if (spec.space == Space::Slab)
      std::fill(storage[spec.offset].begin(), storage[spec.offset].end(), nan);
  stagesInFlight.clear();
  for (ThreadCopies &copies : threadCopies) {
    copies.open.clear();
    copies.groups.clear();
  }
  mbarriers.clear();
  tasks.reset();
  clocksOn = false;
  now = 1;
  numBarrierAgents = 0;
  wgmma.reset(numThreads);
  ++generation;
  barriers = 0;
  std::fill(warpSyncs.begin(), warpSyncs.end(), 0);
}

std::string Machine::whichBlock() const {
  if (kernel.isLoop)
    return "";
  std::string s = " of block (";
  for (auto [i, c] : llvm::enumerate(blockCoords))
    s += (i ? ", " : "") + std::to_string(c);
  return s + ")";
}

std::string Machine::where(uint32_t lane) const {
  if (kernel.isLoop)
    return " in iteration " + kernel.laneAxis + " = " + std::to_string(lane);
  return " in thread " + std::to_string(lane) + whichBlock();
}

LogicalResult Machine::launch() {
  if (failed(checkLaunchWork()) || failed(setUp()))
    return failure();
  for (unsigned index : kernel.zeroInit)
    buffers[index]->data.fill(0.0);
  if (kernel.isTile || kernel.isLoop) {
    // The dtile.tile op loops over the blocks itself; a dloop.kernel is one
    // block.
    startBlock({});
    return runBlock(kernel.body, fullMask);
  }
  if (llvm::Error tooMany = checkThreadCount(kernel.grid, numThreads))
    return kernel.op->emitOpError("cannot be interpreted: ")
           << llvm::toString(std::move(tooMany));
  return runGrid();
}

LogicalResult simt::run(const Instr &instr,
                        ArrayRef<std::shared_ptr<Buffer>> buffers) {
  Machine machine(*instr.simt, buffers);
  return machine.launch();
}

LogicalResult Machine::execTile(const SInstr &instr) {
  const SBlock &body = *instr.regions[0];
  auto numBlockAxes = static_cast<unsigned>(instr.a);
  for (auto [i, values] : llvm::enumerate(instr.laneValues)) {
    LaneValue &slot = frame[body.args[numBlockAxes + i]];
    slot.uniform = false;
    std::copy(values.begin(), values.end(), slot.v);
  }
  ArrayRef<int64_t> extents = kernel.grid;
  SmallVector<int64_t, 3> coords(extents.size(), 0);
  if (llvm::Error tooMany = checkThreadCount(extents, numThreads))
    return kernel.op->emitOpError("cannot be interpreted: ")
           << llvm::toString(std::move(tooMany));
  // At most 2^31 - 1 (checked when compiled).
  int64_t numBlocks = *checkedNumElements(extents);
  for (int64_t b = 0; b < numBlocks; ++b) {
    for (unsigned i = 0; i < numBlockAxes; ++i) {
      frame[body.args[i]].uniform = true;
      frame[body.args[i]].u = static_cast<double>(coords[i]);
    }
    startBlock(coords);
    if (failed(runBlock(body, fullMask)))
      return failure();
    for (int d = static_cast<int>(coords.size()) - 1; d >= 0; --d) {
      if (++coords[d] < extents[d])
        break;
      coords[d] = 0;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Machine::runBlock(const SBlock &block, const Mask &mask) {
  for (const SInstr &instr : block.instrs)
    if (failed(exec(instr, mask)))
      return failure();
  return success();
}

LogicalResult Machine::exec(const SInstr &instr, const Mask &mask) {
  switch (instr.kind) {
  case Kind::Scalar:
    return execScalar(instr, mask);
  case Kind::Constant: {
    LaneValue &out = frame[instr.out[0]];
    out.uniform = true;
    out.u = instr.scalar.constant;
    return success();
  }
  case Kind::AffineApply:
    return execAffineApply(instr, mask);
  case Kind::Nop:
    return success();
  case Kind::Tile:
    return execTile(instr);
  case Kind::LaneLoop: {
    // Every iteration at once, one per lane.
    const SBlock &body = *instr.regions[0];
    LaneValue &iv = frame[body.args[0]];
    iv.uniform = false;
    std::copy(instr.laneValues[0].begin(), instr.laneValues[0].end(), iv.v);
    return runBlock(body, mask);
  }
  case Kind::ScfFor:
  case Kind::LoopFor:
  case Kind::StridedFor:
    return execLoop(instr, mask);
  case Kind::ScfIf:
    return execIf(instr, mask);
  case Kind::VectorLoad:
  case Kind::VectorStore:
    return execVectorAccess(instr, mask);
  case Kind::Load:
    return execLoad(instr, mask);
  case Kind::Store:
  case Kind::AtomicStore:
    return instr.kind == Kind::Store ? execStore(instr, mask)
                                     : execAtomic(instr, mask);
  case Kind::Alloca:
    execAlloca(instr, mask);
    return success();
  case Kind::AllocShared:
    frame[instr.out[0]].view = &views[instr.views[0]];
    return success();
  case Kind::SelectView: {
    // Buffers are uniform: the active threads must agree on the choice.
    const LaneValue &cond = frame[instr.in[0]];
    bool pick = cond.at(mask.lanes[0]) != 0;
    for (uint32_t i = 1; i < mask.count && !cond.uniform; ++i)
      if ((cond.v[mask.lanes[i]] != 0) != pick)
        return error(instr) << "selects different buffers on different "
                               "threads of a block, which a kernel cannot "
                               "express";
    frame[instr.out[0]].view = frame[instr.in[pick ? 1 : 2]].view;
    return success();
  }
  case Kind::Stage:
    return execStage(instr, mask);
  case Kind::Combine:
    return execCombine(instr, mask);
  case Kind::AsyncWait:
    return execAsyncWait(instr, mask);
  default:
    return execKernelOp(instr, mask);
  }
}

LogicalResult Machine::execLoop(const SInstr &instr, const Mask &mask) {
  const SBlock &body = *instr.regions[0];
  // Bounds and the first init operand.
  LaneValue lower, upper, step;
  unsigned firstInit = 0;
  switch (instr.kind) {
  case Kind::ScfFor:
    lower = frame[instr.in[0]];
    upper = frame[instr.in[1]];
    step = frame[instr.in[2]];
    firstInit = 3;
    break;
  case Kind::LoopFor:
    upper.u = static_cast<double>(instr.a);
    step.u = 1;
    break;
  default: // StridedFor
    lower = frame[instr.in[0]];
    upper.u = static_cast<double>(instr.a);
    step.u = static_cast<double>(instr.b);
    firstInit = 1;
    break;
  }
  unsigned numIters = instr.out.size();
  for (unsigned i = 0; i < numIters; ++i)
    assign(frame[body.args[1 + i]], frame[instr.in[firstInit + i]]);

  // Moves the yielded values into the iteration arguments.
  auto carry = [&](const Mask &active, bool whole) {
    const SmallVectorImpl<unsigned> *from = &body.yields;
    if (body.yieldsAliasArgs) {
      for (unsigned i = 0; i < numIters; ++i) {
        assign(frame[instr.temps[i]], frame[body.yields[i]]);
        carryWgmmaGroup(instr.temps[i], body.yields[i]);
      }
      from = &instr.temps;
    }
    for (unsigned i = 0; i < numIters; ++i) {
      carryWgmmaGroup(body.args[1 + i], (*from)[i]);
      if (whole)
        assign(frame[body.args[1 + i]], frame[(*from)[i]]);
      else
        assignLanes(frame[body.args[1 + i]], frame[(*from)[i]], active);
    }
  };

  LaneValue &iv = frame[body.args[0]];
  if (lower.uniform && upper.uniform && step.uniform) {
    int64_t lb = wrapToInt64(lower.u), ub = wrapToInt64(upper.u),
            st = wrapToInt64(step.u);
    if (st <= 0 && lb < ub)
      return error(instr) << "has a non-positive step " << st;
    // The trip count first: stepping past ub must not overflow.
    uint64_t trips =
        lb < ub ? (static_cast<uint64_t>(ub) - static_cast<uint64_t>(lb) - 1) /
                          static_cast<uint64_t>(st) +
                      1
                : 0;
    if (failed(checkLoopWork(instr, trips, mask.count)))
      return failure();
    for (uint64_t k = 0; k < trips; ++k) {
      iv.uniform = true;
      iv.u = static_cast<double>(
          static_cast<int64_t>(static_cast<uint64_t>(lb) + k * st));
      if (failed(chargeWork(instr, mask.count)) || failed(runBlock(body, mask)))
        return failure();
      carry(mask, true);
    }
  } else {
    // Per-lane bounds: run while any lane is in range.
    iv.uniform = false;
    for (uint32_t i = 0; i < mask.count; ++i)
      iv.v[mask.lanes[i]] = lower.at(mask.lanes[i]);
    std::vector<uint32_t> active;
    active.reserve(mask.count);
    for (bool first = true;; first = false) {
      active.clear();
      for (uint32_t i = 0; i < mask.count; ++i) {
        uint32_t l = mask.lanes[i];
        if (iv.v[l] < upper.at(l)) {
          if (first && step.at(l) <= 0)
            return error(instr)
                   << "has a non-positive step " << step.at(l) << where(l);
          active.push_back(l);
        }
      }
      if (active.empty())
        break;
      Mask sub{active.data(), static_cast<uint32_t>(active.size()),
               active.size() == numThreads};
      if (failed(chargeWork(instr, sub.count)) || failed(runBlock(body, sub)))
        return failure();
      carry(sub, active.size() == mask.count);
      for (uint32_t l : active)
        iv.v[l] += step.at(l);
    }
  }
  for (unsigned i = 0; i < numIters; ++i) {
    assign(frame[instr.out[i]], frame[body.args[1 + i]]);
    carryWgmmaGroup(instr.out[i], body.args[1 + i]);
  }
  return success();
}

LogicalResult Machine::execIf(const SInstr &instr, const Mask &mask) {
  const LaneValue &cond = frame[instr.in[0]];
  const SBlock &thenBlock = *instr.regions[0];
  const SBlock &elseBlock = *instr.regions[1];
  auto runOne = [&](const SBlock &branch) -> LogicalResult {
    if (failed(runBlock(branch, mask)))
      return failure();
    for (auto [out, yield] : llvm::zip(instr.out, branch.yields))
      assign(frame[out], frame[yield]);
    return success();
  };
  if (cond.uniform)
    return runOne(cond.u != 0 ? thenBlock : elseBlock);
  std::vector<uint32_t> thenLanes, elseLanes;
  for (uint32_t i = 0; i < mask.count; ++i)
    (cond.v[mask.lanes[i]] != 0 ? thenLanes : elseLanes)
        .push_back(mask.lanes[i]);
  if (elseLanes.empty())
    return runOne(thenBlock);
  if (thenLanes.empty())
    return runOne(elseBlock);
  // Divergence: each side under its lanes, then a per-lane merge.
  Mask thenMask{thenLanes.data(), static_cast<uint32_t>(thenLanes.size()),
                false};
  Mask elseMask{elseLanes.data(), static_cast<uint32_t>(elseLanes.size()),
                false};
  if (instr.c) {
    if (failed(runSides(thenBlock, thenMask, elseBlock, elseMask)))
      return failure();
  } else if (failed(runBlock(thenBlock, thenMask)) ||
             failed(runBlock(elseBlock, elseMask))) {
    return failure();
  }
  for (auto [i, out] : llvm::enumerate(instr.out)) {
    const LaneValue &a = frame[thenBlock.yields[i]];
    const LaneValue &b = frame[elseBlock.yields[i]];
    LaneValue &o = frame[out];
    if (a.view || b.view) {
      if (a.view != b.view)
        return error(instr) << "yields different buffers on different "
                               "threads of a block, which a kernel cannot "
                               "express";
      o.view = a.view;
      continue;
    }
    o.uniform = false;
    for (uint32_t l : thenLanes)
      o.v[l] = a.at(l);
    for (uint32_t l : elseLanes)
      o.v[l] = b.at(l);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

/// Applies `f(lane)` to every lane of `mask`.
template <typename F>
static inline void forLanes(const Mask &mask, uint32_t numThreads, F f) {
  if (mask.full) {
    for (uint32_t l = 0; l < numThreads; ++l)
      f(l);
  } else {
    for (uint32_t i = 0; i < mask.count; ++i)
      f(mask.lanes[i]);
  }
}

/// Binary float ops on f32 that skip evalScalar's dispatch: the same
/// double operation, rounded to f32 as roundTo does.
template <typename Op>
static void binaryF32(const LaneValue &x, const LaneValue &y, LaneValue &out,
                      const Mask &mask, uint32_t n, Op op) {
  auto round = [&](double a, double b) {
    return static_cast<double>(static_cast<float>(op(a, b)));
  };
  // Every lane of two varying operands, or of one and a uniform value:
  // loops the compiler vectorises.
  if (mask.full && !x.uniform && !y.uniform) {
    for (uint32_t l = 0; l < n; ++l)
      out.v[l] = round(x.v[l], y.v[l]);
    return;
  }
  if (mask.full && !x.uniform) {
    for (uint32_t l = 0; l < n; ++l)
      out.v[l] = round(x.v[l], y.u);
    return;
  }
  if (mask.full && !y.uniform) {
    for (uint32_t l = 0; l < n; ++l)
      out.v[l] = round(x.u, y.v[l]);
    return;
  }
  forLanes(mask, n, [&](uint32_t l) { out.v[l] = round(x.at(l), y.at(l)); });
}

/// Integers beyond 2^53 do not survive the engine's double lanes: such a
/// result is refused (the GPU's 64-bit arithmetic would differ) rather than
/// computed inexactly.
static bool isInexactInteger(Type type, double value) {
  constexpr double kExact = 9007199254740992.0; // 2^53
  return std::fabs(value) > kExact && !isa<FloatType>(type);
}

LogicalResult Machine::inexactInteger(const SInstr &instr, double value,
                                      std::optional<uint32_t> lane) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
  return error(instr) << "computes " << text
                      << (lane ? where(*lane) : whichBlock())
                      << ", an integer beyond 2^53, which the interpreter "
                         "cannot hold exactly";
}

LogicalResult Machine::execScalar(const SInstr &instr, const Mask &mask) {
  unsigned n = instr.in.size();
  LaneValue &out = frame[instr.out[0]];
  bool uniform = true;
  for (unsigned k = 0; k < n; ++k)
    uniform &= frame[instr.in[k]].uniform;
  double x[8];
  SmallVector<double, 8> many;
  double *args = x;
  if (n > 8) {
    many.resize(n);
    args = many.data();
  }
  if (uniform) {
    for (unsigned k = 0; k < n; ++k)
      args[k] = frame[instr.in[k]].u;
    double r = evalScalar(instr.scalar, args);
    out.u = r;
    out.uniform = true;
    if (isInexactInteger(instr.scalar.type, r))
      return inexactInteger(instr, r, std::nullopt);
    return success();
  }
  out.uniform = false;
  // The hottest f32 ops skip the dispatch.
  if (n == 2 && isF32(instr.scalar.type)) {
    const LaneValue &a = frame[instr.in[0]], &b = frame[instr.in[1]];
    switch (instr.scalar.code) {
    case Opcode::AddF:
      binaryF32(a, b, out, mask, numThreads,
                [](double p, double q) { return p + q; });
      return success();
    case Opcode::MulF:
      binaryF32(a, b, out, mask, numThreads,
                [](double p, double q) { return p * q; });
      return success();
    case Opcode::SubF:
      binaryF32(a, b, out, mask, numThreads,
                [](double p, double q) { return p - q; });
      return success();
    default:
      break;
    }
  }
  if (n == 2 && instr.onIndex && execSmallInt(instr, mask))
    return success();
  std::optional<uint32_t> inexact;
  forLanes(mask, numThreads, [&](uint32_t l) {
    for (unsigned k = 0; k < n; ++k)
      args[k] = frame[instr.in[k]].at(l);
    out.v[l] = evalScalar(instr.scalar, args);
    if (!inexact && isInexactInteger(instr.scalar.type, out.v[l]))
      inexact = l;
  });
  if (inexact)
    return inexactInteger(instr, out.v[*inexact], inexact);
  return success();
}

LogicalResult Machine::execAffineApply(const SInstr &instr, const Mask &mask) {
  LaneValue &out = frame[instr.out[0]];
  const Access::Dim &dim = instr.access.dims[0];
  bool uniform = true;
  for (unsigned slot : instr.in)
    uniform &= frame[slot].uniform;
  auto eval = [&](uint32_t lane) -> std::optional<int64_t> {
    if (!dim.expr) {
      int64_t v = dim.constant;
      for (auto [pos, coef] : dim.terms)
        v = wrapMulAdd(v, coef, wrapToInt64(frame[instr.in[pos]].at(lane)));
      return v;
    }
    SmallVector<int64_t, 8> operands;
    for (unsigned slot : instr.in)
      operands.push_back(wrapToInt64(frame[slot].at(lane)));
    return evaluateAffineExpr(dim.expr, operands, instr.access.numMapDims);
  };
  auto divError = [&](uint32_t lane) {
    return error(instr) << "divides by a non-positive value" << where(lane);
  };
  if (uniform) {
    std::optional<int64_t> v = eval(0);
    if (!v)
      return divError(0);
    out.uniform = true;
    out.u = static_cast<double>(*v);
    return success();
  }
  out.uniform = false;
  std::optional<uint32_t> badLane;
  forLanes(mask, numThreads, [&](uint32_t l) {
    std::optional<int64_t> v = eval(l);
    if (!v && !badLane)
      badLane = l;
    out.v[l] = v ? static_cast<double>(*v) : 0;
  });
  if (badLane)
    return divError(*badLane);
  return success();
}
