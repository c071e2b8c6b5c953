// FP8 layers for f8-matmul.mlir. scaled: an FP8 matmul as deployed, 8-bit
// operands, f32 sums, the two per-tensor scales applied to the f32 result,
// bf16 out.
func.func @scaled(%a: tensor<37x256xf8E4M3FN>, %b: tensor<256x100xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<37x100xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x100xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x100xf32>) -> tensor<37x100xf32>
  %p = linalg.matmul ins(%a, %b : tensor<37x256xf8E4M3FN>, tensor<256x100xf8E4M3FN>) outs(%f : tensor<37x100xf32>) -> tensor<37x100xf32>
  %o = tensor.empty() : tensor<37x100xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%p, %sa, %sb : tensor<37x100xf32>, tensor<f32>, tensor<f32>) outs(%o : tensor<37x100xbf16>) {
  ^bb0(%v: f32, %x: f32, %y: f32, %out: bf16):
    %s = arith.mulf %x, %y : f32
    %m = arith.mulf %v, %s : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<37x100xbf16>
  return %r : tensor<37x100xbf16>
}

// e5m2 by e4m3 (as in a backward pass), f32 out.
func.func @mixed(%a: tensor<64x128xf8E5M2>, %b: tensor<128x96xf8E4M3FN>) -> tensor<64x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf8E5M2>, tensor<128x96xf8E4M3FN>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// Elementwise 8-bit arithmetic, each op rounded to e4m3.
func.func @pointwise(%a: tensor<8x128xf8E4M3FN>, %b: tensor<8x128xf8E4M3FN>) -> tensor<8x128xf8E4M3FN> {
  %s = arith.addf %a, %b : tensor<8x128xf8E4M3FN>
  %m = arith.mulf %s, %b : tensor<8x128xf8E4M3FN>
  %x = math.exp %m : tensor<8x128xf8E4M3FN>
  return %x : tensor<8x128xf8E4M3FN>
}
