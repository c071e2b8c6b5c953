// RUN: %python %S/../Examples/Inputs/half_matmul.py bf16 512 2048 2048 > %t.bf16.mlir
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:pipeline=true,stages=4,warpgroups=2,wgmma=true,wgmma_n=256,refill_late=true,cluster_m=1" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:pipeline=true,stages=4,warpgroups=2,wgmma=true,wgmma_n=256,refill_late=true,cluster_m=2" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAIRS
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:pipeline=true,stages=4,warpgroups=2,wgmma=true,wgmma_n=256,refill_late=true,warp_specialize=true,cluster_m=1" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS-ALONE
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:pipeline=true,stages=4,warpgroups=2,wgmma=true,wgmma_n=256,refill_late=true,warp_specialize=true,cluster_m=2" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS-PAIRS

/// cluster_multicast: a block of a 2-block cluster streams its own A slab
/// but half of B's (its half of each multicast box), so the L2 time drops
/// by a third of the operand traffic (B is 256 columns to A's 128 rows);
/// the waits for a slot's release by the cluster are no copy waits (the
/// pipeline depth counts the "full" mbarriers only), but in the lock-step
/// kernel every thread waits for the peer each step: 35 waits (32 chunks,
/// 3 prologue fills) of 1400 clocks at 1.98 GHz add 24.75 us of latency,
/// as measured on the H200 (0.58-0.79 us a step). Warp-specialised, the
/// producer's thread alone waits, ahead of the consumers: the pair keeps
/// the lower L2 time and the latency of the kernel alone.
// ALONE: remark: estimate of @matmul_0_reduce: tensor-bound, 19.91 us, {{.*}}; compute 0.00, tensor 17.91, l2 15.64, dram 5.16, shared 17.13, latency 12.12 us
// PAIRS: remark: estimate of @matmul_0_reduce: latency-bound, 38.87 us, {{.*}}; compute 0.00, tensor 17.91, l2 11.12, dram 5.16, shared 17.13, latency 36.87 us
// WS-ALONE: remark: estimate of @matmul_0_reduce: tensor-bound, 19.91 us, {{.*}}; compute 0.00, tensor 17.91, l2 15.64, dram 5.16, shared 17.13, latency 2.56 us
// WS-PAIRS: remark: estimate of @matmul_0_reduce: tensor-bound, 19.91 us, {{.*}}; compute 0.00, tensor 17.91, l2 11.12, dram 5.16, shared 17.13, latency 2.57 us
