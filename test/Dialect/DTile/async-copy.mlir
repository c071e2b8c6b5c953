// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy="target=sm_80 list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy="knobs=async_copy=false" | FileCheck %s --check-prefix=SKIP
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=rowsum_0_reduce:async_copy=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-async-copy=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-async-copy | diff %t.once.mlir -

/// The chunk's stages travel by cp.async; one wait for all of them comes
/// before the chunk reads its slabs.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, stage = [0, 1]>
//       DEFAULT:       dloop.for %{{.*}} = 0 to 4 reduce "r0_o"
//  DEFAULT-NEXT:         affine.apply
//  DEFAULT-NEXT:         dtile.stage {{.*}} box [4, 32] buffers 2 slot %{{.*}} transport cp_async :
//  DEFAULT-NEXT:         dtile.stage {{.*}} box [32, 8] buffers 2 slot %{{.*}} transport cp_async :
//  DEFAULT-NEXT:         dtile.async_wait keep 0
//  DEFAULT-NEXT:         dloop.for %{{.*}} = 0 to 32 reduce "r0_i"
// DEFAULT-LABEL: func.func @gemv
//       DEFAULT:   knobs<async_copy = true, block_threads = 64
//       DEFAULT:     dtile.stage %{{.*}} box [128] buffers 2 slot %{{.*}} transport cp_async
//  DEFAULT-NEXT:     dtile.async_wait keep 0

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: async_copy: async_copy in {true*, false}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: async_copy: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: async_copy: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: async_copy: async_copy in {true*, false}

// SKIP-LABEL: func.func @matmul
//       SKIP:   async_copy = false
//   SKIP-NOT:   cp_async
//   SKIP-NOT:   async_wait
//       SKIP: func.func @rowsum

// ILLEGAL: kernels.mlir:25:5: error: 'dtile.kernel' op no rule took knob "async_copy" for this kernel

// -----

/// f16 rows of 33 elements: no 4-byte run is aligned, so the stage stays
/// synchronous and the rule does not apply.
// CHECK-LABEL: func.func @unaligned
//   CHECK-NOT:   cp_async
func.func @unaligned(%arg0: memref<16x33xf16>, %arg1: memref<16xf16>) {
  // expected-remark @+1 {{async_copy: does not apply}}
  dtile.kernel @unaligned ins(%x = %arg0 : memref<16x33xf16>) outs(%y = %arg1 : memref<16xf16>) {
    %zero = arith.constant 0.0 : f16
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 3 reduce "k_o" iter(%acc = %zero : f16) {
        %s = dtile.stage %x[0, %ko * 11] box [16, 11] : memref<16x33xf16> -> memref<16x11xf16, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 11 reduce "k_i" iter(%a = %acc : f16) {
          %v = dloop.load %s[%t, %ki] : memref<16x11xf16, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f16
          dloop.yield %n : f16
        }
        dloop.yield %p : f16
      }
      dloop.store %r, %y[%t] : memref<16xf16>
    }
  }
  return
}

// -----

/// A kernel whose stages already travel by TMA keeps one kind of wait.
// CHECK-LABEL: func.func @tma_staged
//   CHECK-NOT:   cp_async
func.func @tma_staged(%arg0: memref<16x64xf32>, %arg1: memref<16x64xf32>, %arg2: memref<16xf32>) {
  // expected-remark @+1 {{async_copy: does not apply}}
  dtile.kernel @tma_staged ins(%x = %arg0 : memref<16x64xf32>, %w = %arg1 : memref<16x64xf32>) outs(%y = %arg2 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] transport tma : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %u = dtile.stage %w[0, %ko * 32] box [16, 32] : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %v2 = dloop.load %u[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %v, %v2 : f32
          %n = arith.addf %a, %m : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return
}
