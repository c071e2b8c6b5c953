// RUN: deplodock-opt %s --convert-dtensor-to-dloop | FileCheck %s

/// A dense_resource weight reaching the Tensor level directly (issue 12:
/// this crashed in dloop.load's builder) is a memref.global the kernel
/// reads as an input.
// CHECK: memref.global "private" constant @__constant : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @weights
//       CHECK:   %[[W:.*]] = memref.get_global @__constant : memref<4xf32>
//       CHECK:   dloop.kernel @weights_elementwise0 ins(%{{.*}} = %{{.*}} : memref<4xf32>, %{{.*}} = %[[W]] : memref<4xf32>)
func.func @weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<four_floats> : tensor<4xf32>
  %r = dtensor.elementwise (%a = %x : tensor<4xf32>, %b = %w : tensor<4xf32>) -> tensor<4xf32> {
    %m = arith.mulf %a, %b : f32
    dtensor.yield %m : f32
  }
  return %r : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      four_floats: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
