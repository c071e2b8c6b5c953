// RUN: deplodock-opt %s --dtile-lower=target=sm_90 | FileCheck %s
// RUN: deplodock-run --interp %s --func=prologue_shapes --compare="dtile-lower{target=sm_90},convert-dtile-to-dkernel" --print=none | FileCheck %s --check-prefix=NUM
// RUN: not deplodock-opt %s --dtile-lower="target=sm_90a knobs=f8_prologue:wgmma=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=F8
// RUN: deplodock-opt %s --dtile-lower="target=sm_90a knobs=bf16_prologue:wgmma=true" | FileCheck %s --check-prefix=BF16

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

/// wgmma_async stages a computed factor in f16 or bf16 only: a prologue that
/// rounds to an 8-bit float is refused (an FP8 slab is never computed), a
/// bf16 one taken.
// F8: error: 'dtile.kernel' op knob wgmma=true: wgmma_async cannot take @f8_prologue: a factor computed by a prologue is not f16 or bf16
// BF16-LABEL: dtile.kernel @bf16_prologue
//       BF16:   dtile.stage %in0[{{.*}}] box [64, 64] {{.*}}swizzle 128 : memref<64x128xbf16> -> memref<64x64xbf16, #gpu.address_space<workgroup>> apply() {
//       BF16:     math.exp
//       BF16:   dkernel.wgmma_mma_async
func.func @f8_prologue(%arg0: memref<64x128xf8E4M3FN>, %arg1: memref<64x128xf8E4M3FN>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dloop.kernel @f8_prologue ins(%g = %arg0 : memref<64x128xf8E4M3FN>, %w = %arg1 : memref<64x128xf8E4M3FN>) outs(%o = %c : memref<64x64xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 64 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 128 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %g[%m, %k] : memref<64x128xf8E4M3FN>
          %2 = arith.extf %1 : f8E4M3FN to f32
          %3 = math.exp %2 : f32
          %4 = arith.truncf %3 : f32 to f8E4M3FN
          %5 = arith.extf %4 : f8E4M3FN to f32
          %6 = dloop.load %w[%n, %k] : memref<64x128xf8E4M3FN>
          %7 = arith.extf %6 : f8E4M3FN to f32
          %8 = arith.mulf %5, %7 : f32
          %9 = arith.addf %acc, %8 : f32
          dloop.yield %9 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<64x64xf32>
      }
    }
  }
  return %c : memref<64x64xf32>
}

func.func @bf16_prologue(%arg0: memref<64x128xbf16>, %arg1: memref<128x64xbf16>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dloop.kernel @bf16_prologue ins(%g = %arg0 : memref<64x128xbf16>, %w = %arg1 : memref<128x64xbf16>) outs(%o = %c : memref<64x64xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 64 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 128 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %g[%m, %k] : memref<64x128xbf16>
          %2 = arith.extf %1 : bf16 to f32
          %3 = math.exp %2 : f32
          %4 = arith.truncf %3 : f32 to bf16
          %5 = arith.extf %4 : bf16 to f32
          %6 = dloop.load %w[%k, %n] : memref<128x64xbf16>
          %7 = arith.extf %6 : bf16 to f32
          %8 = arith.mulf %5, %7 : f32
          %9 = arith.addf %acc, %8 : f32
          dloop.yield %9 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<64x64xf32>
      }
    }
  }
  return %c : memref<64x64xf32>
}
