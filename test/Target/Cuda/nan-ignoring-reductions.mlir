// RUN: deplodock-translate --emit-cuda %s | FileCheck %s --implicit-check-not=dk_maximum --implicit-check-not=dk_minimum
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t.cu %}

/// maxnum and minnum reductions (from arith.maxnumf, as upstream softmax
/// computes its row max) ignore NaNs, which is what CUDA's fmaxf and fminf
/// do: no NaN-propagating helper, in shuffles, trees and atomics alike.

// CHECK:      static __device__ __forceinline__ void dk_atomic_maxnum_f32(float *p, float v) {
// CHECK:          const unsigned next = __float_as_uint(fmaxf(cur, v));
// CHECK-LABEL: nan_ignoring(float* __restrict__ out0
// CHECK:          red0 = fmaxf(red0, __shfl_xor_sync(0xffffffffu, red0, off, 32));
// CHECK:          red1 = fmin(red1, __shfl_xor_sync(0xffffffffu, red1, off, 16));
// CHECK:          red2 = __hmax(red2, __shfl_xor_sync(0xffffffffu, red2, off, 8));
// CHECK:        dk_atomic_maxnum_f32(&out0[0], red0);
dkernel.func @nan_ignoring(%y: memref<1xf32>, %x: memref<32xf32>, %d: memref<32xf64>, %h: memref<32xf16>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %t = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %vx = memref.load %x[%t] : memref<32xf32>
  %vd = memref.load %d[%t] : memref<32xf64>
  %vh = memref.load %h[%t] : memref<32xf16>
  %rx = dkernel.warp_reduce maxnum %vx width 32 : f32
  %rd = dkernel.warp_reduce minnum %vd width 16 : f64
  %rh = dkernel.warp_reduce maxnum %vh width 8 : f16
  dkernel.atomic_store maxnum %rx, %y[%c0] : memref<1xf32>
  dkernel.return
}
