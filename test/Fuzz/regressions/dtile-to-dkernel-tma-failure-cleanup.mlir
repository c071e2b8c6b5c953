// Fuzz finding (fuzz/FINDINGS.md, seed 22, ir #490): convert-dtile-to-dkernel
// failing on a TMA kernel freed the half-built kernel before the hoisted
// tma_descriptor ops that use its arguments: heap corruption, SIGABRT at
// exit (and deplodock-run --interp hung on it). Found as silu_mul_matmul.tile
// with line 51 duplicated, cp_async -> tma and two operands swapped.
// RUN: %fuzz_check -- deplodock-opt %s --convert-dtile-to-dkernel=target=sm_90 -o %t.mlir
// RUN: not deplodock-opt %s --convert-dtile-to-dkernel=target=sm_90 -o %t.mlir 2>&1 | FileCheck %s
// CHECK: error: 'scf.yield' op yields a slab of another stage in position 1
// CHECK-NOT: Stack dump
#map = affine_map<(d0, d1) -> (d0 * 256 + d1)>
#map1 = affine_map<(d0) -> (-d0 + (d0 floordiv 2) * 2 + 1)>
module {
  func.func @silu_mul_matmul(%arg0: memref<1x8x48xf32>, %arg1: memref<1x8x48xf32>, %arg2: memref<48x32xf32>) -> memref<1x8x32xf32> {
    %alloc = memref.alloc() : memref<1x8x48xf32>
    dtile.kernel @silu_mul_matmul_0_pointwise knobs<block_threads = 256> ins(%in0 = %arg0 : memref<1x8x48xf32>, %in1 = %arg1 : memref<1x8x48xf32>) outs(%out0 = %alloc : memref<1x8x48xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      %cst_1 = arith.constant 1.000000e+00 : f32
      %c384 = arith.constant 384 : index
      dtile.tile blocks(%d0_d1_o : 2 "d0_d1_o") threads(%d0_d1_i : 256 "d0_d1_i") {
        %0 = affine.apply #map(%d0_d1_o, %d0_d1_i)
        %1 = arith.cmpi ult, %0, %c384 : index
        %2:2 = scf.if %1 -> (f32, f32) {
          %8 = dloop.load %in0[0, (%d0_d1_o * 256 + %d0_d1_i) floordiv 48, (%d0_d1_o * 256 + %d0_d1_i) mod 48] : memref<1x8x48xf32>
          %9 = dloop.load %in1[0, (%d0_d1_o * 256 + %d0_d1_i) floordiv 48, (%d0_d1_o * 256 + %d0_d1_i) mod 48] : memref<1x8x48xf32>
          scf.yield %8, %9 : f32, f32
        } else {
          scf.yield %cst, %cst : f32, f32
        }
        %3 = arith.negf %2#0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %cst_1 : f32
        %6 = arith.divf %2#0, %5 : f32
        %7 = arith.mulf %6, %2#1 : f32
        scf.if %1 {
          dloop.store %7, %out0[0, (%d0_d1_o * 256 + %d0_d1_i) floordiv 48, (%d0_d1_o * 256 + %d0_d1_i) mod 48] : memref<1x8x48xf32>
        }
      }
    }
    %alloc_0 = memref.alloc() : memref<1x8x32xf32>
    dtile.kernel @silu_mul_matmul_1_reduce knobs<BK = 24, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1], unroll = 4> ins(%in0 = %alloc : memref<1x8x48xf32>, %in1 = %arg2 : memref<48x32xf32>) outs(%out0 = %alloc_0 : memref<1x8x32xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 4 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in0[0, %d0_o * 4, 0] box [1, 4, 24] buffers 2 slot %c0 transport cp_async : memref<1x8x48xf32> -> memref<1x4x24xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in1[0, %d1_o * 8] box [24, 8] buffers 2 slot %c0 transport tma : memref<48x32xf32> -> memref<24x8xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_1 = %0 : memref<1x4x24xf32, #gpu.address_space<workgroup>>, %acc_2 = %1 : memref<24x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %3 = arith.cmpi ult, %c1, %r0_o : index
          %4:2 = scf.if %3 -> (memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>) {
            %6 = affine.apply #map1(%r0_o)
            %7 = dtile.stage %in0[0, %d0_o * 4, %r0_o * 24 + 24] box [1, 4, 24] buffers 2 slot %6 transport cp_async : memref<1x8x48xf32> -> memref<1x4x24xf32, #gpu.address_space<workgroup>>
            %8 = dtile.stage %in1[%r0_o * 24 + 24, %d1_o * 8] box [24, 8] buffers 2 slot %6 transport cp_async : memref<48x32xf32> -> memref<24x8xf32, #gpu.address_space<workgroup>>
            scf.yield %7, %8 : memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_1, %acc_2 : memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>
          }
          %5 = dloop.for %r0_i = 0 to 24 reduce "r0_i" iter(%acc_3 = %acc : f32) unroll 4 {
            %6 = dloop.load %acc_1[0, %d0_i, %r0_i] : memref<1x4x24xf32, #gpu.address_space<workgroup>>
            %7 = dloop.load %acc_2[%r0_i, %d1_i] : memref<24x8xf32, #gpu.address_space<workgroup>>
            %dup_7 = dloop.load %acc_2[%r0_i, %d1_i] : memref<24x8xf32, #gpu.address_space<workgroup>>
            %8 = arith.mulf %6, %7 : f32
            %9 = arith.addf %acc_3, %8 : f32
            dloop.yield %9 : f32
          }
          dloop.yield %5, %4#0, %4#1 : f32, memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>
        }
        dloop.store %2#0, %out0[0, %d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<1x8x32xf32>
      }
    }
    return %alloc_0 : memref<1x8x32xf32>
  }
}

