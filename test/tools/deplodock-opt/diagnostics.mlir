// Errors about the whole module point at its first operation (the parser
// puts the module it wraps around a file at line 0, which shows no source
// line), and no error dumps the operation in generic form unless asked.
// RUN: not deplodock-opt %s --lower-to-tile="target=sm_70" 2>&1 | FileCheck %s --check-prefix=MODULE
// RUN: not deplodock-run --interp %s --pipeline="lower-to-tile{target=sm_70}" 2>&1 | FileCheck %s --check-prefix=MODULE
// MODULE: diagnostics.mlir:[[# @LINE + 9]]:1: error: unknown target 'sm_70'; expected sm_80, sm_90 or sm_90a
// MODULE-NEXT: func.func @add(
// MODULE-NOT: see current operation

// RUN: not deplodock-opt %s --lower-to-tile="target=sm_70" --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: error: unknown target 'sm_70'
// DUMP: note: see current operation:
// DUMP-NEXT: "builtin.module"() ({

func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  %sum = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %sum : tensor<4x8xf32>
}

// A layer as it arrives needs a pipeline before the interpreter runs it.
// RUN: not deplodock-run --interp %s 2>&1 | FileCheck %s --check-prefix=HINT
// HINT: error: 'linalg.add' op cannot be interpreted
// HINT: diagnostics.mlir:[[# @LINE - 9]]:1: note: @add is a layer as it arrives (linalg, tensor ops); the interpreter runs it once imported into dtensor: add --pipeline=lower-to-tensor (or any lower-to-* pipeline)
// HINT-NOT: see current operation
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --print=summary | FileCheck %s --check-prefix=SUMMARY

// --check-variants prints a summary of the reference, not every element.
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=2 | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: result #0: tensor<4x8xf32> min {{.*}} max {{.*}} mean {{.*}} nan 0
// SUMMARY-NOT: {{^}}{{-?[0-9]}}
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --check-variants=2 --print=values | FileCheck %s --check-prefix=VALUES
// VALUES: result #0: tensor<4x8xf32>{{$}}
// VALUES-COUNT-4: {{^}}{{(-?[0-9.e+-]+ ){7}-?[0-9.e+-]+$}}
