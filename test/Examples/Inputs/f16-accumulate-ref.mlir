// The f16-accumulate.mlir matmul (summing in f16) beside the same product
// summed in f32 and rounded once: the reference for lowerings that sum half
// values in f32, as mma.sync does.
func.func @matmul(%x: tensor<64x2048xf16>, %w: tensor<2048x64xf16>) -> tensor<64x64xf16> {
  %c = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<64x64xf16>
  %filled = linalg.fill ins(%c : f16) outs(%init : tensor<64x64xf16>) -> tensor<64x64xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<64x2048xf16>, tensor<2048x64xf16>) outs(%filled : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %mm : tensor<64x64xf16>
}
func.func @reference(%x: tensor<64x2048xf16>, %w: tensor<2048x64xf16>) -> tensor<64x64xf16> {
  %c = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x64xf32>
  %filled = linalg.fill ins(%c : f32) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x2048xf16>, tensor<2048x64xf16>) outs(%filled : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf16>) {
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x64xf16>
  return %t : tensor<64x64xf16>
}
