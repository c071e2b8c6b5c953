// Shapes no tile divides, from issue 5: a 1x37x1000 . 1000x333 projection
// and an RMSNorm over 37 rows of 333.
func.func @odd_matmul(%x: tensor<1x37x1000xf32>, %w: tensor<1000x333xf32>) -> tensor<1x37x333xf32> {
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x37x1000xf32> into tensor<37x1000xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<37x333xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<37x333xf32>) -> tensor<37x333xf32>
  %mm = linalg.matmul ins(%flat, %w : tensor<37x1000xf32>, tensor<1000x333xf32>) outs(%filled : tensor<37x333xf32>) -> tensor<37x333xf32>
  %view = tensor.expand_shape %mm [[0, 1], [2]] output_shape [1, 37, 333] : tensor<37x333xf32> into tensor<1x37x333xf32>
  return %view : tensor<1x37x333xf32>
}

func.func @odd_rmsnorm(%x: tensor<37x333xf32>, %w: tensor<333xf32>) -> tensor<37x333xf32> {
  %sq = arith.mulf %x, %x : tensor<37x333xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<37xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<37xf32>) -> tensor<37xf32>
  %sum = linalg.reduce ins(%sq : tensor<37x333xf32>) outs(%filled : tensor<37xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  %init2 = tensor.empty() : tensor<37x333xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %w : tensor<37x333xf32>, tensor<37xf32>, tensor<333xf32>) outs(%init2 : tensor<37x333xf32>) {
    ^bb0(%a: f32, %s: f32, %g: f32, %out: f32):
      %n = arith.constant 333.0 : f32
      %eps = arith.constant 9.99999997E-7 : f32
      %mean = arith.divf %s, %n : f32
      %var = arith.addf %mean, %eps : f32
      %r = math.rsqrt %var : f32
      %t = arith.mulf %a, %r : f32
      %o = arith.mulf %t, %g : f32
      linalg.yield %o : f32
  } -> tensor<37x333xf32>
  return %y : tensor<37x333xf32>
}
