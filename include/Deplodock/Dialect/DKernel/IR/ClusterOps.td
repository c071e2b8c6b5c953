//===- ClusterOps.td - Thread-block clusters (sm_90) -------*- tablegen -*-===//
//
// The blocks of a `dkernel.func` with a `cluster` launch attribute run in
// clusters: groups co-scheduled on one GPC that can synchronise with each
// other and share TMA multicasts (the Tile rule cluster_multicast).
// Included by DKernelOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_CLUSTEROPS
#define DEPLODOCK_DIALECT_DKERNEL_CLUSTEROPS

def DKernel_ClusterBlockRankOp : DKernel_Op<"cluster_block_rank", [
    DKernel_InKernel, Pure]> {
  let summary = "this block's rank in its cluster";
  let description = [{
    `%cluster_ctarank`: the rank of the executing block in its cluster, from
    0 to the product of the kernel's `cluster` dimensions minus 1, x
    fastest (block `(x, y, z)` of a `[cx, cy, cz]` cluster has rank
    `x % cx + cx * (y % cy + cy * (z % cz))`). The same for every thread of
    a block. Only in a `dkernel.func` with a `cluster` attribute.

    ```mlir
    %rank = dkernel.cluster_block_rank
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def DKernel_ClusterBarrierOp : DKernel_Op<"cluster_barrier", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until every thread of the cluster arrives";
  let description = [{
    `barrier.cluster.arrive.release.aligned` then
    `barrier.cluster.wait.acquire.aligned`: every thread of every block of
    the cluster arrives, then waits until all have. The arrival releases the
    thread's earlier global and shared memory accesses and the wait
    acquires them, so what one block wrote before the barrier is visible to
    every block of the cluster after it. Like `gpu.barrier`, every thread
    of each block must reach it (the aligned form). Only in a
    `dkernel.func` with a `cluster` attribute.

    ```mlir
    dkernel.cluster_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def DKernel_MbarrierArriveClusterOp : DKernel_Op<"mbarrier_arrive_cluster", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on an mbarrier of another block of the cluster";
  let description = [{
    `mapa.shared::cluster` then `mbarrier.arrive.shared::cluster.b64`:
    every thread executing it arrives once on `mbarriers[slot]` of the block
    of cluster rank `rank` (the mbarrier at the same shared-memory offset
    there), adding no transaction bytes, and releases what it did before
    to that mbarrier's waiters (at the default CTA scope, as CUTLASS's
    cluster pipelines arrive: the accesses it orders are to this block's
    own shared memory, which the other block's multicast then writes; a
    cluster-scope release would cost a GPU-wide memory barrier). The consumers of a block that a TMA multicast fills release the
    slot this way in the block that issues the multicast. Only in a kernel
    launched in clusters, on a target with TMA and clusters.

    ```mlir
    dkernel.mbarrier_arrive_cluster %mb[%slot], %rank : memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins DKernel_Buffer:$mbarriers, Index:$slot, Index:$rank);
  let assemblyFormat = [{
    $mbarriers `[` $slot `]` `,` $rank attr-dict `:` type($mbarriers)
  }];
  let hasVerifier = 1;
}

def DKernel_FenceMbarrierInitOp : DKernel_Op<"fence_mbarrier_init", [
    DKernel_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "makes mbarrier initialisations visible to the cluster";
  let description = [{
    `fence.mbarrier_init.release.cluster`: orders this thread's earlier
    `dkernel.mbarrier_init`s before its later cluster-scope operations, so
    that, after a `dkernel.cluster_barrier`, other blocks may multicast into
    or arrive on those mbarriers. Only in a kernel launched in clusters, on
    a target with TMA and clusters.

    ```mlir
    dkernel.fence_mbarrier_init
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // DEPLODOCK_DIALECT_DKERNEL_CLUSTEROPS
