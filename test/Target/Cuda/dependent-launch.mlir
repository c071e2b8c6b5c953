// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-translate --emit-cuda --cuda-manifest=%t/m.json %s -o %t/out.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/m.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t/sm90.cubin %t/out.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t/sm80.cubin %t/out.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -ptx -o - %t/out.cu | FileCheck %s --check-prefix=PTX80 %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -ptx -o - %t/out.cu | FileCheck %s --check-prefix=PTX %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90 %t/out.cu %}

/// Programmatic dependent launch (sm_90): the wait and the signal are
/// griddepcontrol instructions, compiled out for older GPUs (which launch
/// no grid early), and the manifest marks the kernels that wait before
/// touching memory as ones the runtime may launch early.

// CHECK-LABEL: split(const float* __restrict__ in0, float* __restrict__ out0) {
//  CHECK-NEXT:   #if __CUDA_ARCH__ >= 900
//  CHECK-NEXT:   asm volatile("griddepcontrol.wait;\n" ::: "memory");
//  CHECK-NEXT:   #endif
//  CHECK-NEXT:   #if __CUDA_ARCH__ >= 900
//  CHECK-NEXT:   asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
//  CHECK-NEXT:   #endif
// CHECK-LABEL: plain(
//   CHECK-NOT:   griddepcontrol
//       CHECK: }

// PTX: griddepcontrol.wait;
// PTX: griddepcontrol.launch_dependents;
// PTX80-NOT: griddepcontrol
// PTX80: ld.global

// MANIFEST:      "early": true
// MANIFEST:      "kernel": "split"
// MANIFEST:      "early": false
// MANIFEST:      "kernel": "plain"
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [clusters, cp_async, dependent_launch, mma_sync, tma]>} {
  dkernel.func @split(%x: memref<64xf32>, %w: memref<64xf32>) outputs [1] grid [1, 1, 1] block [64, 1, 1] smem 0 {
    dkernel.wait_prior_grids
    dkernel.launch_dependents
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %w[%t] : memref<64xf32>
    dkernel.return
  }
  dkernel.func @plain(%w: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [64, 1, 1] smem 0 {
    %t = gpu.thread_id x
    %v = memref.load %w[%t] : memref<64xf32>
    %s = arith.addf %v, %v : f32
    memref.store %s, %y[%t] : memref<64xf32>
    dkernel.return
  }
  func.func @layer(%x: memref<64xf32>) -> memref<64xf32> {
    %w = memref.alloc() : memref<64xf32>
    %y = memref.alloc() : memref<64xf32>
    dkernel.launch @split(%x, %w) : memref<64xf32>, memref<64xf32>
    dkernel.launch @plain(%w, %y) : memref<64xf32>, memref<64xf32>
    return %y : memref<64xf32>
  }
}
