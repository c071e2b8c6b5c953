//===- DTileOps.td - Deplodock tile dialect ops ------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_OPS
#define DEPLODOCK_DIALECT_DTILE_OPS

include "Deplodock/Dialect/DTile/IR/DTileDialect.td"
include "Deplodock/Dialect/DTile/IR/DTileAttrs.td"
include "Deplodock/Dialect/DTile/IR/DTileEnums.td"
include "Deplodock/Dialect/Common/DeplodockEnums.td"
include "Deplodock/Dialect/Common/AxisInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class DTile_Op<string mnemonic, list<Trait> traits = []>
    : Op<DTile_Dialect, mnemonic, traits>;

def DTile_TransportProp : EnumProp<DTile_Transport>;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

def DTile_KernelOp : DTile_Op<"kernel", [
    IsolatedFromAbove, AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a kernel whose loop nest carries its GPU mapping";
  let description = [{
    The Tile-level form of a `dloop.kernel`: the same buffers, bound to block
    arguments, and a body whose outermost op is a `dtile.tile`. `knobs` records
    the decisions of the Tile rules that produced it. `zero_init` lists the
    outputs (by position among the outputs) that are zeroed before the kernel
    runs: split-K blocks fold their partial sums into them.

    ```mlir
    dtile.kernel @rmsnorm knobs<threads = 256>
        ins(%x = %arg0 : memref<1x32x2048xf32>, %w = %arg1 : memref<2048xf32>)
        outs(%y = %arg2 : memref<1x32x2048xf32>) {
      dtile.tile blocks(%r : 32 "r") threads(%t : 256 "t") { ... }
    }
    dtile.kernel @mm knobs<split_k = 4> zero_init [0]
        ins(%a = %arg0 : memref<37x1000xf32>, %b = %arg1 : memref<1000x333xf32>)
        outs(%c = %arg2 : memref<37x333xf32>) { ... }
    ```
  }];
  let arguments = (ins
      StrAttr:$sym_name,
      DTile_KnobsAttr:$knobs,
      OptionalAttr<DenseI64ArrayAttr>:$zero_init,
      Arg<Variadic<AnyMemRef>, "buffers the kernel reads", [MemRead]>:$inputs,
      Arg<Variadic<AnyMemRef>, "buffers the kernel writes",
          [MemRead, MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "KnobsAttr":$knobs,
                   "::mlir::ValueRange":$inputs, "::mlir::ValueRange":$outputs)>
  ];
  let extraClassDeclaration = [{
    /// The block arguments bound to the inputs, then to the outputs.
    ::mlir::Block::BlockArgListType getInputArgs();
    ::mlir::Block::BlockArgListType getOutputArgs();
    /// The tile op of the body, if there is one.
    TileOp getTile();
    /// The inputs, then the outputs.
    ::mlir::OperandRange getBuffers() { return getOperands(); }
    /// Whether output `i` (by position among the outputs) is zeroed first.
    bool isZeroInit(unsigned i);
  }];
}

//===----------------------------------------------------------------------===//
// TileOp
//===----------------------------------------------------------------------===//

def DTile_TileOp : DTile_Op<"tile", [
    HasParent<"KernelOp">, SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    DeclareOpInterfaceMethods<Deplodock_AxisOpInterface>,
    RecursiveMemoryEffects]> {
  let summary = "binds axes to the blocks and threads of a launch";
  let description = [{
    Runs the body once per point of the block axes times the thread axes.
    Block axes become the grid, thread axes the threads of a block; within
    each group the last axis varies fastest. Block arguments are the block
    coordinates, then the thread coordinates. The optional `cluster` (one
    extent per block axis, each dividing its axis, at most 8 blocks in all)
    launches the blocks in thread-block clusters of that shape, whose blocks
    share the slabs of their `multicast` stages.

    ```mlir
    dtile.tile blocks(%mo : 8 "m_o", %no : 16 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      ...
    }
    ```
  }];
  let arguments = (ins StrArrayAttr:$block_axes,
                       DenseI64ArrayAttr:$block_extents,
                       StrArrayAttr:$thread_axes,
                       DenseI64ArrayAttr:$thread_extents,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::ArrayRef<::llvm::StringRef>":$blockAxes,
                   "::llvm::ArrayRef<int64_t>":$blockExtents,
                   "::llvm::ArrayRef<::llvm::StringRef>":$threadAxes,
                   "::llvm::ArrayRef<int64_t>":$threadExtents)>
  ];
  let extraClassDeclaration = [{
    /// The coordinate of block axis `i` / thread axis `i`.
    ::mlir::BlockArgument getBlockCoord(unsigned i);
    ::mlir::BlockArgument getThreadCoord(unsigned i);
    /// The coordinate bound to axis `name`, if any.
    ::mlir::BlockArgument getCoord(::llvm::StringRef name);
    /// Threads per block and blocks per launch (saturating at INT64_MAX
    /// rather than overflowing).
    int64_t getNumThreads();
    int64_t getNumBlocks();
    /// Whether `name` is one of the thread axes.
    bool isThreadAxis(::llvm::StringRef name);
    /// The cluster extent of block axis `i` (1 without a cluster).
    int64_t getClusterExtent(unsigned i);
  }];
}

//===----------------------------------------------------------------------===//
// StridedForOp
//===----------------------------------------------------------------------===//

def DTile_StridedForOp : DTile_Op<"strided_for", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    DeclareOpInterfaceMethods<Deplodock_AxisOpInterface>,
    DeclareOpInterfaceMethods<LoopLikeOpInterface, [
      "getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
      "getLoopSteps", "getLoopResults", "getRegionIterArgs",
      "getInitsMutable", "getYieldedValuesMutable"]>]> {
  let summary = "a loop whose iterations are dealt out across threads";
  let description = [{
    Iterates `%i = start, start + step, ...` while `%i < extent`: with `start`
    a thread coordinate and `step` the thread count, the threads share the
    axis round-robin. Like `dloop.for` it names its axis, has a kind, and
    carries reductions as iteration arguments.

    ```mlir
    %p = dtile.strided_for %k = %t to 2048 step 256 reduce "k" iter(%acc = %zero : f32) unroll 4 {
      ...
      dtile.yield %next : f32
    }
    ```
  }];
  let arguments = (ins Index:$start,
                       Variadic<AnyType>:$init_args,
                       I64Prop:$extent,
                       I64Prop:$step,
                       Deplodock_LoopKindProp:$kind,
                       StrAttr:$axis,
                       OptionalAttr<I64Attr>:$unroll);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$start, "int64_t":$extent, "int64_t":$step,
                   "::deplodock::LoopKind":$kind, "::llvm::StringRef":$axis,
                   "::mlir::ValueRange":$initArgs)>
  ];
  let extraClassDeclaration = [{
    /// The induction variable, starting at `start`.
    ::mlir::BlockArgument getInductionVar() {
      return getBody().front().getArgument(0);
    }
    /// The body arguments that carry values between iterations (none when
    /// the body, not yet verified, lacks even the induction variable).
    ::mlir::Block::BlockArgListType getIterArgs() {
      ::mlir::Block::BlockArgListType args = getBody().front().getArguments();
      return args.empty() ? args : args.drop_front();
    }
    /// True for a `reduce` loop.
    bool isReduction() { return getKind() == ::deplodock::LoopKind::reduce; }
  }];
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

def DTile_StageOp : DTile_Op<"stage", [
    AttrSizedOperandSegments, IsolatedFromAbove,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "copies a slab of a buffer into shared memory";
  let description = [{
    All threads of a block together copy the box of `source` that starts at
    `origin` into shared memory; the result is the slab, indexed from zero.
    `pad` adds elements to each slab row to dodge bank conflicts (the slab's
    logical shape stays the box). With `buffers N` the stage rotates through
    N copies and `slot` picks the one to fill, so the next slab can arrive
    while the current one is read. `transport` says how the slab travels; with
    `cp_async` or `tma` it is visible after the `dtile.async_wait` that covers
    it, with `sync` at once. `swizzle` is a swizzle width in bytes, an
    alternative to padding (a stage takes one or the other; a TMA copy
    writes the box densely, so a `tma` stage only the swizzle): the slab is
    then held as segments of the inner dimension `swizzle` bytes wide (one
    TMA box each), their 16-byte chunks permuted as the TMA hardware's
    pattern says, so the box's rows must be a multiple of `swizzle` bytes
    and its outer extents a multiple of 8 rows. Copies of other transports
    write through the same permutation (mma_sync swizzles the slabs its
    ldmatrix reads this way). Where the values of the origin and slot indices are known
    exactly (constants and axis coordinates, combined linearly), the verifier
    checks that the box lies inside the source and the slot inside
    `[0, buffers - 1]`. With `zero_fill` the box may reach past the end of
    the source (the last tile of an extent the tile does not divide): those
    elements of the slab read as zero, and the bounds check is left out.
    With `transpose` the slab holds the box with its two innermost
    dimensions swapped (the result's shape), `pad` padding the slab's
    dimensions: a box [64, 32] of an A operand becomes a [32, 64] slab whose
    rows are a K index, so the FM rows of A one thread reads at one K are
    adjacent. The copy still reads the source along its rows and scatters
    into the slab, one element at a time: plain loads and stores or 4-byte
    cp.async copies; TMA, vector copies and swizzles cannot transpose.
    With `multicast` (a `tma` stage in a tile launched in clusters, whose
    origin does not depend on the coordinates of the clustered block axes)
    the blocks of a cluster, which all stage the same box, share it: each
    issues a part of the box multicast to every block of the cluster.
    With an `apply` region the slab holds a value computed from the box
    rather than the box itself: each slab element is the region applied to
    the source's element and to the elements of the `apply` buffers at the
    same index (buffers of the source's shape). This is a prologue fused
    into a contraction (`silu(gate) * up` feeding a matmul): each block
    computes it once per element it stages, not once per thread that reads
    it. The values pass through registers, so such a stage travels `sync`;
    zero-filled elements are zero in the slab, not the region of zeros.

    ```mlir
    %as = dtile.stage %a[%mo * 64, %ko * 32] box [64, 32] pad [0, 1]
        buffers 2 slot %s transport cp_async
        : memref<512x2048xf32> -> memref<64x32xf32, #gpu.address_space<workgroup>>
    %bs = dtile.stage %b[%ko * 32, %no * 64] box [32, 64] zero_fill
        : memref<1000x333xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
    %at = dtile.stage %a[%mo * 64, %ko * 32] box [64, 32] transpose pad [0, 4]
        : memref<512x2048xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
    %gs = dtile.stage %gate[%mo * 64, %ko * 32] box [64, 32]
        : memref<512x2048xf32> -> memref<64x32xf32, #gpu.address_space<workgroup>>
        apply(%up : memref<512x2048xf32>) {
    ^bb0(%g: f32, %u: f32):
      %p = arith.mulf %g, %u : f32
      dtile.yield %p : f32
    }
    ```
  }];
  let arguments = (ins AnyStaticShapeMemRef:$source,
                       Variadic<Index>:$origin,
                       Optional<Index>:$slot,
                       Variadic<AnyStaticShapeMemRef>:$inputs,
                       AffineMapAttr:$map,
                       DenseI64ArrayAttr:$box,
                       OptionalAttr<DenseI64ArrayAttr>:$pad,
                       DefaultValuedProp<I64Prop, "1">:$buffers,
                       DefaultValuedProp<DTile_TransportProp,
                                         "::deplodock::dtile::Transport::sync">:$transport,
                       DefaultValuedProp<I64Prop, "0">:$swizzle,
                       UnitProp:$zero_fill,
                       UnitProp:$transpose,
                       UnitProp:$multicast);
  let results = (outs AnyStaticShapeMemRef:$result);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The padding of each slab dimension (zeros when none is set).
    ::llvm::SmallVector<int64_t> getPadding();
    /// The slab's logical shape: the box, its two innermost dimensions
    /// swapped with `transpose` (the result type's shape).
    ::llvm::ArrayRef<int64_t> getSlabShape() {
      return ::llvm::cast<::mlir::MemRefType>(getType()).getShape();
    }
    /// The widest cp.async run (16, 8 or 4 bytes) that stays aligned in the
    /// source and the (padded) slab for every origin: the box, the source
    /// rows, the slab rows and the innermost origin are multiples of it.
    /// None when no run is, and the stage cannot be copied with cp.async.
    std::optional<int64_t> getCpAsyncRunBytes();
    /// The widest run (16, 8 or 4 bytes) that stays aligned in the source
    /// and the (padded) slab for every origin, whatever carries it (a
    /// computed stage's registers too); none for a transposed slab.
    std::optional<int64_t> getAlignedRunBytes();
    /// Whether the box may reach past the end of the source along dimension
    /// `dim`: where its origin's range is unknown or ends within a box of
    /// the end (the last tile of a masked extent).
    bool mayOverhang(unsigned dim);
    /// Whether the slab is computed by an `apply` region (which only a copy
    /// through registers can run).
    bool isComputed() { return !getBody().empty(); }
    /// The `apply` region's block (null without one).
    ::mlir::Block *getApplyBlock() {
      return isComputed() ? &getBody().front() : nullptr;
    }
  }];
}

//===----------------------------------------------------------------------===//
// CombineOp
//===----------------------------------------------------------------------===//

def DTile_CombineOp : DTile_Op<"combine", [
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "reduces a value across the threads of some thread axes";
  let description = [{
    Folds the per-thread `value` over every coordinate of the thread axes
    named in `over` (keeping the other coordinates apart) and gives the result
    to every thread. It ends a reduction that `dtile.strided_for` spread over
    threads.

    Every thread of the block must reach it, like a barrier: it exchanges
    partial results through shared memory and synchronises. It therefore
    reports reading and writing memory, which keeps cleanups (control-flow
    sinking, LICM, CSE) from moving it into a branch or out of a loop.

    ```mlir
    %s = dtile.combine add %p over ["t"] : f32
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Deplodock_ReduceKindProp:$kind,
                       StrArrayAttr:$over);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$kind $value `over` $over attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AsyncWaitOp
//===----------------------------------------------------------------------===//

def DTile_AsyncWaitOp : DTile_Op<"async_wait", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "waits until asynchronous stages have landed";
  let description = [{
    Waits until at most `keep` of the asynchronous stages issued before it are
    still in flight (0: all have landed), then synchronises the block so every
    thread sees the landed slabs. Naming slabs (`for`, with `keep 0`) waits
    only for the stages that filled them, the others staying in flight: a
    pipeline several chunks deep waits for the oldest chunk alone. TMA
    honours the names (one mbarrier per slot); cp.async, which counts commit
    groups, waits for every copy instead.

    ```mlir
    dtile.async_wait keep 1
    dtile.async_wait keep 0 for %a, %b : memref<64x64xbf16, 3>, memref<64x64xbf16, 3>
    ```
  }];
  let arguments = (ins I64Prop:$keep, Variadic<AnyMemRef>:$slabs);
  let assemblyFormat =
      "`keep` $keep (`for` $slabs^ `:` type($slabs))? attr-dict";
  let builders = [OpBuilder<(ins "int64_t":$keep), [{
    build($_builder, $_state, keep, ::mlir::ValueRange());
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def DTile_YieldOp : DTile_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "TileOp", "StridedForOp", "StageOp"]>]> {
  let summary = "ends a tile body, yields the next values of a strided loop "
                "or the element a stage's apply region computes";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

#endif // DEPLODOCK_DIALECT_DTILE_OPS
