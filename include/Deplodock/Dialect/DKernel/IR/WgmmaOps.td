//===- WgmmaOps.td - Warpgroup matrix ops (sm_90a) ---------*- tablegen -*-===//
//
// Hopper's warpgroup-level tensor-core MMA: wgmma.mma_async reads both
// multiplicands from shared memory through 64-bit matrix descriptors and
// accumulates in registers spread over the 128 threads of a warpgroup,
// asynchronously: fences, commit groups and waits order it. Included by
// DKernelOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_WGMMAOPS
#define DEPLODOCK_DIALECT_DKERNEL_WGMMAOPS

/// The multiplicands of wgmma: f16 and bf16 (k16), f8E4M3FN and f8E5M2
/// (k32).
def DKernel_WgmmaElement : AnyTypeOf<[F16, BF16, F8E4M3FN, F8E5M2]>;

def DKernel_WgmmaDescOp : DKernel_Op<"wgmma_desc", [
    DKernel_InKernelOrTile, NoMemoryEffect]> {
  let summary = "a shared-memory matrix descriptor for wgmma";
  let description = [{
    The 64-bit matrix descriptor of the PTX ISA naming an operand of
    `dkernel.wgmma_mma_async` in shared memory: bits 0-13 the start address
    (the shared address of `src[indices]`, 16-byte aligned) divided by 16,
    bits 16-29 the leading byte offset `lbo`, bits 32-45 the stride byte
    offset `sbo` (both divided by 16), bits 62-63 the swizzle mode (0 none,
    1 128-byte, 2 64-byte, 3 32-byte). The descriptor does not say which
    dimension is contiguous: the wgmma's `major_a` / `major_b` does, and
    gives `lbo` and `sbo` their meaning.

    Element `r` of M (A) or N (B) and `k` of K (0 to 15 for 16-bit
    elements, 0 to 31 for 8-bit ones: 32 bytes of K; E the element's bytes,
    C = 16 / E the elements of a 16-byte row) sit at byte, from the start
    address:

    * K-major without swizzle (8 x 16-byte core matrices, each dense):
      `(r / 8) * sbo + (k / C) * lbo + (r % 8) * 16 + E * (k % C)`;
    * K-major with an S-byte swizzle (rows of S bytes, as a TMA box with
      that swizzle writes them): `(r / 8) * sbo + (r % 8) * S + E * k`;
      `lbo` is unused;
    * MN-major (16-bit elements only) without swizzle: `(r / 8) * sbo +
      (k / 8) * lbo + (k % 8) * 16 + 2 * (r % 8)`;
    * MN-major with an S-byte swizzle (K rows of S bytes, each S / 2
      elements of M or N: a TMA box [K, MN] with that swizzle):
      `(r / (S / 2)) * lbo + (k / 8) * sbo + (k % 8) * S + 2 * (r % (S / 2))`;
      `lbo` steps from one S / 2-wide atom of M or N to the next.

    A swizzled address is then permuted like the TMA's (16-byte chunk bits
    4-6 XOR bits 7-9, masked to S / 16 chunks).

    The result is only an operand of `dkernel.wgmma_mma_async`.

    ```mlir
    %da = dkernel.wgmma_desc %sa[%c0, %k] swizzle 128 lbo 16 sbo 1024 : memref<64x64xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Arg<DKernel_Buffer, "shared operand">:$src,
                       Variadic<Index>:$indices,
                       I64Prop:$swizzle, I64Prop:$lbo, I64Prop:$sbo);
  let results = (outs I64:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` `swizzle` $swizzle `lbo` $lbo `sbo` $sbo attr-dict
    `:` type($src)
  }];
  let extraClassDeclaration = [{
    /// The descriptor bits that do not depend on the address: LBO, SBO
    /// and the swizzle mode.
    uint64_t getConstantBits();
  }];
  let hasVerifier = 1;
}

def DKernel_WgmmaFenceOp : DKernel_Op<"wgmma_fence", [
    DKernel_InKernelOrTile, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders register and shared accesses before wgmma";
  let description = [{
    `wgmma.fence.sync.aligned`: every thread of the warpgroup executes it
    before its first `dkernel.wgmma_mma_async` after a
    `dkernel.wgmma_wait_group` (or the kernel's start), so that the
    accumulators and shared operands written before are what the wgmma reads.
  }];
  let assemblyFormat = "attr-dict";
}

def DKernel_FenceProxyAsyncOp : DKernel_Op<"fence_proxy_async", [
    DKernel_InKernelOrTile, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "makes generic shared stores visible to the async proxy";
  let description = [{
    `fence.proxy.async.shared::cta`: shared memory the threads wrote with
    ordinary stores becomes visible to asynchronous-proxy readers
    (`dkernel.wgmma_mma_async`). Data a TMA copy wrote needs no fence.
  }];
  let assemblyFormat = "attr-dict";
}

def DKernel_WgmmaCommitGroupOp : DKernel_Op<"wgmma_commit_group", [
    DKernel_InKernelOrTile, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "closes the group of wgmma ops issued since the last commit";
  let description = [{
    `wgmma.commit_group.sync.aligned`: the `dkernel.wgmma_mma_async` ops the
    warpgroup issued since its last commit form one group, which a
    `dkernel.wgmma_wait_group` waits for.
  }];
  let assemblyFormat = "attr-dict";
}

def DKernel_WgmmaWaitGroupOp : DKernel_Op<"wgmma_wait_group", [
    DKernel_InKernelOrTile, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for wgmma groups and makes their accumulators visible";
  let description = [{
    `wgmma.wait_group.sync.aligned pending`: waits until at most `pending`
    committed groups are still in flight. The accumulators of the completed
    groups pass through: the results are the operands, readable from here
    on; reading an accumulator whose group is still in flight (or not yet
    committed) is an error the SIMT interpreter reports. A loop may carry
    accumulators in flight from one step's chain to the next: its body then
    waits with `pending` 1 and no accumulators (the previous step's group
    retires, so the shared slabs it read may be refilled), and a wait after
    the loop on the loop's results makes them readable.

    ```mlir
    %r:4 = dkernel.wgmma_wait_group 0 [%d#0, %d#1, %d#2, %d#3]
    ```
  }];
  let arguments = (ins I64Prop:$pending, Variadic<F32>:$accumulators);
  let results = (outs Variadic<F32>:$results);
  // One f32 result per accumulator.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def DKernel_WgmmaMmaAsyncOp : DKernel_Op<"wgmma_mma_async", [
    DKernel_InKernelOrTile, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a warpgroup's asynchronous 64xNx(32 bytes) MMA from shared "
                "memory";
  let description = [{
    `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16}`, or
    for 8-bit floats `...m64nNk32.f32.{e4m3,e5m2}.{e4m3,e5m2}`: D = A B + C
    (or D = A B without `c`, scale-d 0), A 64 x K and B K x N in shared
    memory, K = 16 of f16 or bf16 (both the same) or 32 of f8E4M3FN or
    f8E5M2 (each either: the type after the colon is A's, a second one
    B's), named by the descriptors `a` and `b` (`dkernel.wgmma_desc`), C
    and D 64 x N of f32 in registers, the products summed in f32. N is a
    multiple of 8 from 8 to 256.

    `major_a` and `major_b` (`k` when not printed) say how each operand is
    laid out: `k` (K-major, A held M x K and B N x K) or `mn` (MN-major, A
    held K x M and B K x N; the `imm-trans` operands of the instruction).
    An MN-major operand with an S-byte swizzle spans whole atoms of S / 2
    elements of M or N. MN-major is for 16-bit elements only: 8-bit
    operands are K-major (the instruction has no transpose for them).

    The 128 threads of a warpgroup hold N / 2 accumulators each, as the PTX
    ISA lays them out: with w = (thread % 128) / 32 the warp, g = lane / 4
    and t = lane % 4, accumulator `4 j + i` is
    D[16 w + g + 8 (i / 2)][8 j + 2 t + i % 2].

    The op is asynchronous: a `dkernel.wgmma_fence` precedes it, a
    `dkernel.wgmma_commit_group` closes its group and its results are only
    read by later wgmma_mma_async ops of the same chain (as `c`), by the
    yield of a loop carrying them to its next step's chain, or by the
    `dkernel.wgmma_wait_group` that makes them visible. The shared memory it
    reads stays its operand until its group completes: the SIMT interpreter
    reports a write to it before then. It needs a target
    with the `wgmma` feature (sm_90a) and blocks of whole warpgroups.

    ```mlir
    %d:4 = dkernel.wgmma_mma_async %da, %db, [%c0, %c1, %c2, %c3] n 8 : bf16
    %e:32 = dkernel.wgmma_mma_async %da, %dkn, [] n 64 major_b mn : bf16
    %f:4 = dkernel.wgmma_mma_async %da, %db, [] n 8 : f8E5M2, f8E4M3FN
    ```
  }];
  let arguments = (ins I64:$a, I64:$b, Variadic<F32>:$c, I64Prop:$n,
                       TypeAttrOf<DKernel_WgmmaElement>:$elementType,
                       OptionalAttr<TypeAttrOf<DKernel_WgmmaElement>>
                         :$elementTypeB,
                       DefaultValuedProp<EnumProp<DKernel_WgmmaMajor>,
                         "::deplodock::dkernel::WgmmaMajor::k">:$majorA,
                       DefaultValuedProp<EnumProp<DKernel_WgmmaMajor>,
                         "::deplodock::dkernel::WgmmaMajor::k">:$majorB);
  let results = (outs Variadic<F32>:$results);
  // The results, N / 2 of them, are implied by `n`.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// B's element type (A's unless `elementTypeB` says otherwise).
    mlir::Type getBElementType() {
      return getElementTypeB() ? *getElementTypeB() : getElementType();
    }
    /// K of one instruction: 32 bytes of the elements (16 or 32).
    int64_t getK() {
      return 32 / (getElementType().getIntOrFloatBitWidth() / 8);
    }
  }];
}

def DKernel_SetMaxNRegOp : DKernel_Op<"setmaxnreg", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "raises or lowers the registers of a warpgroup's threads";
  let description = [{
    `setmaxnreg.{inc,dec}.sync.aligned.u32 count`: all 128 threads of a
    warpgroup execute it together and each then holds `count` registers, a
    multiple of 8 in [24, 256]: `inc` waits until the SM's pool can grant
    them, `dec` returns the rest to the pool. A warp-specialised kernel
    lowers its producer warpgroup's registers (it only issues copies) so
    that its consumer warpgroups can raise theirs (they hold the
    accumulators). It needs a target with the arch-specific features of
    sm_90a (the `wgmma` feature's) and blocks of whole warpgroups. The SIMT
    interpreter checks that whole warpgroups execute it and otherwise
    ignores it (it models no register file).

    ```mlir
    dkernel.setmaxnreg dec 40
    dkernel.setmaxnreg inc 232
    ```
  }];
  let arguments = (ins EnumProp<DKernel_RegisterChange>:$change,
                       I64Prop:$count);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // DEPLODOCK_DIALECT_DKERNEL_WGMMAOPS
