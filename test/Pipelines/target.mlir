// The target is set once, from the pipeline's option, on the module, and
// every later pass reads it there; without one every pass takes sm_90.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_80 | deplodock-opt --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL80
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_80 | not deplodock-opt --convert-dtile-to-dkernel=target=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONTRADICTS
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

/// A target is data: a part without cp.async or TMA, with 48 KB of shared
/// memory a block, gets neither kind of asynchronous copy, and stages that
/// fit.
// RUN: deplodock-opt %s --dtile-lower="list-forks=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SMALL

// DEFAULT: module {
// DEFAULT: knobs<BK = 32, BM = 32, BN = 128, FM = 4, FN = 4, async_copy = true, double_buffer = true, permute = false, pipeline = true, reg_double = true, split_k = 8, stage = [0, 1], transpose_a = false, unroll = 32, vector_reads = true>
// SM90: module attributes {dkernel.target = #dkernel.target<"sm_90", {{.*}}features = [clusters, cp_async, dependent_launch, mma_sync, tma]>}
// SM90: knobs<BK = 32, BM = 32, BN = 128, FM = 4, FN = 4, async_copy = true, double_buffer = true, permute = false, pipeline = true, reg_double = true, split_k = 8, stage = [0, 1], transpose_a = false, unroll = 32, vector_reads = true>
// SM90A: module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, {{.*}}features = [clusters, cp_async, dependent_launch, mma_sync, tma, wgmma]>}
// SM80: module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, {{.*}}features = [cp_async, mma_sync]>}
// KERNEL80: dkernel.target = #dkernel.target<"sm_80"
// KERNEL80: dkernel.func @matmul_0_reduce
// CONTRADICTS: error: target option 'sm_90' contradicts the module's target 'sm_80'
// UNKNOWN: error: unknown target 'sm_100'; expected sm_80, sm_90 or sm_90a

// SMALL: remark: @matmul_0_reduce: chunk_matmul_k: BK in {32*, 16, 64, 128}
// SMALL: remark: @matmul_0_reduce: stage_inputs: stage in {[0, 1]*, [1], [0], []}
// SMALL: remark: @matmul_0_reduce: double_buffer: double_buffer in {true*, false}
// SMALL: remark: @matmul_0_reduce: async_copy: does not apply
// SMALL: remark: @matmul_0_reduce: tma_copy: does not apply
module attributes {dkernel.target = #dkernel.target<"small", capability = 75, sm_count = 40, smem_per_block = 49152, smem_per_sm = 65536, threads_per_block = 1024, threads_per_sm = 1024, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = []>} {
  func.func @matmul(%arg0: memref<64x256xf32>, %arg1: memref<256x256xf32>) -> memref<64x256xf32> {
    %alloc = memref.alloc() : memref<64x256xf32>
    dloop.kernel @matmul_0_reduce ins(%in0 = %arg0 : memref<64x256xf32>, %in1 = %arg1 : memref<256x256xf32>) outs(%out0 = %alloc : memref<64x256xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        dloop.for %d1 = 0 to 256 free "d1" {
          %0 = dloop.for %r0 = 0 to 256 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<64x256xf32>
            %2 = dloop.load %in1[%r0, %d1] : memref<256x256xf32>
            %3 = arith.mulf %1, %2 : f32
            %4 = arith.addf %acc, %3 : f32
            dloop.yield %4 : f32
          }
          dloop.store %0, %out0[%d0, %d1] : memref<64x256xf32>
        }
      }
    }
    return %alloc : memref<64x256xf32>
  }
}
