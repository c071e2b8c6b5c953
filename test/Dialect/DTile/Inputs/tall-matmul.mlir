// A matmul whose 40 rows no block tile of 16 or more divides (the last
// row tile is masked) and whose B rows are whole 16-byte runs: for
// transpose_a's property test, with every transport B can take.
func.func @tall(%a: tensor<40x96xf32>, %b: tensor<96x128xf32>) -> tensor<40x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x128xf32>) -> tensor<40x128xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<40x96xf32>, tensor<96x128xf32>) outs(%f : tensor<40x128xf32>) -> tensor<40x128xf32>
  return %mm : tensor<40x128xf32>
}
