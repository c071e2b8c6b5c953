// RUN: deplodock-opt %s --split-input-file --dtile-tileify --dtile-wgmma-async=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %s --split-input-file --dtile-tileify --dtile-wgmma-async | FileCheck %s --check-prefix=DEFAULT

/// wgmma_async lists only block tiles whose accumulators fit in registers:
/// a thread holds wgmma_n / 2 f32 accumulators and needs 32 registers more
/// (addresses, descriptors, the epilogue), within its share of the block's
/// registers, min(registers_per_thread, registers_per_sm / threads).

/// Qwen's gate projection at 512 tokens (x 512 x 3584 . W 3584 x 18944) on
/// sm_90a: 4 warpgroups (512 threads, 128 registers each) cannot hold the
/// 128 accumulators of m64n256 (ptxas refused it, asking for 154), so
/// (4, 256) is not listed, but (4, 192) is (96 accumulators and the
/// margin: 128). The default, the largest tile with N a power of two
/// filling half the SMs, is 2 warpgroups by 256 (255 registers each),
/// narrowed to 192 as its 296 blocks leave most of a third wave idle (396).
// FORKS: @gate_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(2, true, 192)*, (1, true, 32), (1, true, 64), (1, true, 128), (1, true, 192), (1, true, 256), (2, true, 32), (2, true, 64), (2, true, 128), (2, true, 256), (4, true, 32), (4, true, 64), (4, true, 128), (4, true, 192), false}
// DEFAULT-LABEL: func.func @gate
//       DEFAULT:   knobs<swizzle = 128, warpgroups = 2, wgmma = true, wgmma_n = 192>
//       DEFAULT:   dtile.tile blocks(%{{.*}} : 4 "d0_o", %{{.*}} : 99 "d1_o") threads(%{{.*}} : 2 "warpgroup", %{{.*}} : 128 "thread")
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @gate(%arg0: memref<512x3584xbf16>, %arg1: memref<3584x18944xbf16>) -> memref<512x18944xbf16> {
    %alloc = memref.alloc() : memref<512x18944xbf16>
    dloop.kernel @gate_0_reduce ins(%in0 = %arg0 : memref<512x3584xbf16>, %in1 = %arg1 : memref<3584x18944xbf16>) outs(%out0 = %alloc : memref<512x18944xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 512 free "d0" {
        dloop.for %d1 = 0 to 18944 free "d1" {
          %0 = dloop.for %r0 = 0 to 3584 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<512x3584xbf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<3584x18944xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<512x18944xbf16>
        }
      }
    }
    return %alloc : memref<512x18944xbf16>
  }
}

// -----

/// At the boundary: 49152 registers per SM leave 4 warpgroups 96 each,
/// exactly the 64 accumulators of m64n128 and the margin; 160 per thread
/// exactly those of m64n256 for 1 and 2 warpgroups.
// FORKS: @fits_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (1, true, 128), (1, true, 192), (1, true, 256), (2, true, 32), (2, true, 64), (2, true, 128), (2, true, 192), (2, true, 256), (4, true, 32), (4, true, 64), (4, true, 128), false}
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 49152, registers_per_thread = 160, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @fits(%arg0: memref<256x128xbf16>, %arg1: memref<128x256xbf16>) -> memref<256x256xbf16> {
    %alloc = memref.alloc() : memref<256x256xbf16>
    dloop.kernel @fits_0_reduce ins(%in0 = %arg0 : memref<256x128xbf16>, %in1 = %arg1 : memref<128x256xbf16>) outs(%out0 = %alloc : memref<256x256xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 256 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<256x128xbf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x256xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<256x256xbf16>
        }
      }
    }
    return %alloc : memref<256x256xbf16>
  }
}

// -----

/// One register fewer each: 4 warpgroups get 88 (the granule of 8 below
/// 95), too few for m64n128, and no block holds m64n256.
// FORKS: @over_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (1, true, 128), (1, true, 192), (2, true, 32), (2, true, 64), (2, true, 128), (2, true, 192), (4, true, 32), (4, true, 64), false}
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 49151, registers_per_thread = 159, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @over(%arg0: memref<256x128xbf16>, %arg1: memref<128x256xbf16>) -> memref<256x256xbf16> {
    %alloc = memref.alloc() : memref<256x256xbf16>
    dloop.kernel @over_0_reduce ins(%in0 = %arg0 : memref<256x128xbf16>, %in1 = %arg1 : memref<128x256xbf16>) outs(%out0 = %alloc : memref<256x256xbf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 256 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<256x128xbf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x256xbf16>
            %3 = arith.extf %1 : bf16 to f32
            %4 = arith.extf %2 : bf16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to bf16
          dloop.store %7, %out0[%d0, %d1] : memref<256x256xbf16>
        }
      }
    }
    return %alloc : memref<256x256xbf16>
  }
}
