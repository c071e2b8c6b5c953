// deplodock-tune --precision: TF32 and IEEE f32 tunings of one layer go to
// contexts of their own, and each lowering replays only the context of its
// own precision.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --db=%t/tune.db --max-variants=30 --precision=tf32 --knobs-out=%t/tf32.knobs --quiet | FileCheck %s --check-prefix=TF32
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --db=%t/tune.db --max-variants=30 --precision=ieee --knobs-out=%t/ieee.knobs --quiet | FileCheck %s --check-prefix=IEEE
// RUN: deplodock-tune --list-db --db=%t/tune.db | FileCheck %s --check-prefix=LIST
/// Only TF32 runs the f32 matmul on tensor cores.
// RUN: FileCheck %s --check-prefix=TF32-WINNER --input-file=%t/tf32.knobs
// RUN: FileCheck %s --check-prefix=IEEE-WINNER --input-file=%t/ieee.knobs

/// Each precision replays its own winner, down to the CUDA text.
// RUN: deplodock-opt --deplodock-pipeline="tune-db=%t/tune.db precision=tf32" %deplodock_src_root/examples/matmul.mlir | deplodock-translate --emit-cuda -o %t/tf32-replayed.cu
// RUN: deplodock-opt --deplodock-pipeline="knobs=$(cat %t/tf32.knobs) precision=tf32" %deplodock_src_root/examples/matmul.mlir | deplodock-translate --emit-cuda -o %t/tf32-explicit.cu
// RUN: diff %t/tf32-replayed.cu %t/tf32-explicit.cu
// RUN: deplodock-opt --deplodock-pipeline="tune-db=%t/tune.db" %deplodock_src_root/examples/matmul.mlir | deplodock-translate --emit-cuda -o %t/ieee-replayed.cu
// RUN: deplodock-opt --deplodock-pipeline="knobs=$(cat %t/ieee.knobs)" %deplodock_src_root/examples/matmul.mlir | deplodock-translate --emit-cuda -o %t/ieee-explicit.cu
// RUN: diff %t/ieee-replayed.cu %t/ieee-explicit.cu
// RUN: not diff -q %t/ieee-replayed.cu %t/tf32-replayed.cu
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-report precision=tf32" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT-TF32
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-report" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT-IEEE

/// Naming the other precision's context is an error, never a silent replay.
// RUN: not deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-context=model-sm_90-v12-tf32" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MISMATCH-IEEE
// RUN: not deplodock-opt --lower-to-tile="tune-db=%t/tune.db tune-context=model-sm_90-v12 precision=tf32" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MISMATCH-TF32

/// A re-run of one precision resumes its own rows only.
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --db=%t/tune.db --max-variants=30 --precision=tf32 2>&1 | FileCheck %s --check-prefix=RESUME

/// The same on the bench worker's fake GPU: two device contexts, and replay
/// by itself ("auto") takes the one of the lowering's precision.
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --backend=cuda --fake-device --db=%t/cuda.db --max-variants=2 --precision=tf32 --quiet > /dev/null
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --backend=cuda --fake-device --db=%t/cuda.db --max-variants=2 --quiet > /dev/null
// RUN: deplodock-tune --list-db --db=%t/cuda.db > %t/cuda.txt
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/cuda.db tune-report precision=tf32" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>> %t/cuda.txt
// RUN: deplodock-opt --lower-to-tile="tune-db=%t/cuda.db tune-report" %deplodock_src_root/examples/matmul.mlir -o /dev/null --mlir-print-op-on-diagnostic=false 2>> %t/cuda.txt
// RUN: FileCheck %s --check-prefix=CUDA --input-file=%t/cuda.txt

/// Without --precision the module's own choice holds (none: IEEE f32).
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --no-db --max-variants=2 --json | FileCheck %s --check-prefix=JSON-DEFAULT
// RUN: deplodock-tune %deplodock_src_root/examples/matmul.mlir --no-db --max-variants=2 --json --precision=tf32 | FileCheck %s --check-prefix=JSON-TF32

/// Bad values, as deplodock-run spells them.
// RUN: not deplodock-tune %deplodock_src_root/examples/matmul.mlir --no-db --precision=fp16 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not deplodock-tune %deplodock_src_root/examples/matmul.mlir --no-db --precision=TF32 2>&1 | FileCheck %s --check-prefix=BAD-CASE
// RUN: not deplodock-tune --list-db --db=%t/tune.db --precision=tf32 2>&1 | FileCheck %s --check-prefix=BAD-MODE

// TF32: latencies are estimated by the model backend (context model-sm_90-v12-tf32), not measured
// TF32: recorded in {{.*}}tune.db (context model-sm_90-v12-tf32)
// IEEE: latencies are estimated by the model backend (context model-sm_90-v12), not measured
// IEEE: recorded in {{.*}}tune.db (context model-sm_90-v12)

/// Each context holds what its 30 measurements made: the database counts
/// knob sets that generate the same kernel once, so up to 30 each.
// LIST: 2 contexts, 1 kernels, [[ALL:[0-9]+]] variants ([[ALL]] ok), 2 best
// LIST: context model-sm_90-v12 (model, {{.*}}, sm_90), {{[1-9][0-9]?}} variants
// LIST: matmul_0_reduce
// LIST: context model-sm_90-v12-tf32 (model, {{.*}}, sm_90, tf32), {{[1-9][0-9]?}} variants
// LIST: matmul_0_reduce

// TF32-WINNER: tensor_cores=true
// IEEE-WINNER-NOT: tensor_cores=true
// IEEE-WINNER: {{^}}matmul_0_reduce:BK=

// REPORT-TF32: remark: tune-db: @matmul_0_reduce: tuned ([[N:[0-9]+]] of [[N]] forks replayed) in context 'model-sm_90-v12-tf32'
// REPORT-IEEE: remark: tune-db: @matmul_0_reduce: tuned ([[N:[0-9]+]] of [[N]] forks replayed) in context 'model-sm_90-v12'

// MISMATCH-IEEE: error: context 'model-sm_90-v12-tf32' of tune database '{{.*}}tune.db' was tuned with precision=tf32, not the precision=ieee this lowering uses
// MISMATCH-TF32: error: context 'model-sm_90-v12' of tune database '{{.*}}tune.db' was tuned with precision=ieee, not the precision=tf32 this lowering uses

// RESUME: matmul_0_reduce: 30 variants (30 recorded)

// CUDA-DAG: context [[IEEEKEY:[0-9a-f]+]] (cuda, {{.*}}, sm_90), 2 variants
// CUDA-DAG: context [[TFKEY:[0-9a-f]+]] (cuda, {{.*}}, sm_90, tf32), 2 variants
// CUDA: remark: tune-db: @matmul_0_reduce: tuned ({{.*}}) in context '[[TFKEY]]'
// CUDA: remark: tune-db: @matmul_0_reduce: tuned ({{.*}}) in context '[[IEEEKEY]]'

// JSON-DEFAULT: "context": "model-sm_90-v12",
// JSON-DEFAULT: "precision": "ieee",
// JSON-TF32: "context": "model-sm_90-v12-tf32",
// JSON-TF32: "precision": "tf32",

// BAD: error: --precision must be ieee or tf32, got 'fp16'
// BAD-CASE: error: --precision must be ieee or tf32, got 'TF32'
// BAD-MODE: error: --precision: --list-db, --show and --prune list every context, of either precision
