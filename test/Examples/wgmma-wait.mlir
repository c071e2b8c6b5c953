// RUN: %python %S/Inputs/half_matmul.py bf16 64 192 32 > %t.k192.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 64 320 32 > %t.k320.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 64 200 32 > %t.f16.k200.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 100 520 136 > %t.odd.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 256 128 > %t.wide.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 64 1024 64 > %t.split.mlir
// RUN: deplodock-run --interp %t.k192.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.k320.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.f16.k200.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,stages=3,wgmma_wait=1}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.wide.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=64,stages=3,wgmma_wait=1}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=32,stages=4,wgmma_wait=1,double_buffer=true}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.split.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,wgmma_split_k=2,stages=4,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-opt %t.k320.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1" -o %t.behind.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.behind.mlir
// RUN: deplodock-translate --emit-cuda %t.behind.mlir -o %t.behind.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.behind.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.behind.cubin %t.behind.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.behind.cu %}
// RUN: deplodock-run --interp %t.behind.mlir --print=none
// RUN: sed -e 's/wgmma_wait_group 1$/wgmma_wait_group 2/' %t.behind.mlir > %t.early-refill.mlir
// RUN: not deplodock-run --interp %t.early-refill.mlir --print=none 2>&1 | FileCheck %s --check-prefix=EARLY-REFILL
// RUN: sed -e 's/wgmma_wait_group 0 \[/wgmma_wait_group 1 [/' %t.behind.mlir > %t.early-read.mlir
// RUN: not deplodock-run --interp %t.early-read.mlir --print=none 2>&1 | FileCheck %s --check-prefix=EARLY-READ

/// pipeline_k_outer's wgmma_wait = 1 (a wgmma group left in flight across
/// each chunk step), at the Kernel level on the SIMT interpreter against
/// the reference within the dtype's tolerance: K of 192 and 320 (3 and 5
/// chunks, 3 and 4 deep: a multiple of the depth and not), 200 (f16, a
/// zero-filled last chunk), 520 with M and N no tile divides, two
/// warpgroups sharing B's slab, and a K split in two (each split 8 chunks).
// EACH1-COUNT-1: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}wgmma_wait=1}': {{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}wgmma_wait=1{{.*}}}': {{.*}}: PASS

/// In Kernel IR the step waits with wait_group 1, then every thread passes a
/// barrier (each warpgroup has retired the group that read the slot) before
/// thread 0 refills that slot by TMA; the accumulators leave the loop in
/// flight and are waited for after it.
// KERNEL-LABEL: dkernel.func @matmul_0_reduce
//       KERNEL:   %[[LOOP:.*]]:20 = scf.for
//       KERNEL:     dkernel.wgmma_commit_group
//  KERNEL-NEXT:     dkernel.wgmma_wait_group 1{{$}}
//  KERNEL-NEXT:     scf.if
//       KERNEL:       gpu.barrier
//       KERNEL:       dkernel.mbarrier_arrive_expect_tx
//       KERNEL:       dkernel.tma_load
//       KERNEL:   dkernel.wgmma_wait_group 0 [%[[LOOP]]#0,
// CUDA: wgmma.wait_group.sync.aligned 1;
// CUDA: __syncthreads();
// CUDA: cp.async.bulk.tensor
// CUDA: wgmma.wait_group.sync.aligned 0;

/// Mutations the interpreter must catch: a step that waits with wait_group 2
/// refills a slot whose reading group is still in flight; a final wait that
/// leaves a group pending reads accumulators still in flight.
// EARLY-REFILL: error: 'dkernel.tma_load' op overwrites shared memory (pool byte {{[0-9]+}}) that wgmma group 1 of warpgroup 0 still reads: no wgmma_wait_group has retired it
// EARLY-READ: error: 'dkernel.wgmma_wait_group' op reads accumulator #0 of a wgmma group still in flight (wait_group 1 leaves 1 pending)
