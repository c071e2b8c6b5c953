// A skinny long-K matmul with a SiLU epilogue (workspace-split.mlir): the
// epilogue keeps split-K atomics out, a split through a workspace is allowed.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @mm(%a: tensor<16x8192xf32>, %b: tensor<8192x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x8192xf32>, tensor<8192x64xf32>) outs(%init : tensor<16x64xf32>) -> tensor<16x64xf32>
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<16x64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %e : f32
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}
