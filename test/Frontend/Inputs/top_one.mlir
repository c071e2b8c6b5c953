#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @top_one(%arg0: tensor<1x8x96xf32> {deplodock.name = "input0"}) -> (tensor<1x8xf32>, tensor<1x8xi64>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<1x8xi64>
    %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<1x8xi64>) -> tensor<1x8xi64>
    %2 = tensor.empty() : tensor<1x8xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<1x8x96xf32>) outs(%3, %1 : tensor<1x8xf32>, tensor<1x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_0: i64):
      %5 = linalg.index 2 : index
      %6 = arith.index_cast %5 : index to i64
      %7 = arith.maximumf %in, %out : f32
      %8 = arith.cmpf ogt, %in, %out : f32
      %9 = arith.select %8, %6, %out_0 : i64
      linalg.yield %7, %9 : f32, i64
    } -> (tensor<1x8xf32>, tensor<1x8xi64>)
    return %4#0, %4#1 : tensor<1x8xf32>, tensor<1x8xi64>
  }
}
