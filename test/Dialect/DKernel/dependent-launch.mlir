// RUN: deplodock-opt %s -split-input-file --dkernel-dependent-launch | FileCheck %s
// RUN: deplodock-opt %s -split-input-file --dkernel-dependent-launch --dkernel-dependent-launch | FileCheck %s
// RUN: deplodock-opt %s -split-input-file --dkernel-dependent-launch | deplodock-opt -split-input-file | FileCheck %s

/// dkernel-dependent-launch: on a target with dependent_launch every kernel
/// waits for the grids before it first, then lets the next one start; run
/// twice it adds nothing more, and the ops round-trip.

// CHECK-LABEL: dkernel.func @split
//  CHECK-NEXT:   dkernel.wait_prior_grids
//  CHECK-NEXT:   dkernel.launch_dependents
//  CHECK-NEXT:   gpu.thread_id
//   CHECK-NOT:   dkernel.wait_prior_grids
// CHECK-LABEL: dkernel.func @sum
//  CHECK-NEXT:   dkernel.wait_prior_grids
//  CHECK-NEXT:   dkernel.launch_dependents
//   CHECK-NOT:   dkernel.wait_prior_grids
//       CHECK: func.func @layer
//       CHECK:   dkernel.launch @split
//  CHECK-NEXT:   dkernel.launch @sum
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [clusters, cp_async, dependent_launch, mma_sync, tma]>} {
  dkernel.func @split(%x: memref<2x64xf32>, %w: memref<2x64xf32>) outputs [1] grid [2, 1, 1] block [64, 1, 1] smem 0 {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %v = memref.load %x[%b, %t] : memref<2x64xf32>
    memref.store %v, %w[%b, %t] : memref<2x64xf32>
    dkernel.return
  }
  dkernel.func @sum(%w: memref<2x64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [64, 1, 1] smem 0 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %a = memref.load %w[%c0, %t] : memref<2x64xf32>
    %b = memref.load %w[%c1, %t] : memref<2x64xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %y[%t] : memref<64xf32>
    dkernel.return
  }
  func.func @layer(%x: memref<2x64xf32>) -> memref<64xf32> {
    %w = memref.alloc() : memref<2x64xf32>
    %y = memref.alloc() : memref<64xf32>
    dkernel.launch @split(%x, %w) : memref<2x64xf32>, memref<2x64xf32>
    dkernel.launch @sum(%w, %y) : memref<2x64xf32>, memref<64xf32>
    return %y : memref<64xf32>
  }
}

// -----

/// sm_80 launches every grid after the last: nothing changes.
// CHECK-LABEL: dkernel.func @ampere
//   CHECK-NOT:   dkernel.wait_prior_grids
//   CHECK-NOT:   dkernel.launch_dependents
//       CHECK:   dkernel.return
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  dkernel.func @ampere(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
    %t = gpu.thread_id x
    %f = arith.constant 1.0 : f32
    memref.store %f, %y[%t] : memref<64xf32>
    dkernel.return
  }
}
