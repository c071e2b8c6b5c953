//===- SimtTileOps.cpp - dtile.stage, dtile.combine, dtile.async_wait -----===//
//
// A stage copies a box of a buffer into a per-block slab (one per `buffers`
// slot), poisoned with NaN at the start of each block. A `sync` stage lands
// at once; a `cp_async` or `tma` stage poisons its slab when issued and
// lands at the `dtile.async_wait` that leaves at most `keep` stages in
// flight, or that names its slab, so reading a slab before its wait, or
// refilling a slab that is still being read, shows up as NaN in the results.
// Each async stage is one unit of `keep`. All three ops synchronise the block:
// every thread must reach them.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include <algorithm>
#include <functional>

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

/// The value of index operand `slot` on the lanes of `mask`, which must all
/// agree; fails with a located error naming `what` otherwise.
static FailureOr<int64_t> uniformIndex(Machine &m, const SInstr &instr,
                                       const LaneValue &slot, const Mask &mask,
                                       StringRef what) {
  double v = slot.at(mask.lanes[0]);
  if (!slot.uniform)
    for (uint32_t i = 1; i < mask.count; ++i)
      if (slot.v[mask.lanes[i]] != v)
        return m.error(instr)
               << "has a " << what << " that differs across threads ("
               << wrapToInt64(v) << m.where(mask.lanes[0]) << ", "
               << wrapToInt64(slot.v[mask.lanes[i]]) << m.where(mask.lanes[i])
               << ")";
  return wrapToInt64(v);
}

LogicalResult Machine::execStage(const SInstr &instr, const Mask &mask) {
  auto stage = cast<dtile::StageOp>(instr.scalar.op);
  if (failed(requireAllThreads(instr, mask)))
    return failure();
  View *source = frame[instr.in[0]].view;
  // The origin, which every thread must agree on.
  unsigned rank = instr.access.dims.size();
  SmallVector<int64_t, 4> origin(rank);
  for (unsigned d = 0; d < rank; ++d) {
    const Access::Dim &dim = instr.access.dims[d];
    SmallVector<int64_t, 4> values;
    for (uint32_t i = 0; i < mask.count; ++i) {
      uint32_t l = mask.lanes[i];
      int64_t v = dim.constant;
      if (dim.expr) {
        SmallVector<int64_t, 8> operands;
        for (unsigned k = 0; k < instr.access.count; ++k)
          operands.push_back(wrapToInt64(frame[instr.in[1 + k]].at(l)));
        std::optional<int64_t> e =
            evaluateAffineExpr(dim.expr, operands, instr.access.numMapDims);
        if (!e)
          return error(instr) << "divides by a non-positive value in its "
                                 "origin"
                              << where(l);
        v = *e;
      } else {
        for (auto [pos, coef] : dim.terms)
          v = wrapMulAdd(v, coef, wrapToInt64(frame[instr.in[1 + pos]].at(l)));
      }
      if (i == 0)
        origin[d] = v;
      else if (v != origin[d])
        return error(instr) << "has an origin that differs across threads "
                               "in dimension "
                            << d << " (" << origin[d] << where(mask.lanes[0])
                            << ", " << v << where(l) << ")";
      bool anyVarying = false;
      for (unsigned k = 0; k < instr.access.count; ++k)
        anyVarying |= !frame[instr.in[1 + k]].uniform;
      if (!anyVarying)
        break;
    }
  }
  int64_t slotIndex = 0;
  if (stage.getSlot()) {
    FailureOr<int64_t> s =
        uniformIndex(*this, instr, frame[instr.in[1 + instr.a]], mask, "slot");
    if (failed(s))
      return failure();
    if (*s < 0 || *s >= static_cast<int64_t>(instr.views.size()))
      return error(instr) << "fills slot " << *s << " of " << instr.views.size()
                          << " buffers" << whichBlock();
    slotIndex = *s;
  }
  View *slab = &views[instr.views[slotIndex]];
  frame[instr.out[0]].view = slab;
  // The box in source order; a transposed slab holds its two innermost
  // dimensions swapped.
  ArrayRef<int64_t> box = stage.getBox();
  // A zero-filled box may reach past the end of the source.
  bool zeroFill = stage.getZeroFill();
  for (unsigned d = 0; d < rank; ++d)
    if (origin[d] < 0 || (!zeroFill && origin[d] + box[d] > source->shape[d]))
      return error(instr) << "copies indices [" << origin[d] << ", "
                          << origin[d] + box[d] << ") of dimension " << d
                          << " of size " << source->shape[d] << whichBlock();

  // A computed stage's element at linear index `from` of the source: its
  // apply region on the source's element and its buffers' (of the source's
  // shape). Unset for a plain copy, which reads the source directly.
  std::function<double(int64_t)> read;
  if (instr.apply) {
    SmallVector<View *, 2> inputs;
    unsigned first = 1 + instr.a + (stage.getSlot() ? 1 : 0);
    for (unsigned i = first, e = instr.in.size(); i < e; ++i)
      inputs.push_back(frame[instr.in[i]].view);
    read = [source, inputs, apply = instr.apply](int64_t from) {
      SmallVector<double, 4> args{source->load(from)};
      for (View *input : inputs)
        args.push_back(input->load(from));
      return apply->run(args);
    };
  }
  std::function<void()> copy;
  if (stage.getTranspose())
    copy = [source, slab, read, box = SmallVector<int64_t, 4>(box), origin]() {
      unsigned rank = box.size();
      ArrayRef<int64_t> shape = slab->shape;
      SmallVector<int64_t, 4> index(rank, 0);
      for (int64_t e = 0, n = slab->numElements(); e < n; ++e) {
        int64_t from = 0, to = 0;
        bool inside = true;
        for (unsigned d = 0; d < rank; ++d) {
          int64_t i = origin[d] + index[d];
          inside &= i < source->shape[d];
          from = from * source->shape[d] + std::min(i, source->shape[d] - 1);
          // Slab dimension d holds box dimension boxDim.
          unsigned boxDim = d + 2 >= rank ? 2 * rank - 3 - d : d;
          to = to * shape[d] + index[boxDim];
        }
        slab->local[to] = !inside ? 0.0
                          : read  ? read(from)
                                  : source->load(from);
        for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
          if (++index[d] < box[d])
            break;
          index[d] = 0;
        }
      }
    };
  else
    copy = [source, slab, read, origin = std::move(origin)]() {
      ArrayRef<int64_t> box = slab->shape;
      unsigned rank = box.size();
      int64_t inner = rank ? box[rank - 1] : 1;
      int64_t rows = slab->numElements() / std::max<int64_t>(inner, 1);
      SmallVector<int64_t, 4> index(rank, 0);
      double *dst = slab->local;
      for (int64_t row = 0; row < rows; ++row) {
        // Elements past the end of the source (zero_fill) read as zero.
        int64_t from = 0, valid = inner;
        for (unsigned d = 0; d < rank; ++d) {
          int64_t i = origin[d] + index[d];
          if (i >= source->shape[d])
            valid = 0;
          from = from * source->shape[d] + std::min(i, source->shape[d] - 1);
        }
        if (rank && valid)
          valid = std::clamp<int64_t>(
              source->shape[rank - 1] - origin[rank - 1], 0, inner);
        for (int64_t k = 0; k < valid; ++k)
          dst[row * inner + k] = read ? read(from + k) : source->load(from + k);
        std::fill(dst + row * inner + valid, dst + (row + 1) * inner, 0.0);
        for (int d = static_cast<int>(rank) - 2; d >= 0; --d) {
          if (++index[d] < box[d])
            break;
          index[d] = 0;
        }
      }
    };
  if (dtile::isSynchronous(stage.getTransport())) {
    copy();
    return success();
  }
  // In flight, the slab holds nothing defined: reading it before the wait,
  // or refilling a slab still being read, shows up as NaN.
  std::fill(slab->local, slab->local + slab->size,
            std::numeric_limits<double>::quiet_NaN());
  stagesInFlight.push_back({slab, std::move(copy)});
  return success();
}

LogicalResult Machine::execAsyncWait(const SInstr &instr, const Mask &mask) {
  if (failed(requireAllThreads(instr, mask)))
    return failure();
  if (instr.in.empty()) {
    while (stagesInFlight.size() > static_cast<size_t>(instr.a)) {
      stagesInFlight.front().copy();
      stagesInFlight.pop_front();
    }
    return success();
  }
  // Named slabs: their stages land, in issue order; the others stay in
  // flight (still NaN), so a wait naming the wrong slab shows in results.
  SmallVector<const View *, 4> named;
  for (unsigned in : instr.in)
    named.push_back(frame[in].view);
  std::deque<StageInFlight> pending;
  for (StageInFlight &stage : stagesInFlight) {
    if (llvm::is_contained(named, stage.slab))
      stage.copy();
    else
      pending.push_back(std::move(stage));
  }
  stagesInFlight = std::move(pending);
  return success();
}

LogicalResult Machine::execCombine(const SInstr &instr, const Mask &mask) {
  if (failed(requireAllThreads(instr, mask)))
    return failure();
  const LaneValue &value = frame[instr.in[0]];
  LaneValue &out = frame[instr.out[0]];
  // Fold each group in thread order; every member gets the result.
  double *result = scratch.data();
  for (const std::vector<uint32_t> &group : instr.groups) {
    double acc = value.at(group[0]);
    for (size_t i = 1; i < group.size(); ++i)
      acc = reduceCombine(instr.reduce, instr.element, acc, value.at(group[i]));
    for (uint32_t l : group)
      result[l] = acc;
  }
  if (instr.groups.size() == 1) {
    out.uniform = true;
    out.u = result[0];
    return success();
  }
  out.uniform = false;
  std::copy(result, result + numThreads, out.v);
  return success();
}
