// Fuzz finding, area interp-memory (fuzz/FINDINGS.md #5): the SIMT engine
// simulates a grid of 2^31 - 1 blocks for hours instead of refusing it.
// Found as ir #144 of seed 11: sdpa.kernel-simplest with "integer 1 ->
// 2147483647" (grid.x). A refusal takes well under the 20 s allowed.
// RUN: %fuzz_check --expect=diagnosed --timeout=20 -- deplodock-run --interp %s --print=summary
module {
  dkernel.func @sdpa_0_reduce(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<4x8x8xf32>) outputs [2] grid [1, 2, 4] block [32, 1, 1] smem 0 attributes {dtile.knobs = #dtile.knobs<BM = 4, BN = 8, FM = 1, FN = 1, unroll = 1>} {
    %cst = arith.constant 0.353553385 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %c-4 = arith.constant -4 : index
    %c-1 = arith.constant -1 : index
    %block_id_z = gpu.block_id  z
    %block_id_y = gpu.block_id  y
    %thread_id_x = gpu.thread_id  x
    %0 = arith.remui %thread_id_x, %c8 : index
    %1 = arith.divui %thread_id_x, %c8 : index
    %2 = scf.for %arg3 = %c0 to %c8 step %c1 iter_args(%arg4 = %cst_1) -> (f32) {
      %12 = arith.muli %block_id_y, %c4 : index
      %13 = arith.addi %12, %1 : index
      %14 = memref.load %arg0[%c0, %block_id_z, %13, %arg3] : memref<1x4x8x8xf32>
      %15 = arith.divui %block_id_z, %c2 : index
      %16 = memref.load %arg1[%c0, %15, %0, %arg3] : memref<1x2x8x8xf32>
      %17 = arith.mulf %14, %16 : f32
      %18 = arith.addf %arg4, %17 : f32
      scf.yield %18 : f32
    }
    %3 = arith.muli %block_id_y, %c-4 : index
    %4 = arith.subi %3, %1 : index
    %5 = arith.addi %4, %0 : index
    %6 = arith.addi %5, %c-1 : index
    %7 = arith.cmpi sge, %6, %c0 : index
    %8 = arith.mulf %2, %cst : f32
    %9 = arith.select %7, %cst_0, %8 : f32
    %10 = arith.muli %block_id_y, %c4 : index
    %11 = arith.addi %10, %1 : index
    memref.store %9, %arg2[%block_id_z, %11, %0] : memref<4x8x8xf32>
    dkernel.return
  }
  dkernel.func @sdpa_1_reduce(%arg0: memref<4x8x8xf32>, %arg1: memref<4x8x8xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 0 attributes {dtile.knobs = #dtile.knobs<block_threads = 32, threads = 1, unroll = 1>} {
    %cst = arith.constant 0x7FC00000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %thread_id_x = gpu.thread_id  x
    %0 = arith.remui %thread_id_x, %c8 : index
    %1 = arith.divui %thread_id_x, %c8 : index
    %2 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %cst) -> (f32) {
      %4 = memref.load %arg0[%1, %0, %arg2] : memref<4x8x8xf32>
      %5 = arith.maxnumf %arg3, %4 : f32
      scf.yield %5 : f32
    }
    %3 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %cst_0) -> (f32) {
      %4 = memref.load %arg0[%1, %0, %arg2] : memref<4x8x8xf32>
      %5 = arith.subf %4, %2 : f32
      %6 = math.exp %5 : f32
      %7 = arith.addf %arg3, %6 : f32
      scf.yield %7 : f32
    }
    scf.for %arg2 = %c0 to %c8 step %c1 {
      %4 = memref.load %arg0[%1, %0, %arg2] : memref<4x8x8xf32>
      %5 = arith.subf %4, %2 : f32
      %6 = math.exp %5 : f32
      %7 = arith.divf %6, %3 : f32
      memref.store %7, %arg1[%1, %0, %arg2] : memref<4x8x8xf32>
    }
    dkernel.return
  }
  dkernel.func @sdpa_2_reduce(%arg0: memref<4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x4x8x8xf32>) outputs [2] grid [2147483647, 2, 4] block [32, 1, 1] smem 0 attributes {dtile.knobs = #dtile.knobs<BM = 4, BN = 8, FM = 1, FN = 1, unroll = 1>} {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %block_id_z = gpu.block_id  z
    %block_id_y = gpu.block_id  y
    %thread_id_x = gpu.thread_id  x
    %0 = arith.remui %thread_id_x, %c8 : index
    %1 = arith.divui %thread_id_x, %c8 : index
    %2 = scf.for %arg3 = %c0 to %c8 step %c1 iter_args(%arg4 = %cst) -> (f32) {
      %5 = arith.muli %block_id_y, %c4 : index
      %6 = arith.addi %5, %1 : index
      %7 = memref.load %arg0[%block_id_z, %6, %arg3] : memref<4x8x8xf32>
      %8 = arith.divui %block_id_z, %c2 : index
      %9 = memref.load %arg1[%c0, %8, %arg3, %0] : memref<1x2x8x8xf32>
      %10 = arith.mulf %7, %9 : f32
      %11 = arith.addf %arg4, %10 : f32
      scf.yield %11 : f32
    }
    %3 = arith.muli %block_id_y, %c4 : index
    %4 = arith.addi %3, %1 : index
    memref.store %2, %arg2[%c0, %block_id_z, %4, %0] : memref<1x4x8x8xf32>
    dkernel.return
  }
  func.func @sdpa(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<4x8x8xf32>
    dkernel.launch @sdpa_0_reduce(%arg0, %arg1, %alloc) : memref<1x4x8x8xf32>, memref<1x2x8x8xf32>, memref<4x8x8xf32>
    %alloc_0 = memref.alloc() : memref<4x8x8xf32>
    dkernel.launch @sdpa_1_reduce(%alloc, %alloc_0) : memref<4x8x8xf32>, memref<4x8x8xf32>
    %alloc_1 = memref.alloc() : memref<1x4x8x8xf32>
    dkernel.launch @sdpa_2_reduce(%alloc_0, %arg2, %alloc_1) : memref<4x8x8xf32>, memref<1x2x8x8xf32>, memref<1x4x8x8xf32>
    return %alloc_1 : memref<1x4x8x8xf32>
  }
}

