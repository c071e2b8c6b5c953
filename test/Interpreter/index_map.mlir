// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 2x3 1,2,3,4,5,6
// RUN: %python %S/Inputs/npy.py write %t/v.npy f4 3 10,20,30
// RUN: %python %S/Inputs/npy.py write %t/s.npy f4 4x4 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
// RUN: %python %S/Inputs/npy.py write %t/b.npy b1 2 0,1
// RUN: deplodock-run --interp %s --func=layouts --input=%t/x.npy --input=%t/v.npy | FileCheck %s --check-prefix=LAYOUT
// RUN: deplodock-run --interp %s --func=predicates --input=%t/x.npy --input=%t/s.npy --input=%t/b.npy | FileCheck %s --check-prefix=PRED
/// The kernels the index maps lift to (scf.if chains for predicates) agree.
// RUN: deplodock-run --interp %s --func=layouts --input=%t/x.npy --input=%t/v.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME
// RUN: deplodock-run --interp %s --func=predicates --input=%t/x.npy --input=%t/s.npy --input=%t/b.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME

/// x is [1 2 3; 4 5 6], v is [10 20 30]. A transpose, a broadcast of v over
/// rows, a reshape to 3x2 through the row-major index (floordiv and mod), a
/// reshape of v x v's outer index to 9, a reversal (negative coefficient),
/// and a strided slice of every other column.
// LAYOUT:      result #0: tensor<3x2xf32>
// LAYOUT-NEXT: 1 4
// LAYOUT-NEXT: 2 5
// LAYOUT-NEXT: 3 6
// LAYOUT-NEXT: result #1: tensor<2x3xf32>
// LAYOUT-NEXT: 10 20 30
// LAYOUT-NEXT: 10 20 30
// LAYOUT-NEXT: result #2: tensor<3x2xf32>
// LAYOUT-NEXT: 1 2
// LAYOUT-NEXT: 3 4
// LAYOUT-NEXT: 5 6
// LAYOUT-NEXT: result #3: tensor<9xf32>
// LAYOUT-NEXT: 10 10 10 20 20 20 30 30 30
// LAYOUT-NEXT: result #4: tensor<2x3xf32>
// LAYOUT-NEXT: 6 5 4
// LAYOUT-NEXT: 3 2 1
// LAYOUT-NEXT: result #5: tensor<2x2xf32>
// LAYOUT-NEXT: 1 3
// LAYOUT-NEXT: 4 6
// LAYOUT-NOT:  result
func.func @layouts(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<9xf32>, tensor<2x3xf32>, tensor<2x2xf32>) {
  %0 = dtensor.index_map %x[(d0, d1) -> (d1, d0)] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = dtensor.index_map %v[(d0, d1) -> (d1)] : (tensor<3xf32>) -> tensor<2x3xf32>
  %2 = dtensor.index_map %x[(d0, d1) -> ((d0 * 2 + d1) floordiv 3, (d0 * 2 + d1) mod 3)] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = dtensor.index_map %v[(d0) -> (d0 floordiv 3)] : (tensor<3xf32>) -> tensor<9xf32>
  %4 = dtensor.index_map %x[(d0, d1) -> (-d0 + 1, -d1 + 2)] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = dtensor.index_map %x[(d0, d1) -> (d0, d1 * 2)] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x2xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<9xf32>, tensor<2x3xf32>, tensor<2x2xf32>
}

/// The first source whose predicate holds is read; where none holds the
/// element is the padding. x concatenated with its first two columns; x
/// padded by one on each side with -1; a causal mask of s (-inf above the
/// diagonal); a 0-d source broadcast on and under the diagonal, 0 above; an
/// equality predicate; and an i1 map padded with true, which reads as 1.
// PRED:      result #0: tensor<2x5xf32>
// PRED-NEXT: 1 2 3 1 2
// PRED-NEXT: 4 5 6 4 5
// PRED-NEXT: result #1: tensor<4x5xf32>
// PRED-NEXT: -1 -1 -1 -1 -1
// PRED-NEXT: -1 1 2 3 -1
// PRED-NEXT: -1 4 5 6 -1
// PRED-NEXT: -1 -1 -1 -1 -1
// PRED-NEXT: result #2: tensor<4x4xf32>
// PRED-NEXT: 1 -inf -inf -inf
// PRED-NEXT: 5 6 -inf -inf
// PRED-NEXT: 9 10 11 -inf
// PRED-NEXT: 13 14 15 16
// PRED-NEXT: result #3: tensor<3x3xf32>
// PRED-NEXT: 1 0 0
// PRED-NEXT: 1 1 0
// PRED-NEXT: 1 1 1
// PRED-NEXT: result #4: tensor<2x3xf32>
// PRED-NEXT: 0 2 0
// PRED-NEXT: 0 5 0
// PRED-NEXT: result #5: tensor<4xi1>
// PRED-NEXT: 0 1 1 1
// PRED-NOT:  result
func.func @predicates(%x: tensor<2x3xf32>, %s: tensor<4x4xf32>, %b: tensor<2xi1>) -> (tensor<2x5xf32>, tensor<4x5xf32>, tensor<4x4xf32>, tensor<3x3xf32>, tensor<2x3xf32>, tensor<4xi1>) {
  %0 = dtensor.index_map %x[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 2 >= 0)], %x[(d0, d1) -> (d0, d1 - 3)] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  %1 = dtensor.index_map %x[(d0, d1) -> (d0 - 1, d1 - 1)] if [(d0, d1) : (d0 - 1 >= 0, -d0 + 2 >= 0, d1 - 1 >= 0, -d1 + 3 >= 0)] : (tensor<2x3xf32>) -> tensor<4x5xf32> padding -1.0
  %2 = dtensor.index_map %s[(d0, d1) -> (d0, d1)] if [(d0, d1) : (d0 - d1 >= 0)] : (tensor<4x4xf32>) -> tensor<4x4xf32> padding 0xFF800000
  %one = arith.constant dense<1.0> : tensor<f32>
  %3 = dtensor.index_map %one[(d0, d1) -> ()] if [(d0, d1) : (d0 - d1 >= 0)] : (tensor<f32>) -> tensor<3x3xf32> padding 0.0
  %4 = dtensor.index_map %x[(d0, d1) -> (d0, d1)] if [(d0, d1) : (d1 - 1 == 0)] : (tensor<2x3xf32>) -> tensor<2x3xf32> padding 0.0
  %5 = dtensor.index_map %b[(d0) -> (d0)] if [(d0) : (-d0 + 1 >= 0)] : (tensor<2xi1>) -> tensor<4xi1> padding 1
  return %0, %1, %2, %3, %4, %5 : tensor<2x5xf32>, tensor<4x5xf32>, tensor<4x4xf32>, tensor<3x3xf32>, tensor<2x3xf32>, tensor<4xi1>
}

// SAME:     compare result #0 after 'convert-dtensor-to-dloop': max abs error 0, max rel error 0: PASS
// SAME-NOT: FAIL
