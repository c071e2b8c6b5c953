// The whole compiler on three kinds of kernel, each printed as CUDA and
// compiled for both targets. (This file only holds the checks.)
//
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --deplodock-pipeline | deplodock-translate --emit-cuda -o %t.matmul.cu
// RUN: FileCheck %s --check-prefix=MATMUL < %t.matmul.cu
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --deplodock-pipeline | deplodock-translate --emit-cuda -o %t.rmsnorm.cu
// RUN: FileCheck %s --check-prefix=RMSNORM < %t.rmsnorm.cu
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul.mlir --deplodock-pipeline | deplodock-translate --emit-cuda -o %t.silu.cu
// RUN: FileCheck %s --check-prefix=SILU < %t.silu.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.matmul80.cubin %t.matmul.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.matmul90.cubin %t.matmul.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.rmsnorm80.cubin %t.rmsnorm.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.rmsnorm90.cubin %t.rmsnorm.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.silu80.cubin %t.silu.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.silu90.cubin %t.silu.cu %}
//
// lower-to-kernel is deplodock-pipeline by another name, and takes knobs.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-kernel > %t.kernel.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --deplodock-pipeline | diff - %t.kernel.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-kernel='knobs=BK=64,BM=32,BN=64,split_k=1' | FileCheck %s --check-prefix=KNOBS

/// A 32x2048 by 2048x2048 matmul: K split over 8 blocks (too few 32-row
/// tiles to fill the GPU otherwise), 32x128 output tiles of 256 threads,
/// each thread a 4x4 register tile; each block's 8 K chunks stage 32x32 and
/// 32x128 slabs in shared memory by cp.async, a chunk ahead into two slots, the inner loop is
/// unrolled and loads each K step's fragments (A's four scalars, B's four
/// columns as one float4) a step ahead, and the partial sums are added
/// atomically.
// MATMUL:      extern "C" __global__ void __launch_bounds__(256)
// MATMUL-NEXT: matmul_0_reduce(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
// MATMUL:        extern __shared__ __align__(128) unsigned char smem[];
// MATMUL:        asm volatile("cp.async.cg.shared.global
// MATMUL:        for (int [[K:i[0-9]+]] = 0; [[K]] < 8; [[K]] += 1) {
// MATMUL:          asm volatile("cp.async.wait_group 0;\n" ::: "memory");
// MATMUL:          __syncthreads();
// MATMUL:          asm volatile("cp.async.cg.shared.global
// MATMUL:          #pragma unroll 32
// MATMUL:          for (int [[KI:i[0-9]+]] = 0; [[KI]] < 32; [[KI]] += 1) {
// MATMUL-COUNT-4:    = smem0[
// MATMUL-NEXT:        const float4 {{vl[0-9]+}} = *reinterpret_cast<const float4 *>(&smem1[
// MATMUL:          }
// MATMUL:        atomicAdd(&out0[{{.*}}], acc0);
// MATMUL:        atomicAdd(&out0[{{.*}}], acc15);

/// RMSNorm: one row per block of 256 threads; the sum of squares is a warp
/// shuffle butterfly then a second one over the 8 warps' partials.
// RMSNORM:      extern "C" __global__ void __launch_bounds__(256)
// RMSNORM-NEXT: rmsnorm_0_reduce(
// RMSNORM:        for (int i0 = {{.*}}; i0 < 2048; i0 += 256) {
// RMSNORM:          red0 = red0 + __shfl_xor_sync(0xffffffffu, red0, off, 32);
// RMSNORM:        __syncthreads();
// RMSNORM:          red1 = red1 + __shfl_xor_sync(0xffffffffu, red1, off, 8);
// RMSNORM:        rsqrtf(

/// SiLU times up: one element per thread, 256 threads per block.
// SILU:      extern "C" __global__ void __launch_bounds__(256)
// SILU-NEXT: silu_mul_0_pointwise(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
// SILU:        expf(
// SILU:        out0[v0 * 5632 + v4] =

// KNOBS: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [32, 1, 1] block [{{[0-9]+}}, 1, 1] smem {{[0-9]+}} attributes {dtile.knobs = #dtile.knobs<BK = 64, BM = 32, BN = 64
