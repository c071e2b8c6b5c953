//===- Simt.h - GPU-level IR on the CPU, thread by thread -------*- C++ -*-===//
//
// The SIMT engine runs Tile IR (`dtile.kernel`) and Kernel IR (`dkernel.func`
// launched by `dkernel.launch`) with GPU semantics. A block's threads run in
// lock step: every SSA value is a vector with one lane per thread (or one
// uniform value shared by all lanes), and an active-lane mask drives
// divergence (sides that wait on each other run as tasks taking turns).
// Blocks run one after another. See Simt*.cpp:
//
//   SimtCompile.cpp  kernels compiled once into slot-indexed instructions
//   SimtExecute.cpp  launches, blocks, control flow and scalar ops
//   SimtTasks.cpp    divergent sides that wait on each other's mbarriers
//   SimtClocks.cpp   happens-before through mbarriers (race tracking)
//   SimtMemory.cpp   views, bounds-checked accesses, shared-memory races
//   SimtTileOps.cpp  dtile.stage / combine / async_wait
//   SimtKernelOps.cpp  gpu ids, barriers, shuffles, cp.async, mbarriers,
//                    TMA, warp and tree reductions, atomics
//   SimtMatrixOps.cpp  ldmatrix and mma.sync with the PTX fragment layouts
//   SimtCluster.cpp  the blocks of a cluster as tasks, the cluster barrier
//                    and races between them in global memory
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_INTERPRETER_SIMT_H
#define DEPLODOCK_LIB_INTERPRETER_SIMT_H

#include "Access.h"
#include "Program.h"

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "mlir/IR/AffineExpr.h"

#include <memory>
#include <vector>

namespace deplodock::interp::simt {

//===----------------------------------------------------------------------===//
// Entry points (the hooks of Compile.cpp and Execute.cpp)
//===----------------------------------------------------------------------===//

/// Compiles the `dtile.kernel` or `dkernel.launch` `op` into `instr.simt`.
mlir::LogicalResult compile(mlir::Operation *op, Instr &instr);

/// Runs a compiled kernel on `buffers`: the operands of the dtile.kernel,
/// dkernel.launch or dloop.kernel, in order.
mlir::LogicalResult run(const Instr &instr,
                        llvm::ArrayRef<std::shared_ptr<Buffer>> buffers);

/// The free dloop.for of the dloop.kernel `kernel` whose iterations can run
/// as lanes (one iteration per thread) with the results of running them one
/// after another, or null (LaneLoops.cpp).
mlir::Operation *chooseLaneLoop(mlir::Operation *kernel);

/// Compiles the dloop.kernel `op` into `instr.simt`, running the iterations
/// of `laneLoop` as lanes; leaves `instr` as it was, reporting nothing, when
/// the engine cannot run it.
void compileLoopKernel(mlir::Operation *op, mlir::Operation *laneLoop,
                       Instr &instr);

//===----------------------------------------------------------------------===//
// Compiled kernels
//===----------------------------------------------------------------------===//

/// Where the elements of a view live.
enum class Space : uint8_t {
  Global, ///< a buffer of the host function
  Shared, ///< the dkernel shared pool, one double per byte, race-tracked
  Slab,   ///< a dtile.stage slab (per block)
  Local,  ///< a per-thread memref.alloca array
};

/// What a kernel-level view is made of; the machine instantiates it.
struct ViewSpec {
  llvm::SmallVector<int64_t, 4> shape;
  mlir::Type elementType;
  Space space = Space::Global;
  /// Shared: the byte offset into the pool; Slab / Local: the index of the
  /// storage buffer the machine allocates.
  int64_t offset = 0;
};

enum class Kind : uint8_t {
  Scalar, // arith / math via evalScalar, lane by lane
  Constant,
  AffineApply,
  Nop,
  // Control flow.
  Tile,
  LaneLoop,
  ScfFor,
  ScfIf,
  LoopFor,
  StridedFor,
  // Memory.
  Load,
  Store,
  Alloca,
  AllocShared,
  SelectView,
  // Tile IR.
  Stage,
  Combine,
  AsyncWait,
  // Kernel IR.
  ThreadId,
  BlockId,
  BlockDim,
  GridDim,
  LaneId,
  Barrier,
  Shuffle,
  WarpSync,
  CpAsync,
  VectorCopy,
  VectorLoad,
  VectorStore,
  CpCommit,
  CpWait,
  MbInit,
  MbArrive,
  MbWait,
  TmaLoad,
  WarpReduce,
  TreeReduce,
  AtomicStore,
  LdMatrix,
  Mma,
  // Warpgroup MMA (SimtWgmmaOps.cpp).
  WgmmaDesc,
  WgmmaFence,
  WgmmaCommit,
  WgmmaWait,
  WgmmaMma,
  SetMaxNReg,
  // Thread-block clusters (SimtCluster.cpp).
  ClusterRank,
  ClusterBarrier,
  MbArriveCluster,
};

struct SBlock;

/// A computed stage's apply region, run once per slab element: `code[i]`
/// takes its operands from `operands[i]` (slots: the region's arguments,
/// then each instruction's result) and the element is slot `result`.
struct ApplyProgram {
  unsigned numArgs = 0;
  llvm::SmallVector<Instr, 8> code;
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>, 8> operands;
  unsigned result = 0;
  /// The element the region computes from `args` (one per argument).
  double run(llvm::ArrayRef<double> args) const;
};

/// One op of a kernel, with its operands and results as slot indices.
struct SInstr {
  Kind kind = Kind::Nop;
  /// The op, result type, opcode, constant and predicate, as evalScalar
  /// reads them (scalar.op is set for every instruction).
  Instr scalar;
  llvm::SmallVector<unsigned, 4> in;
  llvm::SmallVector<unsigned, 2> out;
  llvm::SmallVector<std::unique_ptr<SBlock>, 1> regions;
  Access access;
  /// Op-specific integers: dimension, extent, step, bytes, width, count...
  int64_t a = 0, b = 0, c = 0, d = 0;
  ReduceKind reduce = ReduceKind::add;
  bool reduces = false;
  /// A scalar op on (or comparing) index values: the hot thread and element
  /// coordinates, which execSmallInt runs without evalScalar.
  bool onIndex = false;
  /// The element type a memory or reduction op works on.
  mlir::Type element;
  /// Fixed views (alloc_shared, alloca, the slabs of a stage) by index into
  /// Kernel::views.
  llvm::SmallVector<unsigned, 2> views;
  /// Extra slots (loop-carried values are staged through them).
  llvm::SmallVector<unsigned, 2> temps;
  /// dtile.combine: the lanes of each group folded together.
  std::vector<std::vector<uint32_t>> groups;
  /// Per-launch constant lane values (thread ids, tile thread coordinates).
  std::vector<std::vector<double>> laneValues;
  /// dtile.stage with an apply region: the region.
  std::shared_ptr<const ApplyProgram> apply;
};

/// Compiles a Kernel IR op whose instruction needs no slots or views of its
/// own (copies, barriers, matrix and warpgroup ops, reductions, atomics,
/// grid dependencies) by setting `instr`'s kind and fields; a located error
/// for any other op (SimtCompileKernelOps.cpp).
mlir::LogicalResult compileKernelOp(mlir::Operation *op, SInstr &instr);

/// A compiled block.
struct SBlock {
  llvm::SmallVector<unsigned, 4> args;
  llvm::SmallVector<SInstr, 0> instrs;
  llvm::SmallVector<unsigned, 2> yields;
  /// Whether a yield slot is also one of `args` (carried values then need
  /// staging).
  bool yieldsAliasArgs = false;
  /// At least this many operations run per thread each time the block runs
  /// (SimtWork.cpp), to refuse a launch before it spends hours.
  uint64_t minWork = 0;
};

/// A lower bound of the operations one thread executes running `block` once,
/// from its nested blocks' minWork: loops count with the trip counts the IR
/// fixes (none where it does not), a branch with its cheaper side.
/// Saturates.
uint64_t computeMinWork(const SBlock &block);

/// A compiled kernel: the body of a dtile.kernel (whose dtile.tile op loops
/// over blocks), of a dkernel.func (run once per block), or of a dloop.kernel
/// (one block whose threads are the iterations of its lane loop).
struct Kernel {
  bool isTile = false;
  bool isLoop = false;
  /// dloop.kernel: the loop whose iterations are the lanes, and its axis.
  mlir::Operation *laneLoop = nullptr;
  std::string laneAxis;
  mlir::Operation *op = nullptr;
  SBlock body;
  unsigned numSlots = 0;
  /// Threads per block, and the block shape (x, y, z for Kernel IR, the
  /// thread axes for Tile IR); the grid likewise.
  int64_t numThreads = 1;
  llvm::SmallVector<int64_t, 3> block, grid;
  /// The cluster shape of a dkernel.func launched in clusters, else empty.
  llvm::SmallVector<int64_t, 3> cluster;
  /// The slot each buffer operand binds to, in order.
  llvm::SmallVector<unsigned, 4> bufferSlots;
  /// TMA descriptor parameters: (slot, index of the described buffer).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 1> descriptorSlots;
  /// Buffers the launch zeroes first (indices into the buffer operands).
  llvm::SmallVector<unsigned, 1> zeroInit;
  /// Bytes of the dkernel shared pool.
  int64_t smem = 0;
  /// Views with a fixed place: shared slices, slabs, per-thread arrays.
  std::vector<ViewSpec> views;
  /// Storage buffers of slabs and per-thread arrays: elements (per thread
  /// for Local) and element type.
  std::vector<std::pair<int64_t, mlir::Type>> storage;
};

//===----------------------------------------------------------------------===//
// Run-time values
//===----------------------------------------------------------------------===//

/// A memref value inside a kernel: element `i` (row-major) of thread `t` is
/// at offset + i * scale + t * laneStride of its storage. Global views are
/// the host's buffers, at the elements' own width; the others (shared
/// memory, slabs, per-thread arrays) are block-local arrays of doubles,
/// which hold NaN poison whatever the element type.
struct View {
  Buffer *global = nullptr;
  double *local = nullptr;
  int64_t offset = 0, scale = 1, laneStride = 0;
  llvm::SmallVector<int64_t, 4> shape;
  /// The number of elements of `shape`.
  int64_t size = 0;
  mlir::Type elementType;
  Space space = Space::Global;
  /// Integer elements read NaN-poisoned memory back as `intPoison`.
  bool integer = false;
  double intPoison = 0;
  int64_t numElements() const { return size; }
  /// The value at storage index `at`, and a store there.
  double load(int64_t at) const { return global ? global->get(at) : local[at]; }
  void store(int64_t at, double v) const {
    if (global)
      global->set(at, v);
    else
      local[at] = v;
  }
};

/// A frame slot: one value per lane, or one uniform value, or a view.
struct LaneValue {
  double *v = nullptr;
  double u = 0;
  bool uniform = true;
  View *view = nullptr;
  double at(uint32_t lane) const { return uniform ? u : v[lane]; }
};

/// The active lanes, in increasing order.
struct Mask {
  const uint32_t *lanes = nullptr;
  uint32_t count = 0;
  bool full = false;
};

} // namespace deplodock::interp::simt

#endif // DEPLODOCK_LIB_INTERPRETER_SIMT_H
