// RUN: deplodock-opt %s -split-input-file -convert-dtile-to-dkernel -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s -split-input-file -convert-dtile-to-dkernel -verify-diagnostics | deplodock-translate --emit-cuda -split-input-file -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu

/// A wait naming a slab polls only the mbarrier of that slab's slot (here
/// the second rotation's, mbarrier 1): the first slab's copy stays in
/// flight until the wait naming nothing, which polls every mbarrier.
// CHECK-LABEL: dkernel.func @two_waits
//       CHECK:   %[[MB:.*]] = dkernel.alloc_shared offset {{.*}} : memref<2xi64, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.tma_load
//       CHECK:   dkernel.tma_load
//   CHECK-NOT:   dkernel.mbarrier_wait
//       CHECK:   dkernel.mbarrier_wait %[[MB]][%c1]
//   CHECK-NOT:   dkernel.mbarrier_wait
//       CHECK:   gpu.barrier
//       CHECK:   dkernel.mbarrier_wait %[[MB]][%c0]
//       CHECK:   dkernel.mbarrier_wait %[[MB]][%c1]
// CUDA-LABEL: two_waits_0(
//       CUDA:   cp.async.bulk.tensor
//       CUDA:   cp.async.bulk.tensor
//   CUDA-NOT:   try_wait
//       CUDA:   const unsigned bar = (unsigned)__cvta_generic_to_shared(&smem2[1]);
//  CUDA-NEXT:   unsigned done = 0;
//  CUDA-NEXT:   while (!done)
//  CUDA-NEXT:     mbarrier.try_wait.parity
//   CUDA-NOT:   try_wait
//       CUDA:   __syncthreads();
//       CUDA:   __cvta_generic_to_shared(&smem2[0]);
func.func @two_waits(%arg0: memref<16x64xf32>, %arg1: memref<16xf32>) -> memref<16xf32> {
  dtile.kernel @two_waits ins(%x = %arg0 : memref<16x64xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] transport tma : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %u = dtile.stage %x[0, 32] box [16, 16] transport tma : memref<16x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0 for %u : memref<16x16xf32, #gpu.address_space<workgroup>>
      %w = dloop.load %u[%t, %c1] : memref<16x16xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %v = dloop.load %s[%t, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %a = arith.addf %v, %w : f32
      dloop.store %a, %y[%t] : memref<16xf32>
    }
  }
  return %arg1 : memref<16xf32>
}

// -----

/// Only slabs a TMA stage fills have an mbarrier to wait on.
func.func @wrong_slab(%arg0: memref<16x64xf32>, %arg1: memref<16xf32>) {
  dtile.kernel @wrong_slab ins(%x = %arg0 : memref<16x64xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] transport tma : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %u = dtile.stage %x[0, 32] box [16, 32] : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{names a slab that no TMA stage fills}}
      dtile.async_wait keep 0 for %u : memref<16x32xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[%t, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %w = dloop.load %u[%t, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %a = arith.addf %v, %w : f32
      dloop.store %a, %y[%t] : memref<16xf32>
    }
  }
  return
}
