// RUN: %python %S/../Examples/Inputs/half_matmul.py bf16 512 2048 2048 > %t.bf16.mlir
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:pipeline=true,stages=4,warpgroups=2,wgmma=true,wgmma_n=256,refill_late=true,cluster_m=1" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:pipeline=true,stages=4,warpgroups=2,wgmma=true,wgmma_n=256,refill_late=true,cluster_m=2" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAIRS

/// cluster_multicast: a block of a 2-block cluster streams its own A slab
/// but half of B's (its half of each multicast box), so the L2 time drops
/// by a third of the operand traffic (B is 256 columns to A's 128 rows);
/// the rest is the same kernel: the waits for a slot's release by the
/// cluster are no copy waits, and the pipeline depth counts the "full"
/// mbarriers only.
// ALONE: remark: estimate of @matmul_0_reduce: tensor-bound, 19.91 us, {{.*}}; compute 0.00, tensor 17.91, l2 15.64, dram 5.16, shared 17.13, latency 12.12 us
// PAIRS: remark: estimate of @matmul_0_reduce: tensor-bound, 19.91 us, {{.*}}; compute 0.00, tensor 17.91, l2 11.12, dram 5.16, shared 17.13, latency 12.12 us
