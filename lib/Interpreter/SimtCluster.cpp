//===- SimtCluster.cpp - Thread-block clusters ----------------------------===//
//
// The blocks of a cluster run at the same time on the GPU and meet at
// cluster barriers, so one cannot run to completion before the next starts.
// A kernel launched in clusters runs one cluster after another; each block
// of a cluster runs on its own Machine (lanes, shared pool) and CPU thread,
// as a task: one block runs at a time (a baton, as for warp roles in
// SimtTasks.cpp, so runs are deterministic and need no locks) until it
// arrives at a cluster barrier that other blocks have not reached, or
// finishes; the next block in rank order that can run then takes over. The
// last block to arrive completes the barrier and runs on. When no block can
// run while some wait at a barrier, the others have finished without it: a
// deadlock, reported at the barrier, never a hang.
//
// The kernel's output buffers are race-tracked between the blocks of a
// cluster (within a block they are not, as without clusters; inputs are
// read-only). A cluster barrier joins the
// clocks of every thread of the cluster, so with all-to-all barriers the
// clock of an access is the number of barriers the cluster completed
// before it (its epoch): an access of another block's element is ordered
// after that block's last write (or reads) when those have an older epoch.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock::interp::simt;

namespace {
/// The last accesses of one global element by the blocks of a cluster.
struct GlobalAccess {
  /// The last write: its block's rank (-1: none), thread and epoch.
  int32_t writer = -1, writerLane = 0;
  uint32_t writeEpoch = 0;
  /// Per rank, the epoch of its last read since that write plus one (0:
  /// none), and its thread.
  std::array<uint32_t, 8> readEpoch{};
  std::array<int32_t, 8> readLane{};
};

/// Waiting: at a cluster barrier; Blocked: at an mbarrier wait, looked at
/// again on its turn.
enum class BlockState : uint8_t { Ready, Waiting, Blocked, Done };
} // namespace

struct deplodock::interp::simt::ClusterRun {
  std::mutex mutex;
  std::condition_variable turn;
  /// The blocks by rank, their states and the rank running.
  llvm::SmallVector<Machine *, 8> blocks;
  llvm::SmallVector<BlockState, 8> state;
  llvm::SmallVector<const SInstr *, 8> waitingAt;
  unsigned running = 0;
  /// Blocks arrived at the current barrier; barriers completed.
  unsigned arrived = 0;
  uint32_t epoch = 0;
  ProgressWatch watch;
  /// Per rank: its block barrier count after the latest cluster barrier
  /// (its accesses before one are ordered before every block's after), and
  /// per rank and other rank, what its waits acquired of the other's
  /// remote arrivals (MBarrier::remoteReleased).
  std::array<uint32_t, 8> afterClusterBarrier{};
  std::array<std::array<uint32_t, 8>, 8> known{};
  bool aborted = false;
  /// The kernel's output buffers, and their elements' last accesses by
  /// buffer and storage index.
  llvm::SmallPtrSet<const Buffer *, 4> written;
  llvm::DenseMap<std::pair<const Buffer *, int64_t>, GlobalAccess> global;
};

/// The block's coordinates, as `whichBlock` prints them: "(x, y, z)".
static std::string coordsOf(const Machine &m) {
  return "(" +
         llvm::join(
             llvm::map_range(m.blockCoords,
                             [](int64_t c) { return std::to_string(c); }),
             ", ") +
         ")";
}

/// Hands the baton from `self` to the next block that can run. Returns
/// false, after reporting the deadlock at a waiting block's barrier, when
/// none can but some wait.
static bool handOver(ClusterRun &run, unsigned self) {
  unsigned size = run.blocks.size();
  for (unsigned k = 1; k <= size; ++k) {
    unsigned r = (self + k) % size;
    if (run.state[r] == BlockState::Ready ||
        run.state[r] == BlockState::Blocked) {
      run.running = r;
      run.turn.notify_all();
      return true;
    }
  }
  auto waiting = llvm::find(run.state, BlockState::Waiting);
  if (waiting == run.state.end())
    return true; // Every block is done.
  unsigned w = waiting - run.state.begin();
  SmallVector<std::string> finished;
  for (unsigned r = 0; r < size; ++r)
    if (run.state[r] == BlockState::Done)
      finished.push_back(coordsOf(*run.blocks[r]));
  run.blocks[w]->error(*run.waitingAt[w])
      << "never completes in block " << coordsOf(*run.blocks[w]) << ": "
      << (finished.size() == 1 ? "block " : "blocks ")
      << llvm::join(finished, ", ") << " of its cluster finished without "
      << "reaching a cluster barrier (a deadlock)";
  run.aborted = true;
  run.turn.notify_all();
  return false;
}

LogicalResult Machine::runClusters() {
  int64_t size = 1;
  for (int64_t extent : kernel.cluster)
    size *= extent;
  // The other blocks of a cluster get machines of their own.
  SmallVector<std::unique_ptr<Machine>, 8> others;
  SmallVector<Machine *, 8> machines = {this};
  for (int64_t r = 1; r < size; ++r) {
    auto machine = std::make_unique<Machine>(kernel, buffers);
    shareWork(*machine);
    if (failed(machine->setUp()))
      return failure();
    machines.push_back(machine.get());
    others.push_back(std::move(machine));
  }
  ArrayRef<int64_t> grid = kernel.grid, shape = kernel.cluster;
  int64_t cx = grid[0] / shape[0], cy = grid[1] / shape[1];
  int64_t numClusters = cx * cy * (grid[2] / shape[2]);
  auto func = cast<dkernel::FuncOp>(kernel.op);
  llvm::SmallPtrSet<const Buffer *, 4> written;
  for (auto [i, arg] : llvm::enumerate(func.getBufferArguments()))
    if (func.isOutput(arg.getArgNumber()))
      written.insert(buffers[i].get());
  bool quiet = quietThread();
  for (int64_t c = 0; c < numClusters; ++c) {
    int64_t origin[3] = {c % cx * shape[0], c / cx % cy * shape[1],
                         c / (cx * cy) * shape[2]};
    ClusterRun run;
    run.blocks = machines;
    run.written = written;
    run.state.assign(size, BlockState::Ready);
    run.waitingAt.assign(size, nullptr);
    std::vector<std::thread> threads;
    llvm::SmallVector<char, 8> ok(size, 0);
    for (int64_t r = 0; r < size; ++r) {
      Machine &m = *machines[r];
      m.startBlock({origin[0] + r % shape[0],
                    origin[1] + r / shape[0] % shape[1],
                    origin[2] + r / (shape[0] * shape[1])});
      m.cluster = &run;
      m.clusterRank = static_cast<unsigned>(r);
    }
    for (int64_t r = 0; r < size; ++r)
      threads.emplace_back([&, r, quiet] {
        quietThread() = quiet;
        Machine &m = *machines[r];
        bool start;
        {
          std::unique_lock<std::mutex> lock(run.mutex);
          run.turn.wait(lock, [&] {
            return run.aborted || run.running == static_cast<unsigned>(r);
          });
          start = !run.aborted;
        }
        bool good = start && succeeded(m.runBlock(kernel.body, m.fullMask));
        std::lock_guard<std::mutex> lock(run.mutex);
        run.state[r] = BlockState::Done;
        if (!good) {
          run.aborted = true;
          run.turn.notify_all();
        } else if (!run.aborted) {
          good = handOver(run, r);
        }
        ok[r] = good;
      });
    for (std::thread &t : threads)
      t.join();
    for (Machine *m : machines)
      m->cluster = nullptr;
    if (run.aborted || llvm::is_contained(ok, 0))
      return failure();
  }
  return success();
}

LogicalResult Machine::execClusterBarrier(const SInstr &instr,
                                          const Mask &mask) {
  if (failed(requireAllThreads(instr, mask)))
    return failure();
  // Every thread of the block takes part: a block barrier too.
  barrier();
  ClusterRun &run = *cluster;
  std::unique_lock<std::mutex> lock(run.mutex);
  if (run.aborted)
    return failure();
  if (++run.arrived == run.blocks.size()) {
    run.arrived = 0;
    ++run.epoch;
    run.watch.note();
    for (auto [r, block] : llvm::enumerate(run.blocks))
      run.afterClusterBarrier[r] = block->barriers;
    for (BlockState &s : run.state)
      if (s == BlockState::Waiting)
        s = BlockState::Ready;
    return success();
  }
  run.state[clusterRank] = BlockState::Waiting;
  run.waitingAt[clusterRank] = &instr;
  if (!handOver(run, clusterRank))
    return failure();
  run.turn.wait(lock,
                [&] { return run.aborted || run.running == clusterRank; });
  return failure(run.aborted);
}

unsigned Machine::clusterSize() const { return cluster->blocks.size(); }

Machine &Machine::clusterBlock(unsigned rank) const {
  return *cluster->blocks[rank];
}

void Machine::noteClusterProgress() { cluster->watch.note(); }

Machine::Parked Machine::parkInCluster(const SInstr &instr) {
  ClusterRun &run = *cluster;
  std::unique_lock<std::mutex> lock(run.mutex);
  if (run.aborted)
    return Parked::Aborted;
  // Round robin, as in SimtTasks.cpp: once every block that can run has
  // come back to its wait with nothing changed, none will change anything.
  auto runnable =
      static_cast<unsigned>(llvm::count_if(run.state, [](BlockState s) {
        return s != BlockState::Waiting && s != BlockState::Done;
      }));
  if (run.watch.stalled(runnable))
    return Parked::ClusterDeadlock;
  run.state[clusterRank] = BlockState::Blocked;
  run.waitingAt[clusterRank] = &instr;
  handOver(run, clusterRank);
  run.turn.wait(lock,
                [&] { return run.aborted || run.running == clusterRank; });
  run.state[clusterRank] = BlockState::Ready;
  return run.aborted ? Parked::Aborted : Parked::Resumed;
}

LogicalResult Machine::execMbArriveCluster(const SInstr &instr,
                                           const Mask &mask) {
  const View &view = *frame[instr.in[0]].view;
  const LaneValue &slot = frame[instr.in[1]];
  const LaneValue &rank = frame[instr.in[2]];
  if (view.space != Space::Shared)
    return error(instr) << "needs an mbarrier in shared memory";
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    int64_t s = wrapToInt64(slot.at(l));
    int64_t r = wrapToInt64(rank.at(l));
    if (s < 0 || s >= view.numElements())
      return error(instr) << "accesses mbarrier " << s << " of "
                          << view.numElements() << where(l);
    if (r < 0 || r >= static_cast<int64_t>(clusterSize()))
      return error(instr) << "arrives in cluster rank " << r
                          << ", beyond the cluster's " << clusterSize()
                          << " blocks" << where(l);
    // Every block lays out shared memory alike: the same offset there.
    Machine &target = clusterBlock(static_cast<unsigned>(r));
    auto it = target.mbarriers.find(address(view, s, l));
    if (it == target.mbarriers.end())
      return error(instr) << "arrives on mbarrier " << s << target.whichBlock()
                          << ", which no mbarrier_init initialised there"
                          << where(l);
    MBarrier &mb = it->second;
    if (mb.pending == 0) {
      if (mb.queuedBytes != mb.expectedBytes)
        return error(instr)
               << "arrives on mbarrier " << s << target.whichBlock()
               << ", whose phase already has all its arrivals and still "
                  "waits for "
               << mb.expectedBytes - mb.queuedBytes << " bytes" << where(l);
      target.completePhase(mb);
    }
    // The arrival carries no clock (the target's clocks only order its own
    // threads' accesses, and this thread made none there), but orders this
    // block's accesses up to its barrier count before a multicast that the
    // target issues after waiting for it.
    --mb.pending;
    mb.remoteReleasing[clusterRank] =
        std::max(mb.remoteReleasing[clusterRank], barriers + 1);
    target.noteProgress();
  }
  return success();
}

void Machine::acquireRemote(const MBarrier &mb) {
  std::array<uint32_t, 8> &known = cluster->known[clusterRank];
  for (auto [k, released] : llvm::zip(known, mb.remoteReleased))
    k = std::max(k, released);
}

LogicalResult Machine::checkMulticastInto(const SInstr &instr,
                                          const Machine &target, int64_t byte,
                                          uint32_t lane) const {
  const PoolAccess &a = target.poolAccess[byte];
  if (a.generation != target.generation || a.reader == -1)
    return success();
  // Ordered: a cluster barrier since the read, or a block barrier in the
  // target between the read and a remote arrival this block waited for.
  // A read in the same interval as that arrival counts as ordered (the
  // pool keeps no finer time), so a read after it there goes unreported.
  unsigned rank = target.clusterRank;
  if (a.readBarriers < cluster->afterClusterBarrier[rank] ||
      a.readBarriers < cluster->known[clusterRank][rank])
    return success();
  return error(instr) << "multicasts into shared memory (pool byte " << byte
                      << ")" << target.whichBlock() << " that "
                      << (a.reader >= 0
                              ? "its thread " + std::to_string(a.reader)
                              : std::string("its threads"))
                      << " read with neither a cluster barrier nor an "
                         "mbarrier_arrive_cluster this block waited for "
                         "between"
                      << where(lane);
}

bool Machine::isWritten(const Buffer &buffer) const {
  return cluster->written.contains(&buffer);
}

LogicalResult Machine::trackGlobal(const SInstr &instr, const View &view,
                                   int64_t at, uint32_t lane, bool isWrite) {
  // Atomics order themselves.
  if (instr.kind == Kind::AtomicStore)
    return success();
  ClusterRun &run = *cluster;
  GlobalAccess &a = run.global[{view.global, at}];
  auto self = static_cast<int32_t>(clusterRank);
  auto describe = [&](int32_t rank, int32_t thread) {
    return "thread " + std::to_string(thread) + " of block " +
           coordsOf(*run.blocks[rank]);
  };
  auto element = [&] {
    return "global memory (element " + std::to_string(at) + ")";
  };
  if (a.writer >= 0 && a.writer != self && a.writeEpoch == run.epoch)
    return error(instr) << (isWrite ? "writes " : "reads ") << element()
                        << " that " << describe(a.writer, a.writerLane)
                        << " wrote with no cluster barrier between"
                        << where(lane);
  if (!isWrite) {
    a.readEpoch[self] = run.epoch + 1;
    a.readLane[self] = static_cast<int32_t>(lane);
    return success();
  }
  for (auto [rank, epoch] : llvm::enumerate(a.readEpoch))
    if (static_cast<int32_t>(rank) != self && epoch == run.epoch + 1)
      return error(instr) << "writes " << element() << " that "
                          << describe(rank, a.readLane[rank])
                          << " read with no cluster barrier between"
                          << where(lane);
  a.writer = self;
  a.writerLane = static_cast<int32_t>(lane);
  a.writeEpoch = run.epoch;
  a.readEpoch.fill(0);
  return success();
}
