// A narrow projection with a long K (TinyLlama's kv_proj at 32 tokens):
// 32 x 256 outputs, too few for the GPU unless K splits many ways.
func.func @narrow(%a: tensor<32x2048xf32>, %b: tensor<2048x256xf32>) -> tensor<32x256xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32x256xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x256xf32>) -> tensor<32x256xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<32x2048xf32>, tensor<2048x256xf32>) outs(%1 : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %2 : tensor<32x256xf32>
}
