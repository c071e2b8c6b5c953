// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy="knobs=async_copy=false" --dtile-tma-copy="knobs=tma=true" | FileCheck %s --check-prefix=APPLY
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy="knobs=async_copy=false" --dtile-tma-copy | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy="knobs=async_copy=false" --dtile-tma-copy="list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy="knobs=async_copy=false target=sm_80" --dtile-tma-copy="target=sm_80 list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS80
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy --dtile-tma-copy="list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER-ASYNC
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ORDER
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:async_copy=false,tma=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:tma=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false" | FileCheck %s --check-prefix=PIPELINED
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="target=sm_90 list-forks knobs=async_copy=false" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=EXAMPLE
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="target=sm_80 knobs=async_copy=false,tma=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=EXAMPLE80
// RUN: deplodock-opt %s --dtile-tma-copy=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy="knobs=async_copy=false" --dtile-tma-copy="knobs=tma=true" > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-tma-copy | diff %t.once.mlir -

/// Applied: the chunk's stages travel by TMA; one wait for all of them
/// comes before the chunk reads its slabs.
// APPLY-LABEL: func.func @matmul
//       APPLY:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = false, double_buffer = true, stage = [0, 1], tma = true>
//       APPLY:       dloop.for %{{.*}} = 0 to 4 reduce "r0_o"
//  APPLY-NEXT:         affine.apply
//  APPLY-NEXT:         dtile.stage {{.*}} box [4, 32] buffers 2 slot %{{.*}} transport tma :
//  APPLY-NEXT:         dtile.stage {{.*}} box [32, 8] buffers 2 slot %{{.*}} transport tma :
//  APPLY-NEXT:         dtile.async_wait keep 0
//  APPLY-NEXT:         dloop.for %{{.*}} = 0 to 32 reduce "r0_i"
// APPLY-LABEL: func.func @gemv
//       APPLY:   tma = true
//       APPLY:     dtile.stage %{{.*}} box [128] buffers 2 slot %{{.*}} transport tma
//  APPLY-NEXT:     dtile.async_wait keep 0

/// Option 0 skips it: cp.async stays the default asynchronous copy until
/// TMA is measured faster.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   async_copy = false, double_buffer = true, stage = [0, 1], tma = false>
//   DEFAULT-NOT:   transport
//   DEFAULT-NOT:   async_wait
//       DEFAULT: func.func @rowsum

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: tma_copy: tma in {false*, true}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: tma_copy: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: tma_copy: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: tma_copy: tma in {false*, true}

/// sm_80 has no TMA.
// FORKS80-COUNT-4: remark: @{{[a-z0-9_]+}}: tma_copy: does not apply

/// Once async_copy has applied, the kernel's copies are cp.async: TMA would
/// mix two kinds of waits in one kernel.
// AFTER-ASYNC-COUNT-4: remark: @{{[a-z0-9_]+}}: tma_copy: does not apply

/// In the whole pipeline tma_copy follows async_copy, which applies by
/// default.
//      ORDER: kernels.mlir:6:5: remark: @matmul_0_reduce: async_copy: async_copy in {true*, false}
//      ORDER: kernels.mlir:6:5: remark: @matmul_0_reduce: tma_copy: does not apply
//      ORDER: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer

/// The example matmul, through the whole pipeline from linalg.
//      EXAMPLE: matmul.mlir:{{.*}}: remark: @matmul_0_reduce: async_copy: async_copy in {true*, false}
//      EXAMPLE: matmul.mlir:{{.*}}: remark: @matmul_0_reduce: tma_copy: tma in {false*, true}
//      EXAMPLE: matmul.mlir:{{.*}}: remark: @matmul_0_reduce: pipeline_k_outer
// EXAMPLE80: matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'dtile.kernel' op knob tma=true asks for TMA copies (cp.async.bulk.tensor), which need the 'tma' feature; target sm_80 lacks it

// SM80: kernels.mlir:6:5: error: 'dtile.kernel' op knob tma=true asks for TMA copies (cp.async.bulk.tensor), which need the 'tma' feature; target sm_80 lacks it
// MIXED: kernels.mlir:6:5: error: 'dtile.kernel' op knob tma=true needs async_copy=false: one kernel never mixes cp.async and TMA copies

/// TMA stages pipeline like cp.async ones: chunk 0 before the loop, the
/// wait at the top, the next chunk prefetched behind it.
// PIPELINED-LABEL: func.func @matmul
//       PIPELINED:   async_copy = false, double_buffer = true, pad = false, pipeline = true, reg_double = false, split_k = 2, stage = [0, 1], swizzle = 0, tma = true
//       PIPELINED:   dtile.stage {{.*}} transport tma
//       PIPELINED:   dtile.stage {{.*}} transport tma
//       PIPELINED:   dloop.for
//  PIPELINED-NEXT:     dtile.async_wait keep 0
//       PIPELINED:     scf.if
//       PIPELINED:       dtile.stage {{.*}} transport tma
//       PIPELINED:       dtile.stage {{.*}} transport tma

// -----

/// f32 rows of 2 elements span 8 bytes: a TMA box's inner extent must span
/// a multiple of 16 bytes, so the stage stays synchronous.
// CHECK-LABEL: func.func @narrow
//   CHECK-NOT:   transport
func.func @narrow(%arg0: memref<64x2xf32>, %arg1: memref<2xf32>) {
  // expected-remark @+1 {{tma_copy: does not apply}}
  dtile.kernel @narrow ins(%x = %arg0 : memref<64x2xf32>) outs(%y = %arg1 : memref<2xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 2 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%ko * 16, 0] box [16, 2] : memref<64x2xf32> -> memref<16x2xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 16 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%ki, %t] : memref<16x2xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<2xf32>
    }
  }
  return
}

// -----

/// A padded slab: TMA writes the box densely, so it cannot fill it.
// CHECK-LABEL: func.func @padded
//   CHECK-NOT:   transport
func.func @padded(%arg0: memref<64x32xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{tma_copy: does not apply}}
  dtile.kernel @padded ins(%x = %arg0 : memref<64x32xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%ko * 16, 0] box [16, 32] pad [0, 1] : memref<64x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 16 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%ki, %t] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// A zero-filled box larger than its source (the 40 rows a tile of 37
/// reaches): TMA fills the rows past the tensor with zeros, as the H200
/// did for 32-row activations in 64-row boxes, so it may copy it (a fork:
/// the default leaves it to the threads).
// CHECK-LABEL: func.func @overhang
//       CHECK:   dtile.kernel @overhang knobs<tma = false>
func.func @overhang(%arg0: memref<37x32xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{tma_copy: tma in {false*, true}}}
  dtile.kernel @overhang ins(%x = %arg0 : memref<37x32xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 1 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, 0] box [40, 32] zero_fill : memref<37x32xf32> -> memref<40x32xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 37 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%ki, %t] : memref<40x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<32xf32>
    }
  }
  return
}
