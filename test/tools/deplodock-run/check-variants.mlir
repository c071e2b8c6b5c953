// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=100 --print=none | FileCheck %s --check-prefix=ALL
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=100 --variant-pipeline=convert-dtile-to-dkernel --target=sm_80 --print=none | FileCheck %s --check-prefix=ALL
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=4 --seed=7 --print=none | FileCheck %s --check-prefix=SAMPLE
// RUN: not deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=100 --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=EXACT
// RUN: not deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=4 --target=sm_70 --print=none 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=4 --variant-pipeline=no-such-pass --print=none 2>&1 | FileCheck %s --check-prefix=PIPELINE

/// A row sum of 256 has 10 variants (threads per row, chunking, unroll):
/// with at most 100 asked for, all of them are checked, at the Tile level
/// and, through convert-dtile-to-dkernel, at the Kernel level.
// ALL: variants of @rowsum_0_reduce: 17 (all) checked, 0 failed

/// With fewer asked for than the tree holds, a seeded sample.
// SAMPLE: variants of @rowsum_0_reduce: 4 (seeded sample) checked, 0 failed

/// The check can fail: summed by several threads, the row adds in another
/// order, which an exact comparison sees. The failing variants are named
/// and the exit code is 1.
// EXACT: @rowsum_0_reduce knobs rowsum_0_reduce:threads={{[0-9]+}}: result #0 differs
// EXACT: variants of @rowsum_0_reduce: 17 (all) checked, {{[1-9][0-9]*}} failed

// TARGET: error: unknown target 'sm_70' (expected sm_80, sm_90 or sm_90a)

// PIPELINE: error
// PIPELINE: @rowsum_0_reduce knobs {{.*}}: failed to lower
func.func @rowsum(%x: tensor<4x256xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x256xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
