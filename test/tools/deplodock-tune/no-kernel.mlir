// A layer with nothing to launch (it returns its input, or is empty)
// is valid: deplodock-tune says so and succeeds, in every mode.
// RUN: rm -rf %t && mkdir -p %t && echo 'module {}' > %t/empty.mlir
// RUN: deplodock-tune %s --db=%t/tune.db | FileCheck %s
// RUN: deplodock-tune %t/empty.mlir --no-db | FileCheck %s --check-prefix=EMPTY
// RUN: deplodock-tune %s --no-db --compare=mcts,random | FileCheck %s
// RUN: deplodock-tune %s --no-db --time-lowering=2 | FileCheck %s
/// The files a tune was asked to write are written, empty (fuzz seed 29,
/// flags #905: the run succeeded and left none); where one cannot be
/// written, the run fails and says so.
// RUN: deplodock-tune %t/empty.mlir --no-db --knobs-out=%t/knobs.txt --record-table=%t/table.json | FileCheck %s --check-prefix=EMPTY
// RUN: FileCheck %s --check-prefix=KNOBS --input-file=%t/knobs.txt
// RUN: FileCheck %s --check-prefix=TABLE --input-file=%t/table.json
// RUN: not deplodock-tune %t/empty.mlir --no-db --knobs-out=%t/missing/knobs.txt 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
/// Naming a kernel that is not there is still an error.
// RUN: not deplodock-tune %s --no-db --kernel=foo 2>&1 | FileCheck %s --check-prefix=NAMED

func.func @identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

// CHECK: nothing to tune: '{{.*}}no-kernel.mlir' has no kernel to launch
// EMPTY: nothing to tune: '{{.*}}empty.mlir' has no kernel to launch
// NAMED: error: no kernel @foo in '{{.*}}no-kernel.mlir'
// KNOBS-NOT: {{.}}
// TABLE: "format": "deplodock-latency-table",
// TABLE-NEXT: "kernels": {},
// UNWRITABLE: error: cannot write '{{.*}}missing{{/|\\}}knobs.txt'
