//===- KernelLowering.h - Lowering one Tile kernel --------------*- C++ -*-===//
//
// The state of lowering one dtile.kernel into a dkernel.func, shared by the
// files of this directory, each holding one concern:
//   Arithmetic.cpp      index arithmetic and affine maps in arith
//   SharedMemory.cpp    the shared-memory pool: slices, slabs, cooperation
//   Barriers.cpp        where a stage needs a barrier before or after it
//   StageCopies.cpp     sync and cp.async stages, async waits
//   TmaCopies.cpp       TMA stages, descriptors and mbarriers
//   WarpRoles.cpp       warp_specialize: producer and consumer warpgroups
//   Combines.cpp        dtile.combine: warp shuffles, trees, sequential folds
//   MemoryAccesses.cpp  loads, stores and slab reads (swizzled or not)
//   ControlFlow.cpp     loops, branches and the values they carry
//   WgmmaOps.cpp        wgmma descriptors of slabs
//   ConvertDTileToDKernel.cpp  the driver: geometry, kernels, the pass
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_CONVERSION_DTILETODKERNEL_KERNELLOWERING_H
#define DEPLODOCK_LIB_CONVERSION_DTILETODKERNEL_KERNELLOWERING_H

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <limits>
#include <memory>

namespace deplodock::lowering {

using namespace mlir;

/// Alignment of every shared-memory slice, in bytes.
constexpr int64_t kSmemAlignment = 16;
/// warp_specialize: the producer warpgroup, and the registers it keeps
/// under setmaxnreg (the warp_specialize rule counts on 40 too).
constexpr int64_t kProducerThreads = 128, kProducerRegisters = 40;
/// Grid limits (x, then y and z).
constexpr int64_t kMaxGridX = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxGridYZ = 65535;

/// A shared-memory slice holding the slabs of one stage, or of one rotation
/// of stages (`buffers N` with the same source, box, padding and transport).
struct SlabAlloc {
  /// The dkernel.alloc_shared view: `[N x] padded box`; swizzled, the slots
  /// one after the other as a flat array (see Common/Swizzle.h).
  Value view;
  /// The number of slabs; with one there is no slot dimension.
  int64_t buffers = 1;
  /// What makes two stages one rotation; `box` is the slab's shape (the
  /// stage's box, transposed or not).
  Value source;
  /// A computed stage's apply buffers (its slabs hold another element).
  SmallVector<Value> inputs;
  SmallVector<int64_t> box, pad;
  bool transpose = false;
  dtile::Transport transport = dtile::Transport::sync;
  int64_t swizzle = 0;
  /// For TMA: the descriptor parameter, the first of the `buffers`
  /// mbarriers the slots complete on, and per slot the box-shaped views
  /// tma_loads write (one per swizzle segment; one without a swizzle).
  Value descriptor;
  int64_t mbarrierBase = 0;
  SmallVector<SmallVector<Value, 1>> slotViews;
  /// cluster_multicast: the blocks of a 2-block cluster share the slab, each
  /// issuing half of each box (the descriptor's box) to both; slotViews
  /// then holds per slot the halves, segment by segment, rank 0's first,
  /// and `halfDim` is the dimension the box is halved along.
  bool multicast = false;
  int64_t halfDim = 0;
};

/// A slab as the kernel body sees it.
struct Slab {
  SlabAlloc *alloc = nullptr;
  /// The slot index; null with a single buffer.
  Value slot;
};

/// Lowers one dtile.kernel into a detached dkernel.func.
class KernelLowering {
public:
  KernelLowering(dtile::KernelOp kernel, dkernel::TargetAttr target)
      : kernel(kernel), target(target), warpSize(target.getWarpSize()),
        b(kernel.getContext()) {}

  /// The new kernel, not inserted anywhere; on failure a located error has
  /// been emitted and nothing was created.
  FailureOr<dkernel::FuncOp> run();

private:
  //===--------------------------------------------------------------------===//
  // Structure
  //===--------------------------------------------------------------------===//

  /// Lowers the ops of `block` but its terminator at the insertion point.
  LogicalResult lowerOps(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerTile(dtile::TileOp tile);
  LogicalResult lowerLoop(Operation *op, Value lb, Value ub, Value step,
                          ValueRange inits, Block &body,
                          std::optional<int64_t> unroll);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerLoad(dloop::LoadOp op);
  /// A warp's ldmatrix from a slab (the mma_sync rule's), through its slot
  /// and swizzle like a slab read.
  LogicalResult lowerLdMatrix(dkernel::LdMatrixOp op);
  /// A thread's aligned run (vector_reads, vector_stores): from a slab
  /// through its slot and swizzle, or of a buffer as it is.
  LogicalResult lowerVectorLoad(dkernel::VectorLoadOp op);
  LogicalResult lowerVectorStore(dkernel::VectorStoreOp op);
  /// A wgmma descriptor of a slab (the wgmma_async rule's), addressing the
  /// slab's slice through its slot and swizzle.
  LogicalResult lowerWgmmaDesc(dkernel::WgmmaDescOp op);
  /// The Kernel IR view of slab `slab` and `indices` rewritten for it.
  Value slabAccess(Location loc, const Slab &slab,
                   SmallVectorImpl<Value> &indices);
  LogicalResult lowerStore(dloop::StoreOp op);
  /// A private buffer (online softmax's accumulators) stays a thread's
  /// local array.
  LogicalResult lowerPrivateBuffer(mlir::memref::AllocaOp op);
  LogicalResult lowerApply(affine::AffineApplyOp op);
  LogicalResult lowerStage(dtile::StageOp op);
  /// The element a sync stage writes for the source element at `index`: the
  /// source's, or what its apply region computes from it and its buffers'.
  Value readStageElement(dtile::StageOp op, Value source, ValueRange index);
  /// What computed `op`'s apply region makes of `elements` (one per buffer
  /// it reads, the source's first).
  Value applyStageRegion(dtile::StageOp op, ArrayRef<Value> elements);
  LogicalResult lowerCombine(dtile::CombineOp op);
  LogicalResult lowerAsyncWait(dtile::AsyncWaitOp op);
  /// Sets up the TMA stages of `tileOp`: their slabs, descriptors and
  /// mbarriers (initialised by thread 0), and each thread's phase tracking.
  LogicalResult setUpTma(dtile::TileOp tileOp);
  LogicalResult lowerTmaStage(dtile::StageOp op, Value source);
  /// Checks that the multicast `stage` is in a cluster the lowering
  /// supports (2 blocks).
  LogicalResult checkMulticast(dtile::StageOp stage, dtile::TileOp tileOp);
  /// The index into `alloc`'s flat swizzled view of element `coords` of the
  /// slab in `slot` (null with one buffer).
  Value swizzledSlabIndex(Location loc, const SlabAlloc &alloc, Value slot,
                          ArrayRef<Value> coords);
  /// The box origin of `op` as Kernel IR index values, and the Kernel IR
  /// form of its slot (null when it has none).
  LogicalResult lowerStagePlacement(dtile::StageOp op,
                                    SmallVector<Value> &origin, Value &slot) {
    FailureOr<SmallVector<Value>> expanded =
        expandMap(op.getLoc(), op.getMap(), op.getOrigin(), op);
    if (failed(expanded))
      return failure();
    origin = std::move(*expanded);
    slot = op.getSlot() ? lookup(op.getSlot()) : Value();
    if (op.getSlot() && !slot)
      return op.emitOpError("slot has no Kernel IR form");
    return success();
  }
  /// Waits for each of the mbarriers `which` (indices) a TMA copy was
  /// issued on since its last wait; with none named, for every mbarrier.
  void waitForTma(Location loc, ArrayRef<Value> which = {});
  /// The mbarrier indices of the slabs the TMA wait `op` names.
  FailureOr<SmallVector<Value>> getTmaMbarriers(dtile::AsyncWaitOp op);
  LogicalResult cloneScalarOp(Operation *op);

  /// The value carried in place of `old` by a loop or branch (the slot of a
  /// slab, the mapped value of a scalar), and the slab allocation it refers
  /// to (null for scalars). Fails on values with no Kernel IR form.
  FailureOr<std::pair<Value, SlabAlloc *>> carried(Value old, Operation *user);
  /// Maps `old` (a result or block argument) to the carried `value`.
  void mapCarried(Value old, Value value, SlabAlloc *alloc);
  /// The carried values for the operands of `terminator`; checks that each
  /// slab stays in its allocation (`allocs`, filled where null).
  FailureOr<SmallVector<Value>> lowerYield(Operation *terminator,
                                           MutableArrayRef<SlabAlloc *> allocs);

  //===--------------------------------------------------------------------===//
  // Values and arithmetic
  //===--------------------------------------------------------------------===//

  /// The lowered scalar for `old`, or null.
  Value lookup(Value old) { return values.lookupOrNull(old); }
  /// The lowered scalars for `olds`; fails (at `user`) if one has none.
  FailureOr<SmallVector<Value>> lookupAll(ValueRange olds, Operation *user);
  /// A constant at the kernel entry, shared by all uses.
  Value constant(TypedAttr attr);
  Value index(int64_t v) { return constant(b.getIndexAttr(v)); }
  Value add(Location loc, Value lhs, Value rhs);
  Value mul(Location loc, Value lhs, int64_t rhs);
  Value div(Location loc, Value lhs, int64_t rhs);
  Value rem(Location loc, Value lhs, int64_t rhs);
  Value cmpLt(Location loc, Value lhs, int64_t rhs);
  Value cmpEq(Location loc, Value lhs, int64_t rhs);
  /// Splits `linear` in [0, prod(extents)) into coordinates, the last
  /// fastest; extent-1 coordinates are the constant 0.
  SmallVector<Value> delinearize(Location loc, Value linear,
                                 ArrayRef<int64_t> extents);
  /// `map` applied to the lowered `operands`, in arith. Divisions of values
  /// known to be non-negative (checked on the source, where `user` is) are
  /// unsigned; others take the signed floor semantics of affine.
  FailureOr<SmallVector<Value>> expandMap(Location loc, AffineMap map,
                                          ValueRange operands, Operation *user);
  /// One result of expandMap; null (after an error at `loc`) for what arith
  /// cannot express.
  Value expandExpr(Location loc, AffineExpr expr, ValueRange dims,
                   ValueRange symbols,
                   ArrayRef<std::optional<Interval>> ranges);

  //===--------------------------------------------------------------------===//
  // Synchronisation and shared memory
  //===--------------------------------------------------------------------===//

  /// A block barrier. Under warp roles the other role would never reach
  /// it: the first one asked for is remembered and the kernel refused.
  void barrier(Location loc) {
    if (role != Role::Block) {
      if (!roleBarrier)
        roleBarrier = loc;
      return;
    }
    gpu::BarrierOp::create(b, loc);
  }
  /// An `alignment`-byte aligned slice of the pool of type `shape x element`.
  Value allocShared(Location loc, ArrayRef<int64_t> shape, Type element,
                    int64_t alignment = kSmemAlignment);
  /// A view of type `shape x element` of the pool at byte `offset`.
  Value viewShared(Location loc, ArrayRef<int64_t> shape, Type element,
                   int64_t offset);
  /// The allocation for the slab of `op`, shared by a rotation.
  SlabAlloc *getSlabAlloc(dtile::StageOp op);
  /// Runs `body(e)` for e in [0, count) spread over the threads: thread t
  /// takes t, t + N, ... Returns the loop when a thread takes several (null
  /// otherwise).
  scf::ForOp forEachCooperatively(Location loc, int64_t count,
                                  function_ref<void(Value)> body);
  /// Runs `body` at the insertion point guarded by `cond`.
  void ifThen(Location loc, Value cond, function_ref<void()> body);
  /// The result of `op` for groups of `group` threads, a multiple of 32:
  /// warp reductions, warp partials in shared memory, the first warp folds.
  Value combineThroughWarps(dtile::CombineOp op, Value value, int64_t group);
  /// The result of `op` over the whole block: a shared buffer padded to a
  /// power of two, folded by dkernel.tree_reduce.
  Value combineByTree(dtile::CombineOp op, Value value);
  /// The result of `op` for groups of `group` threads: values in shared
  /// memory, thread g folds group g.
  Value combineSequentially(dtile::CombineOp op, Value value, int64_t group);

  dtile::KernelOp kernel;
  dkernel::TargetAttr target;
  /// Lanes per warp, the target's.
  int64_t warpSize;
  OpBuilder b;
  dkernel::FuncOp func;
  /// Ops hoisted to the kernel entry, spliced in at the end: the shared
  /// slices, then the constants.
  Block allocs, constants;
  DenseMap<Attribute, Value> constantCache;
  /// Scalars and kernel buffers: source value -> lowered value.
  IRMapping values;
  /// Slabs: source memref value -> slab.
  DenseMap<Value, Slab> slabs;
  SmallVector<std::unique_ptr<SlabAlloc>> slabAllocs;
  int64_t smemBytes = 0;
  /// The linear thread id and the thread count (1 without thread axes).
  Value tid;
  int64_t numThreads = 1;
  dtile::TileOp tile;
  /// TMA: the mbarriers (one per slot of each TMA slab), and per thread two
  /// bit masks (rank-0 i64 locals, registers to nvcc, which would put an
  /// array indexed by a slot in local memory): bit i the parity mbarrier
  /// i's next phase completes with, and whether a copy is pending on it.
  /// Null without TMA stages.
  Value mbarriers, tmaPhase, tmaPending;
  int64_t numMbarriers = 0;
  /// Bit `mb` (an index) of the mask local `mask`, as an i32.
  Value readMaskBit(Location loc, Value mask, Value mb);
  /// Sets, clears or flips bit `mb` of the mask local `mask`.
  enum class BitUpdate { set, clear, flip };
  void updateMaskBit(Location loc, Value mask, Value mb, BitUpdate update);
  /// The slab of each TMA stage, set up before the body is lowered.
  DenseMap<Operation *, SlabAlloc *> tmaSlabs;
  /// Whether warpgroup MMAs read slabs (through descriptors, the async
  /// proxy): the threads' own stores to a slab then take a proxy fence.
  bool wgmmaReadsSlabs = false;

  //===--------------------------------------------------------------------===//
  // Warp roles (WarpRoles.cpp)
  //===--------------------------------------------------------------------===//

  /// Who runs the ops being lowered: the whole block, or under
  /// warp_specialize the consumer warpgroups (threads [0, numThreads)) or
  /// the producer warpgroup after them.
  enum class Role { Block, Consumer, Producer };
  /// Lowers the tile body twice, once per role, under a branch on the
  /// thread id.
  LogicalResult lowerRoles(dtile::TileOp tileOp);
  /// Under the producer role, leaves out `op` (it computes or stores) and
  /// maps its results to zeros; false for ops the producer runs.
  FailureOr<bool> leaveToConsumers(Operation *op);

  bool warpSpecialized = false;
  Role role = Role::Block;
  /// Warp specialisation: the "empty" mbarriers follow the numMbarriers
  /// "full" ones; the producer's phase parity per slot (a bit mask as
  /// tmaPhase).
  Value emptyPhase;
  /// A block barrier some role asked for.
  std::optional<Location> roleBarrier;

  //===--------------------------------------------------------------------===//
  // Clusters (cluster_multicast)
  //===--------------------------------------------------------------------===//

  /// The blocks run in clusters of 2 sharing multicast slabs: each slot
  /// also has an "empty" mbarrier (after the "full" ones) both blocks
  /// arrive on once done with it, and each thread tracks its phases.
  bool clustered = false;
  /// This block's rank in its cluster, and the other block's.
  Value clusterRank, clusterPeer;
};

//===----------------------------------------------------------------------===//
// Barriers (Barriers.cpp)
//===----------------------------------------------------------------------===//

/// Whether the block must synchronise before the stage `op` overwrites its
/// slab: some thread may still read it, or read global memory written before.
bool needsBarrierBefore(Operation *op);

/// Whether the next op after `op`, past pure ops, is a sync stage: it then
/// puts the barrier after both copies.
bool nextIsSyncStage(Operation *op);

/// Whether the async wait `wait` ends with a block barrier: not where
/// warpgroup MMAs follow (their slabs come by TMA, which each thread waited
/// for itself; a refill after them puts its own barrier first).
bool waitEndsWithBarrier(Operation *wait);

} // namespace deplodock::lowering

#endif // DEPLODOCK_LIB_CONVERSION_DTILETODKERNEL_KERNELLOWERING_H
