// --jobs lowers variants on a thread pool (the prior's candidates, a batch,
// the terminals an exhaustive search measures next); what is measured, in
// which order, and the winner do not depend on it. Each pair of runs below
// differs only in --jobs, and the perf rows (in insertion order), the best
// row and the latency tables must be identical.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %s --db=%t/mcts1.db --prior=model --max-variants=4 --jobs=1 --quiet --record-table=%t/mcts1.json > %t/mcts1.out
// RUN: deplodock-tune %s --db=%t/mcts4.db --prior=model --max-variants=4 --jobs=4 --quiet --record-table=%t/mcts4.json > %t/mcts4.out
// RUN: %python %S/Inputs/dump-rows.py %t/mcts1.db > %t/mcts1.rows
// RUN: %python %S/Inputs/dump-rows.py %t/mcts4.db > %t/mcts4.rows
// RUN: diff %t/mcts1.rows %t/mcts4.rows
// RUN: diff %t/mcts1.json %t/mcts4.json
// RUN: FileCheck %s --check-prefix=ROWS < %t/mcts4.rows
// RUN: FileCheck %s --check-prefix=WINNER < %t/mcts1.out
// RUN: FileCheck %s --check-prefix=WINNER < %t/mcts4.out
//
// RUN: deplodock-tune %s --db=%t/exh1.db --search=exhaustive --max-variants=24 --jobs=1 --quiet > /dev/null
// RUN: deplodock-tune %s --db=%t/exh4.db --search=exhaustive --max-variants=24 --jobs=4 --quiet > /dev/null
// RUN: %python %S/Inputs/dump-rows.py %t/exh1.db > %t/exh1.rows
// RUN: %python %S/Inputs/dump-rows.py %t/exh4.db > %t/exh4.rows
// RUN: diff %t/exh1.rows %t/exh4.rows
// RUN: FileCheck %s --check-prefix=EXHAUSTIVE < %t/exh4.rows
//
// Batches (one variant per fake GPU) are lowered together too.
// RUN: deplodock-tune %s --backend=cuda --fake-device --devices=0,1 --db=%t/gpu1.db --max-variants=7 --prior=none --jobs=1 --quiet > /dev/null
// RUN: deplodock-tune %s --backend=cuda --fake-device --devices=0,1 --db=%t/gpu4.db --max-variants=7 --prior=none --jobs=4 --quiet > /dev/null
// RUN: %python %S/Inputs/dump-rows.py %t/gpu1.db > %t/gpu1.rows
// RUN: %python %S/Inputs/dump-rows.py %t/gpu4.db > %t/gpu4.rows
// RUN: diff %t/gpu1.rows %t/gpu4.rows
// RUN: FileCheck %s --check-prefix=GPU < %t/gpu4.rows

func.func @mm(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// ROWS: perf 4
// ROWS: best 1
// WINNER: mm_0_reduce {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}x 4
// EXHAUSTIVE: perf 24
// GPU: perf 7
