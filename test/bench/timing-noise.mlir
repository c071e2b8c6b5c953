/// bench/timing.py's noise policy, without a GPU: a PyTorch timing whose
/// 90th percentile passes 1.3x its 10th is taken again, up to three times,
/// the quietest kept and marked noisy if it still is; the report marks such
/// a time with ≈ and names the cases under its summary. Before each timed
/// call the GPU spins long enough for the host to queue the whole call.
// RUN: %python %s.check.py %deplodock_src_root/bench | FileCheck %s

// CHECK: quiet: 1 attempt, spread 1.10, not noisy
// CHECK: settles: 2 attempts, spread 1.05, not noisy
// CHECK: stays noisy: 3 attempts, spread 2.00, noisy
// CHECK: single sample: spread 1.00
// CHECK: report: noisy in every attempt for 1 cases (marked ≈ below): matmul.a.
// CHECK: report: | matmul.a | 92.0 ≈ |
// CHECK: report: | matmul.b | 15.0 |
// CHECK: queue ahead: 70 us for 10, 2000 us for 10000
// CHECK: spin: 1500 cycles a us
// CHECK: timed: median 15.0 us, ahead 50 us or more: True, 1 attempt, last calls: flush spin record call record flush spin record call record
