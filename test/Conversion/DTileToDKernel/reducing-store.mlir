// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// One block sums a vector (test/Dialect/DTile/ops.mlir): the strided reduce
/// loop carries nothing and folds through a reducing store. Every thread
/// adds into the same element, so the store is an atomic add, and the
/// output, written only by reducing stores, is zeroed by the runtime first.
// CHECK-LABEL: dkernel.func @vector_sum
//  CHECK-SAME:   (%[[X:.*]]: memref<1000xf32>, %[[S:.*]]: memref<1xf32>)
//  CHECK-SAME:   outputs [1] zero_init [1] grid [1, 1, 1] block [128, 1, 1] smem 0
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   scf.for %[[K:[^ ]+]] = %[[T]] to %{{.*}} step %{{.*}} {
//       CHECK:     %[[V:.*]] = memref.load %[[X]][%[[K]]] : memref<1000xf32>
//       CHECK:     dkernel.atomic_store add %[[V]], %[[S]][%{{.*}}] : memref<1xf32>
//       CHECK:   }

// CUDA-LABEL: vector_sum(const float* __restrict__ in0, float* __restrict__ out0) {
//       CUDA:   atomicAdd(&out0[0], {{v[0-9]+}});
func.func @run_vector_sum(%arg0: memref<1000xf32>, %arg1: memref<1xf32>) {
  dtile.kernel @vector_sum ins(%x = %arg0 : memref<1000xf32>) outs(%s = %arg1 : memref<1xf32>) {
    dtile.tile threads(%t : 128 "t") {
      dtile.strided_for %k = %t to 1000 step 128 reduce "k" {
        %v = dloop.load %x[%k] : memref<1000xf32>
        dloop.store add %v, %s[0] : memref<1xf32>
      }
    }
  }
  return
}

/// Split-K: the K axis is split over the second block axis, and each block
/// adds its partial products into C. Output 2 gets zero_init; the row
/// maximum (output 3, also only reduced into) too, through a float max that
/// CUDA has no native atomic for; output 4, written by a plain store as
/// well (in other elements), is not zeroed, and its integer add is a native
/// atomic.
// CHECK-LABEL: dkernel.func @split_k
//  CHECK-SAME:   (%[[A:.*]]: memref<16x256xf32>, %[[B:.*]]: memref<256x64xf32>, %[[C:.*]]: memref<16x64xf32>, %[[M:.*]]: memref<16xf32>, %[[N:.*]]: memref<32xi32>)
//  CHECK-SAME:   outputs [2, 3, 4] zero_init [2, 3] grid [4, 16, 1] block [64, 1, 1] smem 0
//       CHECK:   %[[ROW:.*]] = gpu.block_id y
//       CHECK:   %[[KS:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[P:.*]] = scf.for
//       CHECK:   dkernel.atomic_store add %[[P]], %[[C]][%[[ROW]], %[[T]]] : memref<16x64xf32>
//       CHECK:   dkernel.atomic_store max %[[P]], %[[M]][%[[ROW]]] : memref<16xf32>
//       CHECK:   memref.store %{{.*}}, %[[N]][%{{.*}}] : memref<32xi32>
//       CHECK:   dkernel.atomic_store add %{{.*}}, %[[N]][%[[ROW]]] : memref<32xi32>

// CUDA-LABEL: split_k(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0, float* __restrict__ out1, int* __restrict__ out2) {
//       CUDA:   atomicAdd(&out0[
//       CUDA:   dk_atomic_max_f32(&out1[
//       CUDA:   atomicAdd(&out2[
func.func @run_split_k(%a: memref<16x256xf32>, %b: memref<256x64xf32>, %c: memref<16x64xf32>, %m: memref<16xf32>, %n: memref<32xi32>) {
  dtile.kernel @split_k ins(%x = %a : memref<16x256xf32>, %y = %b : memref<256x64xf32>) outs(%z = %c : memref<16x64xf32>, %mx = %m : memref<16xf32>, %cnt = %n : memref<32xi32>) {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1 : i32
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%r : 16 "r", %ks : 4 "ks") threads(%t : 64 "t") {
      %p = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %zero : f32) {
        %av = dloop.load %x[%r, %ks * 64 + %k] : memref<16x256xf32>
        %bv = dloop.load %y[%ks * 64 + %k, %t] : memref<256x64xf32>
        %prod = arith.mulf %av, %bv : f32
        %next = arith.addf %acc, %prod : f32
        dloop.yield %next : f32
      }
      dloop.store add %p, %z[%r, %t] : memref<16x64xf32>
      dloop.store max %p, %mx[%r] : memref<16xf32>
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        dloop.store %one, %cnt[%r + 16] : memref<32xi32>
      }
      dloop.store add %one, %cnt[%r] : memref<32xi32>
    }
  }
  return
}
