// Fuzz finding, area interp-memory (fuzz/FINDINGS.md #3): the interpreter
// draws inputs of 2^31 x 32 elements under a 4 GB limit and dies ("LLVM
// ERROR: out of memory") instead of refusing the layer.
// Found as ir #265 of seed 11: matmul_add.kernel-simplest with an extent of
// 2^31.
// RUN: %fuzz_check --expect=diagnosed -- deplodock-run --interp %s --print=summary
module {
  dkernel.func @matmul_add_0_reduce(%arg0: memref<1x8x2147483648xf32>, %arg1: memref<1x8x2147483648xf32>, %arg2: memref<32x32xf32>, %arg3: memref<1x8x2147483648xf32>) outputs [3] grid [4, 2, 1] block [32, 1, 1] smem 0 attributes {dtile.knobs = #dtile.knobs<BK = 16, BM = 4, BN = 8, FM = 1, FN = 1, stage = [], unroll = 1>} {
    %cst = arith.constant 0.000000e+00 : f32
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %block_id_y = gpu.block_id  y
    %block_id_x = gpu.block_id  x
    %thread_id_x = gpu.thread_id  x
    %0 = arith.remui %thread_id_x, %c8 : index
    %1 = arith.divui %thread_id_x, %c8 : index
    %2 = scf.for %arg4 = %c0 to %c2 step %c1 iter_args(%arg5 = %cst) -> (f32) {
      %9 = scf.for %arg6 = %c0 to %c16 step %c1 iter_args(%arg7 = %arg5) -> (f32) {
        %10 = arith.muli %block_id_y, %c4 : index
        %11 = arith.addi %10, %1 : index
        %12 = arith.muli %arg4, %c16 : index
        %13 = arith.addi %12, %arg6 : index
        %14 = memref.load %arg1[%c0, %11, %13] : memref<1x8x2147483648xf32>
        %15 = arith.muli %block_id_x, %c8 : index
        %16 = arith.addi %15, %0 : index
        %17 = memref.load %arg2[%13, %16] : memref<32x32xf32>
        %18 = arith.mulf %14, %17 : f32
        %19 = arith.addf %arg7, %18 : f32
        scf.yield %19 : f32
      }
      scf.yield %9 : f32
    }
    %3 = arith.muli %block_id_y, %c4 : index
    %4 = arith.addi %3, %1 : index
    %5 = arith.muli %block_id_x, %c8 : index
    %6 = arith.addi %5, %0 : index
    %7 = memref.load %arg0[%c0, %4, %6] : memref<1x8x2147483648xf32>
    %8 = arith.addf %2, %7 : f32
    memref.store %8, %arg3[%c0, %4, %6] : memref<1x8x2147483648xf32>
    dkernel.return
  }
  func.func @matmul_add(%arg0: memref<1x8x2147483648xf32>, %arg1: memref<32x32xf32>, %arg2: memref<1x8x2147483648xf32>) -> memref<1x8x2147483648xf32> {
    %alloc = memref.alloc() : memref<1x8x2147483648xf32>
    dkernel.launch @matmul_add_0_reduce(%arg2, %arg0, %arg1, %alloc) : memref<1x8x2147483648xf32>, memref<1x8x2147483648xf32>, memref<32x32xf32>, memref<1x8x2147483648xf32>
    return %alloc : memref<1x8x2147483648xf32>
  }
}

