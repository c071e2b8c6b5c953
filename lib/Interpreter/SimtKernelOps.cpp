//===- SimtKernelOps.cpp - Kernel IR: ids, sync, copies, reductions -------===//
//
// Barriers need every thread of the block; shuffles and warp reductions
// every thread of the warps taking part (the emitted intrinsics name the
// full warp). cp.async copies are queued per thread in commit groups and
// land at the cp_async_wait that retires their group, as written by the
// issuing thread (others need a barrier before reading them). TMA loads are
// queued on their mbarrier and land when a wait completes its phase: every
// arrival made and the transaction bytes matched. Between issue and landing
// the destination holds NaN, so a missing or short wait shows in results. A
// wait whose phase can no longer complete (lock-step threads cannot arrive
// later) is an error rather than a hang; sides of a divergent branch running
// as tasks (SimtTasks.cpp) wait for each other instead. Atomics are exact and
// applied thread after thread.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

LogicalResult Machine::requireAllThreads(const SInstr &instr,
                                         const Mask &mask) {
  if (mask.count == numThreads)
    return success();
  return error(instr) << "reached by " << mask.count << " of the " << numThreads
                      << " threads" << whichBlock()
                      << "; like a barrier, it needs every thread of the "
                         "block (first missing: thread "
                      <<
         [&] {
           uint32_t t = 0;
           for (uint32_t i = 0; i < mask.count; ++i, ++t)
             if (mask.lanes[i] != t)
               break;
           return t;
         }() << ")";
}

LogicalResult Machine::requireWholeWarps(const SInstr &instr, const Mask &mask,
                                         StringRef why) {
  if (mask.count == numThreads)
    return success();
  SmallVector<uint32_t, 32> active(warpSyncs.size(), 0);
  for (uint32_t i = 0; i < mask.count; ++i)
    ++active[mask.lanes[i] / 32];
  for (auto [warp, count] : llvm::enumerate(active)) {
    uint32_t size = std::min<uint32_t>(32, numThreads - warp * 32);
    if (count != 0 && count != size)
      return error(instr) << "reached by " << count << " of the " << size
                          << " threads of warp " << warp << whichBlock() << "; "
                          << why;
  }
  return success();
}

LogicalResult Machine::execKernelOp(const SInstr &instr, const Mask &mask) {
  switch (instr.kind) {
  case Kind::ThreadId: {
    LaneValue &out = frame[instr.out[0]];
    out.uniform = false;
    std::copy(instr.laneValues[0].begin(), instr.laneValues[0].end(), out.v);
    return success();
  }
  case Kind::LaneId: {
    LaneValue &out = frame[instr.out[0]];
    out.uniform = false;
    for (uint32_t l = 0; l < numThreads; ++l)
      out.v[l] = l % 32;
    return success();
  }
  case Kind::BlockId: {
    LaneValue &out = frame[instr.out[0]];
    out.uniform = true;
    out.u = static_cast<double>(blockCoords[instr.a]);
    return success();
  }
  case Kind::Barrier:
    if (failed(requireAllThreads(instr, mask)))
      return failure();
    barrier();
    return success();
  case Kind::Shuffle:
    return execShuffle(instr, mask);
  case Kind::WarpSync:
    // Each warp's accesses so far are ordered before what its threads do
    // next: for the barrier rule, and for the clocks (what one thread of
    // the warp then releases covers them all).
    if (failed(requireWholeWarps(instr, mask,
                                 "every thread of the warp must take part")))
      return failure();
    for (uint32_t i = 0; i < mask.count; i += 32)
      warpSync(mask.lanes[i] / 32);
    for (uint32_t i = 0; i < mask.count; ++i)
      learnOwnWarp(mask.lanes[i]);
    tick();
    return success();
  case Kind::WarpReduce:
    return execWarpReduce(instr, mask);
  case Kind::TreeReduce:
    return execTreeReduce(instr, mask);
  case Kind::CpAsync:
  case Kind::VectorCopy:
    return execCpAsync(instr, mask);
  case Kind::CpCommit:
    for (uint32_t i = 0; i < mask.count; ++i) {
      ThreadCopies &copies = threadCopies[mask.lanes[i]];
      copies.groups.push_back(std::move(copies.open));
      copies.open.clear();
      if (!copies.spare.empty()) {
        copies.open = std::move(copies.spare.back());
        copies.spare.pop_back();
      }
    }
    return success();
  case Kind::CpWait:
    return execCpWait(instr, mask);
  case Kind::MbInit:
  case Kind::MbArrive:
  case Kind::MbWait:
    return execMbarrier(instr, mask);
  case Kind::TmaLoad:
    return execTmaLoad(instr, mask);
  case Kind::LdMatrix:
    return execLdMatrix(instr, mask);
  case Kind::Mma:
    return execMma(instr, mask);
  case Kind::WgmmaDesc:
  case Kind::WgmmaFence:
  case Kind::WgmmaCommit:
  case Kind::WgmmaWait:
  case Kind::WgmmaMma:
  case Kind::SetMaxNReg:
    return execWgmma(instr, mask);
  case Kind::ClusterRank: {
    LaneValue &out = frame[instr.out[0]];
    out.uniform = true;
    out.u = static_cast<double>(clusterRank);
    return success();
  }
  case Kind::ClusterBarrier:
    return execClusterBarrier(instr, mask);
  case Kind::MbArriveCluster:
    return execMbArriveCluster(instr, mask);
  default:
    return error(instr) << "cannot be interpreted in a kernel";
  }
}

//===----------------------------------------------------------------------===//
// Warp and block reductions
//===----------------------------------------------------------------------===//

LogicalResult Machine::execShuffle(const SInstr &instr, const Mask &mask) {
  if (failed(requireWholeWarps(instr, mask)))
    return failure();
  const LaneValue &value = frame[instr.in[0]];
  const LaneValue &offset = frame[instr.in[1]];
  const LaneValue &width = frame[instr.in[2]];
  auto mode = static_cast<gpu::ShuffleMode>(instr.a);
  double *result = scratch.data(), *valid = scratch2.data();
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i], lane = l % 32, base = l - lane;
    int64_t off = wrapToInt64(offset.at(l));
    int64_t w = wrapToInt64(width.at(l));
    if (w <= 0 || w > 32)
      return error(instr) << "has width " << w << where(l);
    int64_t first = lane / w * w, src = 0;
    bool ok = true;
    switch (mode) {
    case gpu::ShuffleMode::XOR:
      src = lane ^ off;
      ok = src / w <= static_cast<int64_t>(lane) / w && src < 32;
      break;
    case gpu::ShuffleMode::UP:
      src = lane - off;
      ok = src >= first;
      break;
    case gpu::ShuffleMode::DOWN:
      src = lane + off;
      ok = src < first + w;
      break;
    case gpu::ShuffleMode::IDX:
      // PTX wraps the source lane into the segment; it is always valid.
      src = first + off % w;
      break;
    }
    if (!ok)
      src = lane;
    uint32_t from = base + static_cast<uint32_t>(src);
    if (from >= numThreads)
      return error(instr) << "reads lane " << src << " of a warp with only "
                          << numThreads - base << " threads" << where(l);
    result[l] = value.at(from);
    valid[l] = ok ? 1 : 0;
  }
  LaneValue &out = frame[instr.out[0]], &outValid = frame[instr.out[1]];
  out.uniform = outValid.uniform = false;
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    out.v[l] = result[l];
    outValid.v[l] = valid[l];
  }
  for (uint32_t i = 0; i < mask.count; i += 32)
    warpSync(mask.lanes[i] / 32);
  return success();
}

LogicalResult Machine::execWarpReduce(const SInstr &instr, const Mask &mask) {
  if (failed(requireWholeWarps(instr, mask)))
    return failure();
  const LaneValue &value = frame[instr.in[0]];
  LaneValue &out = frame[instr.out[0]];
  auto width = static_cast<uint32_t>(instr.a);
  double *cur = scratch.data(), *next = scratch2.data();
  for (uint32_t i = 0; i < mask.count; ++i)
    cur[mask.lanes[i]] = value.at(mask.lanes[i]);
  // The butterfly of the emitted code: v = v <op> shfl_xor(v, off).
  for (uint32_t off = width / 2; off > 0; off /= 2) {
    for (uint32_t i = 0; i < mask.count; ++i) {
      uint32_t l = mask.lanes[i], partner = l ^ off;
      if (partner >= numThreads)
        return error(instr) << "needs thread " << partner
                            << ", which the block does not have" << where(l);
      next[l] =
          reduceCombine(instr.reduce, instr.element, cur[l], cur[partner]);
    }
    std::swap(cur, next);
  }
  out.uniform = false;
  for (uint32_t i = 0; i < mask.count; ++i)
    out.v[mask.lanes[i]] = cur[mask.lanes[i]];
  for (uint32_t i = 0; i < mask.count; i += 32)
    warpSync(mask.lanes[i] / 32);
  return success();
}

LogicalResult Machine::execTreeReduce(const SInstr &instr, const Mask &mask) {
  if (failed(requireAllThreads(instr, mask)))
    return failure();
  const View &buffer = *frame[instr.in[0]].view;
  for (int64_t s = instr.a / 2; s > 0; s /= 2) {
    for (int64_t t = 0; t < s; ++t) {
      auto lane = static_cast<uint32_t>(t);
      FailureOr<double> a = read(instr, buffer, t, lane);
      FailureOr<double> b = succeeded(a) ? read(instr, buffer, t + s, lane)
                                         : FailureOr<double>(failure());
      if (failed(b) ||
          failed(write(instr, buffer, t, lane,
                       reduceCombine(instr.reduce, instr.element, *a, *b))))
        return failure();
    }
    barrier();
  }
  FailureOr<double> result = read(instr, buffer, 0, 0);
  if (failed(result))
    return failure();
  for (uint32_t l = 1; l < numThreads; ++l)
    if (failed(read(instr, buffer, 0, l)))
      return failure();
  LaneValue &out = frame[instr.out[0]];
  out.uniform = true;
  out.u = *result;
  return success();
}

LogicalResult Machine::execAtomic(const SInstr &instr, const Mask &mask) {
  const LaneValue &value = frame[instr.in[0]];
  const View &view = *frame[instr.in[1]].view;
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    FailureOr<int64_t> e = element(instr, view, l);
    if (failed(e))
      return failure();
    FailureOr<double> old = read(instr, view, *e, l);
    if (failed(old) || failed(write(instr, view, *e, l,
                                    reduceCombine(instr.reduce, instr.element,
                                                  *old, value.at(l)))))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

/// The row-major element of `view` at the index operands `in[first, ...)`
/// for `lane`, if in bounds.
static FailureOr<int64_t> elementAt(Machine &m, const SInstr &instr,
                                    const View &view, unsigned first,
                                    uint32_t lane, StringRef what) {
  int64_t linear = 0;
  for (auto [d, size] : llvm::enumerate(view.shape)) {
    int64_t i = wrapToInt64(m.frame[instr.in[first + d]].at(lane));
    if (i < 0 || i >= size)
      return m.error(instr)
             << "accesses index " << i << " of dimension " << d << " of size "
             << size << " of its " << what << m.where(lane);
    linear = linear * size + i;
  }
  return linear;
}

LogicalResult Machine::execCpAsync(const SInstr &instr, const Mask &mask) {
  View *src = frame[instr.in[0]].view;
  auto dstAt = static_cast<unsigned>(1 + instr.b);
  View *dst = frame[instr.in[dstAt]].view;
  int64_t bytes = instr.a;
  int64_t elementBytes =
      instr.element.isIndex() ? 8 : instr.element.getIntOrFloatBitWidth() / 8;
  int64_t count = bytes / std::max<int64_t>(elementBytes, 1);
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    // An invalid guarded copy reads nothing and lands zeros; its source
    // indices must still be in bounds, as the address is still formed.
    bool zeros = instr.c && frame[instr.in.back()].at(l) == 0;
    FailureOr<int64_t> from = elementAt(*this, instr, *src, 1, l, "source");
    FailureOr<int64_t> to =
        succeeded(from)
            ? elementAt(*this, instr, *dst, dstAt + 1, l, "destination")
            : FailureOr<int64_t>(failure());
    if (failed(to))
      return failure();
    if (*from + count > src->numElements() || *to + count > dst->numElements())
      return error(instr) << "copies " << bytes << " bytes past the end of "
                          << (*from + count > src->numElements()
                                  ? "its source"
                                  : "its destination")
                          << where(l);
    if (instr.kind == Kind::VectorCopy) {
      // Synchronous: read and written now, like loads and stores.
      for (int64_t k = 0; k < count; ++k) {
        FailureOr<double> v = read(instr, *src, *from + k, l);
        if (failed(v) || failed(write(instr, *dst, *to + k, l, *v)))
          return failure();
      }
      continue;
    }
    // Issuing the copy may already overwrite the destination, which holds
    // nothing defined until the copy lands.
    for (int64_t k = 0; k < count; ++k) {
      int64_t at = address(*dst, *to + k, l);
      if (dst->space == Space::Shared &&
          failed(trackWrite(instr, at, static_cast<int32_t>(l),
                            /*record=*/false)))
        return failure();
      dst->store(at, std::numeric_limits<double>::quiet_NaN());
    }
    threadCopies[l].open.push_back(
        {zeros ? nullptr : src, *from, dst, *to, count});
  }
  return success();
}

LogicalResult Machine::land(const SInstr &instr, const ElementCopy &copy,
                            uint32_t lane) {
  for (int64_t k = 0; k < copy.count; ++k) {
    // A copy without a source (a guarded cp.async that was invalid) lands
    // zeros.
    double v =
        copy.src ? copy.src->load(address(*copy.src, copy.srcElement + k, lane))
                 : 0.0;
    if (failed(write(instr, *copy.dst, copy.dstElement + k, lane, v)))
      return failure();
  }
  return success();
}

LogicalResult Machine::execCpWait(const SInstr &instr, const Mask &mask) {
  auto keep = static_cast<size_t>(instr.a);
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    ThreadCopies &copies = threadCopies[l];
    while (copies.groups.size() > keep) {
      for (const ElementCopy &copy : copies.groups.front())
        if (failed(land(instr, copy, l)))
          return failure();
      copies.spare.push_back(std::move(copies.groups.front()));
      copies.spare.back().clear();
      copies.groups.pop_front();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// mbarriers and TMA
//===----------------------------------------------------------------------===//

void Machine::completePhase(MBarrier &mb) {
  landingAgent = mb.agent;
  for (std::function<void()> &copy : mb.copies)
    copy();
  publishPhase(mb);
  for (auto [into, from] : llvm::zip(mb.remoteReleased, mb.remoteReleasing))
    into = std::max(into, from);
  mb.remoteReleasing.fill(0);
  mb.copies.clear();
  mb.phase ^= 1;
  mb.pending = mb.count;
  mb.expectedBytes = mb.queuedBytes = 0;
  noteProgress();
}

/// Whether every lane of each warp with a lane in `mask` is in it.
static bool wholeWarps(const Mask &mask, uint32_t numThreads) {
  if (mask.count == numThreads)
    return true;
  for (uint32_t i = 0; i < mask.count;) {
    uint32_t warp = mask.lanes[i] / 32;
    uint32_t size = std::min<uint32_t>(32, numThreads - warp * 32);
    if (mask.lanes[i] % 32 != 0 || i + size > mask.count ||
        mask.lanes[i + size - 1] != mask.lanes[i] + size - 1)
      return false;
    i += size;
  }
  return true;
}

LogicalResult Machine::execMbarrier(const SInstr &instr, const Mask &mask) {
  const View &view = *frame[instr.in[0]].view;
  const LaneValue &slot = frame[instr.in[1]];
  if (view.space != Space::Shared)
    return error(instr) << "needs an mbarrier in shared memory";
  // A warp arriving together on one mbarrier releases its accesses.
  bool releasesWarps = instr.kind == Kind::MbArrive && clocksOn &&
                       slot.uniform && wholeWarps(mask, numThreads);
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    int64_t s = wrapToInt64(slot.at(l));
    if (s < 0 || s >= view.numElements())
      return error(instr) << "accesses mbarrier " << s << " of "
                          << view.numElements() << where(l);
    int64_t byte = address(view, s, l);
    if (instr.kind == Kind::MbInit) {
      MBarrier &mb = mbarriers[byte];
      mb = MBarrier();
      mb.count = mb.pending = instr.a;
      mb.agent = (numThreads + 31) / 32 + numBarrierAgents++;
      noteProgress();
      continue;
    }
    auto it = mbarriers.find(byte);
    if (it == mbarriers.end())
      return error(instr) << "uses mbarrier " << s
                          << ", which no mbarrier_init initialised" << where(l);
    if (instr.kind == Kind::MbArrive) {
      MBarrier &mb = it->second;
      if (mb.pending == 0) {
        if (mb.queuedBytes != mb.expectedBytes)
          return error(instr)
                 << "arrives on mbarrier " << s
                 << ", whose phase already has all its arrivals and still "
                    "waits for "
                 << mb.expectedBytes - mb.queuedBytes << " bytes" << where(l);
        completePhase(mb);
      }
      --mb.pending;
      mb.expectedBytes += instr.a;
      release(mb, l, releasesWarps);
      noteProgress();
      continue;
    }
    // mbarrier_wait: the phase of this parity must have completed, or be
    // complete now. Lock-step threads cannot arrive later; sides running as
    // tasks can, so the wait blocks until another task completes it.
    int64_t parity = wrapToInt64(frame[instr.in[2]].at(l)) & 1;
    for (;;) {
      // Another task may have initialised mbarriers (moving this one).
      MBarrier &mb = mbarriers.find(byte)->second;
      if (static_cast<int64_t>(mb.phase) != parity)
        break;
      if (mb.pending == 0 && mb.queuedBytes == mb.expectedBytes) {
        completePhase(mb);
        break;
      }
      Parked parked = park();
      // Another block of the cluster may arrive or multicast into it.
      if (parked == Parked::Alone && cluster)
        parked = parkInCluster(instr);
      if (parked == Parked::Resumed)
        continue;
      if (parked == Parked::Aborted)
        return failure();
      MBarrier &now = mbarriers.find(byte)->second;
      InFlightDiagnostic diag =
          error(instr) << "waits for phase parity " << parity << " of mbarrier "
                       << s << ", which never completes: " << now.pending
                       << " arrivals missing, " << now.queuedBytes << " of "
                       << now.expectedBytes << " expected bytes loaded"
                       << where(l);
      if (parked == Parked::Deadlock)
        diag << "; every other thread of the block is blocked on a wait or "
                "done (a deadlock)";
      if (parked == Parked::ClusterDeadlock)
        diag << "; every block of its cluster is blocked on a wait or done "
                "(a deadlock)";
      return diag;
    }
    acquire(l, mbarriers.find(byte)->second);
    if (cluster)
      acquireRemote(mbarriers.find(byte)->second);
  }
  if (instr.kind == Kind::MbArrive)
    tick();
  // A wait the whole block makes orders what every thread did before the
  // phase completed (its arrivals) before what they do next.
  if (instr.kind == Kind::MbWait && mask.count == numThreads)
    barrier();
  return success();
}

LogicalResult Machine::execTmaLoad(const SInstr &instr, const Mask &mask) {
  auto load = cast<dkernel::TmaLoadOp>(instr.scalar.op);
  View *src = frame[instr.in[0]].view;
  auto rank = static_cast<unsigned>(instr.a);
  View *dst = frame[instr.in[1 + rank]].view;
  const View &mbView = *frame[instr.in[2 + rank]].view;
  const LaneValue &slot = frame[instr.in[3 + rank]];
  bool multicast = instr.in.size() > 4 + rank;
  SmallVector<int64_t, 5> box(load.getDescriptorType().getBoxShape());
  int64_t boxBytes = load.getDescriptorType().getBoxBytes();
  int64_t elementBytes = load.getDescriptorType().getElementBytes();
  int64_t boxElements = *checkedNumElements(box);
  if (dst->space != Space::Shared || mbView.space != Space::Shared)
    return error(instr) << "needs a shared destination and mbarrier";
  if (dst->numElements() * dst->scale < boxBytes)
    return error(instr) << "copies a box of " << boxBytes
                        << " bytes into a destination of "
                        << dst->numElements() * dst->scale << " bytes";
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    int64_t s = wrapToInt64(slot.at(l));
    if (s < 0 || s >= mbView.numElements())
      return error(instr) << "signals mbarrier " << s << " of "
                          << mbView.numElements() << where(l);
    // The blocks the box lands in: this one, or those the mask names (at
    // the same shared offsets, which every block of the kernel shares).
    SmallVector<Machine *, 8> targets = {this};
    if (multicast) {
      targets.clear();
      auto bits = static_cast<uint64_t>(
          wrapToInt64(frame[instr.in[4 + rank]].at(l)) & 0xffff);
      for (unsigned r = 0; bits >> r != 0; ++r) {
        if (!((bits >> r) & 1))
          continue;
        if (r >= clusterSize())
          return error(instr) << "multicasts to cluster rank " << r
                              << ", beyond the cluster's " << clusterSize()
                              << " blocks" << where(l);
        targets.push_back(&clusterBlock(r));
      }
    }
    SmallVector<int64_t, 5> coords;
    for (unsigned d = 0; d < rank; ++d)
      coords.push_back(wrapToInt64(frame[instr.in[1 + d]].at(l)));
    int64_t byteOfMb = address(mbView, s, l);
    for (Machine *m : targets) {
      auto it = m->mbarriers.find(byteOfMb);
      if (it == m->mbarriers.end()) {
        if (m == this)
          return error(instr)
                 << "signals mbarrier " << s
                 << ", which no mbarrier_init initialised" << where(l);
        return error(instr) << "signals mbarrier " << s << m->whichBlock()
                            << ", which no mbarrier_init initialised there "
                               "(initialise, fence_mbarrier_init and "
                               "cluster_barrier before multicasting)"
                            << where(l);
      }
      // The destination may start changing as soon as the copy is issued:
      // what its block read of it must be ordered before the issue.
      for (int64_t b = 0; b < boxBytes; b += elementBytes) {
        int64_t at = dst->offset + swizzleByteOffset(b, instr.b);
        if (m == this && failed(trackWrite(instr, at, static_cast<int32_t>(l),
                                           /*record=*/false)))
          return failure();
        if (m != this && failed(checkMulticastInto(instr, *m, at, l)))
          return failure();
        m->pool[at] = std::numeric_limits<double>::quiet_NaN();
      }
      int64_t swizzle = instr.b;
      it->second.queuedBytes += boxBytes;
      m->noteProgress();
      // The copy lands when `m` completes the phase, maybe after this block
      // finished: it keeps the source view and offset by value.
      it->second.copies.push_back([m, &instr, source = *src,
                                   dstOffset = dst->offset, box, coords,
                                   boxElements, elementBytes, swizzle]() {
        // Elements outside the tensor are filled with zeros.
        SmallVector<int64_t, 5> index(box.size(), 0);
        for (int64_t e = 0; e < boxElements; ++e) {
          int64_t linear = 0;
          bool inside = true;
          for (size_t d = 0; d < box.size(); ++d) {
            int64_t g = coords[d] + index[d];
            inside &= g >= 0 && g < source.shape[d];
            linear = linear * source.shape[d] + g;
          }
          int64_t byte =
              dstOffset + swizzleByteOffset(e * elementBytes, swizzle);
          (void)m->trackWrite(instr, byte, -1);
          m->pool[byte] = inside ? source.load(linear) : 0.0;
          for (int d = static_cast<int>(box.size()) - 1; d >= 0; --d) {
            if (++index[d] < box[d])
              break;
            index[d] = 0;
          }
        }
      });
    }
  }
  return success();
}
