// Loop-level bf16 matmuls with a long K the tensor-core split-K tests
// start from, on sm_90a: one wgmma takes (x 64 x 1024 . W^T, W held
// 128 x 1024), one too short in M for wgmma's 64-row boxes (32 x 1024 .
// 1024 x 256), and one summing in bf16, which no split may lift to f32.
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @lin(%arg0: memref<64x1024xbf16>, %arg1: memref<128x1024xbf16>) -> memref<64x128xbf16> {
    %alloc = memref.alloc() : memref<64x128xbf16>
    dloop.kernel @lin_0_reduce ins(%in0 = %arg0 : memref<64x1024xbf16>, %in1 = %arg1 : memref<128x1024xbf16>) outs(%out0 = %alloc : memref<64x128xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        dloop.for %d1 = 0 to 128 free "d1" {
          %0 = dloop.for %r0 = 0 to 1024 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<64x1024xbf16>
            %2 = dloop.load %in1[%d1, %r0] : memref<128x1024xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<64x128xbf16>
        }
      }
    }
    return %alloc : memref<64x128xbf16>
  }
  func.func @thin(%arg0: memref<32x1024xbf16>, %arg1: memref<1024x256xbf16>) -> memref<32x256xbf16> {
    %alloc = memref.alloc() : memref<32x256xbf16>
    dloop.kernel @thin_0_reduce ins(%in0 = %arg0 : memref<32x1024xbf16>, %in1 = %arg1 : memref<1024x256xbf16>) outs(%out0 = %alloc : memref<32x256xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 32 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.for %r0 = 0 to 1024 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<32x1024xbf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<1024x256xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<32x256xbf16>
        }
      }
    }
    return %alloc : memref<32x256xbf16>
  }
  func.func @halfsum(%arg0: memref<32x1024xbf16>, %arg1: memref<1024x256xbf16>) -> memref<32x256xbf16> {
    %alloc = memref.alloc() : memref<32x256xbf16>
    dloop.kernel @halfsum_0_reduce ins(%in0 = %arg0 : memref<32x1024xbf16>, %in1 = %arg1 : memref<1024x256xbf16>) outs(%out0 = %alloc : memref<32x256xbf16>) {
      %cst = arith.constant 0.000000e+00 : bf16
      dloop.for %d0 = 0 to 32 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.for %r0 = 0 to 1024 reduce "r0" iter(%acc = %cst : bf16) {
            %1 = dloop.load %in0[%d0, %r0] : memref<32x1024xbf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<1024x256xbf16>
            %5 = arith.mulf %1, %2 : bf16
            %6 = arith.addf %acc, %5 : bf16
            dloop.yield %6 : bf16
          }
          %7 = arith.addf %0, %0 : bf16
          dloop.store %7, %out0[%d0, %d1] : memref<32x256xbf16>
        }
      }
    }
    return %alloc : memref<32x256xbf16>
  }
}
