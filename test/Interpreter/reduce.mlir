// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 2x3x4 1,-2,3,0.5,4,5,-6,7,0.25,8,9,-10,-1,2,-3,4,5,0.5,6,-7,8,9,10,-0.5
// RUN: %python %S/Inputs/npy.py write %t/n.npy f4 2x3 1,nan,3,-inf,2,inf
// RUN: %python %S/Inputs/npy.py write %t/i.npy i4 2x3 5,-2147483648,7,2147483647,1,1
// RUN: %python %S/Inputs/npy.py write %t/b.npy b1 3x2 1,1,1,0,0,0
// RUN: deplodock-run --interp %s --func=floats --input=%t/x.npy | FileCheck %s --check-prefix=FLOAT
// RUN: deplodock-run --interp %s --func=special --input=%t/n.npy --input=%t/i.npy --input=%t/b.npy | FileCheck %s --check-prefix=SPECIAL
/// The dloop kernels the reductions lift to compute the same, bit for bit.
// RUN: deplodock-run --interp %s --func=floats --input=%t/x.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME
// RUN: deplodock-run --interp %s --func=special --input=%t/n.npy --input=%t/i.npy --input=%t/b.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME

/// x is 2x3x4:
///   [ 1   -2   3    0.5 ] [ -1  2   -3  4    ]
///   [ 4    5  -6    7   ] [  5  0.5  6  -7   ]
///   [ 0.25 8   9  -10   ] [  8  9   10  -0.5 ]
/// Reductions over one axis, over axes 0 and 2 with keepdim, over every
/// axis to a 0-d tensor, and a keepdim min over the middle axis.
// FLOAT:      result #0: tensor<2x3xf32>
// FLOAT-NEXT: 2.5 10 7.25
// FLOAT-NEXT: 2 4.5 26.5
// FLOAT-NEXT: result #1: tensor<2x4xf32>
// FLOAT-NEXT: 1 -80 -162 -35
// FLOAT-NEXT: -40 9 -180 14
// FLOAT-NEXT: result #2: tensor<1x3x1xf32>
// FLOAT-NEXT: 4.5
// FLOAT-NEXT: 14.5
// FLOAT-NEXT: 33.75
// FLOAT-NEXT: result #3: tensor<f32>
// FLOAT-NEXT: 10
// FLOAT-NEXT: result #4: tensor<2x1x4xf32>
// FLOAT-NEXT: 0.25 -2 -6 -10
// FLOAT-NEXT: -1 0.5 -3 -7
// FLOAT-NOT:  result
func.func @floats(%x: tensor<2x3x4xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<f32>, tensor<2x1x4xf32>) {
  %0 = dtensor.reduce add %x axes [2] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %1 = dtensor.reduce mul %x axes [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %2 = dtensor.reduce add %x axes [0, 2] keepdim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %3 = dtensor.reduce max %x axes [0, 1, 2] : tensor<2x3x4xf32> -> tensor<f32>
  %4 = dtensor.reduce min %x axes [1] keepdim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<f32>, tensor<2x1x4xf32>
}

/// Float max and min propagate NaNs and keep infinities; integer sums wrap;
/// integer max and min are signed, so on i1 (true is -1) max is "all" and
/// min is "any".
// SPECIAL:      result #0: tensor<2xf32>
// SPECIAL-NEXT: nan inf
// SPECIAL-NEXT: result #1: tensor<2xf32>
// SPECIAL-NEXT: nan -inf
// SPECIAL-NEXT: result #2: tensor<2xi32>
// SPECIAL-NEXT: -2147483636 -2147483647
// SPECIAL-NEXT: result #3: tensor<2xi32>
// SPECIAL-NEXT: 7 2147483647
// SPECIAL-NEXT: result #4: tensor<2xi32>
// SPECIAL-NEXT: -2147483648 1
// SPECIAL-NEXT: result #5: tensor<3xi1>
// SPECIAL-NEXT: 1 0 0
// SPECIAL-NEXT: result #6: tensor<3xi1>
// SPECIAL-NEXT: 1 1 0
// SPECIAL-NOT:  result
func.func @special(%n: tensor<2x3xf32>, %i: tensor<2x3xi32>, %b: tensor<3x2xi1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi1>, tensor<3xi1>) {
  %0 = dtensor.reduce max %n axes [1] : tensor<2x3xf32> -> tensor<2xf32>
  %1 = dtensor.reduce min %n axes [1] : tensor<2x3xf32> -> tensor<2xf32>
  %2 = dtensor.reduce add %i axes [1] : tensor<2x3xi32> -> tensor<2xi32>
  %3 = dtensor.reduce max %i axes [1] : tensor<2x3xi32> -> tensor<2xi32>
  %4 = dtensor.reduce min %i axes [1] : tensor<2x3xi32> -> tensor<2xi32>
  %5 = dtensor.reduce max %b axes [1] : tensor<3x2xi1> -> tensor<3xi1>
  %6 = dtensor.reduce min %b axes [1] : tensor<3x2xi1> -> tensor<3xi1>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi1>, tensor<3xi1>
}

// SAME:     compare result #0 after 'convert-dtensor-to-dloop': max abs error 0, max rel error 0: PASS
// SAME-NOT: FAIL
