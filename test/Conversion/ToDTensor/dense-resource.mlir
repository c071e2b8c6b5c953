// RUN: deplodock-opt %s --convert-to-dtensor | FileCheck %s
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM

/// torch-mlir passes weights as dense_resource blobs: they become dense
/// elements (a splat one an elementwise op), bytes of i1 become bits.
// CHECK-LABEL: func.func @weights
//       CHECK:   arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
//       CHECK:   dtensor.elementwise () -> tensor<4xf32>
//  CHECK-NEXT:     arith.constant 5.000000e-01 : f32
//       CHECK:   arith.constant dense<[true, false, false, true]> : tensor<4xi1>
//   CHECK-NOT:   dense_resource
func.func @weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<four_floats> : tensor<4xf32>
  %h = arith.constant dense_resource<four_halves> : tensor<4xf32>
  %m = arith.constant dense_resource<four_bools> : tensor<4xi1>
  %a = arith.mulf %x, %w : tensor<4xf32>
  %b = arith.addf %a, %h : tensor<4xf32>
  %r = arith.select %m, %b, %x : tensor<4xi1>, tensor<4xf32>
  return %r : tensor<4xf32>
}

/// The weights as kernel inputs (memref.global) compute what the Tensor
/// level does.
// NUM-NOT: FAIL
// NUM: : PASS

{-#
  dialect_resources: {
    builtin: {
      four_floats: "0x040000000000803F000000400000404000008040",
      four_halves: "0x040000000000003F0000003F0000003F0000003F",
      four_bools: "0x0100000001000001"
    }
  }
#-}
