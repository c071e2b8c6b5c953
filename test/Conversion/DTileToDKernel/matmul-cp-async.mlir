// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_80 | FileCheck %s --check-prefix=SM80

/// The double-buffered cp.async matmul of test/Dialect/DTile/ops.mlir. The
/// stages of each input form one rotation (`buffers 2`, same source and box),
/// so they fill the two slots of one 2xbox slice: A at 0, B at 4096. Each
/// stage issues 16-byte cp.async copies (its rows and origins are multiples
/// of 4 floats): 128 copies, one for each of the first 128 threads, then
/// commits one group. The slabs carried through the K loop and the scf.if
/// become their slot index. `async_wait keep 0` waits for every group and
/// synchronises the block; the stages after it need no barrier of their own.
// CHECK-LABEL: dkernel.func @matmul_cp_async
//  CHECK-SAME:   (%[[A:.*]]: memref<128x256xf32>, %[[B:.*]]: memref<256x64xf32>, %[[C:.*]]: memref<128x64xf32>)
//  CHECK-SAME:   outputs [2] grid [4, 8, 1] block [256, 1, 1] smem 8192
//       CHECK:   %[[AS:.*]] = dkernel.alloc_shared offset 0 : memref<2x16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BS:.*]] = dkernel.alloc_shared offset 4096 : memref<2x32x16xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//   CHECK-NOT:   gpu.barrier
//       CHECK:   %[[FEW:.*]] = arith.cmpi ult, %[[T]], %[[C128]] : index
//       CHECK:   scf.if %[[FEW]] {
//       CHECK:     %[[Q:.*]] = arith.remui %[[T]], %[[C8]] : index
//       CHECK:     %[[R:.*]] = arith.divui %[[T]], %[[C8]] : index
//       CHECK:     %[[COL:.*]] = arith.muli %[[Q]], %[[C4]] : index
//       CHECK:     %[[ROW:.*]] = arith.addi %{{.*}}, %[[R]] : index
//       CHECK:     dkernel.cp_async %[[A]][%[[ROW]], %[[COL]]], %[[AS]][%[[C0]], %[[R]], %[[COL]]], 16 : memref<128x256xf32>, memref<2x16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   }
//  CHECK-NEXT:   dkernel.cp_async_commit
//       CHECK:   scf.if %[[FEW]] {
//       CHECK:     dkernel.cp_async %[[B]][%{{.*}}, %{{.*}}], %[[BS]][%[[C0]], %{{.*}}, %{{.*}}], 16
//       CHECK:   }
//  CHECK-NEXT:   dkernel.cp_async_commit
//       CHECK:   %[[RES:.*]]:3 = scf.for %[[KO:[^ ]+]] = %[[C0]] to %[[C8]] step %{{.*}} iter_args(%[[ACC:[^ ]+]] = %{{.*}}, %[[SA:[^ ]+]] = %[[C0]], %[[SB:[^ ]+]] = %[[C0]]) -> (f32, index, index) {
//  CHECK-NEXT:     dkernel.cp_async_wait 0
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     %[[NEXT:.*]]:2 = scf.if %{{.*}} -> (index, index) {
//       CHECK:       %[[SLOT:.*]] = arith.remui %{{.*}}, %{{.*}} : index
//   CHECK-NOT:       gpu.barrier
//       CHECK:       dkernel.cp_async %[[A]][%{{.*}}, %{{.*}}], %[[AS]][%[[SLOT]], %{{.*}}, %{{.*}}], 16
//       CHECK:       dkernel.cp_async_commit
//   CHECK-NOT:       gpu.barrier
//       CHECK:       dkernel.cp_async %[[B]][%{{.*}}, %{{.*}}], %[[BS]][%[[SLOT]], %{{.*}}, %{{.*}}], 16
//       CHECK:       dkernel.cp_async_commit
//  CHECK-NEXT:       scf.yield %[[SLOT]], %[[SLOT]] : index, index
//  CHECK-NEXT:     } else {
//  CHECK-NEXT:       scf.yield %[[SA]], %[[SB]] : index, index
//  CHECK-NEXT:     }
//       CHECK:     %[[PART:.*]] = scf.for %[[KI:[^ ]+]] = {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (f32) {
//       CHECK:       memref.load %[[AS]][%[[SA]], %{{.*}}, %[[KI]]] : memref<2x16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:       memref.load %[[BS]][%[[SB]], %[[KI]], %{{.*}}] : memref<2x32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:     } {dkernel.unroll = 8 : i64}
//       CHECK:     scf.yield %[[PART]], %[[NEXT]]#0, %[[NEXT]]#1 : f32, index, index
//       CHECK:   }
//       CHECK:   memref.store %[[RES]]#0, %[[C]]

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: matmul_cp_async(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//       CUDA:   asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
//       CUDA:   asm volatile("cp.async.commit_group;\n" ::: "memory");
//       CUDA:   for (int i0 = 0; i0 < 8; i0 += 1) {
//  CUDA-NEXT:     asm volatile("cp.async.wait_group 0;\n" ::: "memory");
//  CUDA-NEXT:     __syncthreads();
func.func @run_matmul_cp_async(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>, %arg2: memref<128x64xf32>) {
  dtile.kernel @matmul_cp_async knobs<BK = 32, BM = 16, BN = 16, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %arg2 : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 32] buffers 2 slot %c0 transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [32, 16] buffers 2 slot %c0 transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x32xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<32x16xf32, #gpu.address_space<workgroup>>) {
        dtile.async_wait keep 0
        %more = arith.cmpi ult, %ko, %c7 : index
        %next:2 = scf.if %more -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 32 + 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 32 + 32, %no * 16] box [32, 16] buffers 2 slot %slot transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
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
  return
}

/// Runs that only 4-byte copies keep aligned: rows of 129 floats (padding 1)
/// and an f16 box whose inner origin, 2, is not a multiple of 4 or 8
/// halves. `async_wait keep 1` lets the newest group stay in flight.
// CHECK-LABEL: dkernel.func @cp_async_forms
//  CHECK-SAME:   smem 17536
//       CHECK:   %[[X:.*]] = dkernel.alloc_shared offset 0 : memref<32x129xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[H:.*]] = dkernel.alloc_shared offset 16512 : memref<32x16xf16, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async %{{.*}}, %[[X]][%{{.*}}, %{{.*}}], 4 : memref<64x128xf32>, memref<32x129xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async_commit
//       CHECK:   dkernel.cp_async %{{.*}}, %[[H]][%{{.*}}, %{{.*}}], 4 : memref<64x130xf16>, memref<32x16xf16, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async_commit
//  CHECK-NEXT:   dkernel.cp_async_wait 1
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   dkernel.cp_async_wait 0
//  CHECK-NEXT:   gpu.barrier

/// The target only changes what is checked: cp.async needs sm_80.
// SM80-LABEL: dkernel.func @matmul_cp_async
//       SM80:   dkernel.cp_async_wait 0
// SM80-LABEL: dkernel.func @cp_async_forms

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(128)
//  CUDA-NEXT: cp_async_forms(const float* __restrict__ in0, const __half* __restrict__ in1, float* __restrict__ out0) {
//       CUDA:   asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n"
//       CUDA:   asm volatile("cp.async.wait_group 1;\n" ::: "memory");
func.func @run_cp_async_forms(%arg0: memref<64x128xf32>, %arg1: memref<64x130xf16>, %arg2: memref<64x128xf32>) {
  dtile.kernel @cp_async_forms ins(%x = %arg0 : memref<64x128xf32>, %h = %arg1 : memref<64x130xf16>) outs(%y = %arg2 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %s0 = dtile.stage %x[%b * 32, 0] box [32, 128] pad [0, 1] transport cp_async : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s1 = dtile.stage %h[%b * 32, 2] box [32, 16] transport cp_async : memref<64x130xf16> -> memref<32x16xf16, #gpu.address_space<workgroup>>
      dtile.async_wait keep 1
      dtile.async_wait keep 0
      dloop.for %r = 0 to 32 free "r" {
        %v = dloop.load %s0[%r, %t] : memref<32x128xf32, #gpu.address_space<workgroup>>
        %w = dloop.load %s1[%r, %t mod 16] : memref<32x16xf16, #gpu.address_space<workgroup>>
        %we = arith.extf %w : f16 to f32
        %s = arith.addf %v, %we : f32
        dloop.store %s, %y[%b * 32 + %r, %t] : memref<64x128xf32>
      }
    }
  }
  return
}
