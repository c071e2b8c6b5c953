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

// scaled_linear: the FP8 linear layer as deployed on Hopper, the weight held
// N x K (K-major, as nn.Linear holds it; wgmma reads 8-bit operands no other
// way), the per-tensor scales on the f32 sums, bf16 out. M, N and K fill no
// tile: the last K chunk and the rows and columns past the edges are
// zero-filled.
func.func @scaled_linear(%x: tensor<100x272xf8E4M3FN>, %w: tensor<136x272xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<100x136xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100x136xf32>) -> tensor<100x136xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<100x272xf8E4M3FN>, tensor<136x272xf8E4M3FN>) outs(%f : tensor<100x136xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %s: f32):
    %ae = arith.extf %a : f8E4M3FN to f32
    %be = arith.extf %b : f8E4M3FN to f32
    %m = arith.mulf %ae, %be : f32
    %t = arith.addf %s, %m : f32
    linalg.yield %t : f32
  } -> tensor<100x136xf32>
  %o = tensor.empty() : tensor<100x136xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%p, %sx, %sw : tensor<100x136xf32>, tensor<f32>, tensor<f32>) outs(%o : tensor<100x136xbf16>) {
  ^bb0(%v: f32, %a: f32, %b: f32, %out: bf16):
    %s = arith.mulf %a, %b : f32
    %m = arith.mulf %v, %s : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x136xbf16>
  return %r : tensor<100x136xbf16>
}

// mixed_linear: e5m2 activations by an e4m3 weight held N x K, f32 out.
func.func @mixed_linear(%x: tensor<64x256xf8E5M2>, %w: tensor<96x256xf8E4M3FN>) -> tensor<64x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x256xf8E5M2>, tensor<96x256xf8E4M3FN>) outs(%f : tensor<64x96xf32>) {
  ^bb0(%a: f8E5M2, %b: f8E4M3FN, %s: f32):
    %ae = arith.extf %a : f8E5M2 to f32
    %be = arith.extf %b : f8E4M3FN to f32
    %m = arith.mulf %ae, %be : f32
    %t = arith.addf %s, %m : f32
    linalg.yield %t : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// long_linear: one 64 x 64 tile over K = 2048 (16 chunks of 128), which
// wgmma splits over blocks, each storing f32 partial sums for a second
// kernel to add in order and round once.
func.func @long_linear(%x: tensor<64x2048xf8E4M3FN>, %w: tensor<64x2048xf8E4M3FN>) -> tensor<64x64xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x2048xf8E4M3FN>, tensor<64x2048xf8E4M3FN>) outs(%f : tensor<64x64xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %s: f32):
    %ae = arith.extf %a : f8E4M3FN to f32
    %be = arith.extf %b : f8E4M3FN to f32
    %m = arith.mulf %ae, %be : f32
    %t = arith.addf %s, %m : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  %o = tensor.empty() : tensor<64x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf32>) outs(%o : tensor<64x64xbf16>) {
  ^bb0(%v: f32, %out: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x64xbf16>
  return %r : tensor<64x64xbf16>
}
