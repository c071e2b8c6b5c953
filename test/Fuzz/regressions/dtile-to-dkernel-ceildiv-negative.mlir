// Fuzz finding, area decision-layer (fuzz/FINDINGS.md #1): the Kernel
// lowering of a ceildiv by -2 crashes.
// Found as ir #999 of seed 11: naive_attn.tile-simplest with
// "integer 8 -> 16; affine d3 -> (d3 ceildiv -2)".
// RUN: %fuzz_check --expect=diagnosed -- deplodock-opt %s --convert-dtile-to-dkernel
#map = affine_map<(d0, d1, d2, d3) -> (d0 * -4 + d1 * 8 - d2 + (d3 ceildiv -2) - 1)>
module {
  func.func @naive_attn(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x4x8x8xf32>, %arg2: memref<1x4x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<4x8x8xf32>
    dtile.kernel @naive_attn_0_reduce knobs<BM = 4, BN = 8, FM = 1, FN = 1, unroll = 1> ins(%in0 = %arg0 : memref<1x4x8x8xf32>, %in1 = %arg1 : memref<1x4x8x8xf32>) outs(%out0 = %alloc : memref<4x8x8xf32>) {
      %cst = arith.constant 0.353553385 : f32
      %cst_2 = arith.constant 0.000000e+00 : f32
      %cst_3 = arith.constant -1.000000e+09 : f32
      %c0 = arith.constant 0 : index
      dtile.tile blocks(%d0 : 4 "d0", %d1_o : 2 "d1_o", %d2_o : 1 "d2_o") threads(%d1_i : 4 "d1_i", %d2_i : 8 "d2_i") {
        %0 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_2 : f32) {
          %6 = dloop.load %in0[0, %d0, %d1_o * 4 + %d1_i, %r0] : memref<1x4x8x8xf32>
          %7 = dloop.load %in1[0, %d0, %d2_o * 8 + %d2_i, %r0] : memref<1x4x8x8xf32>
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %acc, %8 : f32
          dloop.yield %9 : f32
        }
        %1 = affine.apply #map(%d1_o, %d2_o, %d1_i, %d2_i)
        %2 = arith.cmpi sge, %1, %c0 : index
        %3 = arith.select %2, %cst_3, %cst_2 : f32
        %4 = arith.mulf %0, %cst : f32
        %5 = arith.addf %4, %3 : f32
        dloop.store %5, %out0[%d0, %d1_o * 4 + %d1_i, %d2_o * 8 + %d2_i] : memref<4x8x8xf32>
      }
    }
    %alloc_0 = memref.alloc() : memref<4x8x8xf32>
    dtile.kernel @naive_attn_1_reduce knobs<block_threads = 32, threads = 1, unroll = 1> ins(%in0 = %alloc : memref<4x8x8xf32>) outs(%out0 = %alloc_0 : memref<4x8x8xf32>) {
      %cst = arith.constant 0x7FC00000 : f32
      %cst_2 = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%unit : 1 "unit") threads(%d0 : 4 "d0", %d1 : 8 "d1") {
        %0 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst : f32) {
          %2 = dloop.load %in0[%d0, %d1, %r0] : memref<4x8x8xf32>
          %3 = arith.maxnumf %acc, %2 : f32
          dloop.yield %3 : f32
        }
        %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc = %cst_2 : f32) {
          %2 = dloop.load %in0[%d0, %d1, %r1] : memref<4x8x8xf32>
          %3 = arith.subf %2, %0 : f32
          %4 = math.exp %3 : f32
          %5 = arith.addf %acc, %4 : f32
          dloop.yield %5 : f32
        }
        dloop.for %d2 = 0 to 8 free "d2" {
          %2 = dloop.load %in0[%d0, %d1, %d2] : memref<4x8x8xf32>
          %3 = arith.subf %2, %0 : f32
          %4 = math.exp %3 : f32
          %5 = arith.divf %4, %1 : f32
          dloop.store %5, %out0[%d0, %d1, %d2] : memref<4x8x8xf32>
        }
      }
    }
    %alloc_1 = memref.alloc() : memref<1x4x8x8xf32>
    dtile.kernel @naive_attn_2_reduce knobs<BM = 4, BN = 8, FM = 1, FN = 1, unroll = 1> ins(%in0 = %alloc_0 : memref<4x8x8xf32>, %in1 = %arg2 : memref<1x4x8x8xf32>) outs(%out0 = %alloc_1 : memref<1x4x8x8xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0 : 4 "d0", %d1_o : 2 "d1_o", %d2_o : 1 "d2_o") threads(%d1_i : 4 "d1_i", %d2_i : 8 "d2_i") {
        %0 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%d0, %d1_o * 4 + %d1_i, %r0] : memref<4x8x8xf32>
          %2 = dloop.load %in1[0, %d0, %r0, %d2_o * 16 + %d2_i] : memref<1x4x8x8xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[0, %d0, %d1_o * 4 + %d1_i, %d2_o * 8 + %d2_i] : memref<1x4x8x8xf32>
      }
    }
    return %alloc_1 : memref<1x4x8x8xf32>
  }
}

