// RUN: deplodock-opt %s --dtile-mark-unroll | FileCheck %s
// RUN: deplodock-opt %s --dtile-mark-unroll=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %s --dtile-mark-unroll="knobs=private_row:unroll=2" | FileCheck %s --check-prefix=KNOB
// RUN: deplodock-opt %s --dtile-mark-unroll | deplodock-opt -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA

/// A loop whose variable indexes a thread's private buffer (memref.alloca)
/// unrolls fully whatever the knob: nvcc keeps the array in registers only
/// when every index is a constant after unrolling. The knob's factors
/// divide the other innermost loop (48), not the private ones (24, 40).
// CHECK-LABEL: func.func @private_row
//       CHECK:   dtile.kernel @private_row knobs<unroll = 4>
//       CHECK:     dloop.for %{{.*}} = 0 to 24 free "z" unroll 24 {
//       CHECK:     dloop.for %{{.*}} = 0 to 48 reduce "k" iter(%{{.*}} : f32) {
//       CHECK:       dloop.for %{{.*}} = 0 to 24 free "d" unroll 24 {
//       CHECK:     dloop.for %{{.*}} = 0 to 48 reduce "s" iter(%{{.*}} : f32) unroll 4 {
//       CHECK:     dloop.for %{{.*}} = 0 to 24 free "o" unroll 24 {

// FORKS: remark: @private_row: mark_unroll: unroll in {4*, 1, 2, 8, 16}
// FORKS: remark: @only_private: mark_unroll: unroll in {1*}
// FORKS: remark: @long_private: mark_unroll: unroll in {4*, 1, 2, 8, 16, 32}

/// unroll = 2 reaches only the loops that index no private buffer.
// KNOB-LABEL: func.func @private_row
//       KNOB:   knobs<unroll = 2>
//       KNOB:     dloop.for %{{.*}} = 0 to 24 free "z" unroll 24 {
//       KNOB:       dloop.for %{{.*}} = 0 to 24 free "d" unroll 24 {
//       KNOB:     dloop.for %{{.*}} = 0 to 48 reduce "s" iter(%{{.*}} : f32) unroll 2 {
//       KNOB:     dloop.for %{{.*}} = 0 to 24 free "o" unroll 24 {

// CUDA-LABEL: private_row_0(
//       CUDA:   float local0[24];
//       CUDA:   #pragma unroll 24
//  CUDA-NEXT:   for (int i0 = 0; i0 < 24; i0 += 1) {
//  CUDA-NEXT:     local0[i0] =
//       CUDA:     #pragma unroll 24
//  CUDA-NEXT:     for (int i2 = 0; i2 < 24; i2 += 1) {
//       CUDA:   #pragma unroll 4
//  CUDA-NEXT:   for (int i3 = 0; i3 < 48; i3 += 1) {
//       CUDA:   #pragma unroll 24
//  CUDA-NEXT:   for (int i4 = 0; i4 < 24; i4 += 1) {
func.func @private_row(%arg0: memref<32x48x24xf32>, %arg1: memref<32x48xf32>, %arg2: memref<32x24xf32>) {
  dtile.kernel @private_row ins(%x = %arg0 : memref<32x48x24xf32>, %w = %arg1 : memref<32x48xf32>) outs(%y = %arg2 : memref<32x24xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %acc = memref.alloca() : memref<24xf32>
      dloop.for %z = 0 to 24 free "z" {
        dloop.store %cst, %acc[%z] : memref<24xf32>
      }
      %m = dloop.for %k = 0 to 48 reduce "k" iter(%r = %cst : f32) {
        %s = dloop.load %w[%t, %k] : memref<32x48xf32>
        dloop.for %d = 0 to 24 free "d" {
          %a = dloop.load %acc[%d] : memref<24xf32>
          %v = dloop.load %x[%t, %k, %d] : memref<32x48x24xf32>
          %p = arith.mulf %s, %v : f32
          %n = arith.addf %a, %p : f32
          dloop.store %n, %acc[%d] : memref<24xf32>
        }
        %rs = arith.maximumf %r, %s : f32
        dloop.yield %rs : f32
      }
      %sum = dloop.for %s = 0 to 48 reduce "s" iter(%r = %cst : f32) {
        %v = dloop.load %w[%t, %s] : memref<32x48xf32>
        %n = arith.addf %r, %v : f32
        dloop.yield %n : f32
      }
      dloop.for %o = 0 to 24 free "o" {
        %a = dloop.load %acc[%o] : memref<24xf32>
        %l = arith.addf %sum, %m : f32
        %q = arith.divf %a, %l : f32
        dloop.store %q, %y[%t, %o] : memref<32x24xf32>
      }
    }
  }
  return
}

/// When every innermost loop indexes a private buffer, the knob has one
/// value (1) and the loops are still unrolled fully.
// CHECK-LABEL: func.func @only_private
//       CHECK:   knobs<unroll = 1>
//       CHECK:     dloop.for %{{.*}} = 0 to 8 free "z" unroll 8 {
//       CHECK:     dloop.for %{{.*}} = 0 to 8 free "o" unroll 8 {
func.func @only_private(%arg0: memref<32x8xf32>) {
  dtile.kernel @only_private outs(%y = %arg0 : memref<32x8xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %acc = memref.alloca() : memref<8xf32>
      dloop.for %z = 0 to 8 free "z" {
        dloop.store %cst, %acc[%z] : memref<8xf32>
      }
      dloop.for %o = 0 to 8 free "o" {
        %a = dloop.load %acc[%o] : memref<8xf32>
        dloop.store %a, %y[%t, %o] : memref<32x8xf32>
      }
    }
  }
  return
}

/// Past 256 elements the buffer could not stay in registers anyway: the
/// loop is left to the knob.
// CHECK-LABEL: func.func @long_private
//       CHECK:   knobs<unroll = 4>
//       CHECK:     dloop.for %{{.*}} = 0 to 512 free "z" unroll 4 {
func.func @long_private(%arg0: memref<32x512xf32>) {
  dtile.kernel @long_private outs(%y = %arg0 : memref<32x512xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %acc = memref.alloca() : memref<512xf32>
      dloop.for %z = 0 to 512 free "z" {
        dloop.store %cst, %acc[%z] : memref<512xf32>
      }
    }
  }
  return
}
