// RMSNorm: y = x * rsqrt(mean(x^2) + eps) * w.
func.func @rmsnorm(%x: tensor<1x8x512xf32>, %w: tensor<512xf32>) -> (tensor<1x8x512xf32>) {
  %init = tensor.empty() : tensor<1x8x512xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x512xf32>)
      outs(%init : tensor<1x8x512xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %m = arith.mulf %a0, %a0 : f32
      linalg.yield %m : f32
  } -> tensor<1x8x512xf32>
  %fill_value = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<1x8x1xf32>
  %filled = linalg.fill ins(%fill_value : f32) outs(%init1 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sumsq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sq : tensor<1x8x512xf32>)
      outs(%filled : tensor<1x8x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %m = arith.addf %a0, %out : f32
      linalg.yield %m : f32
  } -> tensor<1x8x1xf32>
  %init2 = tensor.empty() : tensor<1x8x512xf32>
  %normed = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sumsq, %w : tensor<1x8x512xf32>, tensor<1x8x1xf32>, tensor<512xf32>)
      outs(%init2 : tensor<1x8x512xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %n = arith.constant 512.0 : f32
      %eps = arith.constant 9.99999997E-7 : f32
      %mean = arith.divf %a1, %n : f32
      %var = arith.addf %mean, %eps : f32
      %rstd = math.rsqrt %var : f32
      %y = arith.mulf %a0, %rstd : f32
      %o = arith.mulf %y, %a2 : f32
      linalg.yield %o : f32
  } -> tensor<1x8x512xf32>
  return %normed : tensor<1x8x512xf32>
}
