// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// One warp multiplies A (16 x 16) by B (16 x 8, k x n) on tensor cores:
/// both staged in shared memory, A loaded by ldmatrix x4, B by ldmatrix x2
/// transposed, D = A B + C by one mma.sync, each lane storing its four
/// accumulators where the PTX ISA places them (the same kernel runs on the
/// SIMT interpreter in unittests/Interpreter/SimtTest.cpp).
// CHECK-LABEL: dkernel.func @mma_f16
//       CHECK:   %[[A:.*]]:8 = dkernel.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16, f16, f16
//       CHECK:   %[[B:.*]]:4 = dkernel.ldmatrix trans %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x8xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16
//       CHECK:   {{.*}} = dkernel.mma_sync [%[[A]]#0, %[[A]]#1, %[[A]]#2, %[[A]]#3, %[[A]]#4, %[[A]]#5, %[[A]]#6, %[[A]]#7], [%[[B]]#0, %[[B]]#1, %[[B]]#2, %[[B]]#3], [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : f16
// CHECK-LABEL: dkernel.func @mma_bf16
//       CHECK:   dkernel.mma_sync {{.*}} : bf16

/// The emitter prints inline PTX: ldmatrix into 32-bit registers split into
/// halves (low element first), mma.sync on the registers paired back.
// CUDA-LABEL: mma_f16(
//       CUDA:   unsigned lm0[4];
//       CUDA:   asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n" : "=r"(lm0[0]), "=r"(lm0[1]), "=r"(lm0[2]), "=r"(lm0[3]) : "r"((unsigned)__cvta_generic_to_shared(&smem0[{{.*}}])) : "memory");
//       CUDA:   const __half [[A0:v[0-9]+]] = __ushort_as_half((unsigned short)(lm0[0] & 0xffffu));
//       CUDA:   const __half [[A1:v[0-9]+]] = __ushort_as_half((unsigned short)(lm0[0] >> 16));
//       CUDA:   asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
//       CUDA:   float [[D0:acc[0-9]+]], acc{{[0-9]+}}, acc{{[0-9]+}}, acc{{[0-9]+}};
//       CUDA:   asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n" : "=f"([[D0]]), {{.*}} : "r"((unsigned)__half_as_ushort([[A0]]) | ((unsigned)__half_as_ushort([[A1]]) << 16)),
// CUDA-LABEL: mma_bf16(
//       CUDA:   __ushort_as_bfloat16(
//       CUDA:   asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{.*}}__bfloat16_as_ushort(

dkernel.func @mma_f16(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>, %d: memref<16x8xf32>) outputs [3] grid [1, 1, 1] block [32, 1, 1] smem 768 {
  %sa = dkernel.alloc_shared offset 0 : memref<16x16xf16, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 512 : memref<16x8xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %t = gpu.thread_id x
  // Thread t copies rows t / 2 of A (8 elements) and t / 2 of B (4).
  %row = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %acol = arith.muli %half, %c8 : index
  %bcol = arith.muli %half, %c4 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %acol, %i : index
    %v = memref.load %a[%row, %j] : memref<16x16xf16>
    memref.store %v, %sa[%row, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %j = arith.addi %bcol, %i : index
    %v = memref.load %b[%row, %j] : memref<16x8xf16>
    memref.store %v, %sb[%row, %j] : memref<16x8xf16, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  // A: lanes 8m..8m+7 name the rows of matrix m = A[8 (m % 2):, 8 (m / 2):].
  %lane = arith.remui %t, %c16 : index
  %m = arith.divui %t, %c8 : index
  %r = arith.remui %t, %c8 : index
  %mlo = arith.remui %m, %c2 : index
  %mhi = arith.divui %m, %c2 : index
  %arow0 = arith.muli %mlo, %c8 : index
  %arow = arith.addi %arow0, %r : index
  %acol0 = arith.muli %mhi, %c8 : index
  %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7 = dkernel.ldmatrix %sa[%arow, %acol0] : memref<16x16xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16, f16, f16
  // B (k x n, row-major): two matrices, rows k of 0-7 and 8-15, transposed.
  %b0, %b1, %b2, %b3 = dkernel.ldmatrix trans %sb[%lane, %c0] : memref<16x8xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16
  // C and D: c[i] is C[g + 8 (i / 2)][2 t + i % 2].
  %g = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %g8 = arith.addi %g, %c8 : index
  %col = arith.muli %q, %c2 : index
  %col1 = arith.addi %col, %c1 : index
  %x0 = memref.load %c[%g, %col] : memref<16x8xf32>
  %x1 = memref.load %c[%g, %col1] : memref<16x8xf32>
  %x2 = memref.load %c[%g8, %col] : memref<16x8xf32>
  %x3 = memref.load %c[%g8, %col1] : memref<16x8xf32>
  %d0, %d1, %d2, %d3 = dkernel.mma_sync [%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7], [%b0, %b1, %b2, %b3], [%x0, %x1, %x2, %x3] : f16
  memref.store %d0, %d[%g, %col] : memref<16x8xf32>
  memref.store %d1, %d[%g, %col1] : memref<16x8xf32>
  memref.store %d2, %d[%g8, %col] : memref<16x8xf32>
  memref.store %d3, %d[%g8, %col1] : memref<16x8xf32>
  dkernel.return
}

dkernel.func @mma_bf16(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xf32>, %d: memref<16x8xf32>) outputs [3] grid [1, 1, 1] block [32, 1, 1] smem 768 {
  %sa = dkernel.alloc_shared offset 0 : memref<16x16xbf16, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 512 : memref<16x8xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %t = gpu.thread_id x
  // Thread t copies rows t / 2 of A (8 elements) and t / 2 of B (4).
  %row = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %acol = arith.muli %half, %c8 : index
  %bcol = arith.muli %half, %c4 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %acol, %i : index
    %v = memref.load %a[%row, %j] : memref<16x16xbf16>
    memref.store %v, %sa[%row, %j] : memref<16x16xbf16, #gpu.address_space<workgroup>>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %j = arith.addi %bcol, %i : index
    %v = memref.load %b[%row, %j] : memref<16x8xbf16>
    memref.store %v, %sb[%row, %j] : memref<16x8xbf16, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  // A: lanes 8m..8m+7 name the rows of matrix m = A[8 (m % 2):, 8 (m / 2):].
  %lane = arith.remui %t, %c16 : index
  %m = arith.divui %t, %c8 : index
  %r = arith.remui %t, %c8 : index
  %mlo = arith.remui %m, %c2 : index
  %mhi = arith.divui %m, %c2 : index
  %arow0 = arith.muli %mlo, %c8 : index
  %arow = arith.addi %arow0, %r : index
  %acol0 = arith.muli %mhi, %c8 : index
  %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7 = dkernel.ldmatrix %sa[%arow, %acol0] : memref<16x16xbf16, #gpu.address_space<workgroup>> -> bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16
  // B (k x n, row-major): two matrices, rows k of 0-7 and 8-15, transposed.
  %b0, %b1, %b2, %b3 = dkernel.ldmatrix trans %sb[%lane, %c0] : memref<16x8xbf16, #gpu.address_space<workgroup>> -> bf16, bf16, bf16, bf16
  // C and D: c[i] is C[g + 8 (i / 2)][2 t + i % 2].
  %g = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %g8 = arith.addi %g, %c8 : index
  %col = arith.muli %q, %c2 : index
  %col1 = arith.addi %col, %c1 : index
  %x0 = memref.load %c[%g, %col] : memref<16x8xf32>
  %x1 = memref.load %c[%g, %col1] : memref<16x8xf32>
  %x2 = memref.load %c[%g8, %col] : memref<16x8xf32>
  %x3 = memref.load %c[%g8, %col1] : memref<16x8xf32>
  %d0, %d1, %d2, %d3 = dkernel.mma_sync [%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7], [%b0, %b1, %b2, %b3], [%x0, %x1, %x2, %x3] : bf16
  memref.store %d0, %d[%g, %col] : memref<16x8xf32>
  memref.store %d1, %d[%g, %col1] : memref<16x8xf32>
  memref.store %d2, %d[%g8, %col] : memref<16x8xf32>
  memref.store %d3, %d[%g8, %col1] : memref<16x8xf32>
  dkernel.return
}

