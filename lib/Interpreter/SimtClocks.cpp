//===- SimtClocks.cpp - Happens-before through mbarriers ------------------===//
//
// The race tracker orders accesses by block barriers (SimtMemory.cpp). Sides
// of a divergent branch that run as tasks (SimtTasks.cpp) synchronise
// through mbarriers instead: an arrival releases what the arriving thread
// did and knows, a wait that sees the phase complete acquires it. Once the
// block's first tasks start, vector clocks keep that order:
//
// * every pool access is stamped with the clock `now` and its agent: the
//   accessing thread's warp, or for a TMA copy the mbarrier it landed
//   through;
// * each thread knows, per agent, the stamp up to which that agent's
//   accesses happened before its own next one;
// * an arrival merges the thread's knowledge into the mbarrier's current
//   phase; when a whole warp arrives together (on one mbarrier) its own
//   accesses so far are released too (a thread arriving alone releases only
//   what it knows, as the rest of its warp may still be reading). Then the
//   clock ticks;
// * a warp sync (`dkernel.warp_sync`) lets each thread of the warp know the
//   warp's accesses so far, so that one of them arriving then releases
//   them all;
// * completing a phase adds the TMA copies that landed with it; a wait that
//   sees a phase complete acquires what every completed phase released
//   (waiting on an older phase than the last acquires more than the GPU
//   would promise, a waiver kept for simplicity).
//
// An access the barrier rule finds unordered is still ordered when the
// accessing thread knows of the earlier one. Before the first tasks, the
// clocks are off and only barriers order.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

using namespace deplodock::interp::simt;

/// dst = max(dst, src), component by component.
static void merge(std::vector<uint32_t> &dst,
                  const std::vector<uint32_t> &src) {
  if (dst.size() < src.size())
    dst.resize(src.size(), 0);
  for (size_t i = 0; i < src.size(); ++i)
    dst[i] = std::max(dst[i], src[i]);
}

/// Sets component `agent` of `row` to at least `stamp`.
static void raise(std::vector<uint32_t> &row, unsigned agent, uint32_t stamp) {
  if (row.size() <= agent)
    row.resize(agent + 1, 0);
  row[agent] = std::max(row[agent], stamp);
}

void Machine::startClocks() {
  if (clocksOn)
    return;
  clocksOn = true;
  clocks.assign(numThreads, {});
  for (auto &[byte, mb] : mbarriers) {
    mb.releasing.clear();
    mb.released.clear();
  }
}

void Machine::release(MBarrier &mb, uint32_t lane, bool wholeWarp) {
  if (!clocksOn)
    return;
  merge(mb.releasing, clocks[lane]);
  if (wholeWarp)
    raise(mb.releasing, warpAgent(lane), now);
}

void Machine::learnOwnWarp(uint32_t lane) {
  if (clocksOn)
    raise(clocks[lane], warpAgent(lane), now);
}

void Machine::acquire(uint32_t lane, const MBarrier &mb) {
  if (clocksOn)
    merge(clocks[lane], mb.released);
}

void Machine::publishPhase(MBarrier &mb) {
  if (!clocksOn)
    return;
  if (!mb.copies.empty())
    raise(mb.releasing, mb.agent, now);
  merge(mb.released, mb.releasing);
  mb.releasing.clear();
  ++now;
}

bool Machine::knowsReads(const PoolAccess &a, uint32_t lane) const {
  if (!clocksOn || a.stampedReaders < 0)
    return false;
  for (int8_t i = 0; i < a.stampedReaders; ++i)
    if (!knows(lane, a.readAgents[i], a.readStamps[i]))
      return false;
  return true;
}

void Machine::stampRead(PoolAccess &a, uint32_t lane, bool fresh) {
  if (fresh)
    a.stampedReaders = 0;
  if (a.stampedReaders < 0)
    return;
  auto warp = static_cast<uint8_t>(warpAgent(lane));
  for (int8_t i = 0; i < a.stampedReaders; ++i)
    if (a.readAgents[i] == warp) {
      a.readStamps[i] = now;
      return;
    }
  if (a.stampedReaders == static_cast<int8_t>(a.readAgents.size())) {
    a.stampedReaders = -1;
    return;
  }
  a.readAgents[a.stampedReaders] = warp;
  a.readStamps[a.stampedReaders++] = now;
}
