// RUN: deplodock-run --help | FileCheck %s --check-prefix=HELP
// RUN: deplodock-run --interp %s | FileCheck %s --check-prefix=FIRST
// RUN: deplodock-run --interp %s --func=second --seed=0 | FileCheck %s --check-prefix=SECOND
// RUN: deplodock-run --interp %s --func=second --seed=0 > %t.seed0
// RUN: deplodock-run --interp %s --func=second > %t.default
// RUN: deplodock-run --interp %s --func=second --seed=1 > %t.seed1
/// The seed defaults to 0, and the same seed gives the same inputs.
// RUN: diff %t.seed0 %t.default
// RUN: not diff %t.seed0 %t.seed1
// RUN: deplodock-run --interp %s --func=second --print=summary | FileCheck %s --check-prefix=SUMMARY
// RUN: deplodock-run --interp %s --func=second --print=none | count 0
// RUN: not deplodock-run --interp %s --print=everything 2>&1 | FileCheck %s --check-prefix=BADPRINT

/// --help lists the tool's options, not LLVM's.
// HELP:     USAGE: deplodock-run [options] <input.mlir>
// HELP:     deplodock-run options:
// HELP-DAG: --atol=<number>
// HELP-DAG: --compare=<string>
// HELP-DAG: --func=<string>
// HELP-DAG: --input=<string>
// HELP-DAG: --interp
// HELP-DAG: --output-dir=<string>
// HELP-DAG: --pipeline=<string>
// HELP-DAG: --print=<value>
// HELP-DAG: --rtol=<number>
// HELP-DAG: --save-inputs=<string>
// HELP-DAG: --seed=<ulong>
// HELP-NOT: --x86-
// HELP-NOT: --amdgpu-

/// Without --func the first function with a body runs; declarations are
/// skipped.
// FIRST:      result #0: tensor<2xi32>
// FIRST-NEXT: 1 2
// FIRST-NOT:  result
func.func private @declared(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @first() -> tensor<2xi32> {
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %c : tensor<2xi32>
}

/// Seeded inputs: floats in [-1, 1), integers in [0, 8); i1 bits.
// SECOND:      result #0: tensor<2x3xf32>
// SECOND-NEXT: {{(-?[01]\.?[0-9]* ){2}-?[01]\.?[0-9]*$}}
// SECOND-NEXT: {{(-?[01]\.?[0-9]* ){2}-?[01]\.?[0-9]*$}}
// SECOND-NEXT: result #1: tensor<8xi32>
// SECOND-NEXT: {{([0-7] ){7}[0-7]$}}
// SECOND-NEXT: result #2: tensor<8xi1>
// SECOND-NEXT: {{([01] ){7}[01]$}}
// SECOND-NOT:  result
/// The summary gives the type, min, max and mean of each result, and how
/// many elements are NaN.
// SUMMARY:      result #0: tensor<2x3xf32> min {{-?0\.[0-9]+}} max {{-?0\.[0-9]+}} mean {{-?0\.[0-9]+}} nan 0
// SUMMARY-NEXT: result #1: tensor<8xi32> min {{[0-7]}} max {{[0-7]}} mean {{[0-9.]+}} nan 0
// SUMMARY-NEXT: result #2: tensor<8xi1> min {{[01]}} max {{[01]}} mean {{[0-9.]+}} nan 0
// SUMMARY-NOT:  result
func.func @second(%x: tensor<2x3xf32>, %i: tensor<8xi32>, %b: tensor<8xi1>) -> (tensor<2x3xf32>, tensor<8xi32>, tensor<8xi1>) {
  return %x, %i, %b : tensor<2x3xf32>, tensor<8xi32>, tensor<8xi1>
}

// BADPRINT: for the --print option: Cannot find option named 'everything'!
