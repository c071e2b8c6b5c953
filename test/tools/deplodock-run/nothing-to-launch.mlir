// A layer with nothing to launch is valid in every mode: --interp runs it
// at every level, --bench has nothing to time and checks its results (its
// arguments) against the interpreter on the host.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/a.npy f4 4 1,2,3,4
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/b.npy f4 4 5,6,7,8
// RUN: deplodock-run --interp %s --input=%t/a.npy --input=%t/b.npy --compare=deplodock-pipeline | FileCheck %s --check-prefix=INTERP
// INTERP:      result #0: tensor<4xf32>
// INTERP-NEXT: 5 6 7 8
// INTERP-NEXT: result #1: tensor<4xf32>
// INTERP-NEXT: 1 2 3 4
// INTERP-NEXT: compare result #0 after 'deplodock-pipeline': max abs error 0, max rel error 0: PASS
// INTERP-NEXT: compare result #1 after 'deplodock-pipeline': max abs error 0, max rel error 0: PASS
// RUN: deplodock-run --bench %s --fake-device --input=%t/a.npy --input=%t/b.npy --output-dir=%t/out --bench-json=%t/bench.json | FileCheck %s --check-prefix=BENCH
// BENCH:      @swap launches no kernels: nothing to run or time on the GPU
// BENCH-NEXT: reference: 2 outputs checked against the CPU interpreter (max abs error 0)
// BENCH-NOT:  {{.}}
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/out/result0.npy | FileCheck %s --check-prefix=RESULT0
// RESULT0:      descr <f4 shape (4,)
// RESULT0-NEXT: 5.0 6.0 7.0 8.0
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/out/result1.npy | FileCheck %s --check-prefix=RESULT1
// RESULT1: 1.0 2.0 3.0 4.0
// RUN: FileCheck %s --check-prefix=JSON < %t/bench.json
// JSON:      "kernels": [],
// JSON:      "status": "ok",
// JSON:      "total_us": {
// JSON-NEXT:   "max": 0,
// JSON-NEXT:   "mean": 0,
// JSON-NEXT:   "median": 0,
/// Seeded arguments: the worker-side draws are the interpreter's.
// RUN: deplodock-run --bench %s --fake-device --seed=3 | FileCheck %s --check-prefix=SEEDED
// SEEDED: reference: 2 outputs checked against the CPU interpreter (max abs error 0)

func.func @swap(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %b, %a : tensor<4xf32>, tensor<4xf32>
}
