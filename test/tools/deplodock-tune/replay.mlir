// deplodock-tune with the model backend fills a fresh database; then
// lower-to-tile with tune-db reproduces exactly the winner's kernel, the one
// knobs= with the winner's knobs gives, down to the CUDA text. The winner is
// not the heuristic default, so replay really changed something.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --db=%t/tune.db --max-variants=60 --knobs-out=%t/winner.knobs --quiet | FileCheck %s --check-prefix=TABLE
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db" %deplodock_src_root/examples/matmul.mlir -o %t/replayed.mlir
// RUN: deplodock-opt --lower-to-tile="knobs=$(cat %t/winner.knobs)" %deplodock_src_root/examples/matmul.mlir -o %t/explicit.mlir
// RUN: deplodock-opt --lower-to-tile %deplodock_src_root/examples/matmul.mlir -o %t/default.mlir
// RUN: diff %t/replayed.mlir %t/explicit.mlir
// RUN: not diff -q %t/replayed.mlir %t/default.mlir
// RUN: FileCheck %s --check-prefix=WINNER --input-file=%t/winner.knobs

/// The same through the whole compiler: identical CUDA.
// RUN: deplodock-opt --deplodock-pipeline="tune-db=%t/tune.db" %deplodock_src_root/examples/matmul.mlir | deplodock-translate --emit-cuda -o %t/replayed.cu
// RUN: deplodock-opt --deplodock-pipeline="knobs=$(cat %t/winner.knobs)" %deplodock_src_root/examples/matmul.mlir | deplodock-translate --emit-cuda -o %t/explicit.cu
// RUN: diff %t/replayed.cu %t/explicit.cu

/// The replay report: every fork followed the record of the model context.
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-report" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-report tune-context=model" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT
/// Explicit knobs still win; sm_80 has no record: option 0 everywhere.
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db knobs=BK=16" %deplodock_src_root/examples/matmul.mlir | FileCheck %s --check-prefix=EXPLICIT
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-report target=sm_80" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOCONTEXT

/// deplodock-run replays the same database in its pipelines.
// RUN: deplodock-run --interp %deplodock_src_root/examples/matmul.mlir --pipeline="lower-to-tile{tune-report}" --tune-db=%t/tune.db --print=none 2>&1 | FileCheck %s --check-prefix=REPORT

// TABLE: latencies are estimated by the model backend (context model-sm_90-v12), not measured
// TABLE: kernel default us best us speed-up variants time best knobs
// TABLE: matmul_0_reduce {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}x {{[0-9]+}} {{[0-9.]+}}s BK=
// TABLE: recorded in {{.*}}tune.db (context model-sm_90-v12)

// WINNER: {{^}}matmul_0_reduce:BK={{[0-9]+}},BM={{[0-9]+}},BN={{[0-9]+}},

// REPORT: remark: tune-db: @matmul_0_reduce: tuned ([[N:[0-9]+]] of [[N]] forks replayed) in context 'model-sm_90-v12'

// EXPLICIT: knobs<BK = 16,

// NOCONTEXT: remark: tune-db: @matmul_0_reduce: not tuned (0 of {{[0-9]+}} forks replayed) in context 'model-sm_80-v12', which it does not hold
