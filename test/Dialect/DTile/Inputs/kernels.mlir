// Loop-level kernels the Tile-rule tests start from (produced by
// deplodock-opt --lower-to-loop from small linalg layers).
module {
  func.func @matmul(%arg0: memref<16x128xf32>, %arg1: memref<128x64xf32>) -> memref<16x64xf32> {
    %alloc = memref.alloc() : memref<16x64xf32>
    dloop.kernel @matmul_0_reduce ins(%in0 = %arg0 : memref<16x128xf32>, %in1 = %arg1 : memref<128x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 16 free "d0" {
        dloop.for %d1 = 0 to 64 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<16x128xf32>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x64xf32>
            %3 = arith.mulf %1, %2 : f32
            %4 = arith.addf %acc, %3 : f32
            dloop.yield %4 : f32
          }
          dloop.store %0, %out0[%d0, %d1] : memref<16x64xf32>
        }
      }
    }
    return %alloc : memref<16x64xf32>
  }
  func.func @rowsum(%arg0: memref<8x512xf32>) -> memref<8x512xf32> {
    %alloc = memref.alloc() : memref<8x512xf32>
    dloop.kernel @rowsum_0_reduce ins(%in0 = %arg0 : memref<8x512xf32>) outs(%out0 = %alloc : memref<8x512xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 8 free "d0" {
        %0 = dloop.for %r0 = 0 to 512 reduce "r0" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%d0, %r0] : memref<8x512xf32>
          %2 = arith.addf %acc, %1 : f32
          dloop.yield %2 : f32
        }
        dloop.for %d1 = 0 to 512 free "d1" {
          %1 = dloop.load %in0[%d0, %d1] : memref<8x512xf32>
          %2 = arith.divf %1, %0 : f32
          dloop.store %2, %out0[%d0, %d1] : memref<8x512xf32>
        }
      }
    }
    return %alloc : memref<8x512xf32>
  }
  func.func @scale(%arg0: memref<4x256xf32>) -> memref<4x256xf32> {
    %alloc = memref.alloc() : memref<4x256xf32>
    dloop.kernel @scale_0_pointwise ins(%in0 = %arg0 : memref<4x256xf32>) outs(%out0 = %alloc : memref<4x256xf32>) {
      %cst = arith.constant 2.000000e+00 : f32
      dloop.for %d0 = 0 to 4 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.load %in0[%d0, %d1] : memref<4x256xf32>
          %1 = arith.mulf %0, %cst : f32
          dloop.store %1, %out0[%d0, %d1] : memref<4x256xf32>
        }
      }
    }
    return %alloc : memref<4x256xf32>
  }
  func.func @gemv(%arg0: memref<256x64xf32>, %arg1: memref<256xf32>) -> memref<64xf32> {
    %alloc = memref.alloc() : memref<64xf32>
    dloop.kernel @gemv_0_reduce ins(%in0 = %arg1 : memref<256xf32>, %in1 = %arg0 : memref<256x64xf32>) outs(%out0 = %alloc : memref<64xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        %0 = dloop.for %r0 = 0 to 256 reduce "r0" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%r0] : memref<256xf32>
          %2 = dloop.load %in1[%r0, %d0] : memref<256x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%d0] : memref<64xf32>
      }
    }
    return %alloc : memref<64xf32>
  }
}

