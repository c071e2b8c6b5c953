// RUN: deplodock-opt %s -split-input-file -verify-diagnostics

/// dkernel.wait_prior_grids and dkernel.launch_dependents (DKernelOps.td,
/// grid dependencies): each located error.

/// A store before the wait could race with the grid before.
dkernel.func @late(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %t = gpu.thread_id x
  %f = arith.constant 1.0 : f32
  // expected-note @+1 {{this op touches memory before it}}
  memref.store %f, %y[%t] : memref<64xf32>
  // expected-error @+1 {{'dkernel.wait_prior_grids' op must come before every op that touches memory}}
  dkernel.wait_prior_grids
  dkernel.return
}

// -----

/// Only in the kernel's body: a wait under a branch is not executed by
/// every thread before it touches memory.
dkernel.func @nested(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %p = arith.cmpi eq, %t, %c0 : index
  scf.if %p {
    // expected-error @+1 {{'dkernel.wait_prior_grids' op expects parent op 'dkernel.func'}}
    dkernel.wait_prior_grids
  }
  dkernel.return
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  dkernel.func @ampere_wait(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
    // expected-error @+1 {{'dkernel.wait_prior_grids' op needs a target with programmatic dependent launch, not sm_80}}
    dkernel.wait_prior_grids
    dkernel.return
  }
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  dkernel.func @ampere_signal(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
    // expected-error @+1 {{'dkernel.launch_dependents' op needs a target with programmatic dependent launch, not sm_80}}
    dkernel.launch_dependents
    dkernel.return
  }
}

// -----

/// The signal belongs in a kernel.
func.func @host() {
  // expected-error @+1 {{'dkernel.launch_dependents' op must be nested in a dkernel.func}}
  dkernel.launch_dependents
  return
}
