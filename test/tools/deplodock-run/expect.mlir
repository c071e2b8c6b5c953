// RUN: rm -rf %t && split-file %s %t && mkdir %t/ref %t/other
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-tensor --output-dir=%t/ref --print=none
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-tensor --output-dir=%t/other --seed=7 --print=none
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-kernel --expect=%t/ref/result0.npy --expect=%t/ref/result1.npy --compare=canonicalize --print=none | FileCheck %s --check-prefix=PASS
// RUN: deplodock-run --interp %t/layer.mlir --expect=%t/ref/result0.npy --expect=%t/ref/result1.npy --pipeline=lower-to-tensor --print=none | FileCheck %s --check-prefix=SAME
// RUN: not deplodock-run --interp %t/layer.mlir --pipeline=lower-to-loop --expect=%t/other/result0.npy --expect=%t/ref/result1.npy --print=none | FileCheck %s --check-prefix=FAIL
// RUN: not deplodock-run --interp %t/layer.mlir --pipeline=lower-to-loop --expect=%t/ref/result1.npy --expect=%t/ref/result0.npy --print=none | FileCheck %s --check-prefix=SWAPPED
// RUN: not deplodock-run --interp %t/layer.mlir --pipeline=lower-to-loop --expect=%t/ref/result0.npy --print=none 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not deplodock-run --interp %t/layer.mlir --pipeline=lower-to-loop --expect=%t/ref/result0.npy --expect=%t/missing.npy --print=none 2>&1 | FileCheck %s --check-prefix=MISSING -DDIR=%t
// RUN: not deplodock-run --interp %t/layer.mlir --expect= 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not deplodock-run --bench --fake-device %t/layer.mlir --expect=%t/ref/result0.npy 2>&1 | FileCheck %s --check-prefix=BENCH
/// The Kernel IR's blocks on one CPU thread and on three give the same
/// results, bit for bit.
// RUN: mkdir %t/one && deplodock-run --interp %t/layer.mlir --pipeline=lower-to-kernel --interp-threads=1 --output-dir=%t/one --print=none
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-kernel --interp-threads=3 --expect=%t/one/result0.npy --expect=%t/one/result1.npy --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=THREADS

/// Results saved by one run are the reference of later ones: the run itself
/// is checked against them (under its pipeline's name), then each --compare.
// PASS:      compare result #0 after 'lower-to-kernel': {{.*}}: PASS
// PASS-NEXT: compare result #1 after 'lower-to-kernel': {{.*}}: PASS
// PASS-NEXT: compare result #0 after 'canonicalize': {{.*}}: PASS
// PASS-NEXT: compare result #1 after 'canonicalize': {{.*}}: PASS
// SAME:      compare result #0 after 'lower-to-tensor': max abs error 0, max rel error 0: PASS
// SAME-NEXT: compare result #1 after 'lower-to-tensor': max abs error 0, max rel error 0: PASS
/// Results of other inputs differ (exit 1); files in the wrong order do not
/// even have the results' types.
// FAIL:      compare result #0 after 'lower-to-loop': {{.*}}worst element {{.*}}: FAIL
// FAIL-NEXT: compare result #1 after 'lower-to-loop': {{.*}}: PASS
// SWAPPED:      compare result #0 after 'lower-to-loop': type tensor<4x3xf32> instead of tensor<4xf32>: FAIL
// SWAPPED-NEXT: compare result #1 after 'lower-to-loop': type tensor<4xf32> instead of tensor<4x3xf32>: FAIL
// COUNT:   error: the function returns 2 results, got 1 --expect files
// MISSING: error: --expect: cannot read [[DIR]]/missing.npy:
// EMPTY:   error: --expect needs a value
// BENCH:   error: --expect is for --interp
// THREADS:      compare result #0 after 'lower-to-kernel': max abs error 0, max rel error 0: PASS
// THREADS-NEXT: compare result #1 after 'lower-to-kernel': max abs error 0, max rel error 0: PASS

//--- layer.mlir
func.func @layer(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<4x3xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = math.tanh %a : f32
    %r = arith.addf %t, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %m, %s : tensor<4x3xf32>, tensor<4xf32>
}
