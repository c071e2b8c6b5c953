// RUN: %python %S/Inputs/half_matmul.py bf16 64 320 32 > %t.k320.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 64 256 64 > %t.k256.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 64 200 32 > %t.f16.k200.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 100 520 136 > %t.odd.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 256 128 > %t.wide.mlir
// RUN: deplodock-run --interp %t.k320.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,warp_specialize=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4,wgmma_wait=1,warp_specialize=true,setmaxnreg=240}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.k256.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,warp_specialize=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,warp_specialize=true}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.f16.k200.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1,warp_specialize=true}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,stages=3,warp_specialize=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,warp_specialize=true,setmaxnreg=240}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.wide.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=64,stages=3,warp_specialize=true,setmaxnreg=232}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=32,stages=4,wgmma_wait=1,warp_specialize=true}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-opt %t.k320.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1,warp_specialize=true,setmaxnreg=240" -o %t.ws.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.ws.mlir
// RUN: deplodock-translate --emit-cuda %t.ws.mlir -o %t.ws.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.ws.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.ws.cubin %t.ws.cu 2>&1 | FileCheck %s --check-prefix=PTXAS --allow-empty %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.ws.cu %}
// RUN: deplodock-run --interp %t.ws.mlir --print=none
// RUN: awk '/setmaxnreg dec/ { producer = 1 } producer && /mbarrier_wait/ { next } { print }' %t.ws.mlir > %t.no-empty-wait.mlir
// RUN: not deplodock-run --interp %t.no-empty-wait.mlir --print=none 2>&1 | FileCheck %s --check-prefix=NO-EMPTY-WAIT
// RUN: sed -e 's/\(mbarrier_init .*\], \)4 :/\15 :/' %t.ws.mlir > %t.deadlock.mlir
// RUN: grep -v dkernel.warp_sync %t.ws.mlir > %t.no-warp-sync.mlir
// RUN: not deplodock-run --interp %t.no-warp-sync.mlir --print=none 2>&1 | FileCheck %s --check-prefix=NO-WARP-SYNC
// RUN: not deplodock-run --interp %t.deadlock.mlir --print=none 2>&1 | FileCheck %s --check-prefix=DEADLOCK

/// warp_specialize: a producer warpgroup issues the TMA loads of the
/// pipelined chunk loop, the consumer warpgroups only compute. At the
/// Kernel level on the SIMT interpreter (whose sides of the role branch run
/// as tasks that wait on each other's mbarriers) against the reference
/// within the dtype's tolerance: K of 320 (5 chunks, 3 and 4 deep: not a
/// multiple of the depth) and 256 (4 chunks, 4 deep: a multiple), wgmma
/// groups retired at once or one behind, 200 in f16 (a zero-filled last
/// chunk), 520 with M and N no tile divides, two consumer warpgroups
/// sharing B's slab, with setmaxnreg and without.
// EACH1-COUNT-1: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}warp_specialize=true{{.*}}}': {{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}warp_specialize=true{{.*}}}': {{.*}}: PASS

/// In Kernel IR the block gains a warpgroup (128 consumers + 128); "empty"
/// mbarriers expect every consumer warp (4). After the one block barrier (the
/// mbarriers are initialised) the consumers (thread ids below 128, as in
/// the Tile IR) raise their registers, release the prologue's slots, and
/// per chunk wait for "full", compute and release the slot the lock-step
/// kernel would refill; the producer lowers its registers and its first
/// thread waits for "empty" before each refill. No barrier follows.
// KERNEL-LABEL: dkernel.func @matmul_0_reduce
//  KERNEL-SAME: block [256, 1, 1]
//       KERNEL: dkernel.mbarrier_init {{.*}}, 1 :
//       KERNEL: dkernel.mbarrier_init {{.*}}, 4 :
//       KERNEL: gpu.barrier
//       KERNEL: %[[CONSUMER:.*]] = arith.cmpi ult, %thread_id_x, %c128
//  KERNEL-NEXT: scf.if %[[CONSUMER]] {
//  KERNEL-NEXT:   dkernel.setmaxnreg inc 240
//       KERNEL:   dkernel.mbarrier_arrive %
//       KERNEL:   scf.for
//       KERNEL:     dkernel.mbarrier_wait
//       KERNEL:     dkernel.wgmma_mma_async
//       KERNEL:     dkernel.wgmma_wait_group 1{{$}}
//       KERNEL:     dkernel.mbarrier_arrive %
//       KERNEL:   dkernel.setmaxnreg dec 40
//       KERNEL:   %[[PRODUCER:.*]] = arith.cmpi eq, %thread_id_x, %c128
//       KERNEL:   scf.if %[[PRODUCER]] {
//       KERNEL:     dkernel.mbarrier_wait
//       KERNEL:     dkernel.mbarrier_arrive_expect_tx
//       KERNEL:     dkernel.tma_load
//   KERNEL-NOT: gpu.barrier
//   KERNEL-NOT: wgmma
//       KERNEL: dkernel.return
// CUDA: __launch_bounds__(256, 1)
// CUDA: setmaxnreg.inc.sync.aligned.u32 240;
// CUDA: mbarrier.arrive
// CUDA: wgmma.wait_group.sync.aligned 1;
// CUDA: (__nv_bfloat16)__fadd_rn(acc0, -0.0f)
// CUDA: setmaxnreg.dec.sync.aligned.u32 40;
// CUDA: cp.async.bulk.tensor
/// One block per SM in the launch bounds fixes the register count at entry,
/// without which ptxas ignores setmaxnreg. The epilogue's conversions to
/// bf16 (above) add -0.0 first: a packing conversion reading the accumulators of a
/// loop that leaves a group in flight (wgmma_wait=1) made ptxas serialise
/// every wgmma of the kernel (C7514).
// PTXAS-NOT: setmaxnreg
// PTXAS-NOT: C7514

/// Mutations the interpreter must catch: a producer that refills a slot
/// without waiting for "empty" overwrites a box the consumers may not have
/// read yet; "empty" mbarriers expecting one arrival more than there are
/// consumer warps never complete, and both roles wait for ever: a
/// deadlock; a warp whose first thread releases the slot without a warp
/// sync releases only that thread's reads, not its warp's.
// NO-EMPTY-WAIT: error: 'dkernel.tma_load' op {{.*}}shared memory (pool byte {{[0-9]+}}){{.*}} in thread 128 of block
// NO-WARP-SYNC: error: 'dkernel.tma_load' op writes shared memory (pool byte {{[0-9]+}}) that thread {{[0-9]+}} read with no barrier between in thread 128 of block
// DEADLOCK: error: 'dkernel.mbarrier_wait' op waits for phase parity {{[01]}} of mbarrier {{[0-9]+}}, which never completes: {{.*}} (a deadlock)
