// RUN: rm -rf %t && split-file %s %t
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=PASS
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 | FileCheck %s --check-prefix=BOTH
// RUN: deplodock-run --interp %t/layer.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --compare=lower-to-kernel --print=none | FileCheck %s --check-prefix=TWICE
// RUN: not deplodock-run --interp %t/poison.mlir --compare=cse --compare=canonicalize --rtol=0 --atol=0 | FileCheck %s --check-prefix=SECOND
// RUN: not deplodock-run --interp %t/poison.mlir --compare=canonicalize --rtol=0 --atol=0 | FileCheck %s --check-prefix=FAIL
// RUN: deplodock-run --interp %t/poison.mlir --compare=canonicalize --rtol=0 --atol=1 | FileCheck %s --check-prefix=ATOL
// RUN: deplodock-run --interp %t/poison.mlir --compare=canonicalize --rtol=1e-8 --atol=0 | FileCheck %s --check-prefix=RTOL
// RUN: deplodock-run --interp %t/poison.mlir --compare=canonicalize | FileCheck %s --check-prefix=DEFAULT
// RUN: not deplodock-run --interp %t/unused.mlir --compare=symbol-dce 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not deplodock-run --interp %t/unused.mlir --compare=remove-dead-values 2>&1 | FileCheck %s --check-prefix=RESULTS

/// A layer run before and after lowering to fused kernels: the results
/// match, and each is compared.
// PASS:      compare result #0 after 'lower-to-loop': max abs error 0, max rel error 0: PASS
// PASS-NEXT: compare result #1 after 'lower-to-loop': max abs error 0, max rel error 0: PASS
// PASS-NOT:  {{.}}
/// --compare repeats: each lowering against the same reference, in order,
/// and one that fails fails the run.
// TWICE:      compare result #0 after 'lower-to-loop': {{.*}}: PASS
// TWICE-NEXT: compare result #1 after 'lower-to-loop': {{.*}}: PASS
// TWICE-NEXT: compare result #0 after 'lower-to-kernel': {{.*}}: PASS
// TWICE-NEXT: compare result #1 after 'lower-to-kernel': {{.*}}: PASS
// SECOND:     compare result #0 after 'cse': max abs error 0, max rel error 0: PASS
// SECOND:     compare result #0 after 'canonicalize': {{.*}}: FAIL
/// The results of the first run are printed before the comparison.
// BOTH:      result #0: tensor<4x3xf32>
// BOTH:      result #1: tensor<4xf32>
// BOTH:      compare result #0
// BOTH-NEXT: compare result #1

/// A deliberate difference. The interpreter gives poison a value
/// (0xDEADBEEF for i32), so poison + 1 is 0xDEADBEF0; the canonicalizer
/// may fold poison + 1 to poison, and does. An exact comparison fails (exit
/// code 1) and names the worst element; an absolute tolerance of 1 or a
/// relative one of 1e-8 lets it pass, as does the default relative
/// tolerance, 1e-4.
// FAIL:      result #0: tensor<i32>
// FAIL-NEXT: -559038736
// FAIL-NEXT: compare result #0 after 'canonicalize': max abs error 1, max rel error 1.79e-09, worst element 0: expected -559038736 got -559038737: FAIL
// ATOL:      compare result #0 after 'canonicalize': max abs error 1, max rel error 1.79e-09: PASS
// RTOL:      compare result #0 after 'canonicalize': max abs error 1, max rel error 1.79e-09: PASS
// DEFAULT:   compare result #0 after 'canonicalize': max abs error 1, max rel error 1.79e-09: PASS

/// Pipelines that take away the function, or its results.
// LOST:    error: the lowered module lost @unused
// RESULTS: error: the function compared after 'remove-dead-values' returns 0 results instead of 2

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

//--- poison.mlir
func.func @poison() -> i32 {
  %p = ub.poison : i32
  %c1 = arith.constant 1 : i32
  %q = arith.addi %p, %c1 : i32
  return %q : i32
}

//--- unused.mlir
func.func private @unused() -> (tensor<2xf32>, tensor<2xf32>) {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c, %c : tensor<2xf32>, tensor<2xf32>
}
