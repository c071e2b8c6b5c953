//===- SimtMachine.h - The lock-step machine of the SIMT engine -*- C++ -*-===//
//
// One Machine runs one launch of a compiled kernel: every block in turn, the
// block's threads in lock step. Shared by the Simt*.cpp files.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_INTERPRETER_SIMTMACHINE_H
#define DEPLODOCK_LIB_INTERPRETER_SIMTMACHINE_H

#include "Simt.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <thread>

namespace deplodock::interp::simt {

/// A copy of `count` consecutive elements queued by one thread (cp.async).
struct ElementCopy {
  /// Null for a zero-filling copy.
  View *src = nullptr;
  int64_t srcElement = 0;
  View *dst = nullptr;
  int64_t dstElement = 0;
  int64_t count = 0;
};

/// One thread's cp.async copies: those not committed yet, then the
/// committed groups, oldest first.
struct ThreadCopies {
  std::vector<ElementCopy> open;
  std::deque<std::vector<ElementCopy>> groups;
  /// Emptied groups, whose storage the next commits reuse.
  std::vector<std::vector<ElementCopy>> spare;
};

/// An mbarrier of the shared pool.
struct MBarrier {
  int64_t count = 0, pending = 0;
  /// Transaction bytes expected by the current phase, and those its queued
  /// TMA loads will bring.
  int64_t expectedBytes = 0, queuedBytes = 0;
  /// Parity of the current (incomplete) phase.
  unsigned phase = 0;
  /// TMA copies that land when the phase completes.
  std::vector<std::function<void()>> copies;
  /// The clock component of its TMA landings (SimtClocks.cpp).
  unsigned agent = 0;
  /// Clocks: what the arrivals of the current phase release, and what the
  /// phases completed so far released (a wait acquires it).
  std::vector<uint32_t> releasing, released;
  /// Per cluster rank, for mbarrier_arrive_cluster: the block barrier count
  /// of that block at its latest remote arrival in the current phase, and
  /// in the phases completed, plus one (0: none). SimtCluster.cpp.
  std::array<uint32_t, 8> remoteReleasing{}, remoteReleased{};
};

/// The blocks of one cluster running together (SimtCluster.cpp).
struct ClusterRun;

/// A side of a divergent branch run as a task of its own (SimtTasks.cpp).
struct Task {
  Task *parent = nullptr;
  unsigned liveChildren = 0;
  bool done = false, failed = false;
  std::thread thread;
};

/// Round-robin deadlock detection for parties that take turns at blocked
/// waits (warp-role tasks, a cluster's blocks): changes of mbarrier state,
/// and the blocked waits seen since the last one.
struct ProgressWatch {
  uint64_t progress = 0, seenProgress = 0;
  unsigned idle = 0;

  /// Notes a change that may let a blocked wait complete.
  void note() { ++progress; }
  /// Counts one more blocked wait; true once more waits than `runnable`
  /// parties came back with nothing changed: none ever will change anything.
  bool stalled(unsigned runnable) {
    if (progress != seenProgress) {
      seenProgress = progress;
      idle = 0;
    }
    return ++idle > runnable;
  }
};

/// The tasks of the current block. One runs at a time: it hands the machine
/// over when it blocks on an mbarrier wait, spawns sides or finishes.
struct TaskSet {
  std::mutex mutex;
  std::condition_variable turn;
  /// The block's own thread first, then the sides in the order spawned.
  std::list<Task> tasks;
  Task *running = nullptr;
  bool aborted = false;
  ProgressWatch watch;
};

/// Who last wrote and read one element of the shared pool, to report data
/// races: accesses by different threads with neither a barrier nor (within
/// a warp) a warp-synchronous op between them.
struct PoolAccess {
  uint32_t generation = 0;
  int32_t writer = -1;
  uint32_t writeBarriers = 0, writeWarpSyncs = 0;
  /// The reader since the last write: a lane, -1 none, -2 several.
  int32_t reader = -1;
  /// The readers' warp: a warp, -1 none, -2 several.
  int32_t readerWarp = -1;
  uint32_t readBarriers = 0, readWarpSyncs = 0;
  /// Clock stamps (SimtClocks.cpp): the last write's (0: none) and its
  /// agent (the writer's warp or the mbarrier a TMA load landed through);
  /// the last read of each reading warp since, -1 readers when there were
  /// more warps than fit.
  uint32_t writeStamp = 0;
  uint16_t writeAgent = 0;
  int8_t stampedReaders = 0;
  std::array<uint8_t, 4> readAgents{};
  std::array<uint32_t, 4> readStamps{};
};

/// The warpgroup MMA state of a block's threads (SimtWgmmaOps.cpp).
struct WgmmaState {
  /// Per thread: a wgmma_fence since its last wait; the groups committed
  /// and those complete.
  std::vector<uint8_t> fenced;
  std::vector<int64_t> committed, completed;
  /// The group (the commit count that closes it) of the op that last wrote
  /// each accumulator slot.
  llvm::DenseMap<unsigned, int64_t> groupOfSlot;
  /// Per pool byte, once a wgmma ran in the block: the group and warpgroup
  /// of the last wgmma that read it, as group * 16 + warpgroup + 1 (0:
  /// none). The tensor cores may read it until that group completes, so a
  /// write before then is an error.
  std::vector<int64_t> readBy;

  void reset(uint32_t numThreads);
};

class Machine {
public:
  Machine(const Kernel &kernel,
          llvm::ArrayRef<std::shared_ptr<Buffer>> buffers);

  /// Runs every block of the launch.
  mlir::LogicalResult launch();
  /// Allocates the launch's state, reserved against the memory limit.
  mlir::LogicalResult setUp();
  /// SimtGrid.cpp: runs every block of a dkernel.func's grid, on several
  /// CPU threads where the blocks cannot see each other.
  mlir::LogicalResult runGrid();

  //===--- SimtCluster.cpp: thread-block clusters -------------------------===//

  /// Runs the grid cluster by cluster, the blocks of each as tasks that
  /// take turns at cluster barriers.
  mlir::LogicalResult runClusters();
  /// dkernel.cluster_barrier: waits until every block of the cluster
  /// arrived.
  mlir::LogicalResult execClusterBarrier(const SInstr &instr, const Mask &mask);
  /// dkernel.mbarrier_arrive_cluster: arrives on the mbarrier at the same
  /// offset in the block of the given rank.
  mlir::LogicalResult execMbArriveCluster(const SInstr &instr,
                                          const Mask &mask);
  /// The blocks of the cluster, and the one of rank `rank`.
  unsigned clusterSize() const;
  Machine &clusterBlock(unsigned rank) const;
  /// Notes mbarrier progress for the cluster's parked waits.
  void noteClusterProgress();
  /// A wait completed on `mb`: the block now knows the accesses other
  /// blocks made before their remote arrivals on it.
  void acquireRemote(const MBarrier &mb);
  /// Fails when a multicast issued by `lane` writes `byte` of `target`'s
  /// pool that one of its threads read with nothing ordering the read
  /// before the issue.
  mlir::LogicalResult checkMulticastInto(const SInstr &instr,
                                         const Machine &target, int64_t byte,
                                         uint32_t lane) const;
  /// Whether accesses to `view` are checked for races between the blocks
  /// of a cluster: those of a buffer the kernel writes.
  bool tracksGlobal(const View &view) const {
    return cluster && view.global && isWritten(*view.global);
  }
  /// Whether `buffer` is one of the kernel's outputs (inputs are read-only,
  /// so they cannot race).
  bool isWritten(const Buffer &buffer) const;
  /// Fails on an access of `lane` to storage index `at` of global `view`
  /// that another block of the cluster made with no cluster barrier since.
  mlir::LogicalResult trackGlobal(const SInstr &instr, const View &view,
                                  int64_t at, uint32_t lane, bool isWrite);

  //===--- SimtExecute.cpp: control flow and scalars ----------------------===//

  mlir::LogicalResult runBlock(const SBlock &block, const Mask &mask);
  mlir::LogicalResult exec(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execTile(const SInstr &instr);
  mlir::LogicalResult execLoop(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execIf(const SInstr &instr, const Mask &mask);

  //===--- SimtTasks.cpp: divergent sides that wait on each other ---------===//

  /// Runs `first` under `firstMask` and `second` under `secondMask` as two
  /// tasks that take turns at blocked mbarrier waits.
  mlir::LogicalResult runSides(const SBlock &first, const Mask &firstMask,
                               const SBlock &second, const Mask &secondMask);
  /// What became of a wait that cannot complete now.
  enum class Parked {
    Alone,           ///< no other task could complete it (lock-step threads,
                     ///< or every task blocked in a block of a cluster)
    Resumed,         ///< other tasks ran: look again
    Deadlock,        ///< every task is blocked
    Aborted,         ///< another task failed
    ClusterDeadlock, ///< every block of the cluster is blocked or done
  };
  Parked park();
  /// An mbarrier wait of a block without tasks that cannot complete now:
  /// lets the other blocks of the cluster run until they change something
  /// (SimtCluster.cpp).
  Parked parkInCluster(const SInstr &instr);
  /// Notes a change that may let a blocked wait complete.
  void noteProgress() {
    if (tasks)
      tasks->watch.note();
    if (cluster)
      noteClusterProgress();
  }

  //===--- SimtClocks.cpp: happens-before through mbarriers ---------------===//

  /// Starts the clocks (with the first tasks of the block).
  void startClocks();
  /// The clock component of `lane`'s warp.
  static unsigned warpAgent(uint32_t lane) { return lane / 32; }
  /// `lane` arrives on `mb`, releasing what it knows (with its warp's own
  /// accesses when `wholeWarp` arrives together).
  void release(MBarrier &mb, uint32_t lane, bool wholeWarp);
  /// `lane` passed a warp sync: it knows its warp's accesses so far.
  void learnOwnWarp(uint32_t lane);
  /// `lane` passed a wait on `mb`: it acquires what the phases released.
  void acquire(uint32_t lane, const MBarrier &mb);
  /// The current phase of `mb` completes (its TMA loads landed).
  void publishPhase(MBarrier &mb);
  /// Advances the clock past a release.
  void tick() {
    if (clocksOn)
      ++now;
  }
  /// Whether `lane` knows of the access of `agent` stamped `stamp`.
  bool knows(uint32_t lane, unsigned agent, uint32_t stamp) const {
    if (!clocksOn)
      return false;
    const std::vector<uint32_t> &row = clocks[lane];
    return agent < row.size() && row[agent] >= stamp;
  }
  /// Whether `lane` knows of every read of `a` since its last write.
  bool knowsReads(const PoolAccess &a, uint32_t lane) const;
  /// Stamps a read of `a` by `lane`; `fresh` when earlier reads are ordered
  /// before it.
  void stampRead(PoolAccess &a, uint32_t lane, bool fresh);
  mlir::LogicalResult execScalar(const SInstr &instr, const Mask &mask);
  /// The error for an integer result beyond what a double holds exactly.
  mlir::LogicalResult inexactInteger(const SInstr &instr, double value,
                                     std::optional<uint32_t> lane);
  /// SimtSmallInts.cpp: a binary index op whose active operands are all in
  /// [0, 2^31); false (nothing written) when they are not.
  bool execSmallInt(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execAffineApply(const SInstr &instr, const Mask &mask);
  /// Resets the per-block state (shared memory, copies in flight) and sets
  /// the block coordinates.
  void startBlock(llvm::ArrayRef<int64_t> coords);

  //===--- SimtWork.cpp: the work limit -----------------------------------===//

  /// Fails, located at the kernel, when the launch would certainly execute
  /// more than the work limit.
  mlir::LogicalResult checkLaunchWork();
  /// Fails, located at `loop`, when `trips` iterations of it on `lanes`
  /// threads would pass the work limit.
  mlir::LogicalResult checkLoopWork(const SInstr &loop, uint64_t trips,
                                    uint32_t lanes);
  /// Counts one iteration of `loop` on `lanes` threads; fails, located at
  /// `loop`, once the launch has passed the work limit.
  mlir::LogicalResult chargeWork(const SInstr &loop, uint32_t lanes);
  /// The operations the launch has executed so far (as far as counted).
  uint64_t workSpent() const;
  /// Shares the launch's work count with `other` (a worker of runGrid).
  void shareWork(Machine &other) const { other.launchWork = launchWork; }

  //===--- SimtMemory.cpp: views and accesses
  //------------------------------===//

  /// The element of `view` that `instr`'s access names for `lane`; fails
  /// with a located error out of bounds.
  mlir::FailureOr<int64_t> element(const SInstr &instr, const View &view,
                                   uint32_t lane);
  /// A linear access of `instr` with its uniform operands folded in:
  /// per dimension a base, plus the varying operands' terms.
  struct LinearAccess {
    llvm::SmallVector<int64_t, 4> base;
    struct Term {
      const double *lanes;
      int64_t coef;
      unsigned dim;
    };
    llvm::SmallVector<Term, 4> terms;
  };
  void prepare(const SInstr &instr, LinearAccess &access);
  /// The element `access` names for `lane` in `shape`, or -1 out of bounds.
  static int64_t linearElement(const LinearAccess &access,
                               llvm::ArrayRef<int64_t> shape, uint32_t lane) {
    int64_t idx[8];
    unsigned rank = shape.size();
    for (unsigned d = 0; d < rank; ++d)
      idx[d] = access.base[d];
    for (const LinearAccess::Term &t : access.terms)
      idx[t.dim] = wrapMulAdd(idx[t.dim], t.coef, wrapToInt64(t.lanes[lane]));
    int64_t linear = 0;
    for (unsigned d = 0; d < rank; ++d) {
      if (idx[d] < 0 || idx[d] >= shape[d])
        return -1;
      linear = linear * shape[d] + idx[d];
    }
    return linear;
  }
  mlir::LogicalResult execLoad(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execStore(const SInstr &instr, const Mask &mask);
  /// dkernel.vector_load / vector_store: each lane's aligned run of
  /// elements, read or written one element at a time.
  mlir::LogicalResult execVectorAccess(const SInstr &instr, const Mask &mask);
  void execAlloca(const SInstr &instr, const Mask &mask);
  /// The storage index of element `e` of `view` for `lane`.
  int64_t address(const View &view, int64_t e, uint32_t lane) const {
    return view.offset + e * view.scale + lane * view.laneStride;
  }
  /// Reads / writes element `e` of `view` as `lane`, tracking races on the
  /// shared pool.
  mlir::FailureOr<double> read(const SInstr &instr, const View &view, int64_t e,
                               uint32_t lane);
  mlir::LogicalResult write(const SInstr &instr, const View &view, int64_t e,
                            uint32_t lane, double value);
  /// Race tracking of one pool byte; a write by `lane` -1 is a TMA copy,
  /// which the mbarrier wait makes visible to every waiting thread. With
  /// `record` false, only checks that `lane` may start overwriting the byte
  /// (an asynchronous copy being issued).
  mlir::LogicalResult trackRead(const SInstr &instr, int64_t byte,
                                uint32_t lane);
  mlir::LogicalResult trackWrite(const SInstr &instr, int64_t byte,
                                 int32_t lane, bool record = true);
  /// A barrier: every earlier access happens before every later one.
  void barrier() { ++barriers; }
  void warpSync(uint32_t warp) { ++warpSyncs[warp]; }

  //===--- SimtTileOps.cpp ------------------------------------------------===//

  mlir::LogicalResult execStage(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execCombine(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execAsyncWait(const SInstr &instr, const Mask &mask);

  //===--- SimtKernelOps.cpp ----------------------------------------------===//

  mlir::LogicalResult execKernelOp(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execShuffle(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execWarpReduce(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execTreeReduce(const SInstr &instr, const Mask &mask);
  /// cp.async (lands at its wait) and vector copies (at once).
  mlir::LogicalResult execCpAsync(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execLdMatrix(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execMma(const SInstr &instr, const Mask &mask);
  /// SimtWgmmaOps.cpp: descriptors, fences, commits, waits and the MMA.
  mlir::LogicalResult execWgmma(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execWgmmaDesc(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execWgmmaWait(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execWgmmaMma(const SInstr &instr, const Mask &mask);
  /// Fails if `byte` of the pool is read by a wgmma group still in flight
  /// (a write by `lane`, -1 for a TMA copy, must wait for it to retire).
  /// Slot `to` now holds slot `from`'s value: a loop carrying wgmma
  /// accumulators in flight carries their group with them.
  void carryWgmmaGroup(unsigned to, unsigned from) {
    if (wgmma.groupOfSlot.empty())
      return;
    if (auto it = wgmma.groupOfSlot.find(from); it != wgmma.groupOfSlot.end()) {
      int64_t group = it->second;
      wgmma.groupOfSlot[to] = group;
    } else {
      wgmma.groupOfSlot.erase(to);
    }
  }
  mlir::LogicalResult checkWgmmaReaders(const SInstr &instr, int64_t byte,
                                        int32_t lane);
  mlir::LogicalResult execCpWait(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execMbarrier(const SInstr &instr, const Mask &mask);
  /// Completes the current phase of `mb`: its TMA copies land.
  void completePhase(MBarrier &mb);
  mlir::LogicalResult execTmaLoad(const SInstr &instr, const Mask &mask);
  mlir::LogicalResult execAtomic(const SInstr &instr, const Mask &mask);
  /// Lands `copy` as written by `lane`.
  mlir::LogicalResult land(const SInstr &instr, const ElementCopy &copy,
                           uint32_t lane);
  /// Fails unless every thread of the block is active (barrier semantics).
  mlir::LogicalResult requireAllThreads(const SInstr &instr, const Mask &mask);
  /// Fails unless every thread of each warp with an active lane is active.
  mlir::LogicalResult requireWholeWarps(
      const SInstr &instr, const Mask &mask,
      llvm::StringRef why = "it exchanges values across the whole warp");

  //===--- Helpers
  //---------------------------------------------------------===//

  /// " in thread T of block (x, y, z)".
  std::string where(uint32_t lane) const;
  /// " of block (x, y, z)".
  std::string whichBlock() const;
  mlir::InFlightDiagnostic error(const SInstr &instr) const {
    return instr.scalar.op->emitOpError();
  }
  /// Makes `slot` varying (copying a uniform value to every lane).
  void materialize(LaneValue &slot) {
    if (!slot.uniform)
      return;
    std::fill(slot.v, slot.v + numThreads, slot.u);
    slot.uniform = false;
  }
  /// dst = src on every lane that matters.
  void assign(LaneValue &dst, const LaneValue &src) {
    dst.view = src.view;
    dst.uniform = src.uniform;
    dst.u = src.u;
    if (!src.uniform)
      std::copy(src.v, src.v + numThreads, dst.v);
  }
  /// dst = src on the lanes of `mask` only, keeping dst's other lanes.
  void assignLanes(LaneValue &dst, const LaneValue &src, const Mask &mask) {
    dst.view = src.view;
    if (src.uniform && dst.uniform && src.u == dst.u)
      return;
    materialize(dst);
    for (uint32_t i = 0; i < mask.count; ++i)
      dst.v[mask.lanes[i]] = src.at(mask.lanes[i]);
  }

  const Kernel &kernel;
  uint32_t numThreads;
  /// Loop-body operations executed in the launch: those counted here, and
  /// the launch's total (shared by the machines of a spread grid).
  uint64_t pendingWork = 0;
  std::atomic<uint64_t> ownWork{0};
  std::atomic<uint64_t> *launchWork = &ownWork;
  std::vector<double> laneStore;
  std::vector<LaneValue> frame;
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::vector<View> params;
  std::vector<View> views;
  /// Block-local storage of slabs and per-thread arrays, and the shared
  /// pool (one double per byte), reserved against the memory limit.
  std::vector<std::vector<double>> storage;
  std::vector<double> pool;
  Reservation reservation;
  std::vector<uint32_t> identity;
  Mask fullMask;

  /// The current block.
  llvm::SmallVector<int64_t, 3> blockCoords;
  int64_t blockIndex = 0;
  /// The cluster the block runs in (null without clusters) and its rank.
  ClusterRun *cluster = nullptr;
  unsigned clusterRank = 0;

  /// A dtile async stage in flight: the slab it fills and its copy, which
  /// lands as a whole.
  struct StageInFlight {
    const View *slab;
    std::function<void()> copy;
  };
  /// dtile async stages in flight, oldest first.
  std::deque<StageInFlight> stagesInFlight;
  /// cp.async copies per thread.
  std::vector<ThreadCopies> threadCopies;
  /// mbarriers by pool byte.
  llvm::DenseMap<int64_t, MBarrier> mbarriers;
  WgmmaState wgmma;
  /// Race tracking of the pool.
  std::vector<PoolAccess> poolAccess;
  uint32_t generation = 0, barriers = 0;
  std::vector<uint32_t> warpSyncs;
  /// Scratch lane vectors.
  std::vector<double> scratch, scratch2;
  std::vector<uint32_t> maskScratch;

  /// The sides of divergent branches running as tasks (null until the
  /// block's first).
  std::unique_ptr<TaskSet> tasks;
  /// Happens-before through mbarriers, kept once tasks run: the clock, per
  /// thread what it knows of each agent's accesses, the mbarriers
  /// initialised, and the agent of the TMA copies landing.
  bool clocksOn = false;
  uint32_t now = 1;
  std::vector<std::vector<uint32_t>> clocks;
  unsigned numBarrierAgents = 0, landingAgent = 0;
};

/// Whether the current CPU thread drops its diagnostics (a worker of a
/// spread grid, or a task one of them started).
bool &quietThread();

} // namespace deplodock::interp::simt

#endif // DEPLODOCK_LIB_INTERPRETER_SIMTMACHINE_H
