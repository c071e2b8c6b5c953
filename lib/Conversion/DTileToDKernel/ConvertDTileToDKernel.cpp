//===- ConvertDTileToDKernel.cpp - Tile IR to Kernel IR ---------*- C++ -*-===//
//
// Each dtile.kernel becomes a dkernel.func built next to the source, op by op,
// through a value mapping; the source is only replaced (by dkernel.launch)
// once every kernel of the module has lowered, so a failure leaves the module
// as it was.
//
// Launch geometry: block axes on blockIdx (last axis on x) or linearised into
// x; thread axes on a one-dimensional block, the linear thread id split with
// div/rem, last axis fastest.
//
// Shared memory: one pool; every stage (or rotation of stages) and every
// combine that needs scratch gets its own 16-byte aligned slice, so phases
// never share scratch and need no extra barriers.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "Deplodock/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"

#include <limits>

#define DEBUG_TYPE "convert-dtile-to-dkernel"

namespace deplodock {
#define GEN_PASS_DEF_CONVERTDTILETODKERNEL
#include "Deplodock/Conversion/Passes.h.inc"
} // namespace deplodock

using namespace mlir;
using namespace deplodock;
using namespace deplodock::lowering;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Whether the block axes of `tile` fit blockIdx x/y/z as they are.
static bool blocksFitGrid(dtile::TileOp tile) {
  ArrayRef<int64_t> extents = tile.getBlockExtents();
  if (extents.size() > 3)
    return false;
  for (auto [i, extent] : llvm::enumerate(llvm::reverse(extents)))
    if (extent > (i == 0 ? kMaxGridX : kMaxGridYZ))
      return false;
  return true;
}

LogicalResult KernelLowering::lowerTile(dtile::TileOp tileOp) {
  tile = tileOp;
  wgmmaReadsSlabs =
      tileOp.walk([](dkernel::WgmmaDescOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  Location loc = tileOp.getLoc();
  Block &body = tileOp.getBody().front();
  ArrayRef<int64_t> blockExtents = tileOp.getBlockExtents();
  unsigned numBlockAxes = blockExtents.size();

  // Blocks: the last axis on x, the one before on y, the first on z; or all
  // of them linearised into x.
  if (blocksFitGrid(tileOp)) {
    for (unsigned i = 0; i < numBlockAxes; ++i) {
      int64_t extent = blockExtents[i];
      auto dim = static_cast<gpu::Dimension>(numBlockAxes - 1 - i);
      values.map(body.getArgument(i),
                 extent == 1 ? index(0)
                             : gpu::BlockIdOp::create(b, loc, dim).getResult());
    }
  } else {
    bool allUnit = llvm::all_of(blockExtents, [](int64_t e) { return e == 1; });
    Value linear =
        allUnit ? index(0)
                : gpu::BlockIdOp::create(b, loc, gpu::Dimension::x).getResult();
    for (auto [i, coord] :
         llvm::enumerate(delinearize(loc, linear, blockExtents)))
      values.map(body.getArgument(i), coord);
  }

  // Threads: a one-dimensional block, the last axis fastest.
  numThreads = tileOp.getNumThreads();
  tid = numThreads == 1
            ? index(0)
            : gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x).getResult();
  for (auto [i, coord] :
       llvm::enumerate(delinearize(loc, tid, tileOp.getThreadExtents())))
    values.map(body.getArgument(numBlockAxes + i), coord);

  if (failed(setUpTma(tileOp)))
    return failure();
  if (failed(warpSpecialized ? lowerRoles(tileOp) : lowerOps(body)))
    return failure();
  // No block leaves while its peer may still multicast into it or arrive
  // on its mbarriers.
  if (clustered)
    dkernel::ClusterBarrierOp::create(b, loc);
  return success();
}

FailureOr<dkernel::FuncOp> KernelLowering::run() {
  Location loc = kernel.getLoc();
  Block &source = kernel.getBody().front();
  int64_t numInputs = kernel.getInputs().size();

  // Parameters: the inputs, then the outputs.
  SmallVector<Type> params;
  for (auto [i, buffer] : llvm::enumerate(kernel.getBuffers())) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.getMemorySpace())
      return kernel.emitOpError("buffer #")
             << i << " has type " << type
             << "; kernel parameters live in global memory (no memory space)";
    if (!dkernel::isKernelScalar(type.getElementType()))
      return kernel.emitOpError("buffer #")
             << i << " has element type " << type.getElementType()
             << ", which Kernel IR cannot hold";
    params.push_back(type);
  }
  SmallVector<int64_t> outputs, zeroInit;
  for (auto [i, arg] : llvm::enumerate(kernel.getOutputArgs())) {
    int64_t param = numInputs + i;
    outputs.push_back(param);
    // Zeroed at the Tile level (split-K), or written only by reducing
    // stores: atomics into a buffer the runtime zeroes.
    bool reducing = false, plain = false;
    for (Operation *user : arg.getUsers())
      if (auto store = dyn_cast<dloop::StoreOp>(user);
          store && store.getMemref() == arg)
        (store.isReducing() ? reducing : plain) = true;
    if (kernel.isZeroInit(i) || (reducing && !plain))
      zeroInit.push_back(param);
  }
  // Geometry.
  dtile::TileOp tileOp = kernel.getTile();
  SmallVector<int64_t> grid = {1, 1, 1}, block = {1, 1, 1}, cluster;
  if (tileOp) {
    ArrayRef<int64_t> extents = tileOp.getBlockExtents();
    if (std::optional<ArrayRef<int64_t>> shape = tileOp.getCluster()) {
      // Each block axis's cluster extent on its grid dimension.
      if (!blocksFitGrid(tileOp))
        return tileOp.emitOpError("is launched in clusters, but its block "
                                  "axes do not fit the grid's dimensions");
      if (!target.has(GpuFeature::clusters))
        return tileOp.emitOpError("is launched in clusters, which target ")
               << target.getName() << " lacks ('clusters' feature)";
      cluster.assign(3, 1);
      for (auto [i, extent] : llvm::enumerate(llvm::reverse(*shape)))
        cluster[i] = extent;
    }
    if (blocksFitGrid(tileOp)) {
      for (auto [i, extent] : llvm::enumerate(llvm::reverse(extents)))
        grid[i] = extent;
    } else {
      int64_t blocks = tileOp.getNumBlocks();
      // getNumBlocks saturates: its largest value means more.
      if (blocks > kMaxGridX)
        return tileOp.emitOpError("binds ")
               << (blocks == std::numeric_limits<int64_t>::max() ? "more than "
                                                                 : "")
               << blocks << " blocks; a grid has at most " << kMaxGridX;
      grid[0] = blocks;
    }
    block[0] = tileOp.getNumThreads();
    // warp_specialize: a producer warpgroup after the consumers.
    warpSpecialized =
        kernel.getKnobs() &&
        kernel.getKnobs().getWarpSpecialize() == std::optional<bool>(true);
    if (warpSpecialized)
      block[0] += kProducerThreads;
  }

  OpBuilder fb(kernel.getContext());
  func = dkernel::FuncOp::create(fb, loc, kernel.getSymName(),
                                 fb.getFunctionType(params, {}), grid, block,
                                 /*smem=*/0, outputs, zeroInit, cluster);
  if (!kernel.getKnobs().empty())
    func->setAttr("dtile.knobs", kernel.getKnobs());
  Block *entry = new Block();
  func.getBody().push_back(entry);
  for (auto [param, arg] : llvm::zip(params, source.getArguments())) {
    values.map(arg, entry->addArgument(param, arg.getLoc()));
  }
  auto ret = dkernel::ReturnOp::create(fb, loc);
  entry->push_back(ret);
  b.setInsertionPoint(ret);

  auto fail = [&]() -> FailureOr<dkernel::FuncOp> {
    // Drop the hoisted ops and the half-built kernel together. The hoisted
    // ops may also use the kernel's arguments (TMA descriptors describe
    // them): their operands go before the kernel does.
    allocs.dropAllDefinedValueUses();
    constants.dropAllDefinedValueUses();
    allocs.dropAllReferences();
    constants.dropAllReferences();
    func->dropAllReferences();
    func->erase();
    allocs.clear();
    constants.clear();
    return failure();
  };

  for (Operation &op : source.without_terminator()) {
    // Outside the tile every thread would run the op: only pure scalar
    // code may live there.
    if (tileOp && !isa<dtile::TileOp>(op) && !isMemoryEffectFree(&op)) {
      op.emitOpError("outside the dtile.tile would run on every thread; only "
                     "side-effect-free ops may be there");
      return fail();
    }
    if (failed(lowerOp(&op)))
      return fail();
  }

  entry->getOperations().splice(entry->begin(), constants.getOperations());
  entry->getOperations().splice(entry->begin(), allocs.getOperations());
  func.setSmem(smemBytes);
  // Every access expands its own index arithmetic; share what repeats.
  // Kernel IR keeps its synchronisation under CSE (see the dkernel tests).
  IRRewriter rewriter(kernel.getContext());
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);
  // Coordinates and constants nobody reads would print as unused locals.
  func.walk<WalkOrder::PostOrder, mlir::ReverseIterator>([](Operation *op) {
    if (isOpTriviallyDead(op))
      op->erase();
  });
  if (smemBytes > target.getSmemPerBlock()) {
    kernel.emitOpError("needs ")
        << smemBytes << " bytes of shared memory, more than the "
        << target.getSmemPerBlock() << " a block may use on "
        << target.getName();
    return fail();
  }
  return func;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

LogicalResult deplodock::convertDTileToDKernel(ModuleOp module,
                                               StringRef targetName) {
  FailureOr<dkernel::TargetAttr> target =
      dkernel::resolveTarget(module, targetName);
  if (failed(target))
    return failure();

  // What the kernels are built from; the pass has them loaded already.
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<dkernel::DKernelDialect, arith::ArithDialect,
                   gpu::GPUDialect, math::MathDialect, memref::MemRefDialect,
                   scf::SCFDialect>();

  SmallVector<dtile::KernelOp> kernels;
  // Kernels of nested modules belong to those modules' symbol tables.
  module.walk([&](dtile::KernelOp kernel) {
    if (kernel->getParentOfType<ModuleOp>() == module)
      kernels.push_back(kernel);
  });

  // Build every kernel before touching the module.
  SmallVector<dkernel::FuncOp> funcs;
  bool ok = true;
  for (dtile::KernelOp kernel : kernels) {
    KernelLowering lowering(kernel, *target);
    FailureOr<dkernel::FuncOp> func = lowering.run();
    if (failed(func)) {
      ok = false;
      continue;
    }
    funcs.push_back(*func);
  }
  if (!ok) {
    for (dkernel::FuncOp func : funcs)
      func->erase();
    return failure();
  }

  // Commit: kernels before the function that launched them, launches in
  // place of the dtile.kernels. A kernel keeps its name unless another
  // symbol has it (often the host function of the same name); the symbol
  // table then makes it unique (`@name_0`).
  Block *top = module.getBody();
  SymbolTable symbols(module);
  for (auto [kernel, func] : llvm::zip(kernels, funcs)) {
    Operation *anchor = top->findAncestorOpInBlock(*kernel);
    symbols.insert(func, anchor->getIterator());
    OpBuilder b(kernel);
    dkernel::LaunchOp::create(b, kernel.getLoc(), func, kernel.getBuffers());
    kernel.erase();
  }
  return success();
}

namespace {

struct ConvertDTileToDKernelPass final
    : deplodock::impl::ConvertDTileToDKernelBase<ConvertDTileToDKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(convertDTileToDKernel(getOperation(), target)))
      return signalPassFailure();
  }
};

} // namespace
