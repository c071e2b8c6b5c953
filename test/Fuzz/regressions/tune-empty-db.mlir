// Fuzz finding, area search (fuzz/FINDINGS.md #7): deplodock-tune --db=""
// (and --record-table="", --knobs-out="") exits 0, writing the default
// database, instead of refusing the empty path.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env HOME=%t %fuzz_check --expect=diagnosed -- deplodock-tune %s --db= --max-variants=1 --quiet
// RUN: not test -e %t/.cache/deplodock/autotune.db
/// Found again by the campaign of seed 21 (flags #98, #310, #402, #942): every
/// other path or name flag given empty.
// RUN: %fuzz_check --expect=diagnosed -- deplodock-tune %s --no-db --kernel= --max-variants=1 --quiet
// RUN: %fuzz_check --expect=diagnosed -- deplodock-tune %s --no-db --record-table= --max-variants=1 --quiet
// RUN: %fuzz_check --expect=diagnosed -- deplodock-tune %s --no-db --knobs-out= --max-variants=1 --quiet
// RUN: %fuzz_check --expect=diagnosed -- deplodock-tune %s --no-db --replay-table= --max-variants=1 --quiet
// RUN: not deplodock-tune %s --no-db --record-table= 2>&1 | FileCheck %s
// CHECK: error: --record-table needs a value; leave the flag out for its default
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
