// RUN: deplodock-opt %s --lower-to-loop | FileCheck %s
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-loop" | FileCheck %s --check-prefix=NUM

/// A bf16 softmax as a model holds it: extf, softmax in f32, truncf. The
/// casts are no work, so the max/exp producer (3 operations per element,
/// under reduce-heavy) fuses into the sum and normalisation as in f32: one
/// kernel, no f32 copy of the probabilities in global memory. (Counting the
/// two extf made it 5 > 4: the probabilities were written out in f32 and
/// read back by a second kernel.)
func.func @softmax(%x: tensor<1x2x4x8xbf16>) -> tensor<1x2x4x8xbf16> {
  %init = tensor.empty() : tensor<1x2x4x8xf32>
  %cast = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x4x8xbf16>) outs(%init : tensor<1x2x4x8xf32>) {
    ^bb0(%a0: bf16, %out: f32):
      %e = arith.extf %a0 : bf16 to f32
      linalg.yield %e : f32
  } -> tensor<1x2x4x8xf32>
  %init1 = tensor.empty() : tensor<1x2x4x8xf32>
  %probs = linalg.softmax dimension(3) ins(%cast : tensor<1x2x4x8xf32>) outs(%init1 : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %init2 = tensor.empty() : tensor<1x2x4x8xbf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%probs : tensor<1x2x4x8xf32>) outs(%init2 : tensor<1x2x4x8xbf16>) {
    ^bb0(%a0: f32, %o: bf16):
      %t = arith.truncf %a0 : f32 to bf16
      linalg.yield %t : bf16
  } -> tensor<1x2x4x8xbf16>
  return %out : tensor<1x2x4x8xbf16>
}

//      CHECK: func.func @softmax(%{{.*}}: memref<1x2x4x8xbf16>) -> memref<1x2x4x8xbf16>
//  CHECK-NOT: xf32>
//      CHECK: dloop.kernel @softmax_0_reduce ins(%in0 = %{{.*}} : memref<1x2x4x8xbf16>) outs(%out0 = %{{.*}} : memref<1x2x4x8xbf16>)
//      CHECK: math.exp
//      CHECK: arith.truncf
//  CHECK-NOT: dloop.kernel

// NUM-NOT: FAIL
//     NUM: PASS
