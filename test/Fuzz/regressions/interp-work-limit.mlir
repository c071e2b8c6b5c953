// Fuzz finding (fuzz/FINDINGS.md, seed 24): the SIMT engine ran for minutes on a
// Tile kernel whose chunk loop a mutation made 65,535 steps long (64 blocks of
// 256 threads, 2^35 multiply-adds): legal input, but no work limit. Found as
// ir #4040 of seed 24: tosa_mlp.tile-sm80, "integer 2 -> 32; integer 8 -> 65535".
// It is now refused at once from the trip counts. A refusal takes well under the
// 20 s allowed.
// RUN: %fuzz_check --expect=diagnosed --timeout=20 -- deplodock-run --interp %s --print=summary --compare=convert-dtile-to-dkernel{target=sm_80}
#map = affine_map<(d0) -> (-d0 + (d0 floordiv 2) * 2 + 1)>
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  func.func @tosa_mlp(%arg0: memref<1x32x256xf32>, %arg1: memref<1x256x512xf32>, %arg2: memref<1x1x512xf32>) -> memref<1x32x512xf32> {
    %alloc = memref.alloc() : memref<1x32x512xf32>
    dtile.kernel @tosa_mlp_0_reduce knobs<BK = 32, BM = 16, BN = 16, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, stage = [0, 1], unroll = 32> ins(%in0 = %arg0 : memref<1x32x256xf32>, %in1 = %arg1 : memref<1x256x512xf32>, %in2 = %arg2 : memref<1x1x512xf32>) outs(%out0 = %alloc : memref<1x32x512xf32>) {
      %c7 = arith.constant 7 : index
      %c0 = arith.constant 0 : index
      %cst = arith.constant 1.000000e+00 : f32
      %cst_0 = arith.constant 0.000000e+00 : f32
      dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 32 "d1_o") threads(%d0_i : 16 "d0_i", %d1_i : 16 "d1_i") {
        %0 = dtile.stage %in0[0, %d0_o * 16, 0] box [1, 16, 32] pad [0, 0, 1] buffers 2 slot %c0 transport cp_async : memref<1x32x256xf32> -> memref<1x16x32xf32, #gpu.address_space<workgroup>>
        %1 = dtile.stage %in1[0, 0, %d1_o * 16] box [1, 32, 16] buffers 2 slot %c0 transport cp_async : memref<1x256x512xf32> -> memref<1x32x16xf32, #gpu.address_space<workgroup>>
        %2:3 = dloop.for %r0_o = 0 to 65535 reduce "r0_o" iter(%acc = %cst_0 : f32, %acc_1 = %0 : memref<1x16x32xf32, #gpu.address_space<workgroup>>, %acc_2 = %1 : memref<1x32x16xf32, #gpu.address_space<workgroup>>) {
          dtile.async_wait keep 0
          %10 = arith.cmpi ult, %r0_o, %c7 : index
          %11:2 = scf.if %10 -> (memref<1x16x32xf32, #gpu.address_space<workgroup>>, memref<1x32x16xf32, #gpu.address_space<workgroup>>) {
            %13 = affine.apply #map(%r0_o)
            %14 = dtile.stage %in0[0, %d0_o * 16, %r0_o * 32 + 32] box [1, 16, 32] pad [0, 0, 1] buffers 2 slot %13 transport cp_async : memref<1x32x256xf32> -> memref<1x16x32xf32, #gpu.address_space<workgroup>>
            %15 = dtile.stage %in1[0, %r0_o * 32 + 32, %d1_o * 16] box [1, 32, 16] buffers 32 slot %13 transport cp_async : memref<1x256x512xf32> -> memref<1x32x16xf32, #gpu.address_space<workgroup>>
            scf.yield %14, %15 : memref<1x16x32xf32, #gpu.address_space<workgroup>>, memref<1x32x16xf32, #gpu.address_space<workgroup>>
          } else {
            scf.yield %acc_1, %acc_2 : memref<1x16x32xf32, #gpu.address_space<workgroup>>, memref<1x32x16xf32, #gpu.address_space<workgroup>>
          }
          %12 = dloop.for %r0_i = 0 to 32 reduce "r0_i" iter(%acc_3 = %acc : f32) unroll 32 {
            %13 = dloop.load %acc_1[0, %d0_i, %r0_i] : memref<1x16x32xf32, #gpu.address_space<workgroup>>
            %14 = dloop.load %acc_2[0, %r0_i, %d1_i] : memref<1x32x16xf32, #gpu.address_space<workgroup>>
            %15 = arith.mulf %13, %14 : f32
            %16 = arith.addf %acc_3, %15 : f32
            dloop.yield %16 : f32
          }
          dloop.yield %12, %11#0, %11#1 : f32, memref<1x16x32xf32, #gpu.address_space<workgroup>>, memref<1x32x16xf32, #gpu.address_space<workgroup>>
        }
        %3 = dloop.load %in2[0, 0, %d1_o * 16 + %d1_i] : memref<1x1x512xf32>
        %4 = arith.addf %2#0, %3 : f32
        %5 = arith.negf %4 : f32
        %6 = math.exp %5 : f32
        %7 = arith.addf %6, %cst : f32
        %8 = arith.divf %cst, %7 : f32
        %9 = arith.mulf %4, %8 : f32
        dloop.store %9, %out0[0, %d0_o * 16 + %d0_i, %d1_o * 16 + %d1_i] : memref<1x32x512xf32>
      }
    }
    return %alloc : memref<1x32x512xf32>
  }
}

