// Recording a latency table, comparing strategies on it, and timing the
// lowering of variants: the three things deplodock-tune does besides tuning.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %deplodock_src_root/examples/rmsnorm.mlir --no-db --search=exhaustive --record-table=%t/rmsnorm.json --quiet | FileCheck %s --check-prefix=RECORD
// RUN: FileCheck %s --check-prefix=TABLE < %t/rmsnorm.json
// RUN: deplodock-tune %deplodock_src_root/examples/rmsnorm.mlir --backend=replay --replay-table=%t/rmsnorm.json --compare=greedy,exhaustive | FileCheck %s --check-prefix=COMPARE
// RUN: deplodock-tune %deplodock_src_root/examples/rmsnorm.mlir --no-db --time-lowering=3 | FileCheck %s --check-prefix=TIMING
/// Budgets and runs: each strategy's median best / reference after 2 and 6
/// variants over three seeds, and, for several kernels, a summary against
/// random (here two kernels: the RMSNorm and a pointwise one). The best of
/// the runs is the reference where a run finds it (random's, at these
/// seeds); mcts may not within six variants of a 22-way tree.
// RUN: deplodock-tune %deplodock_src_root/examples/rmsnorm.mlir --backend=replay --replay-table=%t/rmsnorm.json --compare=mcts,random --budgets=6,2 --runs=3 | FileCheck %s --check-prefix=BUDGETS
// RUN: cat %deplodock_src_root/examples/rmsnorm.mlir %deplodock_src_root/examples/silu_mul.mlir > %t/two.mlir
// RUN: deplodock-tune %t/two.mlir --compare=mcts,random --budgets=2,4 --runs=2 | FileCheck %s --check-prefix=SUMMARY

/// Twelve variants of the RMSNorm, the best 1024 threads per row.
// RECORD: rmsnorm_0_reduce {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}x 22 {{[0-9.]+}}s threads=1024
// TABLE: "format": "deplodock-latency-table"
// TABLE: "name": "rmsnorm_0_reduce"
// TABLE: "threads=1024": {

/// Replayed, greedy stops at the default (more than 2% slower than the best),
/// exhaustive measures all twelve.
// COMPARE: @rmsnorm_0_reduce:
// COMPARE-NEXT: reference [[REF:[0-9.]+]] us, target within 2.0%
// COMPARE-NEXT: strategy best us measured to target stopped
// COMPARE-NEXT: greedy {{[0-9.]+}} 1 never completed
// COMPARE-NEXT: exhaustive [[REF]] 22 {{[0-9]+}} exhausted

// BUDGETS: reference [[REF:[0-9.]+]] us, target within 2.0%, 3 runs per strategy (median)
// BUDGETS-NEXT: strategy best us measured to target @2 @6 stopped
// BUDGETS-NEXT: mcts {{[0-9.]+}} 6 {{[0-9a-z]+}} ({{[0-9]}}/3) {{[0-9.]+}} {{[0-9.]+}} variant_budget
// BUDGETS-NEXT: random [[REF]] 6 {{[0-9]+}} ({{[0-9]}}/3) {{[0-9.]+}} {{[0-9.]+}} variant_budget

// SUMMARY: over 2 kernels: median of best / reference; kernels within 2.0%; against random: kernels better, equal, worse
// SUMMARY-NEXT: strategy budget median within vs random
// SUMMARY-NEXT: mcts 2 {{[0-9.]+}} {{[0-2]}}/2 {{[0-2]/[0-2]/[0-2]}}
// SUMMARY-NEXT: mcts 4 {{[0-9.]+}} {{[0-2]}}/2 {{[0-2]/[0-2]/[0-2]}}
// SUMMARY-NEXT: random 2 {{[0-9.]+}} {{[0-2]}}/2 0/2/0
// SUMMARY-NEXT: random 4 {{[0-9.]+}} {{[0-2]}}/2 0/2/0

// TIMING: kernel variants mean ms median ms max ms
// TIMING-NEXT: rmsnorm_0_reduce 3 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}
