// A matmul with K = 18944 (Qwen2-7B's MLP width) and few outputs: the
// shape split-K is for.
func.func @long_k(%x: tensor<8x18944xf32>, %w: tensor<18944x24xf32>) -> tensor<8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x24xf32>) -> tensor<8x24xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x18944xf32>, tensor<18944x24xf32>) outs(%f : tensor<8x24xf32>) -> tensor<8x24xf32>
  return %mm : tensor<8x24xf32>
}
