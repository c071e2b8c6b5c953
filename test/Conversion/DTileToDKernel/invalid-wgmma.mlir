// RUN: deplodock-opt %s -convert-dtile-to-dkernel -split-input-file -verify-diagnostics

// A wgmma descriptor must describe its slab in the swizzle the slab is
// staged with: the tensor cores would read another layout than the TMA
// wrote.
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @swizzle_mismatch(%arg0: memref<64x64xbf16>, %arg1: memref<64x64xf32>) {
    dtile.kernel @swizzle_mismatch ins(%a = %arg0 : memref<64x64xbf16>) outs(%y = %arg1 : memref<64x64xf32>) {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      dtile.tile threads(%t : 128 "t") {
        %s = dtile.stage %a[0, 0] box [64, 64] transport tma swizzle 128 : memref<64x64xbf16> -> memref<64x64xbf16, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        dkernel.wgmma_fence
        // expected-error @+1 {{'dkernel.wgmma_desc' op describes a slab in swizzle 64, but the slab is staged with swizzle 128}}
        %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 64 lbo 16 sbo 512 : memref<64x64xbf16, #gpu.address_space<workgroup>>
        %r:4 = dkernel.wgmma_mma_async %d, %d, [%z, %z, %z, %z] n 8 : bf16
        dkernel.wgmma_commit_group
        %w:4 = dkernel.wgmma_wait_group 0 [%r#0, %r#1, %r#2, %r#3]
        dloop.store %w#0, %y[%t floordiv 2, %t mod 2] : memref<64x64xf32>
      }
    }
    return
  }
}

// -----

// A descriptor names a staged slab, whose shared slice the lowering knows;
// another workgroup buffer has none.
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
  func.func @not_a_slab(%arg0: memref<64x64xbf16>, %arg1: memref<64x64xf32>) {
    dtile.kernel @not_a_slab ins(%a = %arg0 : memref<64x64xbf16>) outs(%y = %arg1 : memref<64x64xf32>) {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      dtile.tile threads(%t : 128 "t") {
        %s = memref.alloca() : memref<64x64xbf16, #gpu.address_space<workgroup>>
        dkernel.wgmma_fence
        // expected-error @+1 {{'dkernel.wgmma_desc' op describes a buffer that is not a staged slab}}
        %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x64xbf16, #gpu.address_space<workgroup>>
        %r:4 = dkernel.wgmma_mma_async %d, %d, [%z, %z, %z, %z] n 8 : bf16
        dkernel.wgmma_commit_group
        %w:4 = dkernel.wgmma_wait_group 0 [%r#0, %r#1, %r#2, %r#3]
        dloop.store %w#0, %y[%t floordiv 2, %t mod 2] : memref<64x64xf32>
      }
    }
    return
  }
}
