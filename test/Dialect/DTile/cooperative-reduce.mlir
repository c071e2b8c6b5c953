// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce | FileCheck %s --check-prefix=T256
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=512;gemv_0_reduce:threads=1" | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-cooperative-reduce --dtile-cooperative-reduce=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=AGAIN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-cooperative-reduce=knobs=threads=512 --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-tileify --dtile-cooperative-reduce=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-cooperative-reduce | diff %t.once.mlir -

/// The matmul and the pointwise kernel are left alone.
// T256-LABEL: func.func @matmul
//       T256:   dtile.kernel @matmul_0_reduce knobs<BK = 32> ins(
//   T256-NOT:     threads(
// T256-LABEL: func.func @rowsum
/// 64 threads share each row (rows of 512 give a thread 8 elements): the
/// reduce loop is strided over them and ends in a combine; the free loop
/// over the row is strided too and uses the combined sum.
//       T256:   dtile.kernel @rowsum_0_reduce knobs<threads = 64> ins(%[[IN:[^ ]+]] = %{{[^ ]+}} : memref<8x512xf32>) outs(%[[OUT:[^ ]+]] = %{{[^ ]+}} : memref<8x512xf32>) {
//       T256:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       T256:     dtile.tile blocks(%[[ROW:.*]] : 8 "d0") threads(%[[T:.*]] : 64 "t") {
//  T256-NEXT:       %[[PART:.*]] = dtile.strided_for %[[R:.*]] = %[[T]] to 512 step 64 reduce "r0" iter(%[[ACC:.*]] = %[[ZERO]] : f32) {
//  T256-NEXT:         %[[X:.*]] = dloop.load %[[IN]][%[[ROW]], %[[R]]] : memref<8x512xf32>
//  T256-NEXT:         %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
//  T256-NEXT:         dtile.yield %[[S]] : f32
//  T256-NEXT:       }
//  T256-NEXT:       %[[SUM:.*]] = dtile.combine add %[[PART]] over ["t"] : f32
//  T256-NEXT:       dtile.strided_for %[[C:.*]] = %[[T]] to 512 step 64 free "d1" {
//  T256-NEXT:         %[[Y:.*]] = dloop.load %[[IN]][%[[ROW]], %[[C]]] : memref<8x512xf32>
//  T256-NEXT:         %[[Q:.*]] = arith.divf %[[Y]], %[[SUM]] : f32
//  T256-NEXT:         dloop.store %[[Q]], %[[OUT]][%[[ROW]], %[[C]]] : memref<8x512xf32>
//  T256-NEXT:       }
//  T256-NEXT:     }
// T256-LABEL: func.func @scale
//       T256:   dtile.kernel @scale_0_pointwise ins(
//  T256-NEXT:     dtile.tile blocks(%{{.*}} : 4 "d0", %{{.*}} : 256 "d1") {
/// Every thread holds the combined value of the gemv; thread 0 stores it.
// T256-LABEL: func.func @gemv
//       T256:   dtile.kernel @gemv_0_reduce knobs<threads = 256> ins(%[[V:[^ ]+]] = %{{[^ ]+}} : memref<256xf32>, %[[M:[^ ]+]] = %{{[^ ]+}} : memref<256x64xf32>) outs(%[[OUT:[^ ]+]] = %{{[^ ]+}} : memref<64xf32>) {
//       T256:     %[[C0:.*]] = arith.constant 0 : index
//       T256:     dtile.tile blocks(%[[COL:.*]] : 64 "d0") threads(%[[T:.*]] : 256 "t") {
//  T256-NEXT:       %[[PART:.*]] = dtile.strided_for %[[R:.*]] = %[[T]] to 256 step 256 reduce "r0"
//  T256-NEXT:         dloop.load %[[V]][%[[R]]] : memref<256xf32>
//  T256-NEXT:         dloop.load %[[M]][%[[R]], %[[COL]]] : memref<256x64xf32>
//       T256:       %[[SUM:.*]] = dtile.combine add %[[PART]] over ["t"] : f32
//  T256-NEXT:       %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %[[C0]] : index
//  T256-NEXT:       scf.if %[[FIRST]] {
//  T256-NEXT:         dloop.store %[[SUM]], %[[OUT]][%[[COL]]] : memref<64xf32>
//  T256-NEXT:       }

/// threads = 512 spans the whole row (one strided iteration per thread);
/// threads = 1 changes nothing but the knobs (blockify_launch will put rows
/// on threads).
// KNOBS-LABEL: func.func @rowsum
//       KNOBS:   dtile.kernel @rowsum_0_reduce knobs<threads = 512>
//       KNOBS:     dtile.tile blocks(%{{.*}} : 8 "d0") threads(%[[T:.*]] : 512 "t") {
//       KNOBS:       dtile.strided_for %{{.*}} = %[[T]] to 512 step 512 reduce "r0"
// KNOBS-LABEL: func.func @gemv
//       KNOBS:   dtile.kernel @gemv_0_reduce knobs<threads = 1>
//  KNOBS-NEXT:     dtile.tile blocks(%{{.*}} : 64 "d0") {
//  KNOBS-NEXT:       arith.constant
//  KNOBS-NEXT:       dloop.for %{{.*}} = 0 to 256 reduce "r0"

/// Thread counts are powers of two from 32 up to the row (or 1024); the
/// default is the row rounded up to a power of two within [32, 256]; 1 (no
/// cooperation) comes last.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: cooperative_reduce: does not apply
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: cooperative_reduce: (rows, threads) in {64*, 32, 128, 256, 512, 1, (2, 32), (4, 32), (8, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: cooperative_reduce: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, 1, (2, 32), (4, 32), (8, 32), (16, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}

/// Kernels that already have threads are not split again.
// AGAIN: kernels.mlir:25:5: remark: @rowsum_0_reduce: cooperative_reduce: does not apply
// AGAIN: kernels.mlir:58:5: remark: @gemv_0_reduce: cooperative_reduce: does not apply

/// 512 is legal for the row sum but not for the gemv's 256-long reduction.
// ILLEGAL: kernels.mlir:58:5: error: 'dtile.kernel' op knobs threads=512 are not a legal option of cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, 1, (2, 32), (4, 32), (8, 32), (16, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}

// -----

/// A full max-reduction: one block, a combine of kind max.
// CHECK-LABEL: func.func @full_max
//       CHECK:   dtile.kernel @full_max knobs<threads = 64> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<64xf32>) outs(%[[Y:[^ ]+]] = %{{[^ ]+}} : memref<1xf32>) {
//       CHECK:     %[[NINF:.*]] = arith.constant 0xFF800000 : f32
//       CHECK:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%[[T:.*]] : 64 "t") {
//  CHECK-NEXT:       %[[PART:.*]] = dtile.strided_for %{{.*}} = %[[T]] to 64 step 64 reduce "r" iter(%{{.*}} = %[[NINF]] : f32) {
//       CHECK:         arith.maximumf
//       CHECK:       %[[MAX:.*]] = dtile.combine max %[[PART]] over ["t"] : f32
//       CHECK:       scf.if
//  CHECK-NEXT:         dloop.store %[[MAX]], %[[Y]][0] : memref<1xf32>
func.func @full_max(%arg0: memref<64xf32>) -> memref<1xf32> {
  %alloc = memref.alloc() : memref<1xf32>
  // expected-remark @+1 {{cooperative_reduce: threads in {64*, 32, 1}}}
  dloop.kernel @full_max ins(%x = %arg0 : memref<64xf32>) outs(%y = %alloc : memref<1xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %0 = dloop.for %r = 0 to 64 reduce "r" iter(%acc = %ninf : f32) {
      %1 = dloop.load %x[%r] : memref<64xf32>
      %2 = arith.maximumf %acc, %1 : f32
      dloop.yield %2 : f32
    }
    dloop.store %0, %y[0] : memref<1xf32>
  }
  return %alloc : memref<1xf32>
}

// -----

/// Two accumulators of one loop get one combine each, of their own kind;
/// rows of 100 round up to 128: two rows a block of 64 threads each (two
/// elements a thread, 28 of them with one).
// CHECK-LABEL: func.func @two_accumulators
//       CHECK:   dtile.kernel @two_accumulators knobs<rows = 2, threads = 64>
//       CHECK:     dtile.tile blocks(%{{.*}} : 2 "i_o") threads(%{{.*}} : 2 "i_i", %[[T:.*]] : 64 "t") {
//  CHECK-NEXT:       %[[PART:.*]]:2 = dtile.strided_for %{{.*}} = %[[T]] to 100 step 64 reduce "r"
//       CHECK:       %[[SUM:.*]] = dtile.combine add %[[PART]]#0 over ["t"] : f32
//  CHECK-NEXT:       %[[PROD:.*]] = dtile.combine mul %[[PART]]#1 over ["t"] : f32
//  CHECK-NEXT:       arith.divf %[[SUM]], %[[PROD]] : f32
func.func @two_accumulators(%arg0: memref<4x100xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{cooperative_reduce: (rows, threads) in {(2, 64)*, 32, 64, 128, 1, (2, 32), (4, 32), (4, 64), (2, 128), (4, 128)}}}
  dloop.kernel @two_accumulators ins(%x = %arg0 : memref<4x100xf32>) outs(%y = %alloc : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0:2 = dloop.for %r = 0 to 100 reduce "r" iter(%s = %zero : f32, %p = %one : f32) {
        %1 = dloop.load %x[%i, %r] : memref<4x100xf32>
        %2 = arith.addf %s, %1 : f32
        %3 = arith.mulf %1, %p : f32
        dloop.yield %2, %3 : f32, f32
      }
      %4 = arith.divf %0#0, %0#1 : f32
      dloop.store %4, %y[%i] : memref<4xf32>
    }
  }
  return %alloc : memref<4xf32>
}

// -----

/// An accumulator that does not start at the identity of its fold would be
/// folded in by every thread.
// CHECK-LABEL: func.func @negative_init_not_identity
//       CHECK:   dtile.kernel @negative_init_not_identity ins(
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 4 "i") {
func.func @negative_init_not_identity(%arg0: memref<4x64xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{cooperative_reduce: does not apply}}
  dloop.kernel @negative_init_not_identity ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %alloc : memref<4xf32>) {
    %one = arith.constant 1.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.for %r = 0 to 64 reduce "r" iter(%acc = %one : f32) {
        %1 = dloop.load %x[%i, %r] : memref<4x64xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %y[%i] : memref<4xf32>
    }
  }
  return %alloc : memref<4xf32>
}

// -----

/// A fold that is not a known combine (subtraction) cannot be split.
// CHECK-LABEL: func.func @negative_unknown_fold
//       CHECK:   dtile.kernel @negative_unknown_fold ins(
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 4 "i") {
func.func @negative_unknown_fold(%arg0: memref<4x64xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{cooperative_reduce: does not apply}}
  dloop.kernel @negative_unknown_fold ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %alloc : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.for %r = 0 to 64 reduce "r" iter(%acc = %zero : f32) {
        %1 = dloop.load %x[%i, %r] : memref<4x64xf32>
        %2 = arith.subf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %y[%i] : memref<4xf32>
    }
  }
  return %alloc : memref<4xf32>
}

// -----

/// The reduction sits inside a free loop (the chain stopped above it), so
/// there is no row reduction at the top level of the tile to share.
// CHECK-LABEL: func.func @negative_nested_reduction
//       CHECK:   dtile.kernel @negative_nested_reduction ins(
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 4 "i") {
//  CHECK-NEXT:       arith.constant
//  CHECK-NEXT:       dloop.for %{{.*}} = 0 to 8 free "j"
func.func @negative_nested_reduction(%arg0: memref<4x8x64xf32>) -> (memref<4x8xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{cooperative_reduce: does not apply}}
  dloop.kernel @negative_nested_reduction ins(%x = %arg0 : memref<4x8x64xf32>) outs(%y = %a : memref<4x8xf32>, %z = %b : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %0 = dloop.for %r = 0 to 64 reduce "r" iter(%acc = %zero : f32) {
          %1 = dloop.load %x[%i, %j, %r] : memref<4x8x64xf32>
          %2 = arith.addf %acc, %1 : f32
          dloop.yield %2 : f32
        }
        dloop.store %0, %y[%i, %j] : memref<4x8xf32>
      }
      dloop.store %zero, %z[%i] : memref<4xf32>
    }
  }
  return %a, %b : memref<4x8xf32>, memref<4xf32>
}

// -----

/// A side effect at the top level other than a load or a store (here a
/// store under a branch) is not split.
// CHECK-LABEL: func.func @negative_branch
//       CHECK:   dtile.kernel @negative_branch ins(
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 4 "i") {
func.func @negative_branch(%arg0: memref<4x64xf32>, %c: i1) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{cooperative_reduce: does not apply}}
  dloop.kernel @negative_branch ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %alloc : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.for %r = 0 to 64 reduce "r" iter(%acc = %zero : f32) {
        %1 = dloop.load %x[%i, %r] : memref<4x64xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      %p = arith.cmpf ogt, %0, %zero : f32
      scf.if %p {
        dloop.store %0, %y[%i] : memref<4xf32>
      }
    }
  }
  return %alloc : memref<4xf32>
}
