// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s

/// Elementwise with a multi-operand scalar body.
// CHECK-LABEL: func.func @elementwise
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<4x8xf32>)
//       CHECK:   dtensor.elementwise (%[[A:.*]] = %[[X]] : tensor<4x8xf32>, %[[B:.*]] = %[[W]] : tensor<4x8xf32>) -> tensor<4x8xf32> {
//       CHECK:     %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
//       CHECK:     %[[E:.*]] = math.exp %[[M]] : f32
//       CHECK:     dtensor.yield %[[E]] : f32
func.func @elementwise(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = dtensor.elementwise (%a = %x : tensor<4x8xf32>, %b = %w : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %m = arith.mulf %a, %b : f32
    %e = math.exp %m : f32
    dtensor.yield %e : f32
  }
  return %y : tensor<4x8xf32>
}

/// An elementwise op may take no operand (a splat) and mix element types.
// CHECK-LABEL: func.func @elementwise_mixed
//       CHECK:   dtensor.elementwise () -> tensor<3xf32>
//       CHECK:   dtensor.elementwise (%{{.*}} = %{{.*}} : tensor<3xi1>, %{{.*}} = %{{.*}} : tensor<3xf32>) -> tensor<3xf32>
//       CHECK:     arith.select
func.func @elementwise_mixed(%m: tensor<3xi1>) -> tensor<3xf32> {
  %c = dtensor.elementwise () -> tensor<3xf32> {
    %one = arith.constant 1.0 : f32
    dtensor.yield %one : f32
  }
  %y = dtensor.elementwise (%p = %m : tensor<3xi1>, %v = %c : tensor<3xf32>) -> tensor<3xf32> {
    %zero = arith.constant 0.0 : f32
    %s = arith.select %p, %v, %zero : f32
    dtensor.yield %s : f32
  }
  return %y : tensor<3xf32>
}

/// Reductions with and without keepdim, over several axes.
// CHECK-LABEL: func.func @reduce
//       CHECK:   dtensor.reduce add %{{.*}} axes [2] keepdim : tensor<1x32x2048xf32> -> tensor<1x32x1xf32>
//       CHECK:   dtensor.reduce max %{{.*}} axes [0, 2] : tensor<1x32x2048xf32> -> tensor<32xf32>
//       CHECK:   dtensor.reduce mul %{{.*}} axes [1] : tensor<4x5xi32> -> tensor<4xi32>
//       CHECK:   dtensor.reduce min %{{.*}} axes [0] keepdim : tensor<4x5xi32> -> tensor<1x5xi32>
func.func @reduce(%x: tensor<1x32x2048xf32>, %i: tensor<4x5xi32>) {
  %0 = dtensor.reduce add %x axes [2] keepdim : tensor<1x32x2048xf32> -> tensor<1x32x1xf32>
  %1 = dtensor.reduce max %x axes [0, 2] : tensor<1x32x2048xf32> -> tensor<32xf32>
  %2 = dtensor.reduce mul %i axes [1] : tensor<4x5xi32> -> tensor<4xi32>
  %3 = dtensor.reduce min %i axes [0] keepdim : tensor<4x5xi32> -> tensor<1x5xi32>
  return
}

/// Broadcast, transpose and reshape are unpredicated index maps.
// CHECK-LABEL: func.func @index_map_layout
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1, d2) -> (d0, d1, 0)] : (tensor<1x32x1xf32>) -> tensor<1x32x2048xf32>
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d1, d0)] : (tensor<8x4xf32>) -> tensor<4x8xf32>
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1, d2) -> ((d0 * 8 + d1 * 4 + d2) floordiv 8, (d0 * 8 + d1 * 4 + d2) mod 8)] : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
func.func @index_map_layout(%s: tensor<1x32x1xf32>, %t: tensor<8x4xf32>, %r: tensor<4x8xf32>) {
  %0 = dtensor.index_map %s[(d0, d1, d2) -> (d0, d1, 0)] : (tensor<1x32x1xf32>) -> tensor<1x32x2048xf32>
  %1 = dtensor.index_map %t[(d0, d1) -> (d1, d0)] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %2 = dtensor.index_map %r[(d0, d1, d2) -> ((d0 * 8 + d1 * 4 + d2) floordiv 8, (d0 * 8 + d1 * 4 + d2) mod 8)] : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  return
}

/// Concat, pad and a causal mask use predicates and padding.
// CHECK-LABEL: func.func @index_map_predicated
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 3 >= 0)], %{{.*}}[(d0, d1) -> (d0, d1 - 4)] : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
//       CHECK:   dtensor.index_map %{{.*}}[(d0) -> (d0 - 1)] if [(d0) : (d0 - 1 >= 0, -d0 + 4 >= 0)] : (tensor<4xf32>) -> tensor<6xf32> padding 0.000000e+00
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1) -> ()] if [(d0, d1) : (d0 - d1 >= 0)] : (tensor<f32>) -> tensor<8x8xf32> padding 0xFF800000
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1, d2) -> (d0, d1 floordiv 8, d2)] : (tensor<1x4x16xf32>) -> tensor<1x32x16xf32>
func.func @index_map_predicated(%a: tensor<2x4xf32>, %b: tensor<2x3xf32>, %v: tensor<4xf32>, %z: tensor<f32>, %kv: tensor<1x4x16xf32>) {
  %0 = dtensor.index_map %a[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 3 >= 0)], %b[(d0, d1) -> (d0, d1 - 4)] : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  %1 = dtensor.index_map %v[(d0) -> (d0 - 1)] if [(d0) : (d0 - 1 >= 0, -d0 + 4 >= 0)] : (tensor<4xf32>) -> tensor<6xf32> padding 0.0
  %2 = dtensor.index_map %z[(d0, d1) -> ()] if [(d0, d1) : (d0 - d1 >= 0)] : (tensor<f32>) -> tensor<8x8xf32> padding 0xFF800000
  // GQA: 32 query heads share 4 key/value heads.
  %3 = dtensor.index_map %kv[(d0, d1, d2) -> (d0, d1 floordiv 8, d2)] : (tensor<1x4x16xf32>) -> tensor<1x32x16xf32>
  return
}

/// A gather reads the source at one index tensor per source axis.
// CHECK-LABEL: func.func @gather
//       CHECK:   dtensor.gather %{{.*}}[%{{.*}}, %{{.*}}] : tensor<96x32xf32>[tensor<1x8x32xindex>, tensor<1x8x32xindex>] -> tensor<1x8x32xf32>
func.func @gather(%t: tensor<96x32xf32>, %rows: tensor<1x8x32xindex>, %cols: tensor<1x8x32xindex>) -> tensor<1x8x32xf32> {
  %g = dtensor.gather %t[%rows, %cols] : tensor<96x32xf32>[tensor<1x8x32xindex>, tensor<1x8x32xindex>] -> tensor<1x8x32xf32>
  return %g : tensor<1x8x32xf32>
}
