// RUN: deplodock-opt %s -split-input-file -verify-diagnostics

// Each verifier of the warpgroup matrix ops (WgmmaOps.td), with its located
// error.

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @desc_global(%a: memref<64x16xbf16>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dkernel.wgmma_desc' op source must be in workgroup memory, got 'memref<64x16xbf16>'}}
  %d = dkernel.wgmma_desc %a[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16>
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @desc_f32(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 4096 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dkernel.wgmma_desc' op source elements must be f16 or bf16 (or f8E4M3FN or f8E5M2), got 'f32'}}
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xf32, #gpu.address_space<workgroup>>
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @desc_swizzle(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dkernel.wgmma_desc' op swizzle must be 0, 32, 64 or 128 bytes, got 16}}
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 16 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @desc_sbo(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dkernel.wgmma_desc' op sbo must be a multiple of 16 in [0, 262144), got 100}}
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 100 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @desc_use(%a: memref<4xi64>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dkernel.wgmma_desc' op result may only be an operand of dkernel.wgmma_mma_async, not of memref.store}}
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  memref.store %d, %a[%c0] : memref<4xi64>
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_n(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op n must be a multiple of 8 from 8 to 256, got 12}}
  dkernel.wgmma_mma_async %d, %d, [] n 12 : bf16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_c(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %x = arith.constant 0.0 : f32
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op takes none or 4 accumulators of C, got 2}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [%x, %x] n 8 : bf16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_dtype(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op operand a holds 'bf16' elements, not 'f16'}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : f16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_mixed_halves(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op multiplies 'bf16' by 'f16': both f16, both bf16 or both 8-bit floats}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16, f16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_half_by_f8(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op multiplies 'bf16' by 'f8E4M3FN': both f16, both bf16 or both 8-bit floats}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16, f8E4M3FN
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_f8_mn_major(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 4096 {
  %s = dkernel.alloc_shared offset 0 : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>
  %t = dkernel.alloc_shared offset 2048 : memref<32x64xf8E5M2, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %da = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %t[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<32x64xf8E5M2, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op operand b is MN-major, but 8-bit operands are read K-major only}}
  %r:4 = dkernel.wgmma_mma_async %da, %db, [] n 8 major_b mn : f8E4M3FN, f8E5M2
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_f8_type_b(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 4096 {
  %s = dkernel.alloc_shared offset 0 : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op operand b holds 'f8E4M3FN' elements, not 'f8E5M2'}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : f8E4M3FN, f8E5M2
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_elem(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op attribute 'elementType' failed to satisfy constraint}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : f32
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_read_early(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op accumulators may only be read by dkernel.wgmma_mma_async, dkernel.wgmma_wait_group or a loop's yield, not by memref.store}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16
  memref.store %r#0, %a[%c0] : memref<4xf32>
  dkernel.return
}
}

// -----

// The default target (sm_90) has no wgmma.
dkernel.func @mma_target(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op needs a target with wgmma (sm_90a), not sm_90}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16
  dkernel.return
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_warps(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [96, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op runs in blocks of whole 128-thread warpgroups; the kernel's block has 96 threads}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_desc_operand(%a: memref<4xf32>, %i: memref<4xi64>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %c0 = arith.constant 0 : index
  %d = memref.load %i[%c0] : memref<4xi64>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op operand a must be a dkernel.wgmma_desc result}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @wait_pending(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.wgmma_wait_group' op pending group count must be in [0, 7], got 8}}
  dkernel.wgmma_wait_group 8
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @wait_values(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 0 {
  %x = arith.constant 0.0 : f32
  // expected-error @+1 {{'dkernel.wgmma_wait_group' op passes through only wgmma_mma_async results (or the results of a loop carrying them)}}
  %r = dkernel.wgmma_wait_group 0 [%x]
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mn_major_partial_atom(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 8192 {
  %s = dkernel.alloc_shared offset 0 : memref<4096xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %da = dkernel.wgmma_desc %s[%c0] swizzle 128 lbo 16 sbo 1024 : memref<4096xbf16, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %s[%c0] swizzle 128 lbo 8192 sbo 1024 : memref<4096xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op MN-major operand b spans 32 elements, not whole atoms of 64 (its descriptor's swizzle is 128)}}
  %d:16 = dkernel.wgmma_mma_async %da, %db, [] n 32 major_b mn : bf16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @bad_major(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 8192 {
  %s = dkernel.alloc_shared offset 0 : memref<4096xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %da = dkernel.wgmma_desc %s[%c0] swizzle 128 lbo 16 sbo 1024 : memref<4096xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{expected 'k' or 'mn' after major_b, got 'n'}}
  %d:4 = dkernel.wgmma_mma_async %da, %da, [] n 8 major_b n : bf16
  dkernel.return
}
}

// -----

// A loop may carry accumulators in flight to its next step's chain; a
// branch may not yield them.
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @mma_if_yield(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 2048 {
  %s = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %p = arith.cmpi eq, %t, %c0 : index
  %x = arith.constant 0.0 : f32
  %d = dkernel.wgmma_desc %s[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.wgmma_mma_async' op accumulators may only be read by dkernel.wgmma_mma_async, dkernel.wgmma_wait_group or a loop's yield, not by scf.yield}}
  %r:4 = dkernel.wgmma_mma_async %d, %d, [] n 8 : bf16
  %y = scf.if %p -> (f32) {
    scf.yield %r#0 : f32
  } else {
    scf.yield %x : f32
  }
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @wait_if_result(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 0 {
  %x = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %p = arith.cmpi eq, %t, %c0 : index
  %y = scf.if %p -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  // expected-error @+1 {{'dkernel.wgmma_wait_group' op passes through only wgmma_mma_async results (or the results of a loop carrying them)}}
  %r = dkernel.wgmma_wait_group 0 [%y]
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @setmaxnreg_low(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.setmaxnreg' op register count must be a multiple of 8 in [24, 256], got 16}}
  dkernel.setmaxnreg dec 16
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @setmaxnreg_odd(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.setmaxnreg' op register count must be a multiple of 8 in [24, 256], got 236}}
  dkernel.setmaxnreg inc 236
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @setmaxnreg_high(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.setmaxnreg' op register count must be a multiple of 8 in [24, 256], got 264}}
  dkernel.setmaxnreg inc 264
  dkernel.return
}
}

// -----

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @setmaxnreg_block(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [96, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.setmaxnreg' op runs in blocks of whole 128-thread warpgroups; the kernel's block has 96 threads}}
  dkernel.setmaxnreg dec 40
  dkernel.return
}
}

// -----

// The default target (sm_90) lacks sm_90a's arch-specific features.
dkernel.func @setmaxnreg_target(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.setmaxnreg' op needs a target with the arch-specific sm_90a features (wgmma), not sm_90}}
  dkernel.setmaxnreg inc 232
  dkernel.return
}

// -----

dkernel.func @setmaxnreg_keyword(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 0 {
  // expected-error @+1 {{expected 'inc' or 'dec', got 'up'}}
  dkernel.setmaxnreg up 232
  dkernel.return
}
