// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-mark-unroll | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-mark-unroll=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-mark-unroll=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=COOP
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-mark-unroll="knobs=matmul_0_reduce:unroll=1" | FileCheck %s --check-prefix=ONE
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-mark-unroll="knobs=matmul_0_reduce:unroll=64" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-mark-unroll=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-mark-unroll > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-mark-unroll | diff %t.once.mlir -

/// The loop over a K chunk (32) unrolls fully; the chunk loop around it is
/// not innermost.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, stage = [0, 1], unroll = 32>
//       DEFAULT:     dloop.for %{{.*}} = 0 to 4 reduce "r0_o" iter(%{{.*}} : f32) {
//       DEFAULT:       dloop.for %{{.*}} = 0 to 32 reduce "r0_i" iter(%{{.*}} : f32) unroll 32 {
/// Long loops (512) unroll by 4, every innermost loop of the kernel alike.
// DEFAULT-LABEL: func.func @rowsum
//       DEFAULT:   knobs<block_threads = 8, threads = 1, unroll = 4>
//       DEFAULT:     dloop.for %{{.*}} = 0 to 512 reduce "r0" iter(%{{.*}} : f32) unroll 4 {
//       DEFAULT:     dloop.for %{{.*}} = 0 to 512 free "d1" unroll 4 {
// DEFAULT-LABEL: func.func @scale
//   DEFAULT-NOT:   unroll
// DEFAULT-LABEL: func.func @gemv
//       DEFAULT:   knobs<block_threads = 64, chunk = 128, stage = [0], threads = 1, unroll = 4>
//       DEFAULT:     dloop.for %{{.*}} = 0 to 2 reduce "r0_o" iter(%{{.*}} : f32) {
//       DEFAULT:       dloop.for %{{.*}} = 0 to 128 reduce "r0_i" iter(%{{.*}} : f32) unroll 4 {

/// Powers of two up to 32 dividing every innermost loop; the pointwise
/// kernel has no loop left.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: mark_unroll: unroll in {32*, 1, 2, 4, 8, 16}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: mark_unroll: unroll in {4*, 1, 2, 8, 16, 32}
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: mark_unroll: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: mark_unroll: unroll in {4*, 1, 2, 8, 16, 32}

/// Loops strided over threads are not marked: cooperative reductions have
/// no dloop.for left.
// COOP: kernels.mlir:25:5: remark: @rowsum_0_reduce: mark_unroll: does not apply
// COOP: kernels.mlir:58:5: remark: @gemv_0_reduce: mark_unroll: does not apply

/// unroll = 1 leaves the loop unmarked but records the choice.
// ONE-LABEL: func.func @matmul
//       ONE:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, unroll = 1>
//   ONE-NOT:   unroll {{[0-9]}}
//       ONE: func.func @rowsum

// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op knobs unroll=64 are not a legal option of mark_unroll: unroll in {32*, 1, 2, 4, 8, 16}

// -----

/// Innermost loops of 12 and 8: the factors must divide both, and 8 (the
/// shortest loop) is not one of them, so the default is 4.
// CHECK-LABEL: func.func @common_factor
//       CHECK:   dtile.kernel @common_factor knobs<unroll = 4>
//       CHECK:     dloop.for %{{.*}} = 0 to 12 reduce "a" iter(%{{.*}} : f32) unroll 4 {
//       CHECK:     dloop.for %{{.*}} = 0 to 8 free "b" unroll 4 {
func.func @common_factor(%arg0: memref<32x12xf32>, %arg1: memref<32x8xf32>) {
  // expected-remark @+1 {{mark_unroll: unroll in {4*, 1, 2}}}
  dtile.kernel @common_factor ins(%x = %arg0 : memref<32x12xf32>) outs(%y = %arg1 : memref<32x8xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %0 = dloop.for %a = 0 to 12 reduce "a" iter(%acc = %cst : f32) {
        %1 = dloop.load %x[%t, %a] : memref<32x12xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.for %b = 0 to 8 free "b" {
        dloop.store %0, %y[%t, %b] : memref<32x8xf32>
      }
    }
  }
  return
}

// -----

/// A loop of odd length has no factor but 1: nothing to choose.
// CHECK-LABEL: func.func @negative_odd_loop
//   CHECK-NOT:     unroll
func.func @negative_odd_loop(%arg0: memref<32x7xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{mark_unroll: does not apply}}
  dtile.kernel @negative_odd_loop ins(%x = %arg0 : memref<32x7xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %0 = dloop.for %a = 0 to 7 reduce "a" iter(%acc = %cst : f32) {
        %1 = dloop.load %x[%t, %a] : memref<32x7xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// A kernel whose loops were already marked is not marked again.
// CHECK-LABEL: func.func @negative_already_marked
//       CHECK:   knobs<unroll = 2>
//       CHECK:     dloop.for %{{.*}} = 0 to 16 reduce "a" iter(%{{.*}} : f32) unroll 2 {
func.func @negative_already_marked(%arg0: memref<32x16xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{mark_unroll: does not apply}}
  dtile.kernel @negative_already_marked knobs<unroll = 2> ins(%x = %arg0 : memref<32x16xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %0 = dloop.for %a = 0 to 16 reduce "a" iter(%acc = %cst : f32) unroll 2 {
        %1 = dloop.load %x[%t, %a] : memref<32x16xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %y[%t] : memref<32xf32>
    }
  }
  return
}
