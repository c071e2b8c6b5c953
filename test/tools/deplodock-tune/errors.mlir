// Every error deplodock-tune reports: a message naming the flag or file,
// located where the input is at fault, and a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not deplodock-tune %s --no-db --search=annealing 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: not deplodock-tune %s --no-db --compare=mcts,annealing 2>&1 | FileCheck %s --check-prefix=COMPARE
// RUN: not deplodock-tune %s --no-db --compare=, 2>&1 | FileCheck %s --check-prefix=NO-STRATEGIES
// RUN: not deplodock-tune %s --no-db --compare=mcts --budgets=0 2>&1 | FileCheck %s --check-prefix=BUDGET-ZERO
// RUN: not deplodock-tune %s --no-db --compare=mcts --runs=0 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: not deplodock-tune %s --no-db --compare=mcts --runs=1001 2>&1 | FileCheck %s --check-prefix=RUNS-HIGH
// RUN: not deplodock-tune %s --no-db --budgets=16 2>&1 | FileCheck %s --check-prefix=BUDGETS-UNUSED
/// A best known recorded in another context (here another GPU; also an
/// older model) is refused as a reference.
// RUN: rm -rf %t.ctx && mkdir -p %t.ctx && deplodock-tune %s --no-db --target=sm_80 --max-variants=1 --quiet --record-table=%t.ctx/sm80.json > /dev/null
// RUN: not deplodock-tune %s --no-db --compare=mcts --budgets=1 --runs=1 --reference-table=%t.ctx/sm80.json 2>&1 | FileCheck %s --check-prefix=STALE-REFERENCE
// RUN: not deplodock-tune %s --no-db --compare=mcts --knobs-out=%t/knobs.txt 2>&1 | FileCheck %s --check-prefix=KNOBS-MODE
// RUN: test ! -e %t/knobs.txt
// RUN: not deplodock-tune %s --no-db --count-variants=2 --record-table=%t/table.json 2>&1 | FileCheck %s --check-prefix=RECORD-TABLE
// RUN: test ! -e %t/table.json
// RUN: not deplodock-tune %s --no-db --compare=mcts --time-lowering=2 2>&1 | FileCheck %s --check-prefix=MODES
// RUN: not deplodock-tune %s --no-db --patience=-2 2>&1 | FileCheck %s --check-prefix=PATIENCE
// RUN: not deplodock-tune %s --no-db --max-variants=-1 2>&1 | FileCheck %s --check-prefix=VARIANTS
// RUN: not deplodock-tune %s --no-db --jobs=0 2>&1 | FileCheck %s --check-prefix=JOBS-ZERO
// RUN: not deplodock-tune %s --no-db --jobs=5000 2>&1 | FileCheck %s --check-prefix=JOBS-HUGE
// RUN: not deplodock-tune %s --no-db --max-variants=99999999999999999999 2>&1 | FileCheck %s --check-prefix=VARIANTS-HUGE
// RUN: not deplodock-tune %s --no-db --total-variants=-3 2>&1 | FileCheck %s --check-prefix=TOTAL
// RUN: not deplodock-tune %s --no-db --total-variants=8 --max-variants=2 2>&1 | FileCheck %s --check-prefix=TOTAL-AND-MAX
// RUN: not deplodock-tune %s --no-db --max-seconds=-1 2>&1 | FileCheck %s --check-prefix=SECONDS
// RUN: not deplodock-tune %s --no-db --max-seconds=inf 2>&1 | FileCheck %s --check-prefix=SECONDS
// RUN: not deplodock-tune %s --no-db --exploration=nan 2>&1 | FileCheck %s --check-prefix=EXPLORATION
// RUN: not deplodock-tune %s --no-db --exploration=1e9 2>&1 | FileCheck %s --check-prefix=EXPLORATION
// RUN: not deplodock-tune %s --no-db --beam-width=0 2>&1 | FileCheck %s --check-prefix=BEAM
// RUN: not deplodock-tune %s --no-db --time-lowering=100001 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: not deplodock-tune %s --no-db --prior=oracle 2>&1 | FileCheck %s --check-prefix=PRIOR
// RUN: not deplodock-tune %s --no-db --prior-noise=-1 2>&1 | FileCheck %s --check-prefix=PRIOR-NOISE
// RUN: not deplodock-tune %s --no-db --target=sm_70 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-tune %s --no-db --backend=tpu 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not deplodock-tune %s --no-db --backend=replay 2>&1 | FileCheck %s --check-prefix=NO-TABLE
// RUN: not deplodock-tune %s --no-db --replay-table=%t/t.json 2>&1 | FileCheck %s --check-prefix=TABLE-UNUSED
// RUN: not deplodock-tune %s --no-db --backend=replay --replay-table=%t/missing.json 2>&1 | FileCheck %s --check-prefix=TABLE-MISSING
// RUN: not deplodock-tune %s --no-db --devices=1 2>&1 | FileCheck %s --check-prefix=CUDA-ONLY
// RUN: not deplodock-tune %s --no-db --fake-device 2>&1 | FileCheck %s --check-prefix=CUDA-ONLY-FAKE
// RUN: not deplodock-tune %s --no-db --backend=cuda --fake-device --devices=0,0 2>&1 | FileCheck %s --check-prefix=DEVICES-TWICE
// RUN: not deplodock-tune %s --no-db --backend=cuda --fake-device --devices=5000 2>&1 | FileCheck %s --check-prefix=DEVICES-RANGE
// RUN: not deplodock-tune %s --no-db --kernel=nope 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not deplodock-tune %s --no-db --knobs-out=%t/no/such/dir/k 2>&1 | FileCheck %s --check-prefix=KNOBS-OUT
// RUN: not deplodock-tune %s --db= 2>&1 | FileCheck %s --check-prefix=EMPTY-PATH
// RUN: not deplodock-tune %s --db=%t/x.db --no-db 2>&1 | FileCheck %s --check-prefix=BOTH-DB
// RUN: echo garbage > %t/corrupt.db
// RUN: not deplodock-tune %s --db=%t/corrupt.db 2>&1 | FileCheck %s --check-prefix=DB
// RUN: not deplodock-tune %t/no-such-input.mlir 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not deplodock-tune 2>&1 | FileCheck %s --check-prefix=NO-INPUT
// RUN: not deplodock-tune %S/Inputs/unknown-op.mlir --no-db 2>&1 | FileCheck %s --check-prefix=PARSE

/// Budgets too large to mean anything but "no limit" are clamped, not refused.
// RUN: deplodock-tune %s --no-db --max-seconds=1e300 --max-variants=2 --quiet | FileCheck %s --check-prefix=CLAMPED

/// A table or knobs file that cannot be written is an error, and a device
/// named as the file stays a device (the temporary-and-rename that keeps a
/// regular file whole would replace /dev/full with a file as root).
// RUN: not deplodock-tune %s --no-db --max-variants=1 --quiet --record-table=/dev/full 2>&1 | FileCheck %s --check-prefix=TABLE-FULL
// TABLE-FULL: error: cannot write latency table '/dev/full': {{.+}}
// RUN: not deplodock-tune %s --no-db --max-variants=1 --quiet --knobs-out=/dev/full 2>&1 | FileCheck %s --check-prefix=KNOBS-FULL
// KNOBS-FULL: error: cannot write '/dev/full': {{.+}}
// RUN: test -c /dev/full

func.func @double(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// SEARCH: error: --search: unknown search strategy 'annealing' (expected one of: mcts, greedy, random, beam, exhaustive)
// COMPARE: error: --compare: unknown search strategy 'annealing'
// NO-STRATEGIES: error: --compare: expected a list of strategies
// BUDGET-ZERO: error: --budgets: a budget must be at least 1
// RUNS: error: --runs must be between 1 and 1000, got 0
// RUNS-HIGH: error: --runs must be between 1 and 1000, got 1001
// BUDGETS-UNUSED: error: --budgets, --runs and --reference-table are only read by --compare
// STALE-REFERENCE: error: --reference-table: {{.*}}sm80.json was recorded in context 'model-sm_80-v12', not 'model-sm_90-v12' this comparison measures in; recompute it (for the model: scripts/compare-search.sh --best-known)
// KNOBS-MODE: error: --knobs-out: only a tuning run writes winners
// RECORD-TABLE: error: --record-table: only a tuning run records latencies
// MODES: error: --compare, --time-lowering, --count-variants, --list-db, --show and --prune are separate modes: give one
// PATIENCE: error: --patience must not be negative, got -2
// VARIANTS: error: --max-variants must not be negative, got -1
// JOBS-ZERO: error: --jobs must be between 1 and 1024, got 0
// JOBS-HUGE: error: --jobs must be between 1 and 1024, got 5000
// VARIANTS-HUGE: for the --max-variants option: '99999999999999999999' value invalid
// TOTAL: error: --total-variants must not be negative, got -3
// TOTAL-AND-MAX: error: --total-variants shares one budget over the kernels; it replaces --max-variants
// SECONDS: error: --max-seconds must be a non-negative number
// EXPLORATION: error: --exploration must be a number in [0, 1000]
// BEAM: error: --beam-width must be between 1 and 4096, got 0
// TIMING: error: --time-lowering must be at most 100000, got 100001
// PRIOR: error: --prior: unknown prior 'oracle' (expected model or none)
// PRIOR-NOISE: error: --prior-noise must be a number in [0, 10]
// TARGET: error: --target: unknown target 'sm_70' (expected sm_80, sm_90 or sm_90a)
// BACKEND: error: --backend: unknown backend 'tpu' (expected one of: model, replay, cuda)
// NO-TABLE: error: --backend=replay needs --replay-table
// TABLE-UNUSED: error: --replay-table is only read by --backend=replay
// TABLE-MISSING: error: cannot read latency table '{{.*}}missing.json'
// CUDA-ONLY: error: --devices is only read by --backend=cuda
// CUDA-ONLY-FAKE: error: --fake-device is only read by --backend=cuda
// DEVICES-TWICE: error: --devices: GPU 0 is listed twice
// DEVICES-RANGE: error: --devices: GPU 5000 is out of range (0-1023)
// KERNEL: error: no kernel @nope in '{{.*}}errors.mlir'
// KNOBS-OUT: error: cannot write '{{.*}}k':
// EMPTY-PATH: error: --db: the path is empty (leave --db out for the default database, or pass --no-db)
// BOTH-DB: error: --db and --no-db contradict each other
// DB: error: tune database '{{.*}}corrupt.db': {{.*}}(the file is not an SQLite database; move it away or choose another path)
// INPUT: error: cannot open input file '{{.*}}no-such-input.mlir'
// NO-INPUT: error: no input file (deplodock-tune LAYER.mlir; see --help)
// PARSE: unknown-op.mlir:2:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// CLAMPED: double_0_pointwise
