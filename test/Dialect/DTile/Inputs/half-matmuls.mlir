// Loop-level half-precision matmuls the mma_sync tests start from: A and B
// as a layer holds them, both stored the other way round at ragged sizes,
// a sum kept in f16, a batched one, and an f32 matmul the rule leaves alone.
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  func.func @mm(%arg0: memref<64x128xf16>, %arg1: memref<128x64xf16>) -> memref<64x64xf16> {
    %alloc = memref.alloc() : memref<64x64xf16>
    dloop.kernel @mm_0_reduce ins(%in0 = %arg0 : memref<64x128xf16>, %in1 = %arg1 : memref<128x64xf16>) outs(%out0 = %alloc : memref<64x64xf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        dloop.for %d1 = 0 to 64 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<64x128xf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x64xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to f16
          dloop.store %7, %out0[%d0, %d1] : memref<64x64xf16>
        }
      }
    }
    return %alloc : memref<64x64xf16>
  }
  func.func @ragged(%arg0: memref<40x37xbf16>, %arg1: memref<20x40xbf16>, %arg2: memref<37x20xf32>) -> memref<37x20xf32> {
    %alloc = memref.alloc() : memref<37x20xf32>
    dloop.kernel @ragged_0_reduce ins(%in0 = %arg0 : memref<40x37xbf16>, %in1 = %arg1 : memref<20x40xbf16>, %in2 = %arg2 : memref<37x20xf32>) outs(%out0 = %alloc : memref<37x20xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 37 free "d0" {
        dloop.for %d1 = 0 to 20 free "d1" {
          %0 = dloop.for %r0 = 0 to 40 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%r0, %d0] : memref<40x37xbf16>
            %2 = dloop.load %in1[%d1, %r0] : memref<20x40xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = dloop.load %in2[%d0, %d1] : memref<37x20xf32>
          %8 = arith.addf %0, %7 : f32
          dloop.store %8, %out0[%d0, %d1] : memref<37x20xf32>
        }
      }
    }
    return %alloc : memref<37x20xf32>
  }
  func.func @halfsum(%arg0: memref<16x32xf16>, %arg1: memref<32x8xf16>) -> memref<16x8xf16> {
    %alloc = memref.alloc() : memref<16x8xf16>
    dloop.kernel @halfsum_0_reduce ins(%in0 = %arg0 : memref<16x32xf16>, %in1 = %arg1 : memref<32x8xf16>) outs(%out0 = %alloc : memref<16x8xf16>) {
      %cst = arith.constant 0.000000e+00 : f16
      dloop.for %d0 = 0 to 16 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %0 = dloop.for %r0 = 0 to 32 reduce "r0" iter(%acc = %cst : f16) {
            %1 = dloop.load %in0[%d0, %r0] : memref<16x32xf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<32x8xf16>
            %3 = arith.mulf %1, %2 : f16
            %4 = arith.addf %acc, %3 : f16
            dloop.yield %4 : f16
          }
          dloop.store %0, %out0[%d0, %d1] : memref<16x8xf16>
        }
      }
    }
    return %alloc : memref<16x8xf16>
  }
  func.func @batched(%arg0: memref<3x16x32xf16>, %arg1: memref<3x32x16xf16>) -> memref<3x16x16xf32> {
    %alloc = memref.alloc() : memref<3x16x16xf32>
    dloop.kernel @batched_0_reduce ins(%in0 = %arg0 : memref<3x16x32xf16>, %in1 = %arg1 : memref<3x32x16xf16>) outs(%out0 = %alloc : memref<3x16x16xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %b = 0 to 3 free "b" {
        dloop.for %d0 = 0 to 16 free "d0" {
          dloop.for %d1 = 0 to 16 free "d1" {
            %0 = dloop.for %r0 = 0 to 32 reduce "r0" iter(%acc = %cst : f32) {
              %1 = dloop.load %in0[%b, %d0, %r0] : memref<3x16x32xf16>
              %2 = dloop.load %in1[%b, %r0, %d1] : memref<3x32x16xf16>
              %3 = arith.extf %1 : f16 to f32
              %4 = arith.extf %2 : f16 to f32
              %5 = arith.mulf %3, %4 : f32
              %6 = arith.addf %acc, %5 : f32
              dloop.yield %6 : f32
            }
            dloop.store %0, %out0[%b, %d0, %d1] : memref<3x16x16xf32>
          }
        }
      }
    }
    return %alloc : memref<3x16x16xf32>
  }
  func.func @single(%arg0: memref<16x32xf32>, %arg1: memref<32x8xf32>) -> memref<16x8xf32> {
    %alloc = memref.alloc() : memref<16x8xf32>
    dloop.kernel @single_0_reduce ins(%in0 = %arg0 : memref<16x32xf32>, %in1 = %arg1 : memref<32x8xf32>) outs(%out0 = %alloc : memref<16x8xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 16 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %0 = dloop.for %r0 = 0 to 32 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<16x32xf32>
            %2 = dloop.load %in1[%r0, %d1] : memref<32x8xf32>
            %3 = arith.mulf %1, %2 : f32
            %4 = arith.addf %acc, %3 : f32
            dloop.yield %4 : f32
          }
          dloop.store %0, %out0[%d0, %d1] : memref<16x8xf32>
        }
      }
    }
    return %alloc : memref<16x8xf32>
  }
}
