// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy="knobs=async_copy=false" --dtile-vector-copy="target=sm_80 list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy="knobs=async_copy=false" --dtile-vector-copy | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy="knobs=async_copy=false" --dtile-vector-copy="knobs=vector_copy=true" | FileCheck %s --check-prefix=APPLY
/// After cp.async took the stages, nothing is left to vectorise.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy --dtile-vector-copy="target=sm_80 list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=TAKEN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=rowsum_0_reduce:vector_copy=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-vector-copy=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines the IR is left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-async-copy="knobs=async_copy=false" --dtile-vector-copy > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-vector-copy | diff %t.once.mlir -

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: vector_copy: vector_copy in {false*, true}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: vector_copy: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: vector_copy: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: vector_copy: vector_copy in {false*, true}

/// The default keeps element copies.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   async_copy = false
//  DEFAULT-SAME:   vector_copy = false
//   DEFAULT-NOT:   transport
//       DEFAULT: func.func @rowsum

/// Applied, the chunk's stages move 16-byte runs and need no wait.
// APPLY-LABEL: func.func @matmul
//       APPLY:   vector_copy = true
//       APPLY:       dloop.for %{{.*}} = 0 to 4 reduce "r0_o"
//       APPLY:         dtile.stage {{.*}} box [4, 32] transport vector :
//  APPLY-NEXT:         dtile.stage {{.*}} box [32, 8] transport vector :
//   APPLY-NOT:         async_wait
//       APPLY:         dloop.for %{{.*}} = 0 to 32 reduce "r0_i"
// APPLY-LABEL: func.func @gemv
//       APPLY:     dtile.stage %{{.*}} box [128] transport vector

// TAKEN: kernels.mlir:6:5: remark: @matmul_0_reduce: vector_copy: does not apply
// TAKEN: kernels.mlir:58:5: remark: @gemv_0_reduce: vector_copy: does not apply

// ILLEGAL: kernels.mlir:25:5: error: 'dtile.kernel' op no rule took knob "vector_copy" for this kernel

// -----

/// Slab rows of 33 f32: only 4-byte runs are aligned, too short for a
/// vector copy, so the stage keeps its element copies.
// CHECK-LABEL: func.func @unaligned
//   CHECK-NOT:   transport vector
func.func @unaligned(%arg0: memref<16x66xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{vector_copy: does not apply}}
  dtile.kernel @unaligned ins(%x = %arg0 : memref<16x66xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko * 33] box [16, 33] : memref<16x66xf32> -> memref<16x33xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 33 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x33xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return
}

// -----

/// A stage that may reach past its source (zero_fill) keeps element copies:
/// the lanes past the end are guarded one by one.
// CHECK-LABEL: func.func @overhang
//   CHECK-NOT:   transport vector
func.func @overhang(%arg0: memref<16x60xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{vector_copy: does not apply}}
  dtile.kernel @overhang ins(%x = %arg0 : memref<16x60xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] zero_fill : memref<16x60xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return
}
