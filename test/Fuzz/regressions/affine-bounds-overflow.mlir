// Fuzz finding (fuzz/FINDINGS.md, seed 56 under UBSan): ir #822,
// matmul.tile with "integer 4 -> 4611686018427387904" as a block axis's
// extent: the range of the stage origin %d1_o * 8 multiplied 2^62 - 1 by 8
// (a signed overflow in AffineBounds' exactRange). Ranges past 64 bits are
// unknown now (never wrapped) and the kernel is refused, located, for its
// grid. (scripts/sanitize.sh runs this under UBSan.)
// RUN: %fuzz_check --expect=diagnosed -- deplodock-opt %s --convert-dtile-to-dkernel=target=sm_90 -o %t.mlir
// RUN: %fuzz_check --expect=diagnosed -- deplodock-run --interp %s --print=summary '--compare=convert-dtile-to-dkernel{target=sm_90}'
// RUN: not deplodock-opt %s --convert-dtile-to-dkernel=target=sm_90 -o /dev/null 2>&1 | FileCheck %s
// CHECK: affine-bounds-overflow.mlir:[[@LINE+9]]:7: error: 'dtile.tile' op binds more than 9223372036854775807 blocks; a grid has at most 2147483647
#map = affine_map<(d0) -> (-d0 + (d0 floordiv 2) * 2 + 1)>
module {
  func.func @matmul(%arg0: memref<1x8x32xf32>, %arg1: memref<32x32xf32>) -> memref<1x8x32xf32> {
    %alloc = memref.alloc() : memref<1x8x32xf32>
    dtile.kernel @matmul_0_reduce knobs<BK = 16, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, reg_double = false, stage = [0, 1], transpose_a = false, unroll = 16> ins(%in0 = %arg0 : memref<1x8x32xf32>, %in1 = %arg1 : memref<32x32xf32>) outs(%out0 = %alloc : memref<1x8x32xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 4611686018427387904 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in0[0, %d0_o * 4, 0] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %c0 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in1[0, %d1_o * 8] box [16, 8] buffers 2 slot %c0 transport cp_async : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_0 = %0 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, %acc_1 = %1 : memref<16x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %3 = arith.cmpi ult, %r0_o, %c1 : index
          %4:2 = scf.if %3 -> (memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>) {
            %6 = affine.apply #map(%r0_o)
            %7 = dtile.stage %in0[0, %d0_o * 4, %r0_o * 16 + 16] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %6 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %8 = dtile.stage %in1[%r0_o * 16 + 16, %d1_o * 8] box [16, 8] buffers 2 slot %6 transport cp_async : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
            scf.yield %7, %8 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_0, %acc_1 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          }
          %5 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_2 = %acc : f32) unroll 16 {
            %6 = dloop.load %acc_0[0, %d0_i, %r0_i] : memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %7 = dloop.load %acc_1[%r0_i, %d1_i] : memref<16x8xf32, #gpu.address_space<workgroup>>
            %8 = arith.mulf %6, %7 : f32
            %9 = arith.addf %acc_2, %8 : f32
            dloop.yield %9 : f32
          }
          dloop.yield %5, %4#0, %4#1 : f32, memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
        }
        dloop.store %2#0, %out0[0, %d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<1x8x32xf32>
      }
    }
    return %alloc : memref<1x8x32xf32>
  }
}

