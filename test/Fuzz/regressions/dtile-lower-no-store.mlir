// Fuzz finding, area decision-layer (fuzz/FINDINGS.md #2): dtile-lower on a
// dloop.kernel that stores nothing crashes in TileOp::getThreadAxes.
// Found as ir #1409 of seed 11: matmul.loop with its dloop.store deleted.
// RUN: %fuzz_check -- deplodock-opt %s --dtile-lower
module {
  func.func @matmul(%arg0: memref<1x8x32xf32>, %arg1: memref<32x32xf32>) -> memref<1x8x32xf32> {
    %alloc = memref.alloc() : memref<1x8x32xf32>
    dloop.kernel @matmul_0_reduce ins(%in0 = %arg0 : memref<1x8x32xf32>, %in1 = %arg1 : memref<32x32xf32>) outs(%out0 = %alloc : memref<1x8x32xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 8 free "d0" {
        dloop.for %d1 = 0 to 32 free "d1" {
          %0 = dloop.for %r0 = 0 to 32 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[0, %d0, %r0] : memref<1x8x32xf32>
            %2 = dloop.load %in1[%r0, %d1] : memref<32x32xf32>
            %3 = arith.mulf %1, %2 : f32
            %4 = arith.addf %acc, %3 : f32
            dloop.yield %4 : f32
          }
        }
      }
    }
    return %alloc : memref<1x8x32xf32>
  }
}

