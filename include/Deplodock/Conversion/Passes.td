//===- Passes.td - Lowerings between Deplodock levels ------*- tablegen -*-===//

#ifndef DEPLODOCK_CONVERSION_PASSES
#define DEPLODOCK_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertToDTensor : Pass<"convert-to-dtensor", "::mlir::ModuleOp"> {
  let summary = "Import linalg, tensor, arith and math on tensors into dtensor";
  let description = [{
    Rewrites a model layer written on tensors into the three dtensor
    primitives. Named linalg ops are generalized first (softmax decomposed);
    a `linalg.generic` becomes index maps that lay each operand out over the
    iteration domain, an elementwise body, and, with reduction iterators, a
    reduce and a combine with the initial value. Tensor reshapes, slices,
    concat, pad and `tensor.insert` at constant indices become index maps;
    arith and math on tensors become elementwise ops; splat constants become
    elementwise ops without operands, other dense constants (weights) stay,
    `dense_resource` blobs (torch-mlir's weights) made dense elements.
    Conditions on `linalg.index` values become predicated index maps (causal
    masks). Integer powers (`math.fpowi`) become multiplications; a pad value
    may be an element of a constant tensor (lowered TOSA).

    The forms torch-mlir emits: a generic with several reduction results
    imports each result it returns on its own and drops the others (softmax
    comes with an unused argmax); an argmax or argmin result (`select(v > acc,
    index, acc_index)` beside a max or min of v, over one reduction
    dimension) reduces, as i32, the indices where v reaches the reduced
    value, the first one for a strict comparison and the last otherwise;
    `and`/`or` reductions of i1 reduce sign-extended to i32; a
    `tensor.extract` at computed indices inside the body (an embedding
    lookup) becomes a `dtensor.gather`.

    Anything else — dynamic shapes, ops on tensors it does not know — is a
    located error naming the op; nothing is left half converted. TOSA input
    is first lowered by the upstream tosa-to-linalg pipelines (the
    `lower-to-tensor` pipeline runs them).
  }];
  let dependentDialects = [
    "::deplodock::dtensor::DTensorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertDTensorToDLoop
    : Pass<"convert-dtensor-to-dloop", "::mlir::ModuleOp"> {
  let summary = "Lift each dtensor op into a one-op dloop.kernel over buffers";
  let description = [{
    Gives every tensor a buffer and every dtensor op a kernel of its own:
    function arguments and results become memrefs, intermediate tensors
    `memref.alloc`s, dense and `dense_resource` constants `memref.global`s
    (an elided or short resource is a located error). An elementwise op
    becomes a nest of free loops that loads its operands, runs the body and
    stores; a reduce op free loops over the kept axes around reduce loops
    carrying the accumulator; an index map free loops whose loads use the
    op's affine maps, with `scf.if` on the predicates; a gather free loops
    that load each index, clamp it into its axis and load the source there.
    Size-1 axes get no loop; an empty result gets no kernel. Splat constants and iota constants read by a kernel become scalar
    code. `dloop-fuse` then merges the kernels.
  }];
  let dependentDialects = [
    "::deplodock::dloop::DLoopDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ConvertDTileToDKernel
    : Pass<"convert-dtile-to-dkernel", "::mlir::ModuleOp"> {
  let summary = "Lower each dtile.kernel to a dkernel.func and a host launch";
  let description = [{
    Turns every `dtile.kernel` into a `dkernel.func` at module level, placed
    before the function that held it, and puts a `dkernel.launch` of it where
    the kernel was; the host function keeps its buffers. The kernel keeps its
    name unless another symbol has it (then the symbol table makes it unique,
    `@name_0`). Its parameters are the kernel's inputs, then its outputs;
    outputs written only by reducing stores are listed in `zero_init`, and
    reducing stores become `dkernel.atomic_store`.

    Geometry: the block axes of the `dtile.tile` become the grid, the last
    axis on x, the one before on y, the first on z; more than three axes, or
    extents beyond the grid limits, are linearised into x and recovered with
    div/rem. The thread axes become a one-dimensional block whose linear
    thread id is split with div/rem, the last axis fastest. Unit axes are the
    constant 0; a kernel without a tile runs on one thread.

    Ops: `dloop.for` and `dtile.strided_for` become `scf.for` with their
    iteration arguments (an `unroll` hint becomes `dkernel.unroll`);
    `dloop.load`/`dloop.store` become `memref.load`/`memref.store`, their
    affine maps expanded into `arith` (unsigned division where the dividend is
    known to be non-negative); `arith`, `math` and `scf.if` are kept.

    Shared memory: every `dtile.stage` gets a `dkernel.alloc_shared` slice at
    the kernel entry, 16-byte aligned; padding widens the slab rows, and the
    stages of one rotation (`buffers N` with the same source, box, padding
    and transport) share an `N x box` slice indexed by the slot. A `sync`
    stage is a cooperative copy (thread t copies elements t, t + N, ... of
    the box) between barriers; the barrier before is left out where nothing
    but pure ops and other stages ran since the last barrier, and
    consecutive sync stages share the barrier after. A `cp_async` stage (on
    a target with the `cp_async` feature) issues `dkernel.cp_async` copies
    of 16, 8 or 4 bytes, the widest that keeps every run aligned, and
    commits one group;
    `dtile.async_wait keep N` becomes `dkernel.cp_async_wait N` and a barrier.
    Slabs carried through loops and branches are carried as their slot.

    `dtile.combine` over the innermost non-unit thread axes, i.e. groups of G
    consecutive threads: with full warps and a shuffle type, a
    `dkernel.warp_reduce` of width G when G is a power of two up to 32, and
    for G a multiple of 32 a warp reduction, the warp partials in shared
    memory, a barrier, the first warp folding each group's partials, and a
    barrier; otherwise a whole-block combine folds a shared buffer padded to
    a power of two with `dkernel.tree_reduce`, and smaller groups are folded
    by one thread each through shared memory. Every thread reads its group's
    result. Each combine has slices of its own, so none waits for another's
    readers.

    The kernel body is cleaned with CSE and dead-code removal, so repeated
    index arithmetic is shared. Anything else (TMA stages, combines over
    outer axes, ops with no Kernel IR form) is a located error naming the
    op, and the module is then left unchanged.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU (GpuTargets.td: sm_80, sm_90, sm_90a) when the module names none "
           "in dkernel.target, else sm_90: gates cp.async and TMA by its "
           "features and sets the shared-memory limit per block">
  ];
  let dependentDialects = [
    "::deplodock::dkernel::DKernelDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def DKernelDependentLaunch
    : Pass<"dkernel-dependent-launch", "::mlir::ModuleOp"> {
  let summary = "Let each kernel start while the kernel before it finishes";
  let description = [{
    On a target with `dependent_launch` (sm_90 and newer), every
    `dkernel.func` gets `dkernel.wait_prior_grids` as its first op and
    `dkernel.launch_dependents` right after it; elsewhere the module is left
    as it is. A kernel that waits so before it touches memory may be
    launched as a programmatic dependent of the kernel before it on the
    stream, which the runtime then does: its launch and block scheduling
    overlap the previous kernel's last blocks, instead of a gap of a few
    microseconds between two kernels of a layer (a split-K matmul and its
    sum kernel, a norm and the projection after it). What it reads is
    unchanged: the wait returns once the previous grid has completed and
    its writes are visible. The signal after the wait lets the next kernel
    start only once this one runs, so at most one grid waits at a time.
    Idempotent: a kernel that already waits is left alone.
  }];
  let dependentDialects = ["::deplodock::dkernel::DKernelDialect"];
}

#endif // DEPLODOCK_CONVERSION_PASSES
