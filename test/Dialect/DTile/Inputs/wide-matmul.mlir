// A matmul whose 100 columns no register tile divides, plus a bias per
// column: for permute_register_tile's property test (the bias and the
// store index columns the permutation moves; the last tile is masked).
func.func @wide(%a: tensor<16x64xf32>, %b: tensor<64x100xf32>, %bias: tensor<100xf32>) -> tensor<16x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x100xf32>) -> tensor<16x100xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x100xf32>) outs(%f : tensor<16x100xf32>) -> tensor<16x100xf32>
  %bb = linalg.broadcast ins(%bias : tensor<100xf32>) outs(%e : tensor<16x100xf32>) dimensions = [0]
  %r = arith.addf %mm, %bb : tensor<16x100xf32>
  return %r : tensor<16x100xf32>
}
