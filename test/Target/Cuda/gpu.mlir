// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda --cuda-index-bitwidth=64 %s | FileCheck %s --check-prefix=IDX64
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: deplodock-translate --emit-cuda --cuda-index-bitwidth=64 %s -o %t.64.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.64.sm80.cubin %t.64.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t.cu %}

/// GPU ids, dimensions, shuffles, barriers and per-thread local arrays.

/// Thread and block ids, block and grid dimensions in x, y and z: the CUDA
/// builtins are unsigned, cast to the index type (int, or long long with
/// --cuda-index-bitwidth=64). __launch_bounds__ is the product of the block.
// IDX64-LABEL: extern "C" __global__ void __launch_bounds__(64)
//  IDX64-NEXT: ids(int* __restrict__ out0) {
//  IDX64-NEXT:   const long long v0 = (long long)threadIdx.x;
//  IDX64-NEXT:   const long long v1 = (long long)threadIdx.y;
//  IDX64-NEXT:   const long long v2 = (long long)threadIdx.z;
//  IDX64-NEXT:   const long long v3 = (long long)blockIdx.x;
//  IDX64-NEXT:   const long long v4 = (long long)blockIdx.y;
//  IDX64-NEXT:   const long long v5 = (long long)blockIdx.z;
//  IDX64-NEXT:   const long long v6 = (long long)blockDim.x;
//  IDX64-NEXT:   const long long v7 = (long long)blockDim.y;
//  IDX64-NEXT:   const long long v8 = (long long)blockDim.z;
//  IDX64-NEXT:   const long long v9 = (long long)gridDim.x;
//  IDX64-NEXT:   const long long v10 = (long long)gridDim.y;
//  IDX64-NEXT:   const long long v11 = (long long)gridDim.z;
//  IDX64-NEXT:   const long long v12 = v0 + v1;
//  IDX64-NEXT:   const bool v13 = v12 == 0;
//  IDX64-NEXT:   if (v13) {
//  IDX64-NEXT:     const int v14 = (int)v2;
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64)
//  CHECK-NEXT: ids(int* __restrict__ out0) {
//  CHECK-NEXT:   const int v0 = (int)threadIdx.x;
//  CHECK-NEXT:   const int v1 = (int)threadIdx.y;
//  CHECK-NEXT:   const int v2 = (int)threadIdx.z;
//  CHECK-NEXT:   const int v3 = (int)blockIdx.x;
//  CHECK-NEXT:   const int v4 = (int)blockIdx.y;
//  CHECK-NEXT:   const int v5 = (int)blockIdx.z;
//  CHECK-NEXT:   const int v6 = (int)blockDim.x;
//  CHECK-NEXT:   const int v7 = (int)blockDim.y;
//  CHECK-NEXT:   const int v8 = (int)blockDim.z;
//  CHECK-NEXT:   const int v9 = (int)gridDim.x;
//  CHECK-NEXT:   const int v10 = (int)gridDim.y;
//  CHECK-NEXT:   const int v11 = (int)gridDim.z;
//  CHECK-NEXT:   const int v12 = v0 + v1;
//  CHECK-NEXT:   const bool v13 = v12 == 0;
//  CHECK-NEXT:   if (v13) {
//  CHECK-NEXT:     const int v14 = (int)v2;
//  CHECK-NEXT:     const int v15 = (int)v3;
//  CHECK-NEXT:     const int v16 = (int)v4;
//  CHECK-NEXT:     const int v17 = (int)v5;
//  CHECK-NEXT:     const int v18 = (int)v6;
//  CHECK-NEXT:     const int v19 = (int)v7;
//  CHECK-NEXT:     const int v20 = (int)v8;
//  CHECK-NEXT:     const int v21 = (int)v9;
//  CHECK-NEXT:     const int v22 = (int)v10;
//  CHECK-NEXT:     const int v23 = (int)v11;
//  CHECK-NEXT:     out0[0] = v14;
//  CHECK-NEXT:     out0[1] = v15;
//  CHECK-NEXT:     out0[2] = v16;
//  CHECK-NEXT:     out0[3] = v17;
//  CHECK-NEXT:     out0[4] = v18;
//  CHECK-NEXT:     out0[5] = v19;
//  CHECK-NEXT:     out0[6] = v20;
//  CHECK-NEXT:     out0[7] = v21;
//  CHECK-NEXT:     out0[8] = v22;
//  CHECK-NEXT:     out0[9] = v23;
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
dkernel.func @ids(%y: memref<12xi32>) outputs [0] grid [2, 3, 4] block [8, 4, 2] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %tz = gpu.thread_id z
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %bz = gpu.block_id z
  %dx = gpu.block_dim x
  %dy = gpu.block_dim y
  %dz = gpu.block_dim z
  %gx = gpu.grid_dim x
  %gy = gpu.grid_dim y
  %gz = gpu.grid_dim z
  %all = arith.addi %tx, %ty : index
  %leader = arith.cmpi eq, %all, %c0 : index
  scf.if %leader {
    %i0 = arith.index_cast %tz : index to i32
    %i1 = arith.index_cast %bx : index to i32
    %i2 = arith.index_cast %by : index to i32
    %i3 = arith.index_cast %bz : index to i32
    %i4 = arith.index_cast %dx : index to i32
    %i5 = arith.index_cast %dy : index to i32
    %i6 = arith.index_cast %dz : index to i32
    %i7 = arith.index_cast %gx : index to i32
    %i8 = arith.index_cast %gy : index to i32
    %i9 = arith.index_cast %gz : index to i32
    memref.store %i0, %y[%c0] : memref<12xi32>
    memref.store %i1, %y[%c1] : memref<12xi32>
    memref.store %i2, %y[%c2] : memref<12xi32>
    memref.store %i3, %y[%c3] : memref<12xi32>
    memref.store %i4, %y[%c4] : memref<12xi32>
    memref.store %i5, %y[%c5] : memref<12xi32>
    memref.store %i6, %y[%c6] : memref<12xi32>
    memref.store %i7, %y[%c7] : memref<12xi32>
    memref.store %i8, %y[%c8] : memref<12xi32>
    memref.store %i9, %y[%c9] : memref<12xi32>
  }
  dkernel.return
}

/// gpu.shuffle xor is __shfl_xor_sync over the full warp (its unused
/// `valid` result is not printed); gpu.barrier is __syncthreads(); a
/// memref.alloca is a local array, indexed like any buffer.
// IDX64-LABEL: shuffle_barrier_local(
//       IDX64:   for (long long i0 = 0; i0 < 4; i0 += 1) {
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(32)
//  CHECK-NEXT: shuffle_barrier_local(const float* __restrict__ in0, float* __restrict__ out0) {
//  CHECK-NEXT:   const int v0 = (int)threadIdx.x;
//  CHECK-NEXT:   float local0[8];
//  CHECK-NEXT:   const float v1 = in0[v0];
//  CHECK-NEXT:   const float v2 = __shfl_xor_sync(0xffffffffu, v1, 16, 32);
//  CHECK-NEXT:   local0[4] = v2;
//  CHECK-NEXT:   for (int i0 = 0; i0 < 4; i0 += 1) {
//  CHECK-NEXT:     local0[i0] = v1;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   __syncthreads();
//  CHECK-NEXT:   const float v3 = local0[4];
//  CHECK-NEXT:   const float v4 = local0[1];
//  CHECK-NEXT:   const float v5 = v3 + v4;
//  CHECK-NEXT:   out0[v0] = v5;
//  CHECK-NEXT: }
dkernel.func @shuffle_barrier_local(%x: memref<32xf32>, %y: memref<32xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %off = arith.constant 16 : i32
  %width = arith.constant 32 : i32
  %t = gpu.thread_id x
  %tile = memref.alloca() : memref<2x4xf32>
  %v = memref.load %x[%t] : memref<32xf32>
  %s, %valid = gpu.shuffle xor %v, %off, %width : f32
  memref.store %s, %tile[%c1, %c0] : memref<2x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %tile[%c0, %i] : memref<2x4xf32>
  }
  gpu.barrier
  %a = memref.load %tile[%c1, %c0] : memref<2x4xf32>
  %b = memref.load %tile[%c0, %c1] : memref<2x4xf32>
  %r = arith.addf %a, %b : f32
  memref.store %r, %y[%t] : memref<32xf32>
  dkernel.return
}
