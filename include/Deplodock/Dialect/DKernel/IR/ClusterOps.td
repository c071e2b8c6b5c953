//===- ClusterOps.td - Thread-block clusters (sm_90) -------*- tablegen -*-===//
//
// The blocks of a `dkernel.func` with a `cluster` launch attribute run in
// clusters: groups co-scheduled on one GPC that can synchronise with each
// other (and, later, share shared memory and TMA multicasts). Included by
// DKernelOps.td.
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

#endif // DEPLODOCK_DIALECT_DKERNEL_CLUSTEROPS
