//===- DKernelOps.td - dkernel ops -------------------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_OPS
#define DEPLODOCK_DIALECT_DKERNEL_OPS

include "Deplodock/Dialect/DKernel/IR/DKernelAttrs.td"
include "Deplodock/Dialect/DKernel/IR/DKernelDialect.td"
include "Deplodock/Dialect/DKernel/IR/DKernelTypes.td"
include "Deplodock/Dialect/Common/DeplodockEnums.td"
include "Deplodock/Dialect/DKernel/IR/DKernelEnums.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class DKernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<DKernel_Dialect, mnemonic, traits>;

/// Nested, at any depth, in a dkernel.func.
def DKernel_InKernel : NativeOpTrait<"InKernel"> {
  let cppNamespace = "::deplodock::dkernel";
}

/// Warp-level ops a Tile rule may already place in a Tile kernel.
def DKernel_InKernelOrTile : NativeOpTrait<"InKernelOrTile"> {
  let cppNamespace = "::deplodock::dkernel";
}

/// A scalar the emitter can print as a CUDA type.
def DKernel_Scalar : Type<CPred<"::deplodock::dkernel::isKernelScalar($_self)">,
    "i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2">;

/// A statically shaped buffer of such scalars, in any memory space.
def DKernel_Buffer : StaticShapeMemRefOf<[DKernel_Scalar]>;

/// A scalar that __shfl_xor_sync exchanges in one call.
def DKernel_ShuffleScalar : AnyTypeOf<[I32, I64, F16, BF16, F32, F64]>;

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

def DKernel_FuncOp : DKernel_Op<"func", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    SingleBlock]> {
  let summary = "a GPU kernel with its launch geometry and shared memory";
  let description = [{
    One CUDA kernel. The parameters, in order, are the kernel's arguments:
    statically shaped global buffers (memrefs without memory space, identity
    layout) or `!dkernel.tma_descriptor` values. `outputs` lists the indices
    of the buffers the kernel writes; the others are read-only inputs (printed
    `const T* __restrict__`). `zero_init` lists the outputs the runtime zeroes
    before the launch (split-K atomics accumulate into them).

    `grid` and `block` are the launch dimensions (x, y, z); `smem` is the
    size in bytes of the dynamic shared-memory pool that `dkernel.alloc_shared`
    slices. The optional `cluster` groups the blocks into thread-block
    clusters of that shape (x, y, z): each extent at least 1, at most 8
    blocks in all (the portable limit), each dividing the grid's, on a
    target with the `clusters` feature. The blocks of a cluster run at the
    same time and meet at `dkernel.cluster_barrier`. The body is one block ending with `dkernel.return`; every TMA
    descriptor parameter is described by exactly one `dkernel.tma_descriptor`
    in it. A kernel is an automatic allocation scope: `memref.alloca` in it
    is a per-thread local array.

    ```mlir
    dkernel.func @scale(%x: memref<4096xf32>, %y: memref<4096xf32>) outputs [1] grid [16, 1, 1] block [256, 1, 1] smem 0 {
      ...
      dkernel.return
    }
    dkernel.func @pairs(%x: memref<4096xf32>) outputs [0] grid [16, 1, 1] block [256, 1, 1] cluster [2, 1, 1] smem 0 {
      ...
      dkernel.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       DenseI64ArrayAttr:$grid,
                       DenseI64ArrayAttr:$block,
                       I64Prop:$smem,
                       DenseI64ArrayAttr:$outputs,
                       OptionalAttr<DenseI64ArrayAttr>:$zero_init,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins
    "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
    "::llvm::ArrayRef<int64_t>":$grid, "::llvm::ArrayRef<int64_t>":$block,
    "int64_t":$smem, "::llvm::ArrayRef<int64_t>":$outputs,
    CArg<"::llvm::ArrayRef<int64_t>", "{}">:$zeroInit,
    CArg<"::llvm::ArrayRef<int64_t>", "{}">:$cluster)>];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    //===------------------------------------------------------------------===//
    // Kernel queries
    //===------------------------------------------------------------------===//

    /// Threads per block: the product of `block`.
    int64_t getNumThreads();
    /// Blocks per cluster: the product of `cluster`, 1 without one.
    int64_t getClusterSize();
    /// Whether parameter `i` is written by the kernel.
    bool isOutput(unsigned i);
    /// Whether the runtime zeroes parameter `i` before the launch.
    bool isZeroInit(unsigned i);
    /// Whether parameter `i` is a TMA descriptor.
    bool isTmaDescriptor(unsigned i);
    /// The op naming the buffer that descriptor parameter `i` describes, or
    /// null when there is none.
    TmaDescriptorOp getTmaDescriptorOp(unsigned i);
    /// The buffer parameters, in order: what dkernel.launch passes.
    ::llvm::SmallVector<::mlir::BlockArgument> getBufferArguments();
    /// The types of the buffer parameters, in order.
    ::llvm::SmallVector<::mlir::Type> getBufferTypes();
    /// The dkernel.return that ends the body.
    ReturnOp getReturn();
    /// Whether the kernel waits for the grids before it before touching
    /// memory (a dkernel.wait_prior_grids in its body, which the op's
    /// verifier keeps ahead of every memory access): the runtime may then
    /// launch it while the grid before it still runs.
    bool waitsForPriorGrids();

    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//

    /// The body; kernels are never external.
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    /// The parameter types.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// The result types: none once verified.
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
}

def DKernel_ReturnOp : DKernel_Op<"return", [
    Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "ends a kernel body";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

def DKernel_LaunchOp : DKernel_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launches a dkernel.func from host code";
  let description = [{
    Launches `callee` with its own grid, block and shared memory. The
    arguments are the kernel's buffer parameters, in order; TMA descriptor
    parameters are not passed: the runtime encodes each one from the buffer
    its `dkernel.tma_descriptor` names. Outputs listed in the kernel's
    `zero_init` are zeroed by the runtime first. Launches run in program
    order.

    ```mlir
    dkernel.launch @rmsnorm(%x, %w, %y) : memref<1x32x2048xf32>, memref<2048xf32>, memref<1x32x2048xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Arg<Variadic<AnyStaticShapeMemRef>, "the buffers",
                           [MemRead, MemWrite]>:$args);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` type($args)
  }];
  let builders = [OpBuilder<(ins "FuncOp":$kernel, "::mlir::ValueRange":$args),
    [{ build($_builder, $_state, kernel.getSymName(), args); }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AllocSharedOp
//===----------------------------------------------------------------------===//

def DKernel_AllocSharedOp : DKernel_Op<"alloc_shared", [
    Pure, HasParent<"FuncOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a buffer at a byte offset of the shared-memory pool";
  let description = [{
    A buffer starting `offset` bytes into the kernel's dynamic shared-memory
    pool (the `extern __shared__` array of `smem` bytes, aligned to 128
    bytes). The offset is a multiple of 16 bytes, hence of every element size,
    and the buffer ends inside the pool. Buffers may overlap: the lowering
    reuses the pool as it likes. The op is a view, not an allocation, so it
    is pure and sits directly in the kernel body.

    ```mlir
    %s = dkernel.alloc_shared offset 0 : memref<2x64x33xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins I64Prop:$offset);
  let results = (outs DKernel_Buffer:$result);
  let assemblyFormat = "`offset` $offset attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes of the buffer.
    int64_t getSizeInBytes();
  }];
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

def DKernel_CpAsyncOp : DKernel_Op<"cp_async", [
    DKernel_InKernel, AttrSizedOperandSegments]> {
  let summary = "starts an asynchronous global-to-shared copy (sm_80+)";
  let description = [{
    `cp.async`: copies `bytes` (4, 8 or 16) contiguous bytes from `src`,
    starting at element `src[srcIndices]`, to `dst[dstIndices]`. The copy
    completes asynchronously; it belongs to the group that the next
    `dkernel.cp_async_commit` closes and is visible to the issuing thread
    after a `dkernel.cp_async_wait` that retires its group.

    With `if %valid else zeros`, a thread whose `%valid` is false reads
    nothing and fills the destination run with zeros (cp.async's source
    size 0): how a tile reaching past the end of a buffer is staged. The
    source indices must still name an element of `src`.

    ```mlir
    dkernel.cp_async %a[%i, %j], %s[%r, %c], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    dkernel.cp_async %a[%i, %j], %s[%r, %c], 16 if %in else zeros : memref<37x1000xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Arg<DKernel_Buffer, "global source", [MemRead]>:$src,
                       Variadic<Index>:$srcIndices,
                       Arg<DKernel_Buffer, "shared destination",
                           [MemWrite]>:$dst,
                       Variadic<Index>:$dstIndices,
                       Optional<I1>:$valid,
                       I64Prop:$bytes);
  let assemblyFormat = [{
    $src `[` $srcIndices `]` `,` $dst `[` $dstIndices `]` `,` $bytes
    (`if` $valid^ `else` `zeros`)? attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def DKernel_CpAsyncCommitOp : DKernel_Op<"cp_async_commit", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "closes the current cp.async group";
  let description = [{
    `cp.async.commit_group`: the copies this thread issued since the last
    commit form one group.

    ```mlir
    dkernel.cp_async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def DKernel_CpAsyncWaitOp : DKernel_Op<"cp_async_wait", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until at most N cp.async groups are pending";
  let description = [{
    `cp.async.wait_group N`: blocks the thread until at most `pending` of its
    committed groups are still in flight. It waits for this thread's copies
    only: a `gpu.barrier` follows when other threads' copies are read.

    ```mlir
    dkernel.cp_async_wait 1
    ```
  }];
  let arguments = (ins I64Prop:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

def DKernel_VectorCopyOp : DKernel_Op<"vector_copy", [
    DKernel_InKernel, AttrSizedOperandSegments]> {
  let summary = "copies an aligned run of 8 or 16 bytes through a register";
  let description = [{
    One load of `bytes` (8 or 16) contiguous bytes starting at element
    `src[srcIndices]` and one store of them at `dst[dstIndices]`, by the
    calling thread, at once (64 or 128-bit accesses). Both addresses must be
    multiples of `bytes`: whoever creates it proves that (a stage's aligned
    run, `dtile.stage` transport `vector`); the run stays inside one
    innermost row.

    ```mlir
    dkernel.vector_copy %a[%i, %j], %s[%r, %c], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Arg<DKernel_Buffer, "source", [MemRead]>:$src,
                       Variadic<Index>:$srcIndices,
                       Arg<DKernel_Buffer, "destination", [MemWrite]>:$dst,
                       Variadic<Index>:$dstIndices,
                       I64Prop:$bytes);
  let assemblyFormat = [{
    $src `[` $srcIndices `]` `,` $dst `[` $dstIndices `]` `,` $bytes
    attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def DKernel_VectorLoadOp : DKernel_Op<"vector_load", [
    DKernel_InKernelOrTile]> {
  let summary = "reads an aligned run of 4 (two 16-bit), 8 or 16 bytes into registers";
  let description = [{
    One 64 or 128-bit load by the calling thread of the contiguous elements
    `src[indices]` onward, one result each (float2 / float4 for f32). The
    run stays inside one innermost row and its address is a multiple of its
    width: whoever creates it proves that (vector_reads, from the slab's
    padded rows and the index coefficients); where the innermost index is a
    constant the verifier checks it. In Tile IR `src` may be a staged slab.

    ```mlir
    %b:4 = dkernel.vector_load %s[%k, %c] : memref<32x128xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
    ```
  }];
  let arguments = (ins Arg<DKernel_Buffer, "the buffer read", [MemRead]>:$src,
                       Variadic<Index>:$indices);
  let results = (outs Variadic<DKernel_Scalar>:$results);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` type($src) `->` type($results)
  }];
  let hasVerifier = 1;
}

def DKernel_VectorStoreOp : DKernel_Op<"vector_store", [
    DKernel_InKernelOrTile, AttrSizedOperandSegments]> {
  let summary = "writes an aligned run of 4, 8 or 16 bytes from registers";
  let description = [{
    One 64 or 128-bit store (or 32-bit, of two 16-bit values) by the
    calling thread of `values` to the contiguous elements `dst[indices]`
    onward, with the alignment contract of `dkernel.vector_load`
    (vector_stores proves it for an output from its static shape and the
    index coefficients).

    ```mlir
    dkernel.vector_store(%a, %b, %c, %d), %out[%r, %n] : (f32, f32, f32, f32), memref<32x2048xf32>
    ```
  }];
  let arguments = (ins Variadic<DKernel_Scalar>:$values,
                       Arg<DKernel_Buffer, "the buffer written", [MemWrite]>:$dst,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    `(` $values `)` `,` $dst `[` $indices `]` attr-dict `:` `(` type($values)
    `)` `,` type($dst)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mbarrier
//===----------------------------------------------------------------------===//

def DKernel_MbarrierInitOp : DKernel_Op<"mbarrier_init", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "initialises an mbarrier with an arrival count";
  let description = [{
    `mbarrier.init`: mbarriers are the i64 elements of a rank-1 shared
    buffer; this initialises `mbarriers[slot]` to expect `count` arrivals per
    phase (1 to 2^20 - 1). One thread initialises; a `gpu.barrier` publishes
    the result.

    ```mlir
    dkernel.mbarrier_init %mb[%slot], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins DKernel_Buffer:$mbarriers, Index:$slot,
                       I64Prop:$count);
  let assemblyFormat = [{
    $mbarriers `[` $slot `]` `,` $count attr-dict `:` type($mbarriers)
  }];
  let hasVerifier = 1;
}

def DKernel_MbarrierArriveExpectTxOp
    : DKernel_Op<"mbarrier_arrive_expect_tx", [
        DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on an mbarrier and expects transaction bytes";
  let description = [{
    `mbarrier.arrive.expect_tx`: adds `bytes` (1 to 2^20 - 1) to the bytes
    the current phase of `mbarriers[slot]` waits for, then arrives. The TMA
    loads that signal this mbarrier complete the transaction.

    ```mlir
    dkernel.mbarrier_arrive_expect_tx %mb[%slot], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins DKernel_Buffer:$mbarriers, Index:$slot,
                       I64Prop:$bytes);
  let assemblyFormat = [{
    $mbarriers `[` $slot `]` `,` $bytes attr-dict `:` type($mbarriers)
  }];
  let hasVerifier = 1;
}

def DKernel_MbarrierWaitOp : DKernel_Op<"mbarrier_wait", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for an mbarrier phase to complete";
  let description = [{
    `mbarrier.try_wait.parity` in a loop: blocks until the phase of
    `mbarriers[slot]` with parity `phase` (0 or 1) has completed, which makes
    the data of its transactions visible. The phase is an index, or an i32
    whose type then follows the buffer's.

    ```mlir
    dkernel.mbarrier_wait %mb[%slot], %phase : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_wait %mb[%slot], %parity : memref<2xi64, #gpu.address_space<workgroup>>, i32
    ```
  }];
  let arguments = (ins DKernel_Buffer:$mbarriers, Index:$slot,
                       AnyTypeOf<[Index, I32]>:$phase);
  let assemblyFormat = [{
    $mbarriers `[` $slot `]` `,` $phase attr-dict `:` type($mbarriers)
    `` custom<PhaseType>(type($phase))
  }];
  let hasVerifier = 1;
}

def DKernel_MbarrierArriveOp : DKernel_Op<"mbarrier_arrive", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on an mbarrier";
  let description = [{
    `mbarrier.arrive`: every thread executing it arrives once on the current
    phase of `mbarriers[slot]`, adding no transaction bytes. The phase
    completes once it has the arrival count `dkernel.mbarrier_init` gave and
    its expected bytes have landed. The consumers of a warp-specialised
    pipeline release a slot this way (its "empty" mbarrier, initialised for
    as many arrivals as there are consumer warps: after a `dkernel.warp_sync`
    one thread of each arrives), and the producer waits
    for that phase before refilling the slot; the arrival releases what the
    thread did before it to the threads that wait for the phase.

    ```mlir
    dkernel.mbarrier_arrive %mb[%slot] : memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins DKernel_Buffer:$mbarriers, Index:$slot);
  let assemblyFormat = [{
    $mbarriers `[` $slot `]` attr-dict `:` type($mbarriers)
  }];
  let hasVerifier = 1;
}

def DKernel_WarpSyncOp : DKernel_Op<"warp_sync", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders the memory accesses of a warp's threads";
  let description = [{
    `__syncwarp()`: every thread of the warp waits for the others, and what
    each did before is ordered before what any does after. A warp-specialised
    pipeline's consumer warps release a slot this way before one thread of
    each arrives on its "empty" mbarrier for the whole warp. Every thread of
    each warp taking part must execute it.

    ```mlir
    dkernel.warp_sync
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Grid dependencies (programmatic dependent launch)
//===----------------------------------------------------------------------===//

def DKernel_WaitPriorGridsOp : DKernel_Op<"wait_prior_grids", [
    HasParent<"FuncOp">, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for the grids launched before this one";
  let description = [{
    `griddepcontrol.wait`: the thread waits until the grids launched before
    this kernel on its stream have completed and their writes are visible.
    A kernel whose body executes it before any op that touches memory may
    be launched while the grid before it still runs (programmatic dependent
    launch), which the runtime then does: its blocks start, set up, and
    wait here, instead of being launched only once the grid before has
    drained. Launched normally, it waits for nothing. In a kernel's body,
    after no op with memory effects, on a target with `dependent_launch`.

    ```mlir
    dkernel.wait_prior_grids
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def DKernel_LaunchDependentsOp : DKernel_Op<"launch_dependents", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "lets the grid launched after this one start early";
  let description = [{
    `griddepcontrol.launch_dependents`: once every block of this grid has
    executed it (or exited), the grid launched after it on the stream, if
    launched as a programmatic dependent, may start; its
    `dkernel.wait_prior_grids` still waits for this grid to complete, so
    where this op stands changes only how early the next grid's blocks are
    resident, never what they read. On a target with `dependent_launch`.

    ```mlir
    dkernel.launch_dependents
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def DKernel_TmaDescriptorOp : DKernel_Op<"tma_descriptor", [
    HasParent<"FuncOp">]> {
  let summary = "names the buffer a TMA descriptor parameter describes";
  let description = [{
    Ties descriptor parameter `descriptor` to buffer parameter `buffer` of the
    same kernel: the runtime encodes the descriptor from that buffer before
    each launch. Both must be parameters of the same rank and element type,
    and the buffer's rows span a multiple of 16 bytes. The box may reach past
    the buffer's end: TMA fills what lies outside with zeros (a 64-row box
    of a 32-row activation on the H200).

    The op has no memory-effect interface, so it counts as having unknown
    effects and no cleanup erases it.

    ```mlir
    dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<128x2048xf32>
    ```
  }];
  let arguments = (ins DKernel_TmaDescriptorType:$descriptor,
                       DKernel_Buffer:$buffer);
  let assemblyFormat = [{
    $descriptor `describes` $buffer attr-dict `:` qualified(type($descriptor)) `,`
    type($buffer)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The parameter index of the descriptor.
    unsigned getDescriptorIndex();
    /// The parameter index of the described buffer.
    unsigned getBufferIndex();
    /// The descriptor's type.
    TmaDescriptorType getDescriptorType() {
      return ::llvm::cast<TmaDescriptorType>(getDescriptor().getType());
    }
  }];
}

def DKernel_TmaLoadOp : DKernel_Op<"tma_load", [
    DKernel_InKernel, AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copies one TMA box from global to shared memory (sm_90)";
  let description = [{
    `cp.async.bulk.tensor`: copies the box of `descriptor` whose first element
    sits at `coords` (in elements, outermost dimension first; the emitter
    reverses them for PTX) into `dst`, and completes the transaction on
    `mbarriers[slot]`. One thread issues it, after an
    `mbarrier_arrive_expect_tx` of the box's bytes.

    With `multicast %mask` (an i16 CTA mask, bit `r` for cluster rank `r`;
    `.multicast::cluster`), the box lands at the same shared-memory offset
    in every block of the cluster the mask names, and completes its bytes on
    the mbarrier at the same offset in each; every such block expects them
    on its own mbarrier. Only in a kernel launched in clusters, on a target
    with TMA and clusters.

    ```mlir
    dkernel.tma_load %desc[%r, %c] -> %s, %mb[%slot] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %desc[%r, %c] -> %s, %mb[%slot] multicast %mask : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins DKernel_TmaDescriptorType:$descriptor,
                       Variadic<Index>:$coords,
                       DKernel_Buffer:$dst,
                       DKernel_Buffer:$mbarriers,
                       Index:$slot,
                       Optional<I16>:$multicast);
  let assemblyFormat = [{
    $descriptor `[` $coords `]` `->` $dst `,` $mbarriers `[` $slot `]`
    (`multicast` $multicast^)?
    attr-dict `:` qualified(type($descriptor)) `,` type($dst) `,` type($mbarriers)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The descriptor's type.
    TmaDescriptorType getDescriptorType() {
      return ::llvm::cast<TmaDescriptorType>(getDescriptor().getType());
    }
    /// Verifies the multicast mask (ClusterOps.cpp).
    ::mlir::LogicalResult verifyMulticast();
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def DKernel_WarpReduceOp : DKernel_Op<"warp_reduce", [
    DKernel_InKernel, NoMemoryEffect, AllTypesMatch<["value", "result"]>]> {
  let summary = "reduces a value across lanes with xor shuffles";
  let description = [{
    A butterfly of `log2(width)` `__shfl_xor_sync` steps over groups of
    `width` consecutive lanes (a power of two, 2 to 32); every lane of a group
    gets the group's result. All lanes of the warp execute it together.

    It reads no memory, but it is not speculatable: moving it into or out of
    divergent control flow would change which lanes take part.

    ```mlir
    %r = dkernel.warp_reduce add %v width 32 : f32
    ```
  }];
  let arguments = (ins Deplodock_ReduceKindProp:$kind,
                       DKernel_ShuffleScalar:$value,
                       I64Prop:$width);
  let results = (outs DKernel_ShuffleScalar:$result);
  let assemblyFormat = [{
    $kind $value `width` $width attr-dict `:` type($value)
  }];
  let builders = [OpBuilder<(ins "::deplodock::ReduceKind":$kind,
                                 "::mlir::Value":$value, "int64_t":$width),
    [{ build($_builder, $_state, value.getType(), kind, value, width); }]>];
  let hasVerifier = 1;
}

def DKernel_TreeReduceOp : DKernel_Op<"tree_reduce", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "folds a shared buffer by tree halving across the block";
  let description = [{
    All threads of the block fold `buffer[0 .. length)` in place: for
    `s = length / 2, ..., 1`, threads `t < s` set
    `buffer[t] = buffer[t] <kind> buffer[t + s]`, with a barrier after each
    step; then every thread reads `buffer[0]`. `length` is a power of two,
    at least 2, at most the buffer size and at most twice the block's
    threads. Because of its barriers the whole block must reach it.

    ```mlir
    %r = dkernel.tree_reduce max %buf length 8 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
    ```
  }];
  let arguments = (ins Deplodock_ReduceKindProp:$kind,
                       DKernel_Buffer:$buffer,
                       I64Prop:$length);
  let results = (outs DKernel_Scalar:$result);
  let assemblyFormat = [{
    $kind $buffer `length` $length attr-dict `:` type($buffer) `->`
    type($result)
  }];
  let builders = [OpBuilder<(ins "::deplodock::ReduceKind":$kind,
                                 "::mlir::Value":$buffer, "int64_t":$length),
    [{
      Type element = ::llvm::cast<::mlir::MemRefType>(buffer.getType())
                         .getElementType();
      build($_builder, $_state, element, kind, buffer, length);
    }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AtomicStoreOp
//===----------------------------------------------------------------------===//

def DKernel_AtomicStoreOp : DKernel_Op<"atomic_store", [
    DKernel_InKernel,
    TypesMatchWith<"value type matches the element type of memref", "memref",
                   "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "atomically combines a value into a global buffer";
  let description = [{
    `memref[indices] = memref[indices] <kind> value`, atomically: `atomicAdd`,
    `atomicMax`, `atomicMin`, or a compare-and-swap loop where CUDA has no
    native atomic (mul, float max/min). Only global buffers: our lowering
    never combines into shared memory atomically.

    ```mlir
    dkernel.atomic_store add %v, %y[%i, %j] : memref<32x2048xf32>
    ```
  }];
  let arguments = (ins Deplodock_ReduceKindProp:$kind,
                       DKernel_Scalar:$value,
                       Arg<DKernel_Buffer, "global buffer",
                           [MemRead, MemWrite]>:$memref,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $kind $value `,` $memref `[` $indices `]` attr-dict `:` type($memref)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp-level matrix ops (tensor cores, sm_80+)
//===----------------------------------------------------------------------===//

/// The element types of ldmatrix (16-bit elements only).
def DKernel_MmaElement : AnyTypeOf<[F16, BF16]>;
/// The element types of mma.sync multiplicands: f16 and bf16 (m16n8k16),
/// f32 taken as tf32 (m16n8k8).
def DKernel_MmaOperand : AnyTypeOf<[F16, BF16, F32]>;

def DKernel_LdMatrixOp : DKernel_Op<"ldmatrix", [DKernel_InKernelOrTile]> {
  let summary = "loads 8x8 matrices of 16-bit elements from shared memory "
                "into a warp's registers";
  let description = [{
    `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`: the warp loads
    one, two or four 8 x 8 matrices of f16 or bf16 elements. Each lane names
    one matrix row by its first element, `src[indices]`, the start of 8
    contiguous elements (16 bytes, 16-byte aligned): lanes 0-7 the rows of
    matrix 0, 8-15 those of matrix 1, and so on; lanes past the matrices
    loaded still pass in-bounds indices. The op has two results per matrix,
    in matrix order: lane `l` receives row `l / 4`, columns `2 * (l % 4)`
    and `2 * (l % 4) + 1` of each matrix, or with `trans` column `l / 4`,
    rows `2 * (l % 4)` and `2 * (l % 4) + 1` (the matrix transposed on the
    way). These are the register layouts mma.sync's multiplicands expect.
    All lanes of the warp execute it together.

    ```mlir
    %a:8 = dkernel.ldmatrix %s[%r, %c] : memref<64x40xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16, f16, f16
    %b:4 = dkernel.ldmatrix trans %t[%r, %c] : memref<32x72xbf16, #gpu.address_space<workgroup>> -> bf16, bf16, bf16, bf16
    ```
  }];
  let arguments = (ins UnitAttr:$trans,
                       Arg<DKernel_Buffer, "shared buffer", [MemRead]>:$src,
                       Variadic<Index>:$indices);
  let results = (outs Variadic<DKernel_MmaElement>:$results);
  let assemblyFormat = [{
    (`trans` $trans^)? $src `[` $indices `]` attr-dict `:` type($src) `->`
    type($results)
  }];
  let extraClassDeclaration = [{
    /// The 8 x 8 matrices loaded: 1, 2 or 4.
    unsigned getNumMatrices() { return getResults().size() / 2; }
  }];
  let hasVerifier = 1;
}

def DKernel_MmaSyncOp : DKernel_Op<"mma_sync", [
    DKernel_InKernelOrTile, NoMemoryEffect, AttrSizedOperandSegments]> {
  let summary = "a warp's 16x8x16 (16x8x8 for tf32) matrix multiply-accumulate "
                "on tensor cores";
  let description = [{
    `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32`:
    D = A B + C with A 16 x 16 and B 16 x 8 of f16 or bf16 (both the same)
    and C, D 16 x 8 of f32, each spread over the 32 lanes of a warp as the
    PTX ISA lays out its fragments. With g = lane / 4 and t = lane % 4:

    * `a` (8 values): a[i] is A[g + 8 * ((i / 2) % 2)][2 t + i % 2 + 8 * (i / 4)];
    * `b` (4 values): b[i] is B[2 t + i % 2 + 8 * (i / 2)][g];
    * `c` and the results (4 values): c[i] is C[g + 8 * (i / 2)][2 t + i % 2].

    Each pair of half values travels in one 32-bit register, low element
    first. The products are exact and summed in f32. All lanes of the warp
    execute it together; it reads no memory, but it is not speculatable.
    Like `dkernel.ldmatrix` it may also sit in a `dtile.tile`, where the
    mma_sync Tile rule puts it.

    With f32 multiplicands it is
    `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`: A 16 x 8 and B
    8 x 8, each operand first rounded to tf32 (10 mantissa bits, to nearest
    with ties away from zero, as `cvt.rna.tf32.f32`), the products exact and
    summed in f32; C and D as above. With g and t as above:

    * `a` (4 values): a[i] is A[g + 8 * (i % 2)][t + 4 * (i / 2)];
    * `b` (2 values): b[i] is B[t + 4 * i][g].

    ```mlir
    %d:4 = dkernel.mma_sync [%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7], [%b0, %b1, %b2, %b3], [%c0, %c1, %c2, %c3] : f16
    %e:4 = dkernel.mma_sync [%x0, %x1, %x2, %x3], [%y0, %y1], [%c0, %c1, %c2, %c3] : f32
    ```
  }];
  let arguments = (ins Variadic<DKernel_MmaOperand>:$a,
                       Variadic<DKernel_MmaOperand>:$b,
                       Variadic<F32>:$c);
  let results = (outs F32:$d0, F32:$d1, F32:$d2, F32:$d3);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The multiplicands' element type, f16, bf16 or f32 (tf32).
    ::mlir::Type getElementType() { return getA().front().getType(); }
    /// Whether this is the tf32 m16n8k8 form (f32 multiplicands).
    bool isTf32() { return getElementType().isF32(); }
  }];
  let hasVerifier = 1;
}

include "Deplodock/Dialect/DKernel/IR/WgmmaOps.td"
include "Deplodock/Dialect/DKernel/IR/ClusterOps.td"

#endif // DEPLODOCK_DIALECT_DKERNEL_OPS
