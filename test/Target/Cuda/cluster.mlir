// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -ptx -o - %t.cu | FileCheck %s --check-prefix=PTX %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cu %}

/// Thread-block clusters (sm_90). The cluster shape is compiled into the
/// kernel with __cluster_dims__, so a plain cuLaunchKernel launches
/// clusters; the rank reads %cluster_ctarank and the barrier is the
/// release/acquire pair of barrier.cluster.

// CHECK:      static __device__ __forceinline__ unsigned cluster_ctarank() {
// CHECK-NEXT:   unsigned rank;
// CHECK-NEXT:   asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
// CHECK-NEXT:   return rank;
// CHECK-NEXT: }

/// Each block writes its rank, the cluster meets, then each block reads
/// what the other block of its pair wrote.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) __cluster_dims__(2, 1, 1)
//  CHECK-NEXT: exchange(float* __restrict__ out0, float* __restrict__ out1) {
//       CHECK:   const int [[R:v[0-9]+]] = (int)cluster_ctarank();
//       CHECK:   asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");

// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// PTX: mov.u32 %r{{[0-9]+}}, %cluster_ctarank;
// PTX: barrier.cluster.arrive.release.aligned;
// PTX: barrier.cluster.wait.acquire.aligned;
dkernel.func @exchange(%x: memref<4x64xf32>, %y: memref<4x64xf32>) outputs [0, 1] grid [4, 1, 1] block [64, 1, 1] cluster [2, 1, 1] smem 0 {
  %c1 = arith.constant 1 : index
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %rank = dkernel.cluster_block_rank
  %ri = arith.index_cast %rank : index to i32
  %rf = arith.sitofp %ri : i32 to f32
  memref.store %rf, %x[%b, %t] : memref<4x64xf32>
  dkernel.cluster_barrier
  %other = arith.xori %b, %c1 : index
  %v = memref.load %x[%other, %t] : memref<4x64xf32>
  memref.store %v, %y[%b, %t] : memref<4x64xf32>
  dkernel.return
}
