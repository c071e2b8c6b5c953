// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer="knobs=matmul_0_reduce:double_buffer=false" | FileCheck %s --check-prefix=SKIP
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=scale_0_pointwise:double_buffer=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-double-buffer="knobs=double_buffer=2" 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: deplodock-opt %s --dtile-double-buffer=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-double-buffer | diff %t.once.mlir -

/// Each chunk's stages fill slot k mod 2 of a two-slab rotation.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, double_buffer = true, stage = [0, 1]>
//       DEFAULT:       dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  DEFAULT-NEXT:         %[[SLOT:.*]] = affine.apply #{{.*}}(%[[KO]])
//  DEFAULT-NEXT:         dtile.stage %{{.*}}[%{{.*}} * 4, %[[KO]] * 32] box [4, 32] buffers 2 slot %[[SLOT]] :
//  DEFAULT-NEXT:         dtile.stage %{{.*}}[%[[KO]] * 32, %{{.*}} * 8] box [32, 8] buffers 2 slot %[[SLOT]] :
// DEFAULT-LABEL: func.func @rowsum
//   DEFAULT-NOT:   double_buffer
// DEFAULT-LABEL: func.func @gemv
//       DEFAULT:   knobs<block_threads = 64, chunk = 128, double_buffer = true, stage = [0], threads = 1>
//       DEFAULT:     dtile.stage %{{.*}} box [128] buffers 2 slot

/// Only kernels with staged chunks fork.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: double_buffer: double_buffer in {true*, false}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: double_buffer: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: double_buffer: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: double_buffer: double_buffer in {true*, false}

/// Skipping records the choice and leaves one slab per stage.
// SKIP-LABEL: func.func @matmul
//       SKIP:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, double_buffer = false, stage = [0, 1]>
//   SKIP-NOT:   buffers 2
//       SKIP: func.func @rowsum

// ILLEGAL: kernels.mlir:44:5: error: 'dtile.kernel' op no rule took knob "double_buffer" for this kernel
// BADVALUE: error: bad knobs option 'double_buffer=2': knob 'double_buffer' expects a boolean

// -----

/// One chunk: nothing to overlap, so the heuristic skips (both still legal).
// CHECK-LABEL: func.func @one_chunk
//       CHECK:   knobs<double_buffer = false>
//   CHECK-NOT:   buffers 2
func.func @one_chunk(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{double_buffer: double_buffer in {false*, true}}}
  dtile.kernel @one_chunk ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 1 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

// -----

/// Two 120 KB slabs do not fit in shared memory: the rule does not apply.
// CHECK-LABEL: func.func @too_big
//   CHECK-NOT:   double_buffer
func.func @too_big(%arg0: memref<192x320xf32>, %arg1: memref<192xf32>) {
  // expected-remark @+1 {{double_buffer: does not apply}}
  dtile.kernel @too_big ins(%x = %arg0 : memref<192x320xf32>) outs(%y = %arg1 : memref<192xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 192 "t") {
      %r = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko * 160] box [192, 160] : memref<192x320xf32> -> memref<192x160xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 160 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<192x160xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<192xf32>
    }
  }
  return
}
