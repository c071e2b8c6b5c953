#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @lm_head(%arg0: tensor<32xf32> {deplodock.name = "norm.weight"}, %arg1: tensor<96x32xf32> {deplodock.name = "lm_head.weight"}, %arg2: tensor<1x8x32xf32> {deplodock.name = "input0"}) -> tensor<1x8x96xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.9999999999999995E-7 : f64
    %cst_1 = arith.constant 3.200000e+01 : f32
    %0 = tensor.empty() : tensor<1x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2 : tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %14 : f32
    } -> tensor<1x8x32xf32>
    %2 = tensor.empty() : tensor<1x8x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<1x8x32xf32>) outs(%3 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.addf %in, %out : f32
      linalg.yield %14 : f32
    } -> tensor<1x8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.divf %in, %cst_1 : f32
      linalg.yield %14 : f32
    } -> tensor<1x8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.truncf %cst_0 : f64 to f32
      %15 = arith.addf %in, %14 : f32
      linalg.yield %15 : f32
    } -> tensor<1x8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.rsqrt %in : f32
      linalg.yield %14 : f32
    } -> tensor<1x8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2, %7 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<1x8x32xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8, %arg0 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<1x8x32xf32>
    %10 = tensor.empty() : tensor<32x96xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<96x32xf32>) outs(%10 : tensor<32x96xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<1x8x32xf32> into tensor<8x32xf32>
    %11 = tensor.empty() : tensor<8x96xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<8x32xf32>, tensor<32x96xf32>) outs(%12 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %expanded = tensor.expand_shape %13 [[0, 1], [2]] output_shape [1, 8, 96] : tensor<8x96xf32> into tensor<1x8x96xf32>
    return %expanded : tensor<1x8x96xf32>
  }
}
