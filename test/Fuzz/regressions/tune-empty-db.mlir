// Fuzz finding, area search (fuzz/FINDINGS.md #7): deplodock-tune --db=""
// (and --record-table="", --knobs-out="") exits 0, writing the default
// database, instead of refusing the empty path.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env HOME=%t %fuzz_check --expect=diagnosed -- deplodock-tune %s --db= --max-variants=1 --quiet
// RUN: not test -e %t/.cache/deplodock/autotune.db
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
