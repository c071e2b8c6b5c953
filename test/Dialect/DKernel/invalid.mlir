// RUN: deplodock-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

//===----------------------------------------------------------------------===//
// dkernel.unroll and other dialect attributes
//===----------------------------------------------------------------------===//

func.func @unknown_attribute() {
  // expected-error @+1 {{has unknown dkernel attribute 'dkernel.unrol'}}
  "test.op"() {dkernel.unrol = 4 : i64} : () -> ()
  return
}

// -----

func.func @unroll_not_on_for(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'dkernel.unroll' is only valid on scf.for}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {dkernel.unroll = 4 : i64}
  return
}

// -----

func.func @unroll_zero(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'dkernel.unroll' must be an i64 integer >= 1, got 0 : i64}}
  scf.for %i = %c0 to %n step %c1 {
  } {dkernel.unroll = 0 : i64}
  return
}

// -----

func.func @unroll_i32(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'dkernel.unroll' must be an i64 integer >= 1, got 4 : i32}}
  scf.for %i = %c0 to %n step %c1 {
  } {dkernel.unroll = 4 : i32}
  return
}

//===----------------------------------------------------------------------===//
// !dkernel.tma_descriptor
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{a TMA box has rank 1 to 5, got 6}}
func.func private @tma_rank(!dkernel.tma_descriptor<1x1x1x1x1x16xf32, swizzle = 0>)

// -----

// expected-error @+1 {{TMA box extent 512 is outside [1, 256]}}
func.func private @tma_extent(!dkernel.tma_descriptor<512x16xf32, swizzle = 0>)

// -----

// expected-error @+1 {{TMA elements must be integers or floats of 1, 2, 4 or 8 bytes, got 'i1'}}
func.func private @tma_element(!dkernel.tma_descriptor<8x16xi1, swizzle = 0>)

// -----

// expected-error @+1 {{TMA swizzle must be 0, 32, 64 or 128 bytes, got 16}}
func.func private @tma_swizzle(!dkernel.tma_descriptor<8x16xf32, swizzle = 16>)

// -----

// expected-error @+1 {{the innermost TMA box extent spans 12 bytes, not a multiple of 16}}
func.func private @tma_row_bytes(!dkernel.tma_descriptor<8x3xf32, swizzle = 0>)

// -----

// expected-error @+1 {{the innermost TMA box extent spans 256 bytes, more than the 128-byte swizzle span}}
func.func private @tma_swizzle_span(!dkernel.tma_descriptor<8x64xf32, swizzle = 128>)

//===----------------------------------------------------------------------===//
// dkernel.func and dkernel.return
//===----------------------------------------------------------------------===//

// -----

func.func @outside_kernel() {
  // expected-error @+1 {{'dkernel.cp_async_commit' op must be nested in a dkernel.func}}
  dkernel.cp_async_commit
  return
}

// -----

// expected-error @+1 {{must have no results, got 1}}
dkernel.func @results(%y: memref<4xf32>) -> f32 outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{parameter #0 must be a statically shaped memref or a !dkernel.tma_descriptor, got 'tensor<4xf32>'}}
dkernel.func @tensor_param(%x: tensor<4xf32>, %y: memref<4xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{parameter #1 must be a statically shaped memref or a !dkernel.tma_descriptor, got 'memref<?xf32>'}}
dkernel.func @dynamic_param(%x: memref<4xf32>, %y: memref<?xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{parameter #0 must be in global memory (no memory space), got 'memref<4xf32, #gpu.address_space<workgroup>>'}}
dkernel.func @shared_param(%y: memref<4xf32, #gpu.address_space<workgroup>>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{parameter #0 must have the identity layout, got 'memref<4x4xf32, strided<[8, 1]>>'}}
dkernel.func @strided_param(%y: memref<4x4xf32, strided<[8, 1]>>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{parameter #0 has element type 'index'; buffers hold i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2}}
dkernel.func @index_param(%y: memref<4xindex>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{grid must have 3 entries (x, y, z), got 2}}
dkernel.func @grid_rank(%y: memref<4xf32>) outputs [0] grid [1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{block must have 3 entries (x, y, z), got 4}}
dkernel.func @block_rank(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{grid y must be at least 1, got 0}}
dkernel.func @grid_zero(%y: memref<4xf32>) outputs [0] grid [1, 0, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{block x must be at least 1, got -32}}
dkernel.func @block_negative(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [-32, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{grid x is 2147483648, more than the limit 2147483647}}
dkernel.func @grid_x_limit(%y: memref<4xf32>) outputs [0] grid [2147483648, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{grid z is 65536, more than the limit 65535}}
dkernel.func @grid_z_limit(%y: memref<4xf32>) outputs [0] grid [1, 1, 65536] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{block z is 128, more than the limit 64}}
dkernel.func @block_z_limit(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 128] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{block has 2048 threads, more than the 1024 a block may have}}
dkernel.func @too_many_threads(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [512, 4, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{smem must be non-negative, got -16}}
dkernel.func @smem_negative(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem -16 {
  dkernel.return
}

// -----

// expected-error @+1 {{smem of 232464 bytes exceeds the 232448 bytes a block may use on sm_90}}
dkernel.func @smem_limit(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 232464 {
  dkernel.return
}

// -----

/// The limits are the module's target's: 200 KB fit sm_90, not sm_80.
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async]>} {
  // expected-error @+1 {{smem of 204800 bytes exceeds the 166912 bytes a block may use on sm_80}}
  dkernel.func @smem_limit_sm80(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 204800 {
    dkernel.return
  }
}

// -----

/// A target of fewer threads per block than any the table knows.
module attributes {dkernel.target = #dkernel.target<"small", capability = 75, sm_count = 1, smem_per_block = 1024, smem_per_sm = 1024, threads_per_block = 256, threads_per_sm = 512, blocks_per_sm = 2, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = []>} {
  // expected-error @+1 {{block has 512 threads, more than the 256 a block may have on small}}
  dkernel.func @threads_limit(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [128, 4, 1] smem 0 {
    dkernel.return
  }
}

// -----

// expected-error @+1 {{'dkernel.target' is only valid on a module}}
func.func @target_on_func() attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async]>} {
  return
}

// -----

// expected-error @+1 {{'dkernel.target' must be a #dkernel.target, got "sm_90"}}
module attributes {dkernel.target = "sm_90"} {
}

// -----

// expected-error @+1 {{missing field 'warp_size'}}
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, features = [cp_async]>} {
}

// -----

// expected-error @+1 {{unknown GPU feature 'tcgen05'}}
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, tma, tcgen05]>} {
}

// -----

// expected-error @+1 {{smem_per_block (300000) exceeds smem_per_sm (233472)}}
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 132, smem_per_block = 300000, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, tma]>} {
}

// -----

// expected-error @+1 {{sm_count must be positive, got 0}}
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 0, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, tma]>} {
}

// -----

/// A target written out before the L2 was a field of it.
// expected-error @+1 {{missing field 'l2_bytes'}}
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, features = [cp_async, tma]>} {
}

// -----

// expected-error @+1 {{l2_bytes must be positive, got 0}}
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 0, features = [cp_async, tma]>} {
}

// -----

// expected-error @+1 {{field 'sm_count' is set twice}}
module attributes {dkernel.target = #dkernel.target<"sm_90", sm_count = 1, sm_count = 2>} {
}

// -----

// expected-error @+1 {{outputs must not be empty}}
dkernel.func @no_outputs(%y: memref<4xf32>) outputs [] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{outputs must be strictly increasing}}
dkernel.func @outputs_unsorted(%x: memref<4xf32>, %y: memref<4xf32>) outputs [1, 0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{outputs must be strictly increasing}}
dkernel.func @outputs_repeated(%x: memref<4xf32>, %y: memref<4xf32>) outputs [1, 1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{outputs index 2 is out of range for 2 parameters}}
dkernel.func @outputs_range(%x: memref<4xf32>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{outputs index 1 names a TMA descriptor, not a buffer}}
dkernel.func @outputs_descriptor(%x: memref<8x16xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.return
}

// -----

// expected-error @+1 {{zero_init must be strictly increasing}}
dkernel.func @zero_init_unsorted(%x: memref<4xf32>, %y: memref<4xf32>) outputs [0, 1] zero_init [1, 0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{zero_init index 0 is not an output}}
dkernel.func @zero_init_input(%x: memref<4xf32>, %y: memref<4xf32>) outputs [1] zero_init [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{must have a body}}
"dkernel.func"() <{block = array<i64: 1, 1, 1>, function_type = (memref<4xf32>) -> (), grid = array<i64: 1, 1, 1>, outputs = array<i64: 0>, smem = 0 : i64, sym_name = "external"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{body must end with dkernel.return}}
dkernel.func @foreign_terminator(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  "test.terminator"() : () -> ()
}

// -----

// expected-error @+1 {{TMA descriptor parameter #1 is not described by a dkernel.tma_descriptor}}
dkernel.func @undescribed(%x: memref<8x16xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{TMA descriptor parameter #1 is described more than once}}
dkernel.func @described_twice(%x: memref<8x16xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<8x16xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.tma_descriptor %d describes %y : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.return
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'dkernel.return' op expects parent op 'dkernel.func'}}
  dkernel.return
}

//===----------------------------------------------------------------------===//
// dkernel.launch
//===----------------------------------------------------------------------===//

// -----

dkernel.func @nested(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{launches kernels from host code only, not from a dkernel.func}}
  dkernel.launch @nested(%y) : memref<4xf32>
  dkernel.return
}

// -----

func.func private @not_a_kernel(memref<4xf32>)

func.func @launch_func(%y: memref<4xf32>) {
  // expected-error @+1 {{'@not_a_kernel' does not name a dkernel.func}}
  dkernel.launch @not_a_kernel(%y) : memref<4xf32>
  return
}

// -----

func.func @launch_missing(%y: memref<4xf32>) {
  // expected-error @+1 {{'@missing' does not name a dkernel.func}}
  dkernel.launch @missing(%y) : memref<4xf32>
  return
}

// -----

dkernel.func @k(%x: memref<8x16xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.return
}

func.func @launch_arity(%x: memref<8x16xf32>) {
  // expected-error @+1 {{@k takes 2 buffer arguments, got 1}}
  dkernel.launch @k(%x) : memref<8x16xf32>
  return
}

// -----

dkernel.func @k(%x: memref<8x16xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.return
}

func.func @launch_types(%x: memref<8x16xf32>, %y: memref<4xf16>) {
  // expected-error @+1 {{argument #1 has type 'memref<4xf16>' but parameter #2 of @k is 'memref<4xf32>'}}
  dkernel.launch @k(%x, %y) : memref<8x16xf32>, memref<4xf16>
  return
}

//===----------------------------------------------------------------------===//
// dkernel.alloc_shared
//===----------------------------------------------------------------------===//

// -----

dkernel.func @alloc_global(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 64 {
  // expected-error @+1 {{result must be in workgroup memory, got 'memref<4xf32>'}}
  %s = dkernel.alloc_shared offset 0 : memref<4xf32>
  dkernel.return
}

// -----

dkernel.func @alloc_layout(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  // expected-error @+1 {{result must have the identity layout, got 'memref<4x4xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>'}}
  %s = dkernel.alloc_shared offset 0 : memref<4x4xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @alloc_misaligned(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 64 {
  // expected-error @+1 {{offset 8 must be a non-negative multiple of 16 bytes}}
  %s = dkernel.alloc_shared offset 8 : memref<4xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @alloc_negative(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 64 {
  // expected-error @+1 {{offset -16 must be a non-negative multiple of 16 bytes}}
  %s = dkernel.alloc_shared offset -16 : memref<4xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @alloc_overflow(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 32 {
  // expected-error @+1 {{bytes [16, 80) exceed the kernel's 32 bytes of shared memory}}
  %s = dkernel.alloc_shared offset 16 : memref<16xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @alloc_in_loop(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{'dkernel.alloc_shared' op expects parent op 'dkernel.func'}}
    %s = dkernel.alloc_shared offset 0 : memref<4xf32, #gpu.address_space<workgroup>>
  }
  dkernel.return
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

// -----

dkernel.func @cp_async_shared_src(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 512 {
  %c0 = arith.constant 0 : index
  %a = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  %b = dkernel.alloc_shared offset 256 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{source must be in global memory (no memory space), got 'memref<64xf32, #gpu.address_space<workgroup>>'}}
  dkernel.cp_async %a[%c0], %b[%c0], 16 : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_global_dst(%x: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{destination must be in workgroup memory, got 'memref<64xf32>'}}
  dkernel.cp_async %x[%c0], %y[%c0], 16 : memref<64xf32>, memref<64xf32>
  dkernel.return
}

// -----

dkernel.func @cp_async_src_indices(%x: memref<8x64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{expected 2 source indices, one per dimension, got 1}}
  dkernel.cp_async %x[%c0], %s[%c0], 16 : memref<8x64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_dst_indices(%x: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{expected 1 destination indices, one per dimension, got 2}}
  dkernel.cp_async %x[%c0], %s[%c0, %c0], 16 : memref<64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_element_type(%x: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 128 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{source element type 'f32' differs from the destination's 'f16'}}
  dkernel.cp_async %x[%c0], %s[%c0], 16 : memref<64xf32>, memref<64xf16, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_bytes(%x: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{bytes must be 4, 8 or 16, got 12}}
  dkernel.cp_async %x[%c0], %s[%c0], 12 : memref<64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_element_size(%x: memref<64xf64>, %y: memref<64xf64>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 512 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{bytes 4 is not a multiple of the element size 8}}
  dkernel.cp_async %x[%c0], %s[%c0], 4 : memref<64xf64>, memref<64xf64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_row(%x: memref<8x2xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{copies 4 elements, more than the innermost dimension of 'memref<8x2xf32>'}}
  dkernel.cp_async %x[%c0, %c0], %s[%c0], 16 : memref<8x2xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @cp_async_wait_negative(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{pending group count must be non-negative, got -1}}
  dkernel.cp_async_wait -1
  dkernel.return
}

// -----

dkernel.func @vector_copy_bytes(%x: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{bytes must be 8 or 16, got 4}}
  dkernel.vector_copy %x[%c0], %s[%c0], 4 : memref<64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @vector_copy_types(%x: memref<64xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<128xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{source element type 'f32' differs from the destination's 'f16'}}
  dkernel.vector_copy %x[%c0], %s[%c0], 16 : memref<64xf32>, memref<128xf16, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @vector_copy_row(%x: memref<8x2xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{copies 4 elements, more than the innermost dimension of 'memref<8x2xf32>'}}
  dkernel.vector_copy %x[%c0, %c0], %s[%c0], 16 : memref<8x2xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

//===----------------------------------------------------------------------===//
// mbarrier
//===----------------------------------------------------------------------===//

// -----

dkernel.func @mbarrier_count(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{arrival count must be in [1, 1048575], got 0}}
  dkernel.mbarrier_init %mb[%c0], 0 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @mbarrier_tx_bytes(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{transaction bytes must be in [1, 1048575], got 1048576}}
  dkernel.mbarrier_arrive_expect_tx %mb[%c0], 1048576 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @mbarrier_arrive_f32(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{mbarriers must be a rank-1 memref of i64 in workgroup memory, got 'memref<2xf32, #gpu.address_space<workgroup>>'}}
  dkernel.mbarrier_arrive %mb[%c0] : memref<2xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @mbarrier_global(%y: memref<4xf32>, %mb: memref<2xi64>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{mbarriers must be a rank-1 memref of i64 in workgroup memory, got 'memref<2xi64>'}}
  dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64>
  dkernel.return
}

// -----

dkernel.func @mbarrier_i32(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2xi32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{mbarriers must be a rank-1 memref of i64 in workgroup memory, got 'memref<2xi32, #gpu.address_space<workgroup>>'}}
  dkernel.mbarrier_arrive_expect_tx %mb[%c0], 64 : memref<2xi32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @mbarrier_rank(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 32 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2x2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{mbarriers must be a rank-1 memref of i64 in workgroup memory, got 'memref<2x2xi64, #gpu.address_space<workgroup>>'}}
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2x2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

//===----------------------------------------------------------------------===//
// dkernel.tma_descriptor
//===----------------------------------------------------------------------===//

// -----

dkernel.func @descriptor_not_parameter(%x: memref<8x16xf32>, %y: memref<4xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %d = "test.make_descriptor"() : () -> !dkernel.tma_descriptor<8x16xf32, swizzle = 0>
  // expected-error @+1 {{descriptor must be a parameter of the kernel}}
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.return
}

// -----

dkernel.func @buffer_not_parameter(%d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %x = memref.alloca() : memref<8x16xf32>
  // expected-error @+1 {{buffer must be a parameter of the kernel}}
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  dkernel.return
}

// -----

dkernel.func @descriptor_rank(%x: memref<128xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{descriptor rank 2 differs from the buffer's rank 1}}
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<128xf32>
  dkernel.return
}

// -----

dkernel.func @descriptor_element(%x: memref<8x16xf16>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{descriptor element type 'f32' differs from the buffer's 'f16'}}
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf16>
  dkernel.return
}

// -----

dkernel.func @descriptor_row_stride(%x: memref<64x6xf32>, %d: !dkernel.tma_descriptor<8x4xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{buffer rows span 24 bytes; TMA needs a multiple of 16}}
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x4xf32, swizzle = 0>, memref<64x6xf32>
  dkernel.return
}

// -----

dkernel.func @descriptor_in_loop(%x: memref<8x16xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error @+1 {{'dkernel.tma_descriptor' op expects parent op 'dkernel.func'}}
    dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>
  }
  dkernel.return
}

//===----------------------------------------------------------------------===//
// dkernel.tma_load
//===----------------------------------------------------------------------===//

// -----

dkernel.func @tma_load_coords(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 528 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<8x16xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 512 : memref<1xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{expected 2 coordinates, one per descriptor dimension, got 1}}
  dkernel.tma_load %d[%c0] -> %s, %mb[%c0] : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @tma_load_global_dst(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<8x16xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 16 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<1xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{destination must be in workgroup memory, got 'memref<8x16xf32>'}}
  dkernel.tma_load %d[%c0, %c0] -> %y, %mb[%c0] : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32>, memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @tma_load_shape(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 1040 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<16x16xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 1024 : memref<1xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{destination shape 16x16 differs from the box shape 8x16}}
  dkernel.tma_load %d[%c0, %c0] -> %s, %mb[%c0] : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<16x16xf32, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @tma_load_element(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 528 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<8x16xi32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 512 : memref<1xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{destination element type 'i32' differs from the descriptor's 'f32'}}
  dkernel.tma_load %d[%c0, %c0] -> %s, %mb[%c0] : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xi32, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @tma_load_alignment(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 592 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<1xi64, #gpu.address_space<workgroup>>
  %s = dkernel.alloc_shared offset 64 : memref<8x16xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{destination offset 64 is not a multiple of 128 bytes}}
  dkernel.tma_load %d[%c0, %c0] -> %s, %mb[%c0] : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

/// A swizzle permutes address bits: its box starts where the pattern does.
dkernel.func @tma_load_swizzle_alignment(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x32xf32, swizzle = 128>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 1536 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x32xf32, swizzle = 128>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<1xi64, #gpu.address_space<workgroup>>
  %s = dkernel.alloc_shared offset 512 : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{destination offset 512 is not a multiple of 1024 bytes}}
  dkernel.tma_load %d[%c0, %c0] -> %s, %mb[%c0] : !dkernel.tma_descriptor<8x32xf32, swizzle = 128>, memref<8x32xf32, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @tma_load_mbarrier(%x: memref<64x32xf32>, %d: !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [1, 1, 1] smem 528 {
  dkernel.tma_descriptor %d describes %x : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<8x16xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 512 : memref<2xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{mbarriers must be a rank-1 memref of i64 in workgroup memory, got 'memref<2xf32, #gpu.address_space<workgroup>>'}}
  dkernel.tma_load %d[%c0, %c0] -> %s, %mb[%c0] : !dkernel.tma_descriptor<8x16xf32, swizzle = 0>, memref<8x16xf32, #gpu.address_space<workgroup>>, memref<2xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

dkernel.func @warp_width(%y: memref<4xf32>, %v: memref<f32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %x = memref.load %v[] : memref<f32>
  // expected-error @+1 {{width must be a power of two in [2, 32], got 64}}
  %r = dkernel.warp_reduce add %x width 64 : f32
  dkernel.return
}

// -----

dkernel.func @warp_width_odd(%y: memref<4xf32>, %v: memref<f32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %x = memref.load %v[] : memref<f32>
  // expected-error @+1 {{width must be a power of two in [2, 32], got 12}}
  %r = dkernel.warp_reduce add %x width 12 : f32
  dkernel.return
}

// -----

dkernel.func @warp_maxnum_int(%y: memref<4xi32>, %v: memref<i32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %x = memref.load %v[] : memref<i32>
  // expected-error @+1 {{a maxnum reduction needs float elements, got 'i32'}}
  %r = dkernel.warp_reduce maxnum %x width 32 : i32
  dkernel.return
}

// -----

dkernel.func @tree_global(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  // expected-error @+1 {{buffer must be a rank-1 memref in workgroup memory, got 'memref<8xf32>'}}
  %r = dkernel.tree_reduce add %y length 8 : memref<8xf32> -> f32
  dkernel.return
}

// -----

dkernel.func @tree_result(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 32 {
  %s = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{result type 'f16' differs from the buffer's element type 'f32'}}
  %r = dkernel.tree_reduce add %s length 8 : memref<8xf32, #gpu.address_space<workgroup>> -> f16
  dkernel.return
}

// -----

dkernel.func @tree_length(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 32 {
  %s = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{length must be a power of two >= 2, got 6}}
  %r = dkernel.tree_reduce add %s length 6 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
  dkernel.return
}

// -----

dkernel.func @tree_length_one(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 32 {
  %s = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{length must be a power of two >= 2, got 1}}
  %r = dkernel.tree_reduce add %s length 1 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
  dkernel.return
}

// -----

dkernel.func @tree_overrun(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 32 {
  %s = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{length 16 exceeds the buffer's 8 elements}}
  %r = dkernel.tree_reduce add %s length 16 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
  dkernel.return
}

// -----

dkernel.func @tree_threads(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 1024 {
  %s = dkernel.alloc_shared offset 0 : memref<256xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{length 256 needs 128 threads, but the block has 64}}
  %r = dkernel.tree_reduce max %s length 256 : memref<256xf32, #gpu.address_space<workgroup>> -> f32
  dkernel.return
}

// -----

dkernel.func @atomic_shared(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 32 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.000000e+00 : f32
  %s = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{buffer must be in global memory (no memory space), got 'memref<8xf32, #gpu.address_space<workgroup>>'}}
  dkernel.atomic_store add %v, %s[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @atomic_indices(%y: memref<8x8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.000000e+00 : f32
  // expected-error @+1 {{expected 2 indices, one per dimension, got 1}}
  dkernel.atomic_store add %v, %y[%c0] : memref<8x8xf32>
  dkernel.return
}

// -----

dkernel.func @atomic_bytes(%y: memref<8xi8>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i8
  // expected-error @+1 {{atomics need elements of 2, 4 or 8 bytes, got 'i8'}}
  dkernel.atomic_store max %v, %y[%c0] : memref<8xi8>
  dkernel.return
}

// -----

dkernel.func @atomic_value_type(%y: memref<8xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.000000e+00 : f16
  // expected-error @+1 {{value type matches the element type of memref}}
  "dkernel.atomic_store"(%v, %y, %c0) <{kind = 0 : i32}> : (f16, memref<8xf32>, index) -> ()
  dkernel.return
}

//===----------------------------------------------------------------------===//
// ldmatrix and mma.sync
//===----------------------------------------------------------------------===//

// -----

// Warp-level matrix ops may sit in a Tile kernel (the mma_sync rule puts them
// there), but not in host code.
func.func @mma_outside_kernel(%a: f16, %c: f32) {
  // expected-error @+1 {{'dkernel.mma_sync' op must be nested in a dkernel.func or a dtile.kernel}}
  %d:4 = dkernel.mma_sync [%a, %a, %a, %a, %a, %a, %a, %a], [%a, %a, %a, %a], [%c, %c, %c, %c] : f16
  return
}

// -----

dkernel.func @ldmatrix_global(%x: memref<16x16xf16>, %y: memref<4xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{source must be in workgroup memory, got 'memref<16x16xf16>'}}
  %a:2 = dkernel.ldmatrix %x[%c0, %c0] : memref<16x16xf16> -> f16, f16
  dkernel.return
}

// -----

dkernel.func @ldmatrix_f32(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 1024 {
  %s = dkernel.alloc_shared offset 0 : memref<16x16xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{source elements must be f16 or bf16, got 'f32'}}
  %a:2 = dkernel.ldmatrix %s[%c0, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>> -> f16, f16
  dkernel.return
}

// -----

dkernel.func @ldmatrix_three(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 512 {
  %s = dkernel.alloc_shared offset 0 : memref<16x16xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{loads 1, 2 or 4 matrices, so it has 2, 4 or 8 results, got 6}}
  %a:6 = dkernel.ldmatrix %s[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16
  dkernel.return
}

// -----

dkernel.func @ldmatrix_mixed(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 512 {
  %s = dkernel.alloc_shared offset 0 : memref<16x16xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{result type 'bf16' differs from the source's element type 'f16'}}
  %a:2 = dkernel.ldmatrix %s[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>> -> bf16, bf16
  dkernel.return
}

// -----

dkernel.func @ldmatrix_short_rows(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 512 {
  %s = dkernel.alloc_shared offset 0 : memref<64x4xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{source rows must hold at least 8 elements, got 'memref<64x4xf16, #gpu.address_space<workgroup>>'}}
  %a:2 = dkernel.ldmatrix %s[%c0, %c0] : memref<64x4xf16, #gpu.address_space<workgroup>> -> f16, f16
  dkernel.return
}

// -----

dkernel.func @mma_short(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %h = arith.constant 1.0 : f16
  %f = arith.constant 0.0 : f32
  // expected-error @+1 {{m16n8k16 takes 8 values of A, 4 of B and 4 of C, got 4, 4 and 4}}
  %d:4 = dkernel.mma_sync [%h, %h, %h, %h], [%h, %h, %h, %h], [%f, %f, %f, %f] : f16
  dkernel.return
}

// -----

/// f32 multiplicands are the tf32 m16n8k8 form, one element per register.
dkernel.func @mma_f32(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %f = arith.constant 0.0 : f32
  // expected-error @+1 {{m16n8k8 (tf32) takes 4 values of A, 2 of B and 4 of C, got 8, 4 and 4}}
  %d:4 = dkernel.mma_sync [%f, %f, %f, %f, %f, %f, %f, %f], [%f, %f, %f, %f], [%f, %f, %f, %f] : f32
  dkernel.return
}

// -----

dkernel.func @mma_f64(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %f = arith.constant 0.0 : f64
  %c = arith.constant 0.0 : f32
  // expected-error @+1 {{operand #0 must be variadic of 16-bit float or bfloat16 type or 32-bit float, but got 'f64'}}
  %d:4 = dkernel.mma_sync [%f, %f, %f, %f], [%f, %f], [%c, %c, %c, %c] : f64
  dkernel.return
}
