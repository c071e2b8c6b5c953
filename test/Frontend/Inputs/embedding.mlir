#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @embedding(%arg0: tensor<96x32xf32> {deplodock.name = "embed_tokens.weight"}, %arg1: tensor<1x8xi64> {deplodock.name = "input0"}) -> tensor<1x8x32xf32> {
    %c96 = arith.constant 96 : index
    %c0_i64 = arith.constant 0 : i64
    %0 = tensor.empty() : tensor<1x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<1x8xi64>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %3 = linalg.index 2 : index
      %4 = arith.cmpi slt, %2, %c96 : index
      cf.assert %4, "index must be smaller than dim size"
      %5 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %5, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg0[%2, %3] : tensor<96x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x8x32xf32>
    return %1 : tensor<1x8x32xf32>
  }
}
