// Loop-level half-precision matmuls the wgmma_async tests start from, on
// sm_90a: a linear layer (both operands K-major) at tile multiples, one at
// sizes no tile divides, one whose B is held K x N (MN-major), one whose A
// is held K x M as well, one whose B is neither (N not innermost beside K)
// and one too short in K for a TMA box.
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @linear(%arg0: memref<128x128xbf16>, %arg1: memref<128x128xbf16>) -> memref<128x128xbf16> {
    %alloc = memref.alloc() : memref<128x128xbf16>
    dloop.kernel @linear_0_reduce ins(%in0 = %arg0 : memref<128x128xbf16>, %in1 = %arg1 : memref<128x128xbf16>) outs(%out0 = %alloc : memref<128x128xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 128 free "d0" {
        dloop.for %d1 = 0 to 128 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<128x128xbf16>
            %2 = dloop.load %in1[%d1, %r0] : memref<128x128xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<128x128xbf16>
        }
      }
    }
    return %alloc : memref<128x128xbf16>
  }
  func.func @ragged(%arg0: memref<100x136xf16>, %arg1: memref<72x136xf16>) -> memref<100x72xf16> {
    %alloc = memref.alloc() : memref<100x72xf16>
    dloop.kernel @ragged_0_reduce ins(%in0 = %arg0 : memref<100x136xf16>, %in1 = %arg1 : memref<72x136xf16>) outs(%out0 = %alloc : memref<100x72xf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 100 free "d0" {
        dloop.for %d1 = 0 to 72 free "d1" {
          %0 = dloop.for %r0 = 0 to 136 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<100x136xf16>
            %2 = dloop.load %in1[%d1, %r0] : memref<72x136xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to f16
          dloop.store %7, %out0[%d0, %d1] : memref<100x72xf16>
        }
      }
    }
    return %alloc : memref<100x72xf16>
  }
  func.func @kn(%arg0: memref<128x128xf16>, %arg1: memref<128x256xf16>) -> memref<128x256xf16> {
    %alloc = memref.alloc() : memref<128x256xf16>
    dloop.kernel @kn_0_reduce ins(%in0 = %arg0 : memref<128x128xf16>, %in1 = %arg1 : memref<128x256xf16>) outs(%out0 = %alloc : memref<128x256xf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 128 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<128x128xf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x256xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to f16
          dloop.store %7, %out0[%d0, %d1] : memref<128x256xf16>
        }
      }
    }
    return %alloc : memref<128x256xf16>
  }
  func.func @tm(%arg0: memref<128x128xf16>, %arg1: memref<128x64xf16>) -> memref<128x64xf16> {
    %alloc = memref.alloc() : memref<128x64xf16>
    dloop.kernel @tm_0_reduce ins(%in0 = %arg0 : memref<128x128xf16>, %in1 = %arg1 : memref<128x64xf16>) outs(%out0 = %alloc : memref<128x64xf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 128 free "d0" {
        dloop.for %d1 = 0 to 64 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%r0, %d0] : memref<128x128xf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x64xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to f16
          dloop.store %7, %out0[%d0, %d1] : memref<128x64xf16>
        }
      }
    }
    return %alloc : memref<128x64xf16>
  }
  func.func @strided(%arg0: memref<128x128xf16>, %arg1: memref<128x2x64xf16>) -> memref<128x64xf16> {
    %alloc = memref.alloc() : memref<128x64xf16>
    dloop.kernel @strided_0_reduce ins(%in0 = %arg0 : memref<128x128xf16>, %in1 = %arg1 : memref<128x2x64xf16>) outs(%out0 = %alloc : memref<128x64xf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 128 free "d0" {
        dloop.for %d1 = 0 to 64 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<128x128xf16>
            %2 = dloop.load %in1[%r0, 1, %d1] : memref<128x2x64xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to f16
          dloop.store %7, %out0[%d0, %d1] : memref<128x64xf16>
        }
      }
    }
    return %alloc : memref<128x64xf16>
  }
  func.func @short(%arg0: memref<64x32xbf16>, %arg1: memref<64x32xbf16>) -> memref<64x64xbf16> {
    %alloc = memref.alloc() : memref<64x64xbf16>
    dloop.kernel @short_0_reduce ins(%in0 = %arg0 : memref<64x32xbf16>, %in1 = %arg1 : memref<64x32xbf16>) outs(%out0 = %alloc : memref<64x64xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        dloop.for %d1 = 0 to 64 free "d1" {
          %0 = dloop.for %r0 = 0 to 32 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<64x32xbf16>
            %2 = dloop.load %in1[%d1, %r0] : memref<64x32xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<64x64xbf16>
        }
      }
    }
    return %alloc : memref<64x64xbf16>
  }
}
