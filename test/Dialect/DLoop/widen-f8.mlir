// RUN: deplodock-opt %s --pass-pipeline='builtin.module(func.func(dloop-widen-f8))' | FileCheck %s
// RUN: deplodock-opt %s --pass-pipeline='builtin.module(func.func(dloop-widen-f8),canonicalize)' | FileCheck %s --check-prefix=CANON
// RUN: deplodock-run --interp %s --func=chain --compare='func.func(dloop-widen-f8),canonicalize' --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=mixed --compare='func.func(dloop-widen-f8),canonicalize' --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=NUM

/// A sum and a product of 8-bit floats run in f32, each result rounded back
/// once: the product takes the rounded sum, as the unwidened program does, and
/// canonicalization keeps that rounding (no `contract` on the conversions).
// CHECK-LABEL: func.func @chain
// CHECK:         %[[A:.*]] = arith.extf %{{.*}} : f8E4M3FN to f32
// CHECK:         %[[B:.*]] = arith.extf %{{.*}} : f8E4M3FN to f32
// CHECK:         %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK:         %[[SR:.*]] = arith.truncf %[[S]] : f32 to f8E4M3FN
// CHECK:         %[[SW:.*]] = arith.extf %[[SR]] : f8E4M3FN to f32
// CHECK:         arith.mulf %[[SW]], %{{.*}} : f32
// CHECK-NOT:     fastmath
// CANON-LABEL: func.func @chain
// CANON:         arith.truncf %{{.*}} : f32 to f8E4M3FN
// CANON:         arith.extf %{{.*}} : f8E4M3FN to f32
// CANON:         arith.mulf
// NUM: compare result #0 after 'func.func(dloop-widen-f8),canonicalize': max abs error 0, max rel error 0: PASS
func.func @chain(%a: memref<64xf8E4M3FN>, %b: memref<64xf8E4M3FN>) -> memref<64xf8E4M3FN> {
  %out = memref.alloc() : memref<64xf8E4M3FN>
  dloop.kernel @chain_0 ins(%x = %a : memref<64xf8E4M3FN>, %y = %b : memref<64xf8E4M3FN>) outs(%o = %out : memref<64xf8E4M3FN>) {
    dloop.for %i = 0 to 64 free "i" {
      %0 = dloop.load %x[%i] : memref<64xf8E4M3FN>
      %1 = dloop.load %y[%i] : memref<64xf8E4M3FN>
      %2 = arith.addf %0, %1 : f8E4M3FN
      %3 = arith.mulf %2, %1 : f8E4M3FN
      dloop.store %3, %o[%i] : memref<64xf8E4M3FN>
    }
  }
  return %out : memref<64xf8E4M3FN>
}

/// Compares, math and e5m2 widen too; conversions, constants and selects
/// stay as they are (Kernel IR prints them).
// CHECK-LABEL: func.func @mixed
// CHECK:         arith.constant 5.000000e-01 : f8E5M2
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK:         arith.truncf %[[E]] : f32 to f8E5M2
// CHECK:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.select %{{.*}}, %{{.*}}, %{{.*}} : f8E5M2
// CHECK:         arith.extf %{{.*}} : f8E5M2 to f32
// CHECK-NOT:     arith.{{.*}} : f8E5M2$
func.func @mixed(%a: memref<64xf8E5M2>) -> memref<64xf32> {
  %out = memref.alloc() : memref<64xf32>
  dloop.kernel @mixed_0 ins(%x = %a : memref<64xf8E5M2>) outs(%o = %out : memref<64xf32>) {
    dloop.for %i = 0 to 64 free "i" {
      %half = arith.constant 0.5 : f8E5M2
      %0 = dloop.load %x[%i] : memref<64xf8E5M2>
      %1 = math.exp %0 : f8E5M2
      %2 = arith.cmpf olt, %1, %half : f8E5M2
      %3 = arith.select %2, %1, %half : f8E5M2
      %4 = arith.extf %3 : f8E5M2 to f32
      dloop.store %4, %o[%i] : memref<64xf32>
    }
  }
  return %out : memref<64xf32>
}
