// Every error deplodock-tune reports: a message naming the flag or file,
// located where the input is at fault, and a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not deplodock-tune %s --no-db --search=annealing 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: not deplodock-tune %s --no-db --compare=mcts,annealing 2>&1 | FileCheck %s --check-prefix=COMPARE
// RUN: not deplodock-tune %s --no-db --compare=, 2>&1 | FileCheck %s --check-prefix=NO-STRATEGIES
// RUN: not deplodock-tune %s --no-db --patience=-2 2>&1 | FileCheck %s --check-prefix=PATIENCE
// RUN: not deplodock-tune %s --no-db --max-variants=-1 2>&1 | FileCheck %s --check-prefix=VARIANTS
// RUN: not deplodock-tune %s --no-db --max-seconds=-1 2>&1 | FileCheck %s --check-prefix=SECONDS
// RUN: not deplodock-tune %s --no-db --exploration=nan 2>&1 | FileCheck %s --check-prefix=EXPLORATION
// RUN: not deplodock-tune %s --no-db --beam-width=0 2>&1 | FileCheck %s --check-prefix=BEAM
// RUN: not deplodock-tune %s --no-db --target=sm_70 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-tune %s --no-db --backend=tpu 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not deplodock-tune %s --no-db --backend=replay 2>&1 | FileCheck %s --check-prefix=NO-TABLE
// RUN: not deplodock-tune %s --no-db --replay-table=%t/t.json 2>&1 | FileCheck %s --check-prefix=TABLE-UNUSED
// RUN: not deplodock-tune %s --no-db --backend=replay --replay-table=%t/missing.json 2>&1 | FileCheck %s --check-prefix=TABLE-MISSING
// RUN: not deplodock-tune %s --no-db --device=1 2>&1 | FileCheck %s --check-prefix=CUDA-ONLY
// RUN: not deplodock-tune %s --no-db --fake-device 2>&1 | FileCheck %s --check-prefix=CUDA-ONLY-FAKE
// RUN: not deplodock-tune %s --no-db --kernel=nope 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not deplodock-tune %s --no-db --knobs-out=%t/no/such/dir/k 2>&1 | FileCheck %s --check-prefix=KNOBS-OUT
// RUN: echo garbage > %t/corrupt.db
// RUN: not deplodock-tune %s --db=%t/corrupt.db 2>&1 | FileCheck %s --check-prefix=DB
// RUN: not deplodock-tune %t/no-such-input.mlir 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: echo 'module {}' > %t/empty.mlir
// RUN: not deplodock-tune %t/empty.mlir --no-db 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not deplodock-tune %S/Inputs/unknown-op.mlir --no-db 2>&1 | FileCheck %s --check-prefix=PARSE

func.func @double(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// SEARCH: error: --search: unknown search strategy 'annealing' (expected one of: mcts, greedy, random, beam, exhaustive)
// COMPARE: error: --compare: unknown search strategy 'annealing'
// NO-STRATEGIES: error: --compare: expected a list of strategies
// PATIENCE: error: --patience must not be negative, got -2
// VARIANTS: error: --max-variants must not be negative, got -1
// SECONDS: error: --max-seconds must be a non-negative number
// EXPLORATION: error: --exploration must be a non-negative number
// BEAM: error: --beam-width must be at least 1
// TARGET: error: --target: unknown target 'sm_70' (expected sm_80 or sm_90)
// BACKEND: error: --backend: unknown backend 'tpu' (expected one of: model, replay, cuda)
// NO-TABLE: error: --backend=replay needs --replay-table
// TABLE-UNUSED: error: --replay-table is only read by --backend=replay
// TABLE-MISSING: error: cannot read latency table '{{.*}}missing.json'
// CUDA-ONLY: error: --device is only read by --backend=cuda
// CUDA-ONLY-FAKE: error: --fake-device is only read by --backend=cuda
// KERNEL: error: no kernel @nope in '{{.*}}errors.mlir'
// KNOBS-OUT: error: cannot write '{{.*}}k': No such file or directory
// DB: error: tune database '{{.*}}corrupt.db': {{.*}}(the file is not an SQLite database; move it away or choose another path)
// INPUT: error: cannot open input file '{{.*}}no-such-input.mlir'
// EMPTY: error: no kernel to tune in '{{.*}}empty.mlir'
// PARSE: unknown-op.mlir:2:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
