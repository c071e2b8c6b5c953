// A small-output matmul with a linear epilogue, (x . w) * 0.5 + r, for the
// split-K property tests.
func.func @split_k(%x: tensor<8x256xf32>, %w: tensor<256x16xf32>, %r: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x256xf32>, tensor<256x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %half = arith.constant dense<0.5> : tensor<8x16xf32>
  %s = arith.mulf %mm, %half : tensor<8x16xf32>
  %y = arith.addf %s, %r : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
