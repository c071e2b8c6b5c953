// RUN: deplodock-opt %s --canonicalize | FileCheck %s
// RUN: deplodock-run --interp %s --func=compose_apply --compare=canonicalize --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=fold_constants --compare=canonicalize --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=loop_ranges --compare=canonicalize --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=reshape_round_trip --compare=canonicalize --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=symbols --compare=canonicalize --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_unknown_range --compare=canonicalize --print=none | FileCheck %s --check-prefix=NUM

// Rewriting an access must not change what it reads.
// NUM-NOT: FAIL
// NUM: PASS

/// affine.apply ops feeding an access compose into its map (and die); an
/// identity apply on a store index folds the same way.
// CHECK-LABEL: func.func @compose_apply
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<8x4xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>) {
//   CHECK-NOT:     affine.apply
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "j" {
//   CHECK-NOT:         affine.apply
//       CHECK:         %[[V:[a-z0-9_]+]] = dloop.load %[[X]][-%[[J]] + 7, %[[I]]] : memref<8x4xf32>
//       CHECK:         dloop.store %[[V]], %[[O]][%[[I]], %[[J]]] : memref<4x8xf32>
func.func @compose_apply(%arg0: memref<8x4xf32>) -> memref<4x8xf32> {
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<8x4xf32>) outs(%o = %y : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %r = affine.apply affine_map<(d0) -> (7 - d0)>(%j)
        %c = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 0)>(%i, %j)
        %v = dloop.load %x[%r, %c] : memref<8x4xf32>
        %t = affine.apply affine_map<(d0) -> (d0)>(%j)
        dloop.store %v, %o[%i, %t] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// Constant indices become constants of the map, in loads and stores.
// CHECK-LABEL: func.func @fold_constants
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<8x4xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4x4xf32>) {
//   CHECK-NOT:     arith.constant {{.*}} : index
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[V:[a-z0-9_]+]] = dloop.load %[[X]][5, 3] : memref<8x4xf32>
//       CHECK:       %[[W:[a-z0-9_]+]] = dloop.load %[[X]][2, %[[I]]] : memref<8x4xf32>
//       CHECK:       %[[S:[a-z0-9_]+]] = arith.addf %[[V]], %[[W]] : f32
//       CHECK:       dloop.store %[[S]], %[[O]][%[[I]], 3] : memref<4x4xf32>
func.func @fold_constants(%arg0: memref<8x4xf32>) -> memref<4x4xf32> {
  %y = memref.alloc() : memref<4x4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<8x4xf32>) outs(%o = %y : memref<4x4xf32>) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 3 free "j" {
        dloop.store %zero, %o[%i, %j] : memref<4x4xf32>
      }
      %v = dloop.load %x[%c2 * 2 + 1, %c3] : memref<8x4xf32>
      %w = dloop.load %x[%c2, %i] : memref<8x4xf32>
      %s = arith.addf %v, %w : f32
      dloop.store %s, %o[%i, %c3] : memref<4x4xf32>
    }
  }
  return %y : memref<4x4xf32>
}

/// Loop bounds decide floordiv and mod by 32: over i < 32 the dividend stays
/// in one multiple of 32 (also after adding 32), so `floordiv` becomes a
/// constant and `mod` the dividend less that multiple; over j < 64 it does
/// not, and both stay. Sums of loop variables work alike (j + k < 96 spans
/// two multiples of 64, i + k < 64 one), and so do store indices
/// (`j mod 64`, `k mod 33`).
// CHECK-LABEL: func.func @loop_ranges
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<3x32xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<32x64x33xf32>) {
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 32 free "i" {
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 64 free "j" {
//       CHECK:         dloop.for %[[K:[a-z0-9_]+]] = 0 to 33 free "k" {
//       CHECK:           dloop.load %[[X]][0, %[[I]]] : memref<3x32xf32>
//       CHECK:           dloop.load %[[X]][1, %[[I]]] : memref<3x32xf32>
//       CHECK:           dloop.load %[[X]][%[[J]] floordiv 32, %[[J]] mod 32] : memref<3x32xf32>
//       CHECK:           dloop.load %[[X]][(%[[J]] + %[[K]]) floordiv 64, 0] : memref<3x32xf32>
//       CHECK:           dloop.store %{{.*}}, %[[O]][%[[I]], %[[J]], %[[K]]] : memref<32x64x33xf32>
func.func @loop_ranges(%arg0: memref<3x32xf32>) -> memref<32x64x33xf32> {
  %y = memref.alloc() : memref<32x64x33xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<3x32xf32>) outs(%o = %y : memref<32x64x33xf32>) {
    dloop.for %i = 0 to 32 free "i" {
      dloop.for %j = 0 to 64 free "j" {
        dloop.for %k = 0 to 33 free "k" {
          %a = dloop.load %x[%i floordiv 32, %i mod 32] : memref<3x32xf32>
          %b = dloop.load %x[(%i + 32) floordiv 32, (%i + 32) mod 32] : memref<3x32xf32>
          %c = dloop.load %x[%j floordiv 32, %j mod 32] : memref<3x32xf32>
          %d = dloop.load %x[(%j + %k) floordiv 64, (%i + %k) floordiv 64] : memref<3x32xf32>
          %s = arith.addf %a, %b : f32
          %t = arith.addf %s, %c : f32
          %u = arith.addf %t, %d : f32
          dloop.store %u, %o[%i mod 32, %j mod 64, %k mod 33] : memref<32x64x33xf32>
        }
      }
    }
  }
  return %y : memref<32x64x33xf32>
}

/// A reshape that fusion composes with its inverse, `(i * 32 + j) floordiv 32`
/// and `mod 32` with j < 32, reads [i, j] again.
// CHECK-LABEL: func.func @reshape_round_trip
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x32xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 32 free "j" {
//       CHECK:         dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x32xf32>
func.func @reshape_round_trip(%arg0: memref<4x32xf32>) -> memref<4x32xf32> {
  %y = memref.alloc() : memref<4x32xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x32xf32>) outs(%o = %y : memref<4x32xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 32 free "j" {
        %f = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%i, %j)
        %v = dloop.load %x[%f floordiv 32, %f mod 32] : memref<4x32xf32>
        dloop.store %v, %o[%i, %j] : memref<4x32xf32>
      }
    }
  }
  return %y : memref<4x32xf32>
}

/// Without an affine scope a symbol is just an operand: symbols become
/// dimensions, so an operand used as both merges (i + i = i * 2), loop
/// bounds simplify a former symbol (j floordiv 4 = 0 for j < 4), and a
/// constant symbol folds.
// CHECK-LABEL: func.func @symbols
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<8x8xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4x4xf32>) {
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 4 free "j" {
//       CHECK:         %[[V:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]] * 2, 0] : memref<8x8xf32>
//       CHECK:         %[[W:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]] + %[[J]], %[[I]] + 1] : memref<8x8xf32>
//       CHECK:         dloop.store %{{.*}}, %[[O]][%[[I]], %[[J]]] : memref<4x4xf32>
func.func @symbols(%arg0: memref<8x8xf32>) -> memref<4x4xf32> {
  %y = memref.alloc() : memref<4x4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<8x8xf32>) outs(%o = %y : memref<4x4xf32>) {
    %c1 = arith.constant 1 : index
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 4 free "j" {
        %v = dloop.load %x[%i + symbol(%i), symbol(%j) floordiv 4] : memref<8x8xf32>
        %w = dloop.load %x[%i + symbol(%j), symbol(%c1) + %i] : memref<8x8xf32>
        %s = arith.addf %v, %w : f32
        dloop.store %s, %o[symbol(%i), %j] : memref<4x4xf32>
      }
    }
  }
  return %y : memref<4x4xf32>
}

/// An index that is not an affine function of loop variables and constants
/// (a gathered position) has no known range: its floordiv and mod stay.
// CHECK-LABEL: func.func @negative_unknown_range
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>, %[[IDX:[a-z0-9_]+]] = %{{.*}} : memref<4xi32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[P:[a-z0-9_]+]] = arith.index_cast %{{.*}} : i32 to index
//       CHECK:       dloop.load %[[X]][%[[P]] floordiv 8, %[[P]] mod 8] : memref<4x8xf32>
func.func @negative_unknown_range(%arg0: memref<4x8xf32>) -> memref<4xf32> {
  %idx = memref.alloc() : memref<4xi32>
  dloop.kernel @positions outs(%o = %idx : memref<4xi32>) {
    dloop.for %i = 0 to 4 free "i" {
      %p = affine.apply affine_map<(d0) -> (d0 * 7)>(%i)
      %q = arith.index_cast %p : index to i32
      dloop.store %q, %o[%i] : memref<4xi32>
    }
  }
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>, %ix = %idx : memref<4xi32>) outs(%o = %y : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %n = dloop.load %ix[%i] : memref<4xi32>
      %p = arith.index_cast %n : i32 to index
      %v = dloop.load %x[%p floordiv 8, %p mod 8] : memref<4x8xf32>
      dloop.store %v, %o[%i] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}
