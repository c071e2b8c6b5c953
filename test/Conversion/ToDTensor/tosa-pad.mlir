// RUN: deplodock-opt %s --lower-to-tensor | FileCheck %s
// RUN: deplodock-run --interp %s --func=tosa_pad --pipeline=lower-to-tensor --compare=lower-to-kernel --print=none | FileCheck %s --check-prefix=NUM

/// tosa.pad lowers to a tensor.pad whose amounts are constant values, not
/// attributes: they count as static.
// CHECK-LABEL: func.func @tosa_pad
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0 - 1, d1)] if [(d0, d1) : (d0 - 1 >= 0, -d0 + 3 >= 0, -d1 + 3 >= 0)] : (tensor<3x4xf32>) -> tensor<5x6xf32> padding -1.500000e+00
// NUM: : PASS
func.func @tosa_pad(%x: tensor<3x4xf32>) -> tensor<5x6xf32> {
  %p = tosa.const_shape {values = dense<[1, 1, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v = "tosa.const"() {values = dense<-1.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %r = tosa.pad %x, %p, %v : (tensor<3x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}
