// RUN: deplodock-opt %s --convert-to-dtensor -split-input-file | FileCheck %s

/// expand_shape: each source index is the row-major linearisation of its
/// result group.
// CHECK-LABEL: func.func @expand
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1, d2) -> (d0, d1 * 4 + d2)] : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
func.func @expand(%x: tensor<2x12xf32>) -> tensor<2x3x4xf32> {
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

/// collapse_shape: a result index splits back into its source group.
// CHECK-LABEL: func.func @collapse
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0 floordiv 4, d0 mod 4, d1)] : (tensor<3x4x5xf32>) -> tensor<12x5xf32>
func.func @collapse(%x: tensor<3x4x5xf32>) -> tensor<12x5xf32> {
  %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x4x5xf32> into tensor<12x5xf32>
  return %r : tensor<12x5xf32>
}

// -----

/// A rank-reducing strided slice keeps the offset of the dropped axis.
// CHECK-LABEL: func.func @extract_slice
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0 + 1, 2, d1 * 2 + 1)] : (tensor<4x5x9xf32>) -> tensor<3x4xf32>
func.func @extract_slice(%x: tensor<4x5x9xf32>) -> tensor<3x4xf32> {
  %r = tensor.extract_slice %x[1, 2, 1] [3, 1, 4] [1, 1, 2] : tensor<4x5x9xf32> to tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

/// insert_slice reads the source inside the slice and the destination
/// everywhere else.
// CHECK-LABEL: func.func @insert_slice
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0 - 1, d1 - 2)] if [(d0, d1) : (d0 - 1 >= 0, -d0 + 2 >= 0, d1 - 2 >= 0, -d1 + 4 >= 0)], %{{.*}}[(d0, d1) -> (d0, d1)] : (tensor<2x3xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
func.func @insert_slice(%s: tensor<2x3xf32>, %d: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = tensor.insert_slice %s into %d[1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

/// concat of three pieces: each piece is read where the earlier ones end.
// CHECK-LABEL: func.func @concat
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 1 >= 0)], %{{.*}}[(d0, d1) -> (d0, d1 - 2)] if [(d0, d1) : (-d1 + 4 >= 0)], %{{.*}}[(d0, d1) -> (d0, d1 - 5)] : (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
func.func @concat(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>, %c: tensor<2x1xf32>) -> tensor<2x6xf32> {
  %r = tensor.concat dim(1) %a, %b, %c : (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  return %r : tensor<2x6xf32>
}

// -----

/// pad: the source inside, the padding value outside.
// CHECK-LABEL: func.func @pad
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0, d1 - 1)] if [(d0, d1) : (-d0 + 2 >= 0, d1 - 1 >= 0)] : (tensor<3x4xf32>) -> tensor<5x5xf32> padding -1.500000e+00
func.func @pad(%x: tensor<3x4xf32>) -> tensor<5x5xf32> {
  %cst = arith.constant -1.5 : f32
  %r = tensor.pad %x low[0, 1] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<3x4xf32> to tensor<5x5xf32>
  return %r : tensor<5x5xf32>
}

// -----

/// A cast between equal static types is no op at all.
// CHECK-LABEL: func.func @cast
//  CHECK-NEXT:   return %{{.*}} : tensor<4xf32>
func.func @cast(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.cast %x : tensor<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
