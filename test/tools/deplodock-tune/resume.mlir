// A killed tuning resumes: the variants it recorded are not measured again,
// and the resumed run ends where an uninterrupted one does. The hidden
// --fake-kill-after=N sends SIGKILL to the tool once N variants are recorded.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not --crash deplodock-tune %s --db=%t/killed.db --max-variants=12 --fake-kill-after=5 2> %t/killed.err
// RUN: FileCheck %s --check-prefix=KILLED < %t/killed.err
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/killed.db'); print('perf rows', c.execute('SELECT count(*) FROM perf').fetchone()[0])" | FileCheck %s --check-prefix=ROWS
// RUN: deplodock-tune %s --db=%t/killed.db --max-variants=12 --json 2> %t/resumed.err > %t/resumed.json
// RUN: FileCheck %s --check-prefix=RESUMED < %t/resumed.err
// RUN: deplodock-tune %s --db=%t/whole.db --max-variants=12 --json 2> %t/whole.err > %t/whole.json
// RUN: %python -c "import json; a = json.load(open('%t/resumed.json'))['kernels'][0]; b = json.load(open('%t/whole.json'))['kernels'][0]; print(a['best_knobs'] == b['best_knobs'], a['best_us'] == b['best_us'], a['measured'], a['recorded'], b['recorded'])" | FileCheck %s --check-prefix=SAME
/// Asked again, nothing is measured: all twelve are recorded.
// RUN: deplodock-tune %s --db=%t/killed.db --max-variants=12 2>&1 | FileCheck %s --check-prefix=AGAIN
/// --remeasure measures them anyway.
// RUN: deplodock-tune %s --db=%t/killed.db --max-variants=3 --remeasure 2>&1 | FileCheck %s --check-prefix=REMEASURE

func.func @mm(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// KILLED: [mm_0_reduce] 5/12
// KILLED-NOT: [mm_0_reduce] 6/12

// ROWS: perf rows 5

// RESUMED-COUNT-5: (recorded)
// RESUMED-NOT: (recorded)
// RESUMED: [mm_0_reduce] 12/12
// RESUMED: [1/1] mm_0_reduce: 12 variants (5 recorded

// SAME: True True 12 5 0

// AGAIN: [1/1] mm_0_reduce: 12 variants (12 recorded
// REMEASURE-NOT: (recorded)
// REMEASURE: [1/1] mm_0_reduce: 3 variants,
