//===- SimtTasks.cpp - Divergent sides that wait on each other ------------===//
//
// Lock-step execution runs the sides of a divergent branch one after the
// other. That cannot run a warp-specialised kernel: a producer warp waiting
// on an mbarrier that the consumer warps (the other side) arrive on would
// wait for ever. A divergent `scf.if` whose sides hold an mbarrier wait
// therefore runs each side as a task on a CPU thread of its own. Only one
// task runs at a time (they hand a baton over, so the machine's state needs
// no locks and runs are deterministic): a task runs until it blocks on a
// wait whose phase is not complete, spawns sides of its own, or finishes;
// then the next task that can run, in the order they were spawned after it,
// takes over. A blocked task looks at its wait again when its turn comes.
// When every task that can run has looked at its wait again with no
// mbarrier changing since, none can ever complete: a deadlock, reported at
// the wait, never a hang. In a cluster the block then hands over to the
// other blocks (SimtCluster.cpp), whose arrivals and multicasts may
// complete its waits; the deadlock is the cluster's once none can.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

using namespace mlir;
using namespace deplodock::interp::simt;

/// Whether `task` can take its turn (it is not waiting for its sides).
static bool canRun(const Task &task) {
  return !task.done && task.liveChildren == 0;
}

/// Hands the machine from `self` to the next task that can run (itself if
/// no other can) and, unless `self` is done, waits for its next turn.
static void handOver(TaskSet &set, std::unique_lock<std::mutex> &lock,
                     Task *self) {
  auto at = llvm::find_if(set.tasks, [&](Task &t) { return &t == self; });
  Task *next = nullptr;
  for (auto it = std::next(at);; ++it) {
    if (it == set.tasks.end())
      it = set.tasks.begin();
    if (canRun(*it)) {
      next = &*it;
      break;
    }
    if (it == at)
      break;
  }
  // The block's own thread waits for its sides, which are not all done;
  // some task can always run.
  assert(next && "no task can run");
  set.running = next;
  set.turn.notify_all();
  if (!self->done)
    set.turn.wait(lock, [&] { return set.running == self; });
}

LogicalResult Machine::runSides(const SBlock &first, const Mask &firstMask,
                                const SBlock &second, const Mask &secondMask) {
  if (!tasks) {
    tasks = std::make_unique<TaskSet>();
    tasks->tasks.emplace_back();
    tasks->running = &tasks->tasks.front();
    startClocks();
  }
  TaskSet &set = *tasks;
  Task *self = set.running;
  std::array<Task *, 2> sides;
  {
    std::lock_guard<std::mutex> lock(set.mutex);
    for (Task *&side : sides) {
      side = &set.tasks.emplace_back();
      side->parent = self;
    }
    self->liveChildren = sides.size();
  }
  bool quiet = quietThread();
  auto start = [&](Task *side, const SBlock &block, const Mask &mask) {
    side->thread = std::thread([this, &set, side, &block, &mask, quiet] {
      quietThread() = quiet;
      {
        std::unique_lock<std::mutex> lock(set.mutex);
        set.turn.wait(lock, [&] { return set.running == side; });
      }
      bool ok = !set.aborted && succeeded(runBlock(block, mask));
      std::unique_lock<std::mutex> lock(set.mutex);
      side->failed = !ok;
      set.aborted |= !ok;
      side->done = true;
      --side->parent->liveChildren;
      set.watch.note();
      handOver(set, lock, side);
    });
  };
  start(sides[0], first, firstMask);
  start(sides[1], second, secondMask);
  {
    std::unique_lock<std::mutex> lock(set.mutex);
    handOver(set, lock, self);
  }
  bool failedSide = false;
  for (Task *side : sides) {
    side->thread.join();
    failedSide |= side->failed;
  }
  std::lock_guard<std::mutex> lock(set.mutex);
  set.tasks.remove_if(
      [&](Task &t) { return &t == sides[0] || &t == sides[1]; });
  return failure(failedSide || set.aborted);
}

Machine::Parked Machine::park() {
  if (!tasks)
    return Parked::Alone;
  TaskSet &set = *tasks;
  std::unique_lock<std::mutex> lock(set.mutex);
  if (set.aborted)
    return Parked::Aborted;
  auto runnable = static_cast<unsigned>(llvm::count_if(set.tasks, canRun));
  if (set.watch.stalled(runnable)) {
    // Another block of the cluster may still arrive or multicast: the
    // block parks in the cluster (the caller), its tasks as they are.
    if (cluster)
      return Parked::Alone;
    set.aborted = true;
    return Parked::Deadlock;
  }
  handOver(set, lock, set.running);
  return set.aborted ? Parked::Aborted : Parked::Resumed;
}
