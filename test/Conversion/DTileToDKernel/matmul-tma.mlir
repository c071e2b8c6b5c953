// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90 %t.cu %}
// RUN: deplodock-run --interp %s --compare=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=run_single --compare=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=NUM

/// The pipelined double-buffered matmul of matmul-cp-async.mlir with TMA
/// stages. Each rotation gets a descriptor parameter (after the buffers; the
/// launch passes only the buffers), a 128-byte aligned 2xbox slice and a
/// box-shaped view of each slot (what a tma_load writes), and one mbarrier
/// per slot: A's at 0 and 1, B's at 2 and 3. Thread 0 initialises them
/// before the block synchronises.
// CHECK-LABEL: dkernel.func @matmul_tma
//  CHECK-SAME:   (%[[A:.*]]: memref<128x256xf32>, %[[B:.*]]: memref<256x64xf32>, %{{.*}}: memref<128x64xf32>, %[[DA:.*]]: !dkernel.tma_descriptor<16x32xf32, swizzle = 0>, %[[DB:.*]]: !dkernel.tma_descriptor<32x16xf32, swizzle = 0>)
//  CHECK-SAME:   outputs [2] grid [4, 8, 1] block [256, 1, 1] smem 8224
//       CHECK:   dkernel.alloc_shared offset 0 : memref<2x16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.tma_descriptor %[[DA]] describes %[[A]]
//       CHECK:   %[[A0:.*]] = dkernel.alloc_shared offset 0 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A1:.*]] = dkernel.alloc_shared offset 2048 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 4096 : memref<2x32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.tma_descriptor %[[DB]] describes %[[B]]
//       CHECK:   %[[B0:.*]] = dkernel.alloc_shared offset 4096 : memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[B1:.*]] = dkernel.alloc_shared offset 6144 : memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[MB:.*]] = dkernel.alloc_shared offset 8192 : memref<4xi64, #gpu.address_space<workgroup>>
//       CHECK:   %[[T:.*]] = gpu.thread_id x
/// Each thread tracks the mbarriers in two bit masks (bit i for mbarrier
/// i: the parity its next phase completes with, and whether a copy is
/// pending on it), rank-0 locals nvcc keeps in registers.
//       CHECK:   %[[PHASE:.*]] = memref.alloca() : memref<i64>
//       CHECK:   %[[PENDING:.*]] = memref.alloca() : memref<i64>
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %{{.*}} : index
//       CHECK:   scf.if %[[FIRST]] {
// CHECK-COUNT-4:   dkernel.mbarrier_init %[[MB]][%{{.*}}], 1
//       CHECK:   }
//  CHECK-NEXT:   gpu.barrier
/// The prologue: every thread notes the pending copy, thread 0 expects the
/// box's bytes and issues it into slot 0.
//       CHECK:   %[[PEND0:.*]] = memref.load %[[PENDING]][] : memref<i64>
//  CHECK-NEXT:   %[[BIT0:.*]] = arith.index_cast %[[C0:.*]] : index to i64
//  CHECK-NEXT:   %[[MASK0:.*]] = arith.shli %{{.*}}, %[[BIT0]] : i64
//  CHECK-NEXT:   %[[SET0:.*]] = arith.ori %[[PEND0]], %[[MASK0]] : i64
//  CHECK-NEXT:   memref.store %[[SET0]], %[[PENDING]][] : memref<i64>
//  CHECK-NEXT:   scf.if %[[FIRST]] {
//  CHECK-NEXT:     dkernel.mbarrier_arrive_expect_tx %[[MB]][%[[C0]]], 2048
//  CHECK-NEXT:     dkernel.tma_load %[[DA]][%{{.*}}, %[[C0]]] -> %[[A0]], %[[MB]][%[[C0]]]
//  CHECK-NEXT:   }
//       CHECK:   scf.if %[[FIRST]] {
//  CHECK-NEXT:     dkernel.mbarrier_arrive_expect_tx %[[MB]][%{{.*}}], 2048
//  CHECK-NEXT:     dkernel.tma_load %[[DB]][%[[C0]], %{{.*}}] -> %[[B0]]
/// At the top of each chunk, each mbarrier with a pending copy is waited
/// for with the parity its thread counted, which then flips; a barrier
/// follows, so the prefetch may overwrite the other slot.
//       CHECK:   scf.for
//       CHECK:     %[[P:.*]] = memref.load %[[PENDING]][]
//  CHECK-NEXT:     %[[PS:.*]] = arith.shrui %[[P]], %[[BIT0]] : i64
//  CHECK-NEXT:     %[[PB:.*]] = arith.andi %[[PS]], %{{.*}} : i64
//  CHECK-NEXT:     %[[PB32:.*]] = arith.trunci %[[PB]] : i64 to i32
//  CHECK-NEXT:     %[[ISSUED:.*]] = arith.cmpi ne, %[[PB32]]
//  CHECK-NEXT:     scf.if %[[ISSUED]] {
//  CHECK-NEXT:       %[[PH:.*]] = memref.load %[[PHASE]][]
//  CHECK-NEXT:       %[[PHS:.*]] = arith.shrui %[[PH]], %[[BIT0]] : i64
//  CHECK-NEXT:       %[[PHB:.*]] = arith.andi %[[PHS]], %{{.*}} : i64
//  CHECK-NEXT:       %[[PARITY:.*]] = arith.trunci %[[PHB]] : i64 to i32
//  CHECK-NEXT:       dkernel.mbarrier_wait %[[MB]][%[[C0]]], %[[PARITY]] : memref<4xi64, #gpu.address_space<workgroup>>, i32
//  CHECK-NEXT:       %[[PH2:.*]] = memref.load %[[PHASE]][]
//  CHECK-NEXT:       %[[FLIP:.*]] = arith.xori %[[PH2]], %[[MASK0]] : i64
//  CHECK-NEXT:       memref.store %[[FLIP]], %[[PHASE]][]
//  CHECK-NEXT:       %[[P2:.*]] = memref.load %[[PENDING]][]
//  CHECK-NEXT:       %[[NOT0:.*]] = arith.xori %[[MASK0]], %{{.*}} : i64
//  CHECK-NEXT:       %[[CLEAR:.*]] = arith.andi %[[P2]], %[[NOT0]] : i64
//  CHECK-NEXT:       memref.store %[[CLEAR]], %[[PENDING]][]
// CHECK-COUNT-3:   dkernel.mbarrier_wait
//       CHECK:     gpu.barrier
//   CHECK-NOT:     gpu.barrier
/// The prefetch of chunk k + 1 picks its slot's mbarrier and view.
//       CHECK:     scf.if
//       CHECK:       %[[SLOT:.*]] = arith.remui
//       CHECK:       %[[SB:.*]] = arith.index_cast %[[SLOT]] : index to i64
//  CHECK-NEXT:       %[[SM:.*]] = arith.shli %{{.*}}, %[[SB]] : i64
//  CHECK-NEXT:       %[[SSET:.*]] = arith.ori %{{.*}}, %[[SM]] : i64
//  CHECK-NEXT:       memref.store %[[SSET]], %[[PENDING]][]
//  CHECK-NEXT:       scf.if %[[FIRST]] {
//  CHECK-NEXT:         dkernel.mbarrier_arrive_expect_tx %[[MB]][%[[SLOT]]], 2048
//  CHECK-NEXT:         %[[IS0:.*]] = arith.cmpi eq, %[[SLOT]]
//  CHECK-NEXT:         scf.if %[[IS0]] {
//  CHECK-NEXT:           dkernel.tma_load %[[DA]][{{.*}}] -> %[[A0]], %[[MB]][%[[SLOT]]]
//       CHECK:           dkernel.tma_load %[[DA]][{{.*}}] -> %[[A1]], %[[MB]][%[[SLOT]]]
//       CHECK:   dkernel.launch @matmul_tma(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) : memref<128x256xf32>, memref<256x64xf32>, memref<128x64xf32>

/// Without a slot: one view, one mbarrier, refilled after a barrier (the
/// previous chunk may still be read).
// CHECK-LABEL: dkernel.func @single
//  CHECK-SAME:   %{{.*}}: !dkernel.tma_descriptor<32x32xf32, swizzle = 0>)
//       CHECK:   scf.for
//       CHECK:     gpu.barrier
//       CHECK:     memref.store
//  CHECK-NEXT:     scf.if
//  CHECK-NEXT:       dkernel.mbarrier_arrive_expect_tx %{{.*}}[%{{.*}}], 4096
//  CHECK-NEXT:       dkernel.tma_load
//       CHECK:     dkernel.mbarrier_wait
//       CHECK:     gpu.barrier

/// The kernel takes its descriptors as __grid_constant__ tensor maps; with
/// no swizzle the pool needs no alignment check.
// CUDA: matmul_tma(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0, const __grid_constant__ CUtensorMap desc0, const __grid_constant__ CUtensorMap desc1)
// CUDA-NOT: __trap
// CUDA: mbarrier.init.shared::cta.b64
// CUDA: mbarrier.arrive.expect_tx.shared::cta.b64
// CUDA: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CUDA: mbarrier.try_wait.parity.shared::cta.b64
// CUDA-NOT: cp.async.wait_group

/// The Kernel IR agrees with the Tile IR on the SIMT interpreter: eight
/// chunks, so each mbarrier completes four phases (a wrong parity or a
/// missing wait reads the NaN a pending copy leaves).
// NUM-NOT: FAIL
// NUM: PASS

func.func @run_matmul_tma(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %arg2 = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul_tma knobs<BK = 32, BM = 16, BN = 16, async_copy = false, double_buffer = true, pipeline = true, stage = [0, 1], tma = true> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %arg2 : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 32] buffers 2 slot %c0 transport tma : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [32, 16] buffers 2 slot %c0 transport tma : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x32xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<32x16xf32, #gpu.address_space<workgroup>>) {
        dtile.async_wait keep 0
        %more = arith.cmpi ult, %ko, %c7 : index
        %next:2 = scf.if %more -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 32 + 32] box [16, 32] buffers 2 slot %slot transport tma : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 32 + 32, %no * 16] box [32, 16] buffers 2 slot %slot transport tma : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
          scf.yield %an, %bn : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %as, %bs : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 8 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part, %next#0, %next#1 : f32, memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return %arg2 : memref<128x64xf32>
}

/// One slab per input, refilled every chunk: no slot, one mbarrier each.
func.func @run_single(%arg0: memref<64x128xf32>) -> memref<64xf32> {
  %arg1 = memref.alloc() : memref<64xf32>
  dtile.kernel @single ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 2 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%b * 32, %ko * 32] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<32x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%b * 32 + %t] : memref<64xf32>
    }
  }
  return %arg1 : memref<64xf32>
}
