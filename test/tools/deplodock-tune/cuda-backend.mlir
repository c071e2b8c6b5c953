// deplodock-tune --backend=cuda on the bench worker's fake device (no GPU
// needed): every variant is run, checked and timed by the worker, the
// winners are recorded under the device's context, and replay picks that
// context by itself. A small kernel is checked against the CPU interpreter;
// a large one against its simplest lowering, run on the GPU.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %s --backend=cuda --fake-device --db=%t/tune.db --max-variants=3 -v 2> %t/small.err | FileCheck %s --check-prefix=SMALL
// RUN: FileCheck %s --check-prefix=SMALL-ERR < %t/small.err
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-report" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPLAY
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --backend=cuda --fake-device --no-db --max-variants=2 -v 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: deplodock-tune %s --backend=cuda --fake-device --no-db --max-variants=1 --json | FileCheck %s --check-prefix=JSON

/// Failed variants are recorded with their status and never become the best:
/// every variant wrong, or crashing the worker (which is restarted each time).
// RUN: deplodock-tune %s --backend=cuda --fake-device --fake-fault=wrong --db=%t/wrong.db --max-variants=2 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/wrong.db'); print(c.execute('SELECT status, count(*) FROM perf GROUP BY status').fetchall(), c.execute('SELECT count(*) FROM best').fetchall())" | FileCheck %s --check-prefix=WRONG-DB
// RUN: deplodock-tune %s --backend=cuda --fake-device --fake-fault=crash --no-db --max-variants=2 2>&1 | FileCheck %s --check-prefix=CRASH

/// Errors: the GPU is not the target; the worker cannot be started.
// RUN: not deplodock-tune %s --backend=cuda --fake-device --no-db --target=sm_80 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-tune %s --backend=cuda --worker=%t/no-such-worker --no-db 2>&1 | FileCheck %s --check-prefix=WORKER

func.func @small(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// SMALL-ERR: [small_0_reduce] 1/3 {{.*}}: 10.00 us  best 10.00 us * {{.*}} samples, spread {{.*}}, checked against the CPU interpreter; {{[0-9]+\.[0-9]+}} s in the worker (compiled in {{[0-9]+}} ms)
// SMALL-ERR: [small_0_reduce] 3/3 {{.*}}, checked against the CPU interpreter
// SMALL: kernel default us best us speed-up variants
// SMALL: small_0_reduce 10.00 10.00 1.00x 3 
// SMALL: recorded in {{.*}}tune.db (context [[CTX:[0-9a-f]+]])

// REPLAY: remark: tune-db: @small_0_reduce: tuned ({{[0-9]+}} of {{[0-9]+}} forks replayed) in context '{{[0-9a-f]+}}'

// LARGE: [matmul_0_reduce] 1/2 {{.*}}, checked against the simplest lowering on the GPU
// LARGE: [matmul_0_reduce] 2/2 {{.*}}, checked against the simplest lowering on the GPU

// JSON: "backend": "cuda"

// WRONG: [small_0_reduce] 1/2 {{.*}}: wrong_result best - us
// WRONG: [small_0_reduce] 2/2 {{.*}}: wrong_result best - us
// WRONG: small_0_reduce - - - 2
// WRONG-DB: [('wrong_result', 2)] [(0,)]
// CRASH: [small_0_reduce] 1/2 {{.*}}: launch_fail best - us ETA {{[0-9]+}}s: the worker was killed by signal
// CRASH: [small_0_reduce] 2/2 {{.*}}: launch_fail best - us: the worker was killed by signal
// CRASH: small_0_reduce - - - 2

// TARGET: error: the GPU is sm_90 but the kernels are lowered for sm_80 (pass --target=sm_90)
// WORKER: error: cannot run on the GPU: cannot start the bench worker {{.*}}no-such-worker
