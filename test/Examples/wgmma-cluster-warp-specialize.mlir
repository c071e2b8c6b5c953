// RUN: %python %S/Inputs/half_matmul.py bf16 128 576 128 > %t.k576.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 256 320 256 > %t.k320.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 200 256 136 > %t.odd.mlir
// RUN: %python %S/Inputs/half_linear_nk.py bf16 256 576 256 > %t.nk.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 1024 128 > %t.splitk.mlir
// RUN: deplodock-run --interp %t.k576.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=3,warp_specialize=true,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,warp_specialize=true,setmaxnreg=240,cluster_m=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.k320.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=256,stages=3,refill_late=true,warp_specialize=true,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=64,stages=4,wgmma_wait=1,warp_specialize=true,setmaxnreg=232,cluster_m=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=3,warp_specialize=true,cluster_m=2}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.nk.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,warp_specialize=true,cluster_m=2}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.splitk.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,wgmma_split_k=2,stages=4,wgmma_wait=1,warp_specialize=true,cluster_m=2}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-opt %t.k576.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=3,wgmma_wait=1,warp_specialize=true,setmaxnreg=240,cluster_m=2" -o %t.wsc.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.wsc.mlir
// RUN: deplodock-translate --emit-cuda %t.wsc.mlir -o %t.wsc.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.wsc.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.wsc.cubin %t.wsc.cu 2>&1 | FileCheck %s --check-prefix=PTXAS --allow-empty %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.wsc.cu %}
// RUN: deplodock-run --interp %t.wsc.mlir --print=none
// RUN: awk '/setmaxnreg dec/ { producer = 1 } producer && /mbarrier_wait/ { next } { print }' %t.wsc.mlir > %t.no-empty-wait.mlir
// RUN: not deplodock-run --interp %t.no-empty-wait.mlir --print=none 2>&1 | FileCheck %s --check-prefix=NO-EMPTY-WAIT
// RUN: awk '/mbarrier_arrive_cluster/ { next } { print }' %t.wsc.mlir > %t.no-remote.mlir
// RUN: not deplodock-run --interp %t.no-remote.mlir --print=none 2>&1 | FileCheck %s --check-prefix=NO-REMOTE
// RUN: sed -e 's/\(mbarrier_init .*\], \)8 :/\14 :/' %t.wsc.mlir > %t.local-only.mlir
// RUN: not deplodock-run --interp %t.local-only.mlir --print=none 2>&1 | FileCheck %s --check-prefix=LOCAL-ONLY

/// warp_specialize with cluster_multicast: pairs of M tiles run as 2-block
/// clusters sharing B's slabs by TMA multicast, each block with a producer
/// warpgroup. On the SIMT interpreter (a cluster's blocks run together, and
/// in each block the two roles as tasks that wait on each other) against
/// the reference within the dtype's tolerance: K of 576 through 3 and 4
/// slots (refilled in the loop), one and two consumer warpgroups, B
/// MN-major in one or four swizzle segments and K-major (a linear layer's
/// [N, K] weight), M and N no tile divides, split-K through a workspace,
/// refills late and early (a warp-specialised refill may precede the
/// step's wgmmas: the producer waits, not the consumers).
// EACH1-COUNT-1: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}warp_specialize=true,{{.*}}cluster_m=2}': {{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}warp_specialize=true,{{.*}}cluster_m=2}': {{.*}}: PASS

/// In Kernel IR: 3 "full" mbarriers per slab (A, B), then A's "empty" ones
/// expecting this block's 4 consumer warps and B's expecting the consumer
/// warps of both blocks (8). Each consumer warp syncs, then its first
/// thread releases A's slot in its block and B's in both; the producer's first thread waits for a slot's "empty"
/// phase, expects the whole B slab (8 KB, half of it multicast by the
/// peer) and multicasts its rank's half. Both roles meet at the closing
/// cluster barrier.
// KERNEL-LABEL: dkernel.func @matmul_0_reduce
//  KERNEL-SAME: !dkernel.tma_descriptor<32x64xbf16, swizzle = 128>
//  KERNEL-SAME: grid [2, 2, 1] block [256, 1, 1] cluster [1, 2, 1]
//       KERNEL: dkernel.mbarrier_init %[[MB:.*]][%c5], 1 :
//  KERNEL-NEXT: dkernel.mbarrier_init %[[MB]][%c6], 4 :
//       KERNEL: dkernel.mbarrier_init %[[MB]][%c8], 4 :
//  KERNEL-NEXT: dkernel.mbarrier_init %[[MB]][%c9], 8 :
//       KERNEL: dkernel.mbarrier_init %[[MB]][%c11], 8 :
//  KERNEL-NEXT: dkernel.fence_mbarrier_init
//       KERNEL: gpu.barrier
//  KERNEL-NEXT: %[[RANK:.*]] = dkernel.cluster_block_rank
//  KERNEL-NEXT: %[[PEER:.*]] = arith.subi %c1, %[[RANK]] : index
//  KERNEL-NEXT: dkernel.cluster_barrier
//  KERNEL-NEXT: %[[CONSUMER:.*]] = arith.cmpi ult, %thread_id_x, %c128
//       KERNEL: scf.if %[[CONSUMER]] {
//       KERNEL:   dkernel.warp_sync
//       KERNEL:   dkernel.mbarrier_arrive %[[MB]][%c6] :
//       KERNEL:   dkernel.warp_sync
//       KERNEL:   dkernel.mbarrier_arrive %[[MB]][%c9] :
//  KERNEL-NEXT:   dkernel.mbarrier_arrive_cluster %[[MB]][%c9], %[[PEER]] :
//       KERNEL:   scf.for
//       KERNEL:     dkernel.mbarrier_arrive_cluster %[[MB]][%{{.*}}], %[[PEER]] :
//       KERNEL: } else {
//       KERNEL:   dkernel.setmaxnreg dec 40
//       KERNEL:   dkernel.mbarrier_wait %[[MB]][%c9], %{{.*}} :
//       KERNEL:   dkernel.mbarrier_arrive_expect_tx %[[MB]][%c3], 8192 :
//       KERNEL:   arith.cmpi eq, %[[RANK]], %c0
//       KERNEL:   dkernel.tma_load %{{.*}}[%c0, %{{.*}}] -> %{{.*}}, %[[MB]][%c3] multicast %c3_i16 :
//       KERNEL:   arith.cmpi eq, %[[RANK]], %c1
//       KERNEL:   dkernel.tma_load %{{.*}}[%c32, %{{.*}}] -> %{{.*}}, %[[MB]][%c3] multicast %c3_i16 :
//       KERNEL:   scf.for
//       KERNEL:     dkernel.mbarrier_wait
//       KERNEL:     multicast %c3_i16
//       KERNEL: dkernel.cluster_barrier
//  KERNEL-NEXT: dkernel.return
// CUDA: __cluster_dims__(1, 2, 1)
// CUDA: fence.mbarrier_init.release.cluster;
// CUDA: setmaxnreg.inc.sync.aligned.u32 240;
// CUDA: __syncwarp();
// CUDA: mbarrier.arrive.shared::cluster.b64 _, [remote];
// CUDA: setmaxnreg.dec.sync.aligned.u32 40;
// CUDA: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// CUDA: barrier.cluster.arrive.release.aligned;
/// ptxas keeps the wgmmas of the loop, which leaves a group in flight,
/// overlapped (no C7514: see wgmma-warp-specialize.mlir).
// PTXAS-NOT: C7514

/// Mutations the interpreter must catch: a producer that refills without
/// waiting for "empty" overwrites a slab its consumers may still read; a
/// consumer that releases B's slot only in its own block leaves its peer's
/// "empty" phases incomplete, and "empty" mbarriers expecting only this
/// block's consumers complete a phase early, every later one then short of
/// the bytes its fill was counted for: deadlocks between the two blocks.
// NO-EMPTY-WAIT: error: 'dkernel.tma_load' op overwrites shared memory (pool byte {{[0-9]+}}) that a TMA load landed in, with neither a barrier nor a wait that orders the threads reading it before in thread 128 of block
// NO-REMOTE: error: 'dkernel.mbarrier_wait' op waits for phase parity 0 of mbarrier {{[0-9]+}}, which never completes: {{.*}}every block of its cluster is blocked on a wait or done (a deadlock)
// LOCAL-ONLY: error: 'dkernel.mbarrier_wait' op waits for phase parity {{[01]}} of mbarrier {{[0-9]+}}, which never completes: {{.*}}every block of its cluster is blocked on a wait or done (a deadlock)
