// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// Unroll hints: `unroll N` on a dloop.for or a dtile.strided_for becomes
/// `dkernel.unroll = N` on its scf.for (#pragma unroll N); loops without a
/// hint get none. Iteration arguments are kept as scf.for iter_args.
// CHECK-LABEL: dkernel.func @unrolled
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[S:.*]]:2 = scf.for %{{[^ ]+}} = %[[T]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
//       CHECK:     %[[IN:.*]] = scf.for %{{[^ ]+}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
//       CHECK:     } {dkernel.unroll = 8 : i64}
//       CHECK:     scf.yield
//       CHECK:   } {dkernel.unroll = 2 : i64}
//       CHECK:   scf.for
//   CHECK-NOT:   dkernel.unroll
//       CHECK:   dkernel.return

// CUDA-LABEL: unrolled(
//       CUDA:   #pragma unroll 2
//  CUDA-NEXT:   for (int i0 =
//       CUDA:     #pragma unroll 8
//  CUDA-NEXT:     for (int i1 = 0; i1 < 4; i1 += 1) {
//       CUDA:   for (int i2 = 0; i2 < 4; i2 += 1) {
func.func @run_unrolled(%arg0: memref<8x64x4xf32>, %arg1: memref<8x4xf32>) {
  dtile.kernel @unrolled ins(%x = %arg0 : memref<8x64x4xf32>) outs(%y = %arg1 : memref<8x4xf32>) {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    dtile.tile blocks(%r : 8 "r") threads(%t : 32 "t") {
      %p:2 = dtile.strided_for %k = %t to 64 step 32 reduce "k" iter(%s = %zero : f32, %q = %one : f32) unroll 2 {
        %row = dloop.for %j = 0 to 4 reduce "j" iter(%acc = %s : f32) unroll 8 {
          %v = dloop.load %x[%r, %k, %j] : memref<8x64x4xf32>
          %a = arith.addf %acc, %v : f32
          dloop.yield %a : f32
        }
        %q2 = arith.mulf %q, %row : f32
        dtile.yield %row, %q2 : f32, f32
      }
      %tot = dtile.combine add %p#0 over ["t"] : f32
      dloop.for %j = 0 to 4 free "j" {
        %c = arith.addf %tot, %p#1 : f32
        dloop.store %c, %y[%r, %j] : memref<8x4xf32>
      }
    }
  }
  return
}
