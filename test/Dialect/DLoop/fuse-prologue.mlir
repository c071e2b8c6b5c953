// RUN: deplodock-opt %s -split-input-file --dloop-fuse='max-blowup=1.0 reduce-heavy=0.5' | FileCheck %s
// RUN: deplodock-opt %s -split-input-file --dloop-fuse='max-blowup=1.0 reduce-heavy=0.5 prologues=false' | FileCheck %s --check-prefix=OFF
// RUN: deplodock-opt %s -split-input-file --dloop-fuse='max-blowup=1.0 reduce-heavy=0.5 half-prologues=true' | FileCheck %s --check-prefix=HALF
// RUN: deplodock-run --interp %s --func=prologue --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM

/// A pointwise f32 producer read by a contraction's one reduction loop at an
/// index that leaves out a free loop (n) is its prologue: it fuses although
/// it recomputes (max-blowup=1, reduce-heavy=0.5 refuse any other such
/// fusion), since the Tile level stages it once per block. With
/// prologues=false the limits hold.
// CHECK-LABEL: func.func @prologue
//   CHECK-NOT:   memref.alloc() : memref<4x8xf32>
//       CHECK:   dloop.kernel @prologue_0_reduce ins(%[[W:.*]] = %arg2 : memref<8x6xf32>, %[[G:.*]] = %arg0 : memref<4x8xf32>, %[[U:.*]] = %arg1 : memref<4x8xf32>)
//       CHECK:     dloop.for {{.*}} reduce
//       CHECK:       %[[GV:.*]] = dloop.load %[[G]]
//       CHECK:       %[[UV:.*]] = dloop.load %[[U]]
//       CHECK:       %[[E:.*]] = math.exp %[[GV]] : f32
//       CHECK:       %[[P:.*]] = arith.mulf %[[E]], %[[UV]] : f32
//       CHECK:       arith.mulf %[[P]], %{{.*}} : f32
//   CHECK-NOT:   dloop.kernel
// OFF-LABEL: func.func @prologue
//       OFF:   dloop.kernel @prologue_0_pointwise
//       OFF:   dloop.kernel @prologue_1_reduce
// NUM: : PASS
func.func @prologue(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<8x6xf32>) -> memref<4x6xf32> {
  %e = memref.alloc() : memref<4x8xf32>
  dloop.kernel @act ins(%g = %arg0 : memref<4x8xf32>, %u = %arg1 : memref<4x8xf32>) outs(%o = %e : memref<4x8xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %k = 0 to 8 free "k" {
        %0 = dloop.load %g[%m, %k] : memref<4x8xf32>
        %1 = dloop.load %u[%m, %k] : memref<4x8xf32>
        %2 = math.exp %0 : f32
        %3 = arith.mulf %2, %1 : f32
        dloop.store %3, %o[%m, %k] : memref<4x8xf32>
      }
    }
  }
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul ins(%a = %e : memref<4x8xf32>, %b = %arg2 : memref<8x6xf32>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %a[%m, %k] : memref<4x8xf32>
          %2 = dloop.load %b[%k, %n] : memref<8x6xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %c : memref<4x6xf32>
}

// -----

/// A module that allows tf32 sends f32 contractions to tensor cores:
/// mma_sync stages the prologue as a computed slab too, so it fuses.
// CHECK-LABEL: func.func @tf32
//       CHECK:   dloop.kernel @tf32_0_reduce
//   CHECK-NOT:   dloop.kernel
module attributes {dtile.tf32} {
func.func @tf32(%arg0: memref<4x8xf32>, %arg1: memref<8x6xf32>) -> memref<4x6xf32> {
  %e = memref.alloc() : memref<4x8xf32>
  dloop.kernel @act ins(%g = %arg0 : memref<4x8xf32>) outs(%o = %e : memref<4x8xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %k = 0 to 8 free "k" {
        %0 = dloop.load %g[%m, %k] : memref<4x8xf32>
        %1 = math.exp %0 : f32
        dloop.store %1, %o[%m, %k] : memref<4x8xf32>
      }
    }
  }
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul ins(%a = %e : memref<4x8xf32>, %b = %arg1 : memref<8x6xf32>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %a[%m, %k] : memref<4x8xf32>
          %2 = dloop.load %b[%k, %n] : memref<8x6xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %c : memref<4x6xf32>
}
}

// -----

/// A half-precision one fuses on request (half-prologues: mma_sync and
/// wgmma_async take it), not by default (unmeasured, and the model rates
/// its slab, staged through registers, below the TMA pipeline it replaces).
// CHECK-LABEL: func.func @half
//       CHECK:   dloop.kernel @half_0_pointwise
//       CHECK:   dloop.kernel @half_1_reduce
// HALF-LABEL: func.func @half
//       HALF:   dloop.kernel @half_0_reduce
//       HALF:     math.exp
//   HALF-NOT:   dloop.kernel
//       HALF: return
func.func @half(%arg0: memref<4x8xf16>, %arg1: memref<8x6xf16>) -> memref<4x6xf32> {
  %e = memref.alloc() : memref<4x8xf16>
  dloop.kernel @act ins(%g = %arg0 : memref<4x8xf16>) outs(%o = %e : memref<4x8xf16>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %k = 0 to 8 free "k" {
        %0 = dloop.load %g[%m, %k] : memref<4x8xf16>
        %1 = math.exp %0 : f16
        dloop.store %1, %o[%m, %k] : memref<4x8xf16>
      }
    }
  }
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul ins(%a = %e : memref<4x8xf16>, %b = %arg1 : memref<8x6xf16>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %a[%m, %k] : memref<4x8xf16>
          %2 = dloop.load %b[%k, %n] : memref<8x6xf16>
          %x = arith.extf %1 : f16 to f32
          %y = arith.extf %2 : f16 to f32
          %3 = arith.mulf %x, %y : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %c : memref<4x6xf32>
}

// -----

/// 8-bit floats are only stored and widened, never computed in: a producer
/// of them is no prologue (here the limits refuse it), half-prologues or not.
// CHECK-LABEL: func.func @f8
//       CHECK:   dloop.kernel @f8_0_pointwise
//       CHECK:   dloop.kernel @f8_1_reduce
// HALF-LABEL: func.func @f8
//       HALF:   dloop.kernel @f8_0_pointwise
//       HALF:   dloop.kernel @f8_1_reduce
func.func @f8(%arg0: memref<4x8xf32>, %arg1: memref<8x6xf32>) -> memref<4x6xf32> {
  %e = memref.alloc() : memref<4x8xf8E4M3FN>
  dloop.kernel @act ins(%g = %arg0 : memref<4x8xf32>) outs(%o = %e : memref<4x8xf8E4M3FN>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %k = 0 to 8 free "k" {
        %0 = dloop.load %g[%m, %k] : memref<4x8xf32>
        %1 = math.exp %0 : f32
        %2 = arith.truncf %1 : f32 to f8E4M3FN
        dloop.store %2, %o[%m, %k] : memref<4x8xf8E4M3FN>
      }
    }
  }
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul ins(%a = %e : memref<4x8xf8E4M3FN>, %b = %arg1 : memref<8x6xf32>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %a[%m, %k] : memref<4x8xf8E4M3FN>
          %2 = dloop.load %b[%k, %n] : memref<8x6xf32>
          %x = arith.extf %1 : f8E4M3FN to f32
          %3 = arith.mulf %x, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %c : memref<4x6xf32>
}
