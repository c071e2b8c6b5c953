// A 64 x 2048 x 64 matmul that accumulates in f16 (linalg.matmul with an
// f16 init): the case split-K once got wrong by adding f16 partial sums.
func.func @matmul(%x: tensor<64x2048xf16>, %w: tensor<2048x64xf16>) -> tensor<64x64xf16> {
  %c = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<64x64xf16>
  %filled = linalg.fill ins(%c : f16) outs(%init : tensor<64x64xf16>) -> tensor<64x64xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<64x2048xf16>, tensor<2048x64xf16>) outs(%filled : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %mm : tensor<64x64xf16>
}
