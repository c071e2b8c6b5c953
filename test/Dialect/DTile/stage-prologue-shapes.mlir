// RUN: deplodock-opt %s --dtile-lower=target=sm_90 | FileCheck %s
// RUN: deplodock-run --interp %s --compare="dtile-lower{target=sm_90},convert-dtile-to-dkernel" --print=none | FileCheck %s --check-prefix=NUM

/// A prologue's loads share one index, but a computed stage reads its apply
/// buffers at the source's index within the source's shape: g (64 x 128)
/// and u (96 x 128, rows past 64 unread) stage as they are, and their
/// product runs at the read.
// CHECK-LABEL: dtile.kernel @prologue_shapes
//   CHECK-NOT:   apply(
//       CHECK:   return
// NUM: compare result #0 {{.*}}: PASS
func.func @prologue_shapes(%arg0: memref<64x128xf32>, %arg1: memref<96x128xf32>, %arg2: memref<128x64xf32>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dloop.kernel @prologue_shapes ins(%g = %arg0 : memref<64x128xf32>, %u = %arg1 : memref<96x128xf32>, %w = %arg2 : memref<128x64xf32>) outs(%o = %c : memref<64x64xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 64 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 128 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %g[%m, %k] : memref<64x128xf32>
          %2 = dloop.load %u[%m, %k] : memref<96x128xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = dloop.load %w[%k, %n] : memref<128x64xf32>
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %acc, %5 : f32
          dloop.yield %6 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<64x64xf32>
      }
    }
  }
  return %c : memref<64x64xf32>
}
