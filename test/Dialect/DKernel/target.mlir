// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s

/// A module's target round-trips field by field; the fields may come in any
/// order and print in one.
// CHECK: module attributes {dkernel.target = #dkernel.target<"sm_86", capability = 86, sm_count = 84, smem_per_block = 101376, smem_per_sm = 102400, threads_per_block = 1024, threads_per_sm = 1536, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = [cp_async]>}
module attributes {dkernel.target = #dkernel.target<"sm_86", features = [cp_async], warp_size = 32, capability = 86, sm_count = 84, smem_per_block = 101376, smem_per_sm = 102400, threads_per_block = 1024, threads_per_sm = 1536, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, l2_bytes = 4194304>} {
}
