// Fuzz finding (fuzz/FINDINGS.md, seed 27): ir #2684, decoder_block.tile with
// "integer 2 -> 9223372036854775807" as a stage's buffer count: the SIMT engine
// allocated that many slabs and aborted out of memory. The verifier refuses it.
// RUN: %fuzz_check --expect=diagnosed --timeout=60 -- deplodock-run --interp %s --print=summary '--compare=convert-dtile-to-dkernel{target=sm_90}'
#map = affine_map<(d0) -> (-d0 + (d0 floordiv 2) * 2 + 1)>
#map1 = affine_map<(d0, d1, d2) -> (d0 - d1 * 4 - d2 - 1)>
#map2 = affine_map<(d0, d1) -> (d0 * 32 + d1)>
module {
  func.func @decoder_block(%arg0: memref<1x8x32xf32>, %arg1: memref<32xf32>, %arg2: memref<32x32xf32>, %arg3: memref<32x16xf32>, %arg4: memref<32x16xf32>, %arg5: memref<32x32xf32>, %arg6: memref<32xf32>, %arg7: memref<32x48xf32>, %arg8: memref<32x48xf32>, %arg9: memref<48x32xf32>, %arg10: memref<8x8xf32>, %arg11: memref<8x8xf32>) -> memref<1x8x32xf32> {
    %alloc = memref.alloc() : memref<1x8x32xf32>
    dtile.kernel @decoder_block_0_reduce knobs<threads = 32> ins(%in0 = %arg0 : memref<1x8x32xf32>, %in1 = %arg1 : memref<32xf32>) outs(%out0 = %alloc : memref<1x8x32xf32>) {
      %cst = arith.constant 9.99999997E-7 : f32
      %cst_10 = arith.constant 3.200000e+01 : f32
      %cst_11 = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0 : 8 "d0") threads(%t : 32 "t") {
        %0 = dtile.strided_for %r0 = %t to 32 step 32 reduce "r0" iter(%acc = %cst_11 : f32) {
          %5 = dloop.load %in0[0, %d0, %r0] : memref<1x8x32xf32>
          %6 = arith.mulf %5, %5 : f32
          %7 = arith.addf %acc, %6 : f32
          dtile.yield %7 : f32
        }
        %1 = dtile.combine add %0 over ["t"] : f32
        %2 = arith.divf %1, %cst_10 : f32
        %3 = arith.addf %2, %cst : f32
        %4 = math.rsqrt %3 : f32
        dtile.strided_for %d1 = %t to 32 step 32 free "d1" {
          %5 = dloop.load %in0[0, %d0, %d1] : memref<1x8x32xf32>
          %6 = dloop.load %in1[%d1] : memref<32xf32>
          %7 = arith.mulf %5, %4 : f32
          %8 = arith.mulf %7, %6 : f32
          dloop.store %8, %out0[0, %d0, %d1] : memref<1x8x32xf32>
        }
      }
    }
    %alloc_0 = memref.alloc() : memref<8x32xf32>
    dtile.kernel @decoder_block_1_reduce knobs<BK = 16, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, stage = [0, 1], unroll = 16> ins(%in0 = %alloc : memref<1x8x32xf32>, %in1 = %arg2 : memref<32x32xf32>) outs(%out0 = %alloc_0 : memref<8x32xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 4 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in0[0, %d0_o * 4, 0] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %c0 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in1[0, %d1_o * 8] box [16, 8] buffers 9223372036854775807 slot %c0 transport cp_async : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_10 = %0 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, %acc_11 = %1 : memref<16x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %3 = arith.cmpi ult, %r0_o, %c1 : index
          %4:2 = scf.if %3 -> (memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>) {
            %6 = affine.apply #map(%r0_o)
            %7 = dtile.stage %in0[0, %d0_o * 4, %r0_o * 16 + 16] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %6 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %8 = dtile.stage %in1[%r0_o * 16 + 16, %d1_o * 8] box [16, 8] buffers 2 slot %6 transport cp_async : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
            scf.yield %7, %8 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_10, %acc_11 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          }
          %5 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_12 = %acc : f32) unroll 16 {
            %6 = dloop.load %acc_10[0, %d0_i, %r0_i] : memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %7 = dloop.load %acc_11[%r0_i, %d1_i] : memref<16x8xf32, #gpu.address_space<workgroup>>
            %8 = arith.mulf %6, %7 : f32
            %9 = arith.addf %acc_12, %8 : f32
            dloop.yield %9 : f32
          }
          dloop.yield %5, %4#0, %4#1 : f32, memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
        }
        dloop.store %2#0, %out0[%d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<8x32xf32>
      }
    }
    %alloc_1 = memref.alloc() : memref<8x16xf32>
    dtile.kernel @decoder_block_2_reduce knobs<BK = 16, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, stage = [0, 1], unroll = 16> ins(%in0 = %alloc : memref<1x8x32xf32>, %in1 = %arg3 : memref<32x16xf32>) outs(%out0 = %alloc_1 : memref<8x16xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 2 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in0[0, %d0_o * 4, 0] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %c0 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in1[0, %d1_o * 8] box [16, 8] buffers 2 slot %c0 transport cp_async : memref<32x16xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_10 = %0 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, %acc_11 = %1 : memref<16x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %3 = arith.cmpi ult, %r0_o, %c1 : index
          %4:2 = scf.if %3 -> (memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>) {
            %6 = affine.apply #map(%r0_o)
            %7 = dtile.stage %in0[0, %d0_o * 4, %r0_o * 16 + 16] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %6 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %8 = dtile.stage %in1[%r0_o * 16 + 16, %d1_o * 8] box [16, 8] buffers 2 slot %6 transport cp_async : memref<32x16xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
            scf.yield %7, %8 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_10, %acc_11 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          }
          %5 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_12 = %acc : f32) unroll 16 {
            %6 = dloop.load %acc_10[0, %d0_i, %r0_i] : memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %7 = dloop.load %acc_11[%r0_i, %d1_i] : memref<16x8xf32, #gpu.address_space<workgroup>>
            %8 = arith.mulf %6, %7 : f32
            %9 = arith.addf %acc_12, %8 : f32
            dloop.yield %9 : f32
          }
          dloop.yield %5, %4#0, %4#1 : f32, memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
        }
        dloop.store %2#0, %out0[%d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<8x16xf32>
      }
    }
    %alloc_2 = memref.alloc() : memref<8x16xf32>
    dtile.kernel @decoder_block_3_reduce knobs<BK = 16, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, stage = [0, 1], unroll = 16> ins(%in0 = %alloc : memref<1x8x32xf32>, %in1 = %arg4 : memref<32x16xf32>) outs(%out0 = %alloc_2 : memref<8x16xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 2 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in0[0, %d0_o * 4, 0] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %c0 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in1[0, %d1_o * 8] box [16, 8] buffers 2 slot %c0 transport cp_async : memref<32x16xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_10 = %0 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, %acc_11 = %1 : memref<16x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %3 = arith.cmpi ult, %r0_o, %c1 : index
          %4:2 = scf.if %3 -> (memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>) {
            %6 = affine.apply #map(%r0_o)
            %7 = dtile.stage %in0[0, %d0_o * 4, %r0_o * 16 + 16] box [1, 4, 16] pad [0, 0, 1] buffers 2 slot %6 transport cp_async : memref<1x8x32xf32> -> memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %8 = dtile.stage %in1[%r0_o * 16 + 16, %d1_o * 8] box [16, 8] buffers 2 slot %6 transport cp_async : memref<32x16xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
            scf.yield %7, %8 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_10, %acc_11 : memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
          }
          %5 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_12 = %acc : f32) unroll 16 {
            %6 = dloop.load %acc_10[0, %d0_i, %r0_i] : memref<1x4x16xf32, #gpu.address_space<workgroup>>
            %7 = dloop.load %acc_11[%r0_i, %d1_i] : memref<16x8xf32, #gpu.address_space<workgroup>>
            %8 = arith.mulf %6, %7 : f32
            %9 = arith.addf %acc_12, %8 : f32
            dloop.yield %9 : f32
          }
          dloop.yield %5, %4#0, %4#1 : f32, memref<1x4x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>
        }
        dloop.store %2#0, %out0[%d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<8x16xf32>
      }
    }
    %alloc_3 = memref.alloc() : memref<1x4x8x8xf32>
    dtile.kernel @decoder_block_4_pointwise knobs<block_threads = 256> ins(%in0 = %alloc_0 : memref<8x32xf32>, %in1 = %arg10 : memref<8x8xf32>, %in2 = %arg11 : memref<8x8xf32>) outs(%out0 = %alloc_3 : memref<1x4x8x8xf32>) {
      %c3 = arith.constant 3 : index
      dtile.tile blocks(%unit : 1 "unit") threads(%d0 : 4 "d0", %d1 : 8 "d1", %d2 : 8 "d2") {
        %0 = dloop.load %in0[%d1, %d0 * 8 + %d2] : memref<8x32xf32>
        %1 = arith.cmpi sle, %d2, %c3 : index
        %2 = scf.if %1 -> (f32) {
          %8 = dloop.load %in0[%d1, %d0 * 8 + %d2 + 4] : memref<8x32xf32>
          %9 = arith.negf %8 : f32
          scf.yield %9 : f32
        } else {
          %8 = dloop.load %in0[%d1, %d0 * 8 + %d2 - 4] : memref<8x32xf32>
          scf.yield %8 : f32
        }
        %3 = dloop.load %in1[%d1, %d2] : memref<8x8xf32>
        %4 = dloop.load %in2[%d1, %d2] : memref<8x8xf32>
        %5 = arith.mulf %0, %3 : f32
        %6 = arith.mulf %2, %4 : f32
        %7 = arith.addf %5, %6 : f32
        dloop.store %7, %out0[0, %d0, %d1, %d2] : memref<1x4x8x8xf32>
      }
    }
    %alloc_4 = memref.alloc() : memref<1x2x8x8xf32>
    dtile.kernel @decoder_block_5_pointwise knobs<block_threads = 128> ins(%in0 = %alloc_1 : memref<8x16xf32>, %in1 = %arg10 : memref<8x8xf32>, %in2 = %arg11 : memref<8x8xf32>) outs(%out0 = %alloc_4 : memref<1x2x8x8xf32>) {
      %c3 = arith.constant 3 : index
      dtile.tile blocks(%unit : 1 "unit") threads(%d0 : 2 "d0", %d1 : 8 "d1", %d2 : 8 "d2") {
        %0 = dloop.load %in0[%d1, %d0 * 8 + %d2] : memref<8x16xf32>
        %1 = arith.cmpi sle, %d2, %c3 : index
        %2 = scf.if %1 -> (f32) {
          %8 = dloop.load %in0[%d1, %d0 * 8 + %d2 + 4] : memref<8x16xf32>
          %9 = arith.negf %8 : f32
          scf.yield %9 : f32
        } else {
          %8 = dloop.load %in0[%d1, %d0 * 8 + %d2 - 4] : memref<8x16xf32>
          scf.yield %8 : f32
        }
        %3 = dloop.load %in1[%d1, %d2] : memref<8x8xf32>
        %4 = dloop.load %in2[%d1, %d2] : memref<8x8xf32>
        %5 = arith.mulf %0, %3 : f32
        %6 = arith.mulf %2, %4 : f32
        %7 = arith.addf %5, %6 : f32
        dloop.store %7, %out0[0, %d0, %d1, %d2] : memref<1x2x8x8xf32>
      }
    }
    %alloc_5 = memref.alloc() : memref<4x8x8xf32>
    dtile.kernel @decoder_block_6_reduce knobs<BKV = 8, BQ = 4, split_kv = 8, unroll = 8> ins(%in0 = %alloc_2 : memref<8x16xf32>, %in1 = %alloc_3 : memref<1x4x8x8xf32>, %in2 = %alloc_4 : memref<1x2x8x8xf32>) outs(%out0 = %alloc_5 : memref<4x8x8xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      %cst_10 = arith.constant 0xFF800000 : f32
      %c0 = arith.constant 0 : index
      %cst_11 = arith.constant 0.353553385 : f32
      dtile.tile blocks(%d0 : 4 "d0", %d1_o : 2 "d1_o") threads(%d1_i : 4 "d1_i", %kv : 8 "kv") {
        %alloca = memref.alloca() : memref<8xf32>
        dloop.for %d2 = 0 to 8 free "d2" unroll 8 {
          dloop.store %cst, %alloca[%d2] : memref<8xf32>
        }
        %0:2 = dtile.strided_for %r0 = %kv to 8 step 8 reduce "r0" iter(%acc = %cst_10 : f32, %acc_12 = %cst : f32) {
          %9 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_13 = %cst : f32) unroll 8 {
            %23 = dloop.load %in1[0, %d0, %d1_o * 4 + %d1_i, %r1] : memref<1x4x8x8xf32>
            %24 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
            %25 = arith.mulf %23, %24 : f32
            %26 = arith.addf %acc_13, %25 : f32
            dloop.yield %26 : f32
          }
          %10 = affine.apply #map1(%r0, %d1_o, %d1_i)
          %11 = arith.cmpi sge, %10, %c0 : index
          %12 = arith.mulf %9, %cst_11 : f32
          %13 = arith.select %11, %cst_10, %12 : f32
          %14 = arith.maxnumf %acc, %13 : f32
          %15 = arith.cmpf oeq, %14, %cst_10 : f32
          %16 = arith.select %15, %cst, %14 : f32
          %17 = arith.subf %acc, %16 : f32
          %18 = math.exp %17 : f32
          %19 = arith.subf %13, %16 : f32
          %20 = math.exp %19 : f32
          %21 = arith.mulf %acc_12, %18 : f32
          %22 = arith.addf %21, %20 : f32
          dloop.for %d3 = 0 to 8 free "d3" unroll 8 {
            %23 = dloop.load %alloca[%d3] : memref<8xf32>
            %24 = arith.mulf %23, %18 : f32
            %25 = dloop.load %in0[%r0, %d3 + (%d0 floordiv 2) * 8] : memref<8x16xf32>
            %26 = arith.mulf %20, %25 : f32
            %27 = arith.addf %24, %26 : f32
            dloop.store %27, %alloca[%d3] : memref<8xf32>
          }
          dtile.yield %14, %22 : f32, f32
        }
        %1 = dtile.combine max %0#0 over ["kv"] : f32
        %2 = arith.subf %0#0, %1 : f32
        %3 = math.exp %2 : f32
        %4 = arith.cmpf oeq, %0#0, %cst_10 : f32
        %5 = arith.select %4, %cst, %3 : f32
        %6 = arith.mulf %0#1, %5 : f32
        %7 = dtile.combine add %6 over ["kv"] : f32
        %8 = arith.cmpi eq, %kv, %c0 : index
        dloop.for %d4 = 0 to 8 free "d4" unroll 8 {
          %9 = dloop.load %alloca[%d4] : memref<8xf32>
          %10 = arith.mulf %9, %5 : f32
          %11 = dtile.combine add %10 over ["kv"] : f32
          %12 = arith.divf %11, %7 : f32
          scf.if %8 {
            dloop.store %12, %out0[%d0, %d1_o * 4 + %d1_i, %d4] : memref<4x8x8xf32>
          }
        }
      }
    }
    %alloc_6 = memref.alloc() : memref<1x8x32xf32>
    dtile.kernel @decoder_block_7_reduce knobs<BK = 16, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pipeline = true, stage = [2], unroll = 16> ins(%in0 = %arg0 : memref<1x8x32xf32>, %in1 = %alloc_5 : memref<4x8x8xf32>, %in2 = %arg5 : memref<32x32xf32>) outs(%out0 = %alloc_6 : memref<1x8x32xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 4 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in2[0, %d1_o * 8] box [16, 8] buffers 2 slot %c0 transport cp_async : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
        %1:2 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_10 = %0 : memref<16x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %4 = arith.cmpi ult, %r0_o, %c1 : index
          %5 = scf.if %4 -> (memref<16x8xf32, #gpu.address_space<workgroup>>) {
            %7 = affine.apply #map(%r0_o)
            %8 = dtile.stage %in2[%r0_o * 16 + 16, %d1_o * 8] box [16, 8] buffers 2 slot %7 transport cp_async : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
            scf.yield %8 : memref<16x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_10 : memref<16x8xf32, #gpu.address_space<workgroup>>
          }
          %6 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_11 = %acc : f32) unroll 16 {
            %7 = dloop.load %in1[%r0_o * 2 + %r0_i floordiv 8, %d0_o * 4 + %d0_i, %r0_i mod 8] : memref<4x8x8xf32>
            %8 = dloop.load %acc_10[%r0_i, %d1_i] : memref<16x8xf32, #gpu.address_space<workgroup>>
            %9 = arith.mulf %7, %8 : f32
            %10 = arith.addf %acc_11, %9 : f32
            dloop.yield %10 : f32
          }
          dloop.yield %6, %5 : f32, memref<16x8xf32, #gpu.address_space<workgroup>>
        }
        %2 = dloop.load %in0[0, %d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<1x8x32xf32>
        %3 = arith.addf %1#0, %2 : f32
        dloop.store %3, %out0[0, %d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<1x8x32xf32>
      }
    }
    %alloc_7 = memref.alloc() : memref<1x8x32xf32>
    dtile.kernel @decoder_block_8_reduce knobs<threads = 32> ins(%in0 = %alloc_6 : memref<1x8x32xf32>, %in1 = %arg6 : memref<32xf32>) outs(%out0 = %alloc_7 : memref<1x8x32xf32>) {
      %cst = arith.constant 9.99999997E-7 : f32
      %cst_10 = arith.constant 3.200000e+01 : f32
      %cst_11 = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0 : 8 "d0") threads(%t : 32 "t") {
        %0 = dtile.strided_for %r0 = %t to 32 step 32 reduce "r0" iter(%acc = %cst_11 : f32) {
          %5 = dloop.load %in0[0, %d0, %r0] : memref<1x8x32xf32>
          %6 = arith.mulf %5, %5 : f32
          %7 = arith.addf %acc, %6 : f32
          dtile.yield %7 : f32
        }
        %1 = dtile.combine add %0 over ["t"] : f32
        %2 = arith.divf %1, %cst_10 : f32
        %3 = arith.addf %2, %cst : f32
        %4 = math.rsqrt %3 : f32
        dtile.strided_for %d1 = %t to 32 step 32 free "d1" {
          %5 = dloop.load %in0[0, %d0, %d1] : memref<1x8x32xf32>
          %6 = dloop.load %in1[%d1] : memref<32xf32>
          %7 = arith.mulf %5, %4 : f32
          %8 = arith.mulf %7, %6 : f32
          dloop.store %8, %out0[0, %d0, %d1] : memref<1x8x32xf32>
        }
      }
    }
    %alloc_8 = memref.alloc() : memref<1x8x48xf32>
    dtile.kernel @decoder_block_9_reduce knobs<BK = 16, BM = 1, BN = 32, FM = 1, FN = 1, async_copy = true, double_buffer = true, pipeline = true, stage = [0], unroll = 16> ins(%in0 = %alloc_7 : memref<1x8x32xf32>, %in1 = %arg7 : memref<32x48xf32>, %in2 = %arg8 : memref<32x48xf32>) outs(%out0 = %alloc_8 : memref<1x8x48xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %c48 = arith.constant 48 : index
      %cst = arith.constant 1.000000e+00 : f32
      %cst_10 = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 8 "d0_o", %d1_o : 2 "d1_o") threads(%d1_i : 32 "d1_i") {
        %0 = affine.apply #map2(%d1_o, %d1_i)
        %1 = arith.cmpi ult, %0, %c48 : index
        %2 = dtile.stage %in0[0, %d0_o, 0] box [1, 1, 16] buffers 2 slot %c0 transport cp_async : memref<1x8x32xf32> -> memref<1x1x16xf32, #gpu.address_space<workgroup>>
        %3:2 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst_10 : f32, %acc_11 = %2 : memref<1x1x16xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %11 = arith.cmpi ult, %r0_o, %c1 : index
          %12 = scf.if %11 -> (memref<1x1x16xf32, #gpu.address_space<workgroup>>) {
            %14 = affine.apply #map(%r0_o)
            %15 = dtile.stage %in0[0, %d0_o, %r0_o * 16 + 16] box [1, 1, 16] buffers 2 slot %14 transport cp_async : memref<1x8x32xf32> -> memref<1x1x16xf32, #gpu.address_space<workgroup>>
            scf.yield %15 : memref<1x1x16xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_11 : memref<1x1x16xf32, #gpu.address_space<workgroup>>
          }
          %13 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_12 = %acc : f32) unroll 16 {
            %14 = dloop.load %acc_11[0, 0, %r0_i] : memref<1x1x16xf32, #gpu.address_space<workgroup>>
            %15 = scf.if %1 -> (f32) {
              %18 = dloop.load %in1[%r0_o * 16 + %r0_i, %d1_o * 32 + %d1_i] : memref<32x48xf32>
              scf.yield %18 : f32
            } else {
              scf.yield %cst_10 : f32
            }
            %16 = arith.mulf %14, %15 : f32
            %17 = arith.addf %acc_12, %16 : f32
            dloop.yield %17 : f32
          }
          dloop.yield %13, %12 : f32, memref<1x1x16xf32, #gpu.address_space<workgroup>>
        }
        %4 = dtile.stage %in0[0, %d0_o, 0] box [1, 1, 16] buffers 2 slot %c0 transport cp_async : memref<1x8x32xf32> -> memref<1x1x16xf32, #gpu.address_space<workgroup>>
        %5:2 = dloop.for %r1_o = 0 to 2 reduce "r1_o" iter(%acc = %cst_10 : f32, %acc_11 = %4 : memref<1x1x16xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %11 = arith.cmpi ult, %r1_o, %c1 : index
          %12 = scf.if %11 -> (memref<1x1x16xf32, #gpu.address_space<workgroup>>) {
            %14 = affine.apply #map(%r1_o)
            %15 = dtile.stage %in0[0, %d0_o, %r1_o * 16 + 16] box [1, 1, 16] buffers 2 slot %14 transport cp_async : memref<1x8x32xf32> -> memref<1x1x16xf32, #gpu.address_space<workgroup>>
            scf.yield %15 : memref<1x1x16xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_11 : memref<1x1x16xf32, #gpu.address_space<workgroup>>
          }
          %13 = dloop.for %r1_i = 0 to 16 reduce "r1_i" iter(%acc_12 = %acc : f32) unroll 16 {
            %14 = dloop.load %acc_11[0, 0, %r1_i] : memref<1x1x16xf32, #gpu.address_space<workgroup>>
            %15 = scf.if %1 -> (f32) {
              %18 = dloop.load %in2[%r1_o * 16 + %r1_i, %d1_o * 32 + %d1_i] : memref<32x48xf32>
              scf.yield %18 : f32
            } else {
              scf.yield %cst_10 : f32
            }
            %16 = arith.mulf %14, %15 : f32
            %17 = arith.addf %acc_12, %16 : f32
            dloop.yield %17 : f32
          }
          dloop.yield %13, %12 : f32, memref<1x1x16xf32, #gpu.address_space<workgroup>>
        }
        %6 = arith.negf %3#0 : f32
        %7 = math.exp %6 : f32
        %8 = arith.addf %7, %cst : f32
        %9 = arith.divf %3#0, %8 : f32
        %10 = arith.mulf %9, %5#0 : f32
        scf.if %1 {
          dloop.store %10, %out0[0, %d0_o, %d1_o * 32 + %d1_i] : memref<1x8x48xf32>
        }
      }
    }
    %alloc_9 = memref.alloc() : memref<1x8x32xf32>
    dtile.kernel @decoder_block_10_reduce knobs<BK = 24, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pipeline = true, stage = [1, 2], unroll = 4> ins(%in0 = %alloc_6 : memref<1x8x32xf32>, %in1 = %alloc_8 : memref<1x8x48xf32>, %in2 = %arg9 : memref<48x32xf32>) outs(%out0 = %alloc_9 : memref<1x8x32xf32>) {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 4 "d1_o") threads(%d0_i : 4 "d0_i", %d1_i : 8 "d1_i") {
        %0 = dtile.stage %in1[0, %d0_o * 4, 0] box [1, 4, 24] buffers 2 slot %c0 transport cp_async : memref<1x8x48xf32> -> memref<1x4x24xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in2[0, %d1_o * 8] box [24, 8] buffers 2 slot %c0 transport cp_async : memref<48x32xf32> -> memref<24x8xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 2 reduce "r0_o" iter(%acc = %cst : f32, %acc_10 = %0 : memref<1x4x24xf32, #gpu.address_space<workgroup>>, %acc_11 = %1 : memref<24x8xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %5 = arith.cmpi ult, %r0_o, %c1 : index
          %6:2 = scf.if %5 -> (memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>) {
            %8 = affine.apply #map(%r0_o)
            %9 = dtile.stage %in1[0, %d0_o * 4, %r0_o * 24 + 24] box [1, 4, 24] buffers 2 slot %8 transport cp_async : memref<1x8x48xf32> -> memref<1x4x24xf32, #gpu.address_space<workgroup>>
            %10 = dtile.stage %in2[%r0_o * 24 + 24, %d1_o * 8] box [24, 8] buffers 2 slot %8 transport cp_async : memref<48x32xf32> -> memref<24x8xf32, #gpu.address_space<workgroup>>
            scf.yield %9, %10 : memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_10, %acc_11 : memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>
          }
          %7 = dloop.for %r0_i = 0 to 24 reduce "r0_i" iter(%acc_12 = %acc : f32) unroll 4 {
            %8 = dloop.load %acc_10[0, %d0_i, %r0_i] : memref<1x4x24xf32, #gpu.address_space<workgroup>>
            %9 = dloop.load %acc_11[%r0_i, %d1_i] : memref<24x8xf32, #gpu.address_space<workgroup>>
            %10 = arith.mulf %8, %9 : f32
            %11 = arith.addf %acc_12, %10 : f32
            dloop.yield %11 : f32
          }
          dloop.yield %7, %6#0, %6#1 : f32, memref<1x4x24xf32, #gpu.address_space<workgroup>>, memref<24x8xf32, #gpu.address_space<workgroup>>
        }
        %3 = dloop.load %in0[0, %d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<1x8x32xf32>
        %4 = arith.addf %2#0, %3 : f32
        dloop.store %4, %out0[0, %d0_o * 4 + %d0_i, %d1_o * 8 + %d1_i] : memref<1x8x32xf32>
      }
    }
    return %alloc_9 : memref<1x8x32xf32>
  }
}

