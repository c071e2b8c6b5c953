// Layers whose extents no power of two divides, for the masked-tile
// property tests: a 5x40 . 40x13 matmul, SiLU over 1000 elements and a
// square over 3x5x7.
func.func @odd(%a: tensor<5x40xf32>, %b: tensor<40x13xf32>, %v: tensor<1000xf32>, %x: tensor<3x5x7xf32>) -> (tensor<5x13xf32>, tensor<1000xf32>, tensor<3x5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x13xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x13xf32>) -> tensor<5x13xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<5x40xf32>, tensor<40x13xf32>) outs(%f : tensor<5x13xf32>) -> tensor<5x13xf32>
  %neg = arith.negf %v : tensor<1000xf32>
  %exp = math.exp %neg : tensor<1000xf32>
  %one = arith.constant dense<1.0> : tensor<1000xf32>
  %den = arith.addf %exp, %one : tensor<1000xf32>
  %silu = arith.divf %v, %den : tensor<1000xf32>
  %sq = arith.mulf %x, %x : tensor<3x5x7xf32>
  return %mm, %silu, %sq : tensor<5x13xf32>, tensor<1000xf32>, tensor<3x5x7xf32>
}
