// RUN: %python %S/Inputs/half_matmul.py bf16 128 256 128 > %t.k256.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 256 320 256 > %t.k320.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 200 256 136 > %t.odd.mlir
// RUN: %python %S/Inputs/half_linear_nk.py bf16 256 256 256 > %t.nk.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 4096 128 > %t.splitk.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 1024 128 > %t.k1024.mlir
// RUN: deplodock-run --interp %t.k256.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,refill_late=true,cluster_m=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.k320.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,refill_late=true,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=256,stages=3,wgmma_wait=1,cluster_m=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=3,refill_late=true,cluster_m=2}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.nk.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,refill_late=true,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=256,stages=4,wgmma_wait=1,cluster_m=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.splitk.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,wgmma_split_k=4,stages=4,wgmma_wait=1,cluster_m=2}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-opt %t.k256.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,cluster_m=2" -o %t.cluster.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.cluster.mlir
// RUN: deplodock-translate --emit-cuda %t.cluster.mlir -o %t.cluster.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cluster.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.cluster.cubin %t.cluster.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cluster.cu %}
// RUN: deplodock-run --interp %t.cluster.mlir --print=none
// RUN: sed -e '0,/dkernel.cluster_barrier/{/dkernel.cluster_barrier/d}' %t.cluster.mlir > %t.no-init-barrier.mlir
// RUN: not deplodock-run --interp %t.no-init-barrier.mlir --print=none 2>&1 | FileCheck %s --check-prefix=NO-INIT-BARRIER
// RUN: deplodock-opt %t.k1024.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,cluster_m=2" -o %t.long.mlir
// RUN: deplodock-opt %t.k1024.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,cluster_m=1" -o %t.alone.mlir
// RUN: deplodock-run --interp %t.long.mlir > %t.long.out
// RUN: deplodock-run --interp %t.alone.mlir > %t.alone.out
// RUN: diff %t.alone.out %t.long.out
// RUN: awk '/mbarrier_arrive_cluster/ { drop = 1 } drop && /mbarrier_wait/ { drop = 0; next } { print }' %t.long.mlir > %t.no-empty-wait.mlir
// RUN: not deplodock-run --interp %t.no-empty-wait.mlir --print=none 2>&1 | FileCheck %s --check-prefix=NO-EMPTY-WAIT
// RUN: sed -e 's/\(mbarrier_init .*\], \)2 :/\13 :/' %t.cluster.mlir > %t.deadlock.mlir
// RUN: not deplodock-run --interp %t.deadlock.mlir --print=none 2>&1 | FileCheck %s --check-prefix=DEADLOCK

/// cluster_m=2: pairs of M tiles run as 2-block clusters sharing B's slabs
/// by TMA multicast. On the SIMT interpreter (which runs a cluster's blocks
/// together and reports races and deadlocks between them) against the
/// reference within bf16's tolerance: pipelines 2, 3 and 4 deep, wgmma
/// groups retired at once or one behind, one and two warpgroups, B
/// MN-major in one or four swizzle segments (wgmma_n 64, 256) and K-major
/// (a linear layer's [N, K] weight), M and N no tile divides (zero-filled
/// boxes), split-K (the splits on the grid's z, the pairs on y).
// EACH1-COUNT-1: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}cluster_m=2}': {{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}cluster_m=2}': {{.*}}: PASS

/// In Kernel IR the grid's y (the M tiles) pairs into clusters, B's
/// descriptor describes half its box, and the mbarriers are 4 "full" per
/// slab (A, B) then as many "empty" ones expecting both blocks. After the
/// initialisation, fenced for the cluster, a block and a cluster barrier.
/// Each B fill: thread 0 expects the whole slab (8 KB), arrives on the
/// slot's "empty" mbarrier here and in the peer block, every thread waits
/// for it, then thread 0 multicasts its rank's half (rows 0-31 or 32-63 of
/// the K chunk) to both blocks. The kernel ends with a cluster barrier.
// KERNEL-LABEL: dkernel.func @matmul_0_reduce
//  KERNEL-SAME: !dkernel.tma_descriptor<32x64xbf16, swizzle = 128>
//  KERNEL-SAME: grid [2, 2, 1] block [128, 1, 1] cluster [1, 2, 1]
//       KERNEL: dkernel.mbarrier_init %[[MB:.*]][%c7], 1 :
//       KERNEL: dkernel.mbarrier_init %[[MB]][%c8], 2 :
//       KERNEL: dkernel.mbarrier_init %[[MB]][%c15], 2 :
//  KERNEL-NEXT: dkernel.fence_mbarrier_init
//       KERNEL: gpu.barrier
//  KERNEL-NEXT: %[[RANK:.*]] = dkernel.cluster_block_rank
//  KERNEL-NEXT: %[[PEER:.*]] = arith.subi %c1, %[[RANK]] : index
//  KERNEL-NEXT: dkernel.cluster_barrier
//       KERNEL: dkernel.mbarrier_arrive_expect_tx %[[MB]][%c4], 8192 :
//  KERNEL-NEXT: dkernel.mbarrier_arrive %[[MB]][%c12] :
//  KERNEL-NEXT: dkernel.mbarrier_arrive_cluster %[[MB]][%c12], %[[PEER]] :
//       KERNEL: dkernel.mbarrier_wait %[[MB]][%c12], %{{.*}} :
//       KERNEL: arith.cmpi eq, %[[RANK]], %c0
//       KERNEL: dkernel.tma_load %{{.*}}[%c0, %{{.*}}] -> %{{.*}}, %[[MB]][%c4] multicast %c3_i16 :
//       KERNEL: arith.cmpi eq, %[[RANK]], %c1
//       KERNEL: dkernel.tma_load %{{.*}}[%c32, %{{.*}}] -> %{{.*}}, %[[MB]][%c4] multicast %c3_i16 :
//       KERNEL: scf.for
//       KERNEL:   dkernel.wgmma_wait_group 1
//       KERNEL:   gpu.barrier
//       KERNEL:   dkernel.mbarrier_arrive_cluster
//       KERNEL:   dkernel.mbarrier_wait
//       KERNEL:   multicast %c3_i16
//       KERNEL: dkernel.cluster_barrier
//  KERNEL-NEXT: dkernel.return
// CUDA: __cluster_dims__(1, 2, 1)
// CUDA: fence.mbarrier_init.release.cluster;
// CUDA: barrier.cluster.arrive.release.aligned;
// CUDA: mbarrier.arrive.shared::cluster.b64 _, [remote];
// CUDA: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster

/// The same kernel without clusters computes the very same bits (the
/// products and their order are unchanged: only how B reaches shared
/// memory is).

/// Mutations the interpreter must catch: without the cluster barrier after
/// the initialisation a block arrives on its peer's mbarriers before the
/// peer initialised them; without the waits for "empty" (16 chunks through
/// 4 slots) a block runs ahead and refills its peer's slots before the
/// peer took their previous fill, whose mbarrier phase then never
/// completes; "empty" mbarriers expecting a third block never complete: a
/// deadlock between the two blocks.
// NO-INIT-BARRIER: error: 'dkernel.mbarrier_arrive_cluster' op arrives on mbarrier {{[0-9]+}} of block (0, 1, 0), which no mbarrier_init initialised there
// NO-EMPTY-WAIT: error: 'dkernel.mbarrier_wait' op waits for phase parity {{[01]}} of mbarrier {{[0-9]+}}, which never completes: {{.*}} (a deadlock)
// DEADLOCK: error: 'dkernel.mbarrier_wait' op waits for phase parity 0 of mbarrier 12, which never completes: 1 arrivals missing{{.*}}every block of its cluster is blocked on a wait or done (a deadlock)
