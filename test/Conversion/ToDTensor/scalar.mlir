// RUN: deplodock-opt %s --convert-to-dtensor -split-input-file | FileCheck %s

/// arith and math on tensors become elementwise ops with the scalar op.
// CHECK-LABEL: func.func @arith_math
//       CHECK:   %[[S:.*]] = dtensor.elementwise (%[[A:.*]] = %{{.*}} : tensor<4xf32>, %[[B:.*]] = %{{.*}} : tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     %[[V:.*]] = arith.addf %[[A]], %[[B]] : f32
//  CHECK-NEXT:     dtensor.yield %[[V]] : f32
//       CHECK:   dtensor.elementwise (%[[C:.*]] = %[[S]] : tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     math.tanh %[[C]] : f32
//       CHECK:   dtensor.elementwise (%{{.*}} = %{{.*}} : tensor<4xf32>, %{{.*}} = %{{.*}} : tensor<4xf32>) -> tensor<4xi1>
//  CHECK-NEXT:     arith.cmpf olt
//       CHECK:   dtensor.elementwise (%{{.*}} = %{{.*}} : tensor<4xi1>, %{{.*}} = %{{.*}} : tensor<4xf32>, %{{.*}} = %{{.*}} : tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     arith.select
func.func @arith_math(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.addf %a, %b : tensor<4xf32>
  %t = math.tanh %s : tensor<4xf32>
  %lt = arith.cmpf olt, %t, %a : tensor<4xf32>
  %r = arith.select %lt, %t, %a : tensor<4xi1>, tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

/// A splat constant becomes an elementwise op without operands; other dense
/// constants (weights) stay.
// CHECK-LABEL: func.func @constants
//       CHECK:   dtensor.elementwise () -> tensor<4xf32>
//  CHECK-NEXT:     %[[C:.*]] = arith.constant 5.000000e-01 : f32
//  CHECK-NEXT:     dtensor.yield %[[C]] : f32
//       CHECK:   arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
func.func @constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = arith.mulf %x, %half : tensor<4xf32>
  %b = arith.addf %a, %w : tensor<4xf32>
  return %b : tensor<4xf32>
}
