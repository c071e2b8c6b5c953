// Contractions whose operands a pointwise producer computes (prologues):
// test/Examples/prologues.mlir.

// silu(gate) * up . w at shapes no tile divides (masked tiles).
func.func @odd_silu_mul_matmul(%gate: tensor<30x100xf32>, %up: tensor<30x100xf32>, %w: tensor<100x70xf32>) -> tensor<30x70xf32> {
  %init = tensor.empty() : tensor<30x100xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<30x100xf32>, tensor<30x100xf32>) outs(%init : tensor<30x100xf32>) {
    ^bb0(%g: f32, %u: f32, %o: f32):
      %one = arith.constant 1.0 : f32
      %neg = arith.negf %g : f32
      %e = math.exp %neg : f32
      %d = arith.addf %one, %e : f32
      %s = arith.divf %g, %d : f32
      %p = arith.mulf %s, %u : f32
      linalg.yield %p : f32
  } -> tensor<30x100xf32>
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<30x70xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init1 : tensor<30x70xf32>) -> tensor<30x70xf32>
  %mm = linalg.matmul ins(%act, %w : tensor<30x100xf32>, tensor<100x70xf32>) outs(%filled : tensor<30x70xf32>) -> tensor<30x70xf32>
  return %mm : tensor<30x70xf32>
}

// A prologue of one input with a constant: relu(x) . w.
func.func @relu_matmul(%x: tensor<64x128xf32>, %w: tensor<128x96xf32>) -> tensor<64x96xf32> {
  %init = tensor.empty() : tensor<64x128xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x128xf32>) outs(%init : tensor<64x128xf32>) {
    ^bb0(%a: f32, %o: f32):
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %a, %zero : f32
      linalg.yield %r : f32
  } -> tensor<64x128xf32>
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<64x96xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init1 : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%act, %w : tensor<64x128xf32>, tensor<128x96xf32>) outs(%filled : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %mm : tensor<64x96xf32>
}

// A prologue of the B operand: x . (w * s), a weight scaled per column.
func.func @scaled_weight(%x: tensor<64x128xf32>, %w: tensor<128x96xf32>, %s: tensor<96xf32>) -> tensor<64x96xf32> {
  %init = tensor.empty() : tensor<128x96xf32>
  %ws = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<128x96xf32>, tensor<96xf32>) outs(%init : tensor<128x96xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      linalg.yield %p : f32
  } -> tensor<128x96xf32>
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<64x96xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init1 : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%x, %ws : tensor<64x128xf32>, tensor<128x96xf32>) outs(%filled : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %mm : tensor<64x96xf32>
}

// silu(gate) * up . w in bf16 (the activation rounded to bf16, as the
// suite's layers store it), summed in f32.
func.func @bf16_silu_mul_matmul(%gate: tensor<64x256xbf16>, %up: tensor<64x256xbf16>, %w: tensor<256x128xbf16>) -> tensor<64x128xf32> {
  %init = tensor.empty() : tensor<64x256xbf16>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<64x256xbf16>, tensor<64x256xbf16>) outs(%init : tensor<64x256xbf16>) {
    ^bb0(%g: bf16, %u: bf16, %o: bf16):
      %gw = arith.extf %g : bf16 to f32
      %uw = arith.extf %u : bf16 to f32
      %one = arith.constant 1.0 : f32
      %neg = arith.negf %gw : f32
      %e = math.exp %neg : f32
      %d = arith.addf %one, %e : f32
      %s = arith.divf %gw, %d : f32
      %p = arith.mulf %s, %uw : f32
      %r = arith.truncf %p : f32 to bf16
      linalg.yield %r : bf16
  } -> tensor<64x256xbf16>
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<64x128xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul ins(%act, %w : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%filled : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %mm : tensor<64x128xf32>
}
