//===- SimtMemory.cpp - Views, accesses and shared-memory races -----------===//
//
// Every access is bounds-checked against the view's logical shape. Shared
// memory (the dkernel pool) is poisoned with NaN at the start of each block
// and race-tracked: a thread reading or writing an element that another
// thread wrote (or read) with no barrier between them, or within one warp no
// warp-synchronous op (shuffle, warp_reduce), is a located error. Lock-step
// execution would otherwise hide a missing barrier.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

FailureOr<int64_t> Machine::element(const SInstr &instr, const View &view,
                                    uint32_t lane) {
  const Access &access = instr.access;
  int64_t linear = 0;
  for (auto [d, dim] : llvm::enumerate(access.dims)) {
    int64_t i;
    if (!dim.expr) {
      i = dim.constant;
      for (auto [pos, coef] : dim.terms)
        i = wrapMulAdd(
            i, coef, wrapToInt64(frame[instr.in[access.first + pos]].at(lane)));
    } else {
      SmallVector<int64_t, 8> operands;
      for (unsigned k = 0; k < access.count; ++k)
        operands.push_back(
            wrapToInt64(frame[instr.in[access.first + k]].at(lane)));
      std::optional<int64_t> v =
          evaluateAffineExpr(dim.expr, operands, access.numMapDims);
      if (!v)
        return error(instr)
               << "divides by a non-positive value in its index" << where(lane);
      i = *v;
    }
    int64_t size = view.shape[d];
    if (i < 0 || i >= size)
      return error(instr) << "accesses index " << i << " of dimension " << d
                          << " of size " << size << where(lane);
    linear = linear * size + i;
  }
  return linear;
}

void Machine::prepare(const SInstr &instr, LinearAccess &prepared) {
  const Access &access = instr.access;
  prepared.base.clear();
  prepared.terms.clear();
  for (auto [d, dim] : llvm::enumerate(access.dims)) {
    int64_t base = dim.constant;
    for (auto [pos, coef] : dim.terms) {
      const LaneValue &v = frame[instr.in[access.first + pos]];
      if (v.uniform)
        base = wrapMulAdd(base, coef, wrapToInt64(v.u));
      else
        prepared.terms.push_back({v.v, coef, static_cast<unsigned>(d)});
    }
    prepared.base.push_back(base);
  }
}

FailureOr<double> Machine::read(const SInstr &instr, const View &view,
                                int64_t e, uint32_t lane) {
  int64_t at = address(view, e, lane);
  if (view.space == Space::Shared && failed(trackRead(instr, at, lane)))
    return failure();
  if (tracksGlobal(view) && failed(trackGlobal(instr, view, at, lane, false)))
    return failure();
  double v = view.load(at);
  if (view.integer && std::isnan(v))
    v = view.intPoison;
  return v;
}

LogicalResult Machine::write(const SInstr &instr, const View &view, int64_t e,
                             uint32_t lane, double value) {
  int64_t at = address(view, e, lane);
  if (view.space == Space::Shared &&
      failed(trackWrite(instr, at, static_cast<int32_t>(lane))))
    return failure();
  if (tracksGlobal(view) && failed(trackGlobal(instr, view, at, lane, true)))
    return failure();
  view.store(at, value);
  return success();
}

/// Per-lane element indices of an access: linear accesses with the uniform
/// operands folded in once, the others through Machine::element.
namespace {
struct Elements {
  Elements(Machine &m, const SInstr &instr, const View &view)
      : m(m), instr(instr), view(view),
        fast(instr.access.linear && view.shape.size() <= 8) {
    if (fast)
      m.prepare(instr, access);
  }
  FailureOr<int64_t> operator()(uint32_t lane) {
    if (fast) {
      int64_t e = Machine::linearElement(access, view.shape, lane);
      if (e >= 0)
        return e;
    }
    return m.element(instr, view, lane); // Also reports out-of-bounds.
  }
  Machine &m;
  const SInstr &instr;
  const View &view;
  bool fast;
  Machine::LinearAccess access;
};
} // namespace

LogicalResult Machine::execLoad(const SInstr &instr, const Mask &mask) {
  const View &view = *frame[instr.in[0]].view;
  LaneValue &out = frame[instr.out[0]];
  bool uniform = view.laneStride == 0;
  for (unsigned k = 0; k < instr.access.count && uniform; ++k)
    uniform &= frame[instr.in[instr.access.first + k]].uniform;
  if (uniform) {
    // One address for every lane.
    FailureOr<int64_t> e = element(instr, view, mask.lanes[0]);
    if (failed(e))
      return failure();
    if (view.space == Space::Shared)
      for (uint32_t i = 1; i < mask.count; ++i)
        if (failed(trackRead(instr, address(view, *e, mask.lanes[i]),
                             mask.lanes[i])))
          return failure();
    FailureOr<double> v = read(instr, view, *e, mask.lanes[0]);
    if (failed(v))
      return failure();
    out.uniform = true;
    out.u = *v;
    return success();
  }
  out.uniform = false;
  bool shared = view.space == Space::Shared;
  bool global = tracksGlobal(view);
  if (instr.access.linear && view.shape.size() <= 8 && !global) {
    // One varying index (the common gather): the other indices are the same
    // for every lane, checked once, and the address moves by a fixed stride.
    LinearAccess access;
    prepare(instr, access);
    if (access.terms.size() == 1) {
      const LinearAccess::Term &t = access.terms[0];
      int64_t offset = 0, stride = 1, dimStride = 0;
      bool inBounds = true;
      for (int d = static_cast<int>(view.shape.size()) - 1; d >= 0; --d) {
        if (d == static_cast<int>(t.dim)) {
          dimStride = stride;
        } else {
          inBounds &= access.base[d] >= 0 && access.base[d] < view.shape[d];
          offset += access.base[d] * stride;
        }
        stride *= view.shape[d];
      }
      if (inBounds) {
        int64_t size = view.shape[t.dim];
        const float *f32 =
            view.global && view.global->data.storage() == runtime::DType::F32
                ? view.global->data.as<float>()
                : nullptr;
        for (uint32_t i = 0; i < mask.count; ++i) {
          uint32_t l = mask.lanes[i];
          int64_t idx =
              wrapMulAdd(access.base[t.dim], t.coef, wrapToInt64(t.lanes[l]));
          if (idx < 0 || idx >= size) {
            (void)element(instr, view, l); // Reports it.
            return failure();
          }
          int64_t at = address(view, offset + idx * dimStride, l);
          if (shared && failed(trackRead(instr, at, l)))
            return failure();
          double v = f32 ? f32[at] : view.load(at);
          if (view.integer && std::isnan(v))
            v = view.intPoison;
          out.v[l] = v;
        }
        return success();
      }
    }
  }
  Elements elements(*this, instr, view);
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    FailureOr<int64_t> e = elements(l);
    if (failed(e))
      return failure();
    int64_t at = address(view, *e, l);
    if (shared && failed(trackRead(instr, at, l)))
      return failure();
    if (global && failed(trackGlobal(instr, view, at, l, false)))
      return failure();
    double v = view.load(at);
    if (view.integer && std::isnan(v))
      v = view.intPoison;
    out.v[l] = v;
  }
  return success();
}

LogicalResult Machine::execStore(const SInstr &instr, const Mask &mask) {
  const LaneValue &value = frame[instr.in[0]];
  const View &view = *frame[instr.in[1]].view;
  Elements elements(*this, instr, view);
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    FailureOr<int64_t> e = elements(l);
    if (failed(e))
      return failure();
    double v = value.at(l);
    if (instr.reduces) {
      // A reducing store folds into the element, thread after thread.
      FailureOr<double> old = read(instr, view, *e, l);
      if (failed(old))
        return failure();
      v = reduceCombine(instr.reduce, instr.element, *old, v);
    }
    if (failed(write(instr, view, *e, l, v)))
      return failure();
  }
  return success();
}

LogicalResult Machine::execVectorAccess(const SInstr &instr, const Mask &mask) {
  bool load = instr.kind == Kind::VectorLoad;
  auto count = static_cast<int64_t>(load ? instr.out.size() : instr.a);
  const View &view = *frame[instr.in[load ? 0 : count]].view;
  if (load)
    for (unsigned out : instr.out)
      frame[out].uniform = false;
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    FailureOr<int64_t> e = element(instr, view, l);
    if (failed(e))
      return failure();
    // A slab's rows may be padded in shared memory; its creator proved the
    // padded rows aligned. Other buffers start aligned, so the element
    // index says it.
    if (*e % count != 0 && view.space != Space::Slab)
      return error(instr) << "accesses a run of " << count
                          << " elements at element " << *e
                          << ", which is not aligned to the run" << where(l);
    if (*e + count > view.size)
      return error(instr) << "accesses a run past the end of its buffer"
                          << where(l);
    for (int64_t k = 0; k < count; ++k) {
      if (load) {
        FailureOr<double> v = read(instr, view, *e + k, l);
        if (failed(v))
          return failure();
        frame[instr.out[k]].v[l] = *v;
      } else if (failed(
                     write(instr, view, *e + k, l, frame[instr.in[k]].at(l)))) {
        return failure();
      }
    }
  }
  return success();
}

void Machine::execAlloca(const SInstr &instr, const Mask &mask) {
  View &view = views[instr.views[0]];
  frame[instr.out[0]].view = &view;
  // A fresh per-thread array: poisoned for the threads that allocate it.
  double nan = std::numeric_limits<double>::quiet_NaN();
  int64_t n = view.laneStride;
  for (uint32_t i = 0; i < mask.count; ++i) {
    double *first = view.local + mask.lanes[i] * n;
    std::fill(first, first + n, nan);
  }
}

//===----------------------------------------------------------------------===//
// Races on the shared pool
//===----------------------------------------------------------------------===//

/// Whether an access by `lane` after one by `other` (stamped `barriersThen`,
/// `warpSyncsThen`) is ordered: a barrier or, in the same warp, a
/// warp-synchronous op came between.
static bool ordered(uint32_t barriersNow, uint32_t barriersThen, uint32_t warp,
                    int32_t otherWarp, uint32_t warpSyncsNow,
                    uint32_t warpSyncsThen) {
  if (barriersNow != barriersThen)
    return true;
  return otherWarp == static_cast<int32_t>(warp) &&
         warpSyncsNow != warpSyncsThen;
}

LogicalResult Machine::trackRead(const SInstr &instr, int64_t byte,
                                 uint32_t lane) {
  PoolAccess &a = poolAccess[byte];
  if (a.generation != generation) {
    a = PoolAccess();
    a.generation = generation;
  }
  uint32_t warp = lane / 32;
  if (a.writer >= 0 && a.writer != static_cast<int32_t>(lane) &&
      !ordered(barriers, a.writeBarriers, warp, a.writer / 32, warpSyncs[warp],
               a.writeWarpSyncs) &&
      !knows(lane, a.writeAgent, a.writeStamp))
    return error(instr) << "reads shared memory (pool byte " << byte
                        << ") that thread " << a.writer
                        << " wrote with no barrier between" << where(lane);
  stampRead(a, lane, a.reader == -1 || a.readBarriers != barriers);
  if (a.reader == -1 || a.readBarriers != barriers) {
    a.reader = static_cast<int32_t>(lane);
    a.readerWarp = static_cast<int32_t>(warp);
  } else {
    if (a.reader != static_cast<int32_t>(lane))
      a.reader = -2;
    if (a.readerWarp != static_cast<int32_t>(warp))
      a.readerWarp = -2;
  }
  a.readBarriers = barriers;
  a.readWarpSyncs = warpSyncs[warp];
  return success();
}

LogicalResult Machine::trackWrite(const SInstr &instr, int64_t byte,
                                  int32_t lane, bool record) {
  if (failed(checkWgmmaReaders(instr, byte, lane)))
    return failure();
  PoolAccess &a = poolAccess[byte];
  if (a.generation != generation) {
    a = PoolAccess();
    a.generation = generation;
  }
  if (lane >= 0) {
    uint32_t warp = static_cast<uint32_t>(lane) / 32;
    auto self = static_cast<uint32_t>(lane);
    if (a.writer >= 0 && a.writer != lane &&
        !ordered(barriers, a.writeBarriers, warp, a.writer / 32,
                 warpSyncs[warp], a.writeWarpSyncs) &&
        !knows(self, a.writeAgent, a.writeStamp))
      return error(instr) << "writes shared memory (pool byte " << byte
                          << ") that thread " << a.writer
                          << " wrote with no barrier between" << where(self);
    // With tasks, a TMA copy's bytes are the waiters' until they release
    // them: overwriting them unordered may clobber what they have not read.
    if (clocksOn && a.writer == -1 && a.writeStamp != 0 &&
        a.writeBarriers == barriers && !knows(self, a.writeAgent, a.writeStamp))
      return error(instr) << "overwrites shared memory (pool byte " << byte
                          << ") that a TMA load landed in, with neither a "
                             "barrier nor a wait that orders the threads "
                             "reading it before"
                          << where(self);
    if (a.reader != -1 && a.reader != lane && a.readBarriers == barriers &&
        !(a.readerWarp == static_cast<int32_t>(warp) &&
          a.readWarpSyncs != warpSyncs[warp]) &&
        !knowsReads(a, self))
      return error(instr) << "writes shared memory (pool byte " << byte
                          << ") that "
                          << (a.reader >= 0
                                  ? "thread " + std::to_string(a.reader)
                                  : std::string("other threads"))
                          << " read with no barrier between" << where(self);
  }
  if (!record)
    return success();
  a.writer = lane;
  a.writeBarriers = barriers;
  a.writeStamp = now;
  a.writeAgent = static_cast<uint16_t>(
      lane >= 0 ? warpAgent(static_cast<uint32_t>(lane)) : landingAgent);
  a.stampedReaders = 0;
  a.writeWarpSyncs = lane >= 0 ? warpSyncs[lane / 32] : 0;
  a.reader = -1;
  a.readerWarp = -1;
  return success();
}
