// A split through an f32 workspace lowers to two kernels: the split blocks
// store partial sums, @<kernel>_split_sum adds them. The tuner's tree offers
// those options like any other, a variant holds both launches and the
// workspace between them, and a backend measures the whole sequence.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-opt %s --lower-to-tile="knobs=mm_0_reduce:split_k=4,split_workspace=true" | FileCheck %s --check-prefix=OFFERED
// OFFERED: dtile.kernel @mm_0_reduce knobs<{{.*}}split_k = 4, split_workspace = true
// OFFERED: dtile.kernel @mm_0_reduce_split_sum

/// The model backend estimates both kernels and sums them (each with its
/// launch); the variants are measured and recorded like the others.
// RUN: deplodock-tune %s --db=%t/model.db --search=random --max-variants=80 --patience=0 -v --record-table=%t/t.json 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: split_workspace=true{{.*}}: {{[0-9.]+}} us (estimated){{.*}}estimated: 2 kernels, {{[0-9.]+}} us; the slowest
// RUN: FileCheck %s --check-prefix=TABLE < %t/t.json
// TABLE: split_workspace=true{{.*}}": {
// TABLE-NEXT: "max_us"
// TABLE-NEXT: "median_us"
// TABLE-NEXT: "min_us"
// TABLE-NEXT: "samples": 1,
// TABLE-NEXT: "status": "ok"
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/model.db'); print(c.execute(\"SELECT count(*) FROM perf WHERE status = 'ok' AND knobs LIKE '%%split_workspace%%true%%'\").fetchone()[0] > 0, c.execute(\"SELECT arg_order FROM cuda_op WHERE source LIKE '%%mm_0_reduce_split_sum%%' LIMIT 1\").fetchone()[0])" | FileCheck %s --check-prefix=MODEL-DB
// MODEL-DB: True [{"block":[{{[0-9,]+}}],"grid":[{{[0-9,]+}}],"kernel":"mm_0_reduce","params":[{"buffer":0,{{[^]]*}}{"buffer":3,"output":true,"param":2,"type":"memref<{{[0-9]+}}x16x32xf32>","workspace":true{{.*}}"kernel":"mm_0_reduce_split_sum","params":[{"buffer":3,"output":false,"param":0,{{.*}}"workspace":true,{{.*}}{"buffer":2,"output":true,"param":1,"type":"memref<16x32xf32>","workspace":false

/// Where atomics cannot split K (a SiLU epilogue is not linear in the sum),
/// a skinny long-K matmul has only the workspace to fill the GPU: on the
/// model backend a workspace split wins (16 x 8192 x 64: about 72 us
/// unsplit, 12 us split 32 ways).
// RUN: deplodock-tune %S/Inputs/skinny-silu.mlir --no-db --max-variants=40 --quiet | FileCheck %s --check-prefix=WINS
// WINS: kernel default us best us speed-up
// WINS-NEXT: mm_0_reduce {{[0-9.]+}} {{[0-9.]+}} {{[2-9]|[1-9][0-9]}}.{{[0-9]+}}x {{.*}} BK={{.*}},split_k={{[0-9]+}},split_workspace=true,

/// On the fake GPU the worker runs both launches (the workspace allocated
/// between them), checks the final output against the CPU interpreter and
/// times the sequence: two launches of the fake device's 10 us. Twenty
/// random variants (about a quarter of them workspace splits), so that a
/// fork added elsewhere in the tree does not leave the sample without one.
// RUN: deplodock-tune %s --backend=cuda --fake-device --no-db --search=random --max-variants=20 --patience=0 -v 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: split_workspace=true{{.*}}: 20.00 us {{.*}} samples, spread {{.*}}, 2 kernels, checked against the CPU interpreter

/// Replay: a table in which every other variant is slow makes a workspace
/// variant the winner; the database replays it (in the table's context) as
/// the two kernels, the same IR its knobs give.
// RUN: %python -c "import json, sys; t = json.load(open('%t/t.json')); [v.update(median_us=1000.0, min_us=1000.0, max_us=1000.0) for k in t['kernels'].values() for n, v in k['variants'].items() if 'split_workspace=true' not in n]; json.dump(t, open('%t/slow.json', 'w'))"
// RUN: deplodock-tune %s --backend=replay --replay-table=%t/slow.json --db=%t/replay.db --search=random --max-variants=80 --patience=0 --knobs-out=%t/winner.knobs --quiet | FileCheck %s --check-prefix=REPLAY
// REPLAY: mm_0_reduce {{.*}}split_workspace=true
// RUN: deplodock-opt %s --lower-to-kernel="tune-db=%t/replay.db tune-context=$(%python -c "import sqlite3; print(sqlite3.connect('%t/replay.db').execute('SELECT context_key FROM context').fetchone()[0])")" -o %t/replayed.mlir
// RUN: deplodock-opt %s --lower-to-kernel="knobs=$(cat %t/winner.knobs)" -o %t/explicit.mlir
// RUN: diff %t/replayed.mlir %t/explicit.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t/replayed.mlir
// KERNELS: dkernel.func @mm_0_reduce({{.*}}%arg2: memref<{{[0-9]+}}x16x32xf32>{{.*}}) outputs [2]
// KERNELS: dkernel.func @mm_0_reduce_split_sum
// KERNELS: %[[WS:.*]] = memref.alloc() : memref<{{[0-9]+}}x16x32xf32>
// KERNELS: dkernel.launch @mm_0_reduce(%arg0, %arg1, %[[WS]])
// KERNELS: dkernel.launch @mm_0_reduce_split_sum(%[[WS]], %

func.func @mm(%a: tensor<16x1024xf32>, %b: tensor<1024x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x1024xf32>, tensor<1024x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}
