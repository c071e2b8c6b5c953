//===- SimtCompile.cpp - Compile GPU-level kernels for the SIMT engine ----===//
//
// A dtile.kernel or a dkernel.func is compiled once per launch site into
// slot-indexed instructions (Simt.h); scalar ops keep the opcodes of the
// sequential interpreter so evalScalar gives them their meaning.
//
//===----------------------------------------------------------------------===//

#include "Simt.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

namespace {

class Compiler {
public:
  explicit Compiler(Kernel &kernel) : kernel(kernel) {}

  LogicalResult compileBlock(mlir::Block &block, SBlock &out);
  LogicalResult compileOp(Operation *op, SInstr &instr);
  unsigned slotOf(Value v) {
    auto [it, inserted] = slots.try_emplace(v, kernel.numSlots);
    if (inserted)
      ++kernel.numSlots;
    return it->second;
  }

private:
  /// Adds a view with a place of its own; `elements` of storage per thread
  /// (Local) or per block (Slab).
  FailureOr<unsigned> addView(Operation *op, MemRefType type, Space space,
                              int64_t offset = 0);
  LogicalResult compileTile(dtile::TileOp tile, SInstr &instr);
  LogicalResult compileCombine(dtile::CombineOp combine, SInstr &instr);

  Kernel &kernel;
  llvm::DenseMap<Value, unsigned> slots;
  /// The slab rings of multi-buffered stages, by source, box and count.
  std::map<std::tuple<void *, std::vector<int64_t>, int64_t>,
           SmallVector<unsigned, 2>>
      rings;
};

} // namespace

FailureOr<unsigned> Compiler::addView(Operation *op, MemRefType type,
                                      Space space, int64_t offset) {
  ViewSpec spec;
  spec.shape.assign(type.getShape().begin(), type.getShape().end());
  spec.elementType = type.getElementType();
  spec.space = space;
  spec.offset = offset;
  // Block-local storage holds a double per element (per thread for Local).
  std::optional<int64_t> elements = checkedNumElements(type.getShape());
  if (elements && space == Space::Local)
    elements = checkedBytes(*elements, kernel.numThreads);
  if (!elements || !checkedBytes(*elements, sizeof(double)))
    return op->emitOpError("has type ")
           << type << ", which has more elements than a 64-bit size can count";
  if (space == Space::Slab || space == Space::Local) {
    spec.offset = kernel.storage.size();
    kernel.storage.push_back({*elements, type.getElementType()});
  }
  kernel.views.push_back(std::move(spec));
  return kernel.views.size() - 1;
}

LogicalResult Compiler::compileTile(dtile::TileOp tile, SInstr &instr) {
  instr.kind = Kind::Tile;
  instr.a = tile.getBlockExtents().size();
  ArrayRef<int64_t> extents = tile.getThreadExtents();
  // Thread coordinates: the linear thread index, last axis fastest.
  for (size_t axis = 0; axis < extents.size(); ++axis) {
    std::vector<double> values(kernel.numThreads);
    int64_t inner = 1;
    for (size_t j = axis + 1; j < extents.size(); ++j)
      inner *= extents[j];
    for (int64_t t = 0; t < kernel.numThreads; ++t)
      values[t] = static_cast<double>((t / inner) % extents[axis]);
    instr.laneValues.push_back(std::move(values));
  }
  return success();
}

LogicalResult Compiler::compileCombine(dtile::CombineOp combine,
                                       SInstr &instr) {
  instr.kind = Kind::Combine;
  instr.reduce = combine.getKind();
  instr.element = combine.getValue().getType();
  if (!combine.getValue().getType().isIntOrIndexOrFloat())
    return combine.emitOpError("combines a non-scalar value, which cannot be "
                               "interpreted");
  auto tile = combine->getParentOfType<dtile::TileOp>();
  if (!tile)
    return combine.emitOpError("is outside a dtile.tile");
  ArrayRef<int64_t> extents = tile.getThreadExtents();
  ArrayAttr axes = tile.getThreadAxes();
  SmallVector<bool> folded(extents.size(), false);
  for (Attribute name : combine.getOver()) {
    auto it = llvm::find(axes, name);
    if (it == axes.end())
      return combine.emitOpError("folds ")
             << name << ", which is not a thread axis";
    folded[it - axes.begin()] = true;
  }
  // Threads that agree on every kept axis form one group.
  llvm::DenseMap<int64_t, unsigned> groupOf;
  for (int64_t t = 0; t < kernel.numThreads; ++t) {
    int64_t key = 0, rest = t;
    SmallVector<int64_t> coords(extents.size());
    for (int d = extents.size() - 1; d >= 0; --d) {
      coords[d] = rest % extents[d];
      rest /= extents[d];
    }
    for (size_t d = 0; d < extents.size(); ++d)
      key = key * extents[d] + (folded[d] ? 0 : coords[d]);
    auto [it, inserted] = groupOf.try_emplace(key, instr.groups.size());
    if (inserted)
      instr.groups.emplace_back();
    instr.groups[it->second].push_back(static_cast<uint32_t>(t));
  }
  return success();
}

/// The value of scalar constant `cst`, rounded to its type `type`; a
/// located error for a shaped one.
static FailureOr<double> getScalarConstant(arith::ConstantOp cst, Type type) {
  if (auto fp = dyn_cast<FloatAttr>(cst.getValue()))
    return roundTo(type, fp.getValueAsDouble());
  if (auto integer = dyn_cast<IntegerAttr>(cst.getValue()))
    return roundTo(type, static_cast<double>(integer.getInt()));
  return cst.emitOpError("is not a scalar constant, which a kernel cannot "
                         "hold");
}

/// The apply region of computed `stage` as a straight-line scalar program.
static FailureOr<std::shared_ptr<const ApplyProgram>>
compileApply(dtile::StageOp stage) {
  auto program = std::make_shared<ApplyProgram>();
  mlir::Block *block = stage.getApplyBlock();
  DenseMap<Value, unsigned> slots;
  for (BlockArgument arg : block->getArguments())
    slots[arg] = program->numArgs++;
  for (Operation &op : block->without_terminator()) {
    Instr instr;
    instr.op = &op;
    instr.type = op.getResult(0).getType();
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      instr.code = Opcode::Constant;
      FailureOr<double> value = getScalarConstant(cst, instr.type);
      if (failed(value))
        return failure();
      instr.constant = *value;
    } else if (std::optional<Opcode> code = scalarOpcode(&op)) {
      instr.code = *code;
      setScalarDetails(&op, instr);
    } else {
      return op.emitOpError("cannot be interpreted in a stage's apply region");
    }
    SmallVector<unsigned, 2> operands;
    for (Value operand : op.getOperands())
      operands.push_back(slots.lookup(operand));
    slots[op.getResult(0)] = program->numArgs + program->code.size();
    program->code.push_back(std::move(instr));
    program->operands.push_back(std::move(operands));
  }
  program->result = slots.lookup(block->getTerminator()->getOperand(0));
  return std::shared_ptr<const ApplyProgram>(std::move(program));
}

double ApplyProgram::run(ArrayRef<double> args) const {
  SmallVector<double, 16> values(args);
  SmallVector<double, 4> x;
  for (auto [instr, operands] : llvm::zip(code, this->operands)) {
    x.clear();
    for (unsigned slot : operands)
      x.push_back(values[slot]);
    values.push_back(evalScalar(instr, x.data()));
  }
  return values[result];
}

LogicalResult Compiler::compileOp(Operation *op, SInstr &instr) {
  instr.scalar.op = op;
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(
          op) &&
      kernel.isTile)
    return op->emitOpError("reads a launch dimension, which Tile IR names "
                           "through dtile.tile coordinates");
  for (Value operand : op->getOperands())
    instr.in.push_back(slotOf(operand));
  for (Value result : op->getResults())
    instr.out.push_back(slotOf(result));
  if (op->getNumResults() >= 1)
    instr.scalar.type = op->getResult(0).getType();

  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType())) {
    instr.kind = Kind::SelectView;
    return success();
  }
  if (std::optional<Opcode> code = scalarOpcode(op)) {
    instr.scalar.code = *code;
    instr.kind = Kind::Scalar;
    setScalarDetails(op, instr.scalar);
    if (isa<VectorType, TensorType, MemRefType>(instr.scalar.type))
      return op->emitOpError("on shaped values cannot be interpreted");
    instr.onIndex = instr.scalar.type && instr.scalar.type.isIndex();
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
      instr.kind = Kind::AffineApply;
      instr.access =
          affineAccess(apply.getAffineMap(), 0, apply->getNumOperands());
    }
    return success();
  }

  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](arith::ConstantOp cst) -> LogicalResult {
            instr.kind = Kind::Constant;
            FailureOr<double> value = getScalarConstant(cst, instr.scalar.type);
            if (failed(value))
              return failure();
            instr.scalar.constant = *value;
            return success();
          })
          // Control flow.
          .Case([&](dtile::TileOp tile) { return compileTile(tile, instr); })
          .Case([&](scf::ForOp) {
            instr.kind = Kind::ScfFor;
            return success();
          })
          .Case([&](scf::IfOp branch) {
            instr.kind = Kind::ScfIf;
            // Sides that may wait on each other run as tasks when they
            // diverge (SimtTasks.cpp).
            instr.c = branch
                          ->walk([](dkernel::MbarrierWaitOp) {
                            return WalkResult::interrupt();
                          })
                          .wasInterrupted();
            return success();
          })
          .Case([&](dloop::ForOp loop) {
            instr.kind = Kind::LoopFor;
            instr.a = loop.getExtent();
            if (loop == kernel.laneLoop) {
              // Iteration i on lane i.
              instr.kind = Kind::LaneLoop;
              std::vector<double> ivs(kernel.numThreads);
              for (int64_t i = 0; i < kernel.numThreads; ++i)
                ivs[i] = static_cast<double>(i);
              instr.laneValues.push_back(std::move(ivs));
            }
            return success();
          })
          .Case([&](dtile::StridedForOp loop) -> LogicalResult {
            instr.kind = Kind::StridedFor;
            instr.a = loop.getExtent();
            instr.b = loop.getStep();
            if (instr.b <= 0)
              return loop.emitOpError("has a non-positive step");
            return success();
          })
          // Memory.
          .Case([&](dloop::LoadOp load) {
            instr.kind = Kind::Load;
            instr.element = load.getType();
            instr.access =
                affineAccess(load.getMap(), 1, load.getIndices().size());
            return success();
          })
          .Case([&](dloop::StoreOp store) {
            instr.kind = Kind::Store;
            instr.element = store.getValue().getType();
            instr.access =
                affineAccess(store.getMap(), 2, store.getIndices().size());
            if (std::optional<ReduceKind> kind = store.getReduceKind()) {
              instr.reduces = true;
              instr.reduce = *kind;
            }
            return success();
          })
          .Case([&](memref::LoadOp load) {
            instr.kind = Kind::Load;
            instr.element = load.getType();
            instr.access = indexAccess(1, load.getIndices().size());
            return success();
          })
          .Case([&](memref::StoreOp store) {
            instr.kind = Kind::Store;
            instr.element = store.getValue().getType();
            instr.access = indexAccess(2, store.getIndices().size());
            return success();
          })
          .Case([&](memref::AllocaOp alloca) -> LogicalResult {
            if (!alloca.getType().hasStaticShape())
              return alloca.emitOpError("has a dynamic shape, which cannot "
                                        "be interpreted");
            instr.kind = Kind::Alloca;
            FailureOr<unsigned> view =
                addView(alloca, alloca.getType(), Space::Local);
            if (failed(view))
              return failure();
            instr.views.push_back(*view);
            return success();
          })
          .Case([&](memref::DeallocOp) {
            instr.kind = Kind::Nop;
            return success();
          })
          .Case([&](dkernel::AllocSharedOp alloc) -> LogicalResult {
            instr.kind = Kind::AllocShared;
            FailureOr<unsigned> view =
                addView(alloc, cast<MemRefType>(alloc.getType()), Space::Shared,
                        alloc.getOffset());
            if (failed(view))
              return failure();
            instr.views.push_back(*view);
            return success();
          })
          // Tile IR.
          .Case([&](dtile::StageOp stage) -> LogicalResult {
            instr.kind = Kind::Stage;
            instr.a = stage.getOrigin().size();
            auto type = cast<MemRefType>(stage.getType());
            instr.element = type.getElementType();
            instr.access = affineAccess(stage.getMap(), 1, instr.a);
            if (stage.isComputed()) {
              FailureOr<std::shared_ptr<const ApplyProgram>> apply =
                  compileApply(stage);
              if (failed(apply))
                return failure();
              instr.apply = *apply;
            }
            // Stages of one source and slab shape with `buffers N > 1`
            // rotate through one ring of N slabs (a prologue fills slot 0 of
            // the ring its loop refills); other stages have slabs of their
            // own. The shape is the slab's (a transposed box's is swapped).
            SmallVector<unsigned, 2> *ring = nullptr;
            if (stage.getBuffers() > 1)
              ring = &rings[{stage.getSource().getAsOpaquePointer(),
                             std::vector<int64_t>(type.getShape().begin(),
                                                  type.getShape().end()),
                             stage.getBuffers()}];
            if (ring && !ring->empty()) {
              instr.views.assign(ring->begin(), ring->end());
              return success();
            }
            for (int64_t i = 0; i < stage.getBuffers(); ++i) {
              FailureOr<unsigned> view = addView(stage, type, Space::Slab);
              if (failed(view))
                return failure();
              instr.views.push_back(*view);
            }
            if (ring)
              ring->assign(instr.views.begin(), instr.views.end());
            return success();
          })
          .Case([&](dtile::CombineOp combine) {
            return compileCombine(combine, instr);
          })
          .Case([&](dtile::AsyncWaitOp wait) {
            instr.kind = Kind::AsyncWait;
            instr.a = wait.getKeep();
            return success();
          })
          // Kernel IR.
          .Case([&](gpu::ThreadIdOp id) {
            instr.kind = Kind::ThreadId;
            instr.a = static_cast<int64_t>(id.getDimension());
            std::vector<double> values(kernel.numThreads);
            int64_t bx = kernel.block[0], by = kernel.block[1];
            for (int64_t t = 0; t < kernel.numThreads; ++t) {
              int64_t xyz[3] = {t % bx, (t / bx) % by, t / (bx * by)};
              values[t] = static_cast<double>(xyz[instr.a]);
            }
            instr.laneValues.push_back(std::move(values));
            return success();
          })
          .Case([&](gpu::LaneIdOp) {
            instr.kind = Kind::LaneId;
            return success();
          })
          .Case([&](gpu::BlockIdOp id) {
            instr.kind = Kind::BlockId;
            instr.a = static_cast<int64_t>(id.getDimension());
            return success();
          })
          .Case([&](gpu::BlockDimOp dim) {
            instr.kind = Kind::Constant;
            instr.scalar.constant = static_cast<double>(
                kernel.block[static_cast<int64_t>(dim.getDimension())]);
            return success();
          })
          .Case([&](gpu::GridDimOp dim) {
            instr.kind = Kind::Constant;
            instr.scalar.constant = static_cast<double>(
                kernel.grid[static_cast<int64_t>(dim.getDimension())]);
            return success();
          })
          .Case([&](gpu::BarrierOp) {
            instr.kind = Kind::Barrier;
            return success();
          })
          .Case([&](gpu::ShuffleOp shuffle) {
            instr.kind = Kind::Shuffle;
            instr.a = static_cast<int64_t>(shuffle.getMode());
            instr.element = shuffle.getValue().getType();
            return success();
          })
          .Case<dkernel::CpAsyncOp, dkernel::VectorCopyOp>(
              [&](auto copy) -> LogicalResult {
                // The same operands, with no predicate for a vector copy:
                // it lands at once.
                constexpr bool async =
                    std::is_same_v<decltype(copy), dkernel::CpAsyncOp>;
                instr.kind = async ? Kind::CpAsync : Kind::VectorCopy;
                instr.a = copy.getBytes();
                instr.b = copy.getSrcIndices().size();
                // The zero-fill predicate, if any, is the last operand.
                if constexpr (async)
                  instr.c = copy.getValid() ? 1 : 0;
                auto src = cast<MemRefType>(copy.getSrc().getType());
                auto dst = cast<MemRefType>(copy.getDst().getType());
                if (src.getElementType() != dst.getElementType())
                  return copy.emitOpError("copies between element types ")
                         << src.getElementType() << " and "
                         << dst.getElementType()
                         << ", which cannot be interpreted";
                instr.element = src.getElementType();
                return success();
              })
          .Case([&](dkernel::VectorLoadOp load) {
            instr.kind = Kind::VectorLoad;
            instr.element = load.getResult(0).getType();
            instr.access = indexAccess(1, load.getIndices().size());
            return success();
          })
          .Case([&](dkernel::VectorStoreOp store) {
            // The values first, then the buffer and its indices.
            instr.kind = Kind::VectorStore;
            instr.a = static_cast<int64_t>(store.getValues().size());
            instr.element = store.getValues().front().getType();
            instr.access = indexAccess(instr.a + 1, store.getIndices().size());
            return success();
          })
          .Default([&](Operation *op) { return compileKernelOp(op, instr); });
  if (failed(result))
    return failure();

  // Loop-carried values are staged through temporaries when needed.
  if (isa<scf::ForOp, dloop::ForOp, dtile::StridedForOp>(op))
    for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
      instr.temps.push_back(kernel.numSlots++);
  // A stage's apply region runs per slab element (instr.apply), not per
  // thread.
  if (isa<dtile::StageOp>(op))
    return success();
  for (Region &region : op->getRegions()) {
    auto block = std::make_unique<SBlock>();
    if (!region.empty()) {
      if (!region.hasOneBlock())
        return op->emitOpError("has a region with several blocks, which "
                               "cannot be interpreted");
      if (failed(compileBlock(region.front(), *block)))
        return failure();
    }
    instr.regions.push_back(std::move(block));
  }
  return success();
}

LogicalResult Compiler::compileBlock(mlir::Block &block, SBlock &out) {
  for (BlockArgument arg : block.getArguments())
    out.args.push_back(slotOf(arg));
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value v : op.getOperands())
        out.yields.push_back(slotOf(v));
      continue;
    }
    SInstr instr;
    if (failed(compileOp(&op, instr)))
      return failure();
    out.instrs.push_back(std::move(instr));
  }
  for (unsigned y : out.yields)
    out.yieldsAliasArgs |= llvm::is_contained(out.args, y);
  out.minWork = computeMinWork(out);
  return success();
}

/// Compiles the dtile.kernel `op`.
static LogicalResult compileTileKernel(dtile::KernelOp op, Kernel &kernel) {
  kernel.isTile = true;
  kernel.op = op;
  if (dtile::TileOp tile = op.getTile()) {
    // As many blocks as the lowering can launch (it linearises them into
    // the grid's x), so that the CPU never starts on a grid the GPU cannot
    // run.
    if (int64_t blocks = tile.getNumBlocks();
        blocks > std::numeric_limits<int32_t>::max())
      return tile.emitOpError("binds ")
             << (blocks == std::numeric_limits<int64_t>::max() ? "more than "
                                                               : "")
             << blocks << " blocks; a grid has at most "
             << std::numeric_limits<int32_t>::max();
    kernel.numThreads = tile.getNumThreads();
    kernel.block.assign(tile.getThreadExtents().begin(),
                        tile.getThreadExtents().end());
    kernel.grid.assign(tile.getBlockExtents().begin(),
                       tile.getBlockExtents().end());
  }
  Compiler compiler(kernel);
  mlir::Block &body = op.getBody().front();
  for (BlockArgument arg : body.getArguments())
    kernel.bufferSlots.push_back(compiler.slotOf(arg));
  unsigned numInputs = op.getInputs().size();
  for (unsigned i = 0, e = op.getOutputs().size(); i < e; ++i)
    if (op.isZeroInit(i))
      kernel.zeroInit.push_back(numInputs + i);
  return compiler.compileBlock(body, kernel.body);
}

/// Compiles the kernel that `launch` runs.
static LogicalResult compileLaunch(dkernel::LaunchOp launch, Kernel &kernel) {
  auto func = SymbolTable::lookupNearestSymbolFrom<dkernel::FuncOp>(
      launch, launch.getCalleeAttr());
  if (!func)
    return launch.emitOpError("launches an unknown kernel");
  kernel.op = func;
  kernel.grid.assign(func.getGrid().begin(), func.getGrid().end());
  if (std::optional<ArrayRef<int64_t>> cluster = func.getCluster())
    kernel.cluster.assign(cluster->begin(), cluster->end());
  kernel.block.assign(func.getBlock().begin(), func.getBlock().end());
  kernel.numThreads = func.getNumThreads();
  kernel.smem = func.getSmem();
  Compiler compiler(kernel);
  mlir::Block &body = func.getBody().front();
  // Buffer parameters bind to the launch operands in order; descriptors to
  // the buffer they describe.
  SmallVector<int64_t> bufferIndex(body.getNumArguments(), -1);
  for (BlockArgument arg : body.getArguments())
    if (!func.isTmaDescriptor(arg.getArgNumber())) {
      bufferIndex[arg.getArgNumber()] = kernel.bufferSlots.size();
      kernel.bufferSlots.push_back(compiler.slotOf(arg));
      if (func.isZeroInit(arg.getArgNumber()))
        kernel.zeroInit.push_back(bufferIndex[arg.getArgNumber()]);
    }
  for (BlockArgument arg : body.getArguments()) {
    if (!func.isTmaDescriptor(arg.getArgNumber()))
      continue;
    dkernel::TmaDescriptorOp desc = func.getTmaDescriptorOp(arg.getArgNumber());
    if (!desc)
      return func.emitOpError("has descriptor parameter #")
             << arg.getArgNumber() << " that no dkernel.tma_descriptor "
             << "describes";
    kernel.descriptorSlots.push_back(
        {compiler.slotOf(arg),
         static_cast<unsigned>(bufferIndex[desc.getBufferIndex()])});
  }
  return compiler.compileBlock(body, kernel.body);
}

void simt::compileLoopKernel(Operation *op, Operation *laneLoop, Instr &instr) {
  auto kernel = std::make_shared<Kernel>();
  auto loop = cast<dloop::ForOp>(laneLoop);
  kernel->isLoop = true;
  kernel->op = op;
  kernel->laneLoop = loop;
  kernel->laneAxis = loop.getAxis().str();
  kernel->numThreads = loop.getExtent();
  Compiler compiler(*kernel);
  mlir::Block &body = cast<dloop::KernelOp>(op).getRegion().front();
  for (BlockArgument arg : body.getArguments())
    kernel->bufferSlots.push_back(compiler.slotOf(arg));
  // Whatever the engine cannot run stays with the sequential interpreter,
  // which reports it.
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  if (succeeded(compiler.compileBlock(body, kernel->body)))
    instr.simt = std::move(kernel);
}

LogicalResult simt::compile(Operation *op, Instr &instr) {
  auto kernel = std::make_shared<Kernel>();
  LogicalResult result = failure();
  if (auto tile = dyn_cast<dtile::KernelOp>(op))
    result = compileTileKernel(tile, *kernel);
  else if (auto launch = dyn_cast<dkernel::LaunchOp>(op))
    result = compileLaunch(launch, *kernel);
  else
    return op->emitOpError("is not a GPU kernel");
  if (failed(result))
    return failure();
  instr.simt = std::move(kernel);
  return success();
}
