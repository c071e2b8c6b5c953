// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -ptx -o - %t.cu | FileCheck %s --check-prefix=PTX %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t.cu %}

/// A 16x16 matmul tile with cp.async double buffering: stage 0 is loaded
/// before the K loop; each iteration prefetches the next K chunk into the
/// other stage, commits, waits for all but the newest group, synchronises,
/// and multiplies from shared memory in a loop unrolled 16 times. The
/// shared slices are views of one 128-byte aligned pool. Every asm statement
/// clobbers memory, so no plain access to the copied buffers moves across.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CHECK-NEXT: matmul_cp_async(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//  CHECK-NEXT:   extern __shared__ __align__(128) unsigned char smem[];
//  CHECK-NEXT:   float* const smem0 = reinterpret_cast<float*>(smem + 0);
//  CHECK-NEXT:   float* const smem1 = reinterpret_cast<float*>(smem + 2048);
//  CHECK-NEXT:   const int v0 = (int)threadIdx.x;
//  CHECK-NEXT:   const int v1 = (int)threadIdx.y;
//  CHECK-NEXT:   const int v2 = (int)blockIdx.x;
//  CHECK-NEXT:   const int v3 = (int)blockIdx.y;
//  CHECK-NEXT:   const int v4 = v3 * 16;
//  CHECK-NEXT:   const int v5 = v4 + v1;
//  CHECK-NEXT:   const int v6 = v2 * 16;
//  CHECK-NEXT:   const int v7 = v6 + v0;
//  CHECK-NEXT:   asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem0[v1 * 16 + v0])), "l"(&in0[v5 * 256 + v0]) : "memory");
//  CHECK-NEXT:   asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem1[v1 * 16 + v0])), "l"(&in1[v1 * 64 + v7]) : "memory");
//  CHECK-NEXT:   asm volatile("cp.async.commit_group;\n" ::: "memory");
//  CHECK-NEXT:   float acc0 = 0.00000000e+00f;
//  CHECK-NEXT:   for (int i0 = 0; i0 < 16; i0 += 1) {
//  CHECK-NEXT:     const int v8 = (unsigned)i0 % (unsigned)2;
//  CHECK-NEXT:     const int v9 = i0 + 1;
//  CHECK-NEXT:     const bool v10 = (unsigned)v9 < (unsigned)16;
//  CHECK-NEXT:     if (v10) {
//  CHECK-NEXT:       const int v11 = 1 - v8;
//  CHECK-NEXT:       const int v12 = v9 * 16;
//  CHECK-NEXT:       const int v13 = v12 + v0;
//  CHECK-NEXT:       const int v14 = v12 + v1;
//  CHECK-NEXT:       asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem0[v11 * 256 + v1 * 16 + v0])), "l"(&in0[v5 * 256 + v13]) : "memory");
//  CHECK-NEXT:       asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem1[v11 * 256 + v1 * 16 + v0])), "l"(&in1[v14 * 64 + v7]) : "memory");
//  CHECK-NEXT:     }
//  CHECK-NEXT:     asm volatile("cp.async.commit_group;\n" ::: "memory");
//  CHECK-NEXT:     asm volatile("cp.async.wait_group 1;\n" ::: "memory");
//  CHECK-NEXT:     __syncthreads();
//  CHECK-NEXT:     float acc1 = acc0;
//  CHECK-NEXT:     #pragma unroll 16
//  CHECK-NEXT:     for (int i1 = 0; i1 < 16; i1 += 1) {
//  CHECK-NEXT:       const float v15 = smem0[v8 * 256 + v1 * 16 + i1];
//  CHECK-NEXT:       const float v16 = smem1[v8 * 256 + i1 * 16 + v0];
//  CHECK-NEXT:       const float v17 = fmaf(v15, v16, acc1);
//  CHECK-NEXT:       acc1 = v17;
//  CHECK-NEXT:     }
//  CHECK-NEXT:     __syncthreads();
//  CHECK-NEXT:     acc0 = acc1;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[v5 * 64 + v7] = acc0;
//  CHECK-NEXT: }

/// The unroll pragma reaches the code: the inner loop's 16 FMAs are straight
/// line code.
// PTX-LABEL: .entry matmul_cp_async(
//       PTX:   cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
//       PTX:   cp.async.commit_group;
//       PTX:   cp.async.wait_group 1;
//       PTX:   bar.sync 0;
// PTX-COUNT-16: fma.rn.f32
//   PTX-NOT:   fma.rn.f32
//       PTX:   bar.sync 0;
dkernel.func @matmul_cp_async(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %as = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %bs = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  dkernel.cp_async %a[%row, %tx], %as[%c0, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %b[%ty, %col], %bs[%c0, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  %sum = scf.for %kt = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %stage = arith.remui %kt, %c2 : index
    %next = arith.addi %kt, %c1 : index
    %has_next = arith.cmpi ult, %next, %c16 : index
    scf.if %has_next {
      %other = arith.subi %c1, %stage : index
      %k0 = arith.muli %next, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      dkernel.cp_async %a[%row, %ka], %as[%other, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
      dkernel.cp_async %b[%kb, %col], %bs[%other, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
    }
    dkernel.cp_async_commit
    dkernel.cp_async_wait 1
    gpu.barrier
    %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%inner = %acc) -> (f32) {
      %av = memref.load %as[%stage, %ty, %k] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %bv = memref.load %bs[%stage, %k, %tx] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %f = math.fma %av, %bv, %inner : f32
      scf.yield %f : f32
    } {dkernel.unroll = 16 : i64}
    gpu.barrier
    scf.yield %part : f32
  }
  memref.store %sum, %c[%row, %col] : memref<64x64xf32>
  dkernel.return
}

/// Only 16-byte copies may use .cg (bypassing L1); 4- and 8-byte copies are
/// .ca. Indices are elements, whatever the element type.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(32)
//  CHECK-NEXT: cp_async_widths(const float* __restrict__ in0, const __half* __restrict__ in1, float* __restrict__ out0) {
//  CHECK-NEXT:   extern __shared__ __align__(128) unsigned char smem[];
//  CHECK-NEXT:   const int v0 = (int)threadIdx.x;
//  CHECK-NEXT:   float* const smem0 = reinterpret_cast<float*>(smem + 0);
//  CHECK-NEXT:   __half* const smem1 = reinterpret_cast<__half*>(smem + 8192);
//  CHECK-NEXT:   const int v1 = v0 * 4;
//  CHECK-NEXT:   asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem0[v0 * 32 + 4])), "l"(&in0[v0 * 2048 + v1]) : "memory");
//  CHECK-NEXT:   asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem0[v0 * 32])), "l"(&in0[v0 * 2048]) : "memory");
//  CHECK-NEXT:   asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem0[v0 * 32 + 2])), "l"(&in0[v0 * 2048 + 2]) : "memory");
//  CHECK-NEXT:   asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem1[0])), "l"(&in1[0]) : "memory");
//  CHECK-NEXT:   asm volatile("cp.async.commit_group;\n" ::: "memory");
//  CHECK-NEXT:   asm volatile("cp.async.wait_group 0;\n" ::: "memory");
//  CHECK-NEXT:   __syncthreads();

// PTX-LABEL: .entry cp_async_widths(
//       PTX:   cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
//       PTX:   cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 8;
//       PTX:   cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
//       PTX:   cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
//       PTX:   cp.async.wait_group 0;
dkernel.func @cp_async_widths(%x: memref<128x2048xf32>, %h: memref<1024xf16>, %y: memref<128x2048xf32>) outputs [2] grid [1, 1, 1] block [32, 1, 1] smem 8320 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %half = dkernel.alloc_shared offset 8192 : memref<64xf16, #gpu.address_space<workgroup>>
  %col = arith.muli %t, %c4 : index
  dkernel.cp_async %x[%t, %col], %tile[%t, %c4], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%t, %c0], %tile[%t, %c0], 8 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%t, %c2], %tile[%t, %c2], 4 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %h[%c0], %half[%c0], 16 : memref<1024xf16>, memref<64xf16, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  dkernel.cp_async_wait 0
  gpu.barrier
  %v = memref.load %tile[%t, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %y[%t, %c0] : memref<128x2048xf32>
  dkernel.return
}
