// Softmax over the last axis of attention scores (linalg.softmax, as IREE has it).
func.func @softmax(%x: tensor<1x2x8x256xf32>) -> (tensor<1x2x8x256xf32>) {
  %init = tensor.empty() : tensor<1x2x8x256xf32>
  %probs = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x256xf32>) outs(%init : tensor<1x2x8x256xf32>) -> tensor<1x2x8x256xf32>
  return %probs : tensor<1x2x8x256xf32>
}
