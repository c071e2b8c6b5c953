// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch --dtile-chunk-reduce | FileCheck %s --check-prefix=ROWS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch --dtile-chunk-reduce=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch --dtile-chunk-reduce=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=COOP
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch --dtile-chunk-reduce=knobs=chunk=64 --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-tileify --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch --dtile-chunk-reduce=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch --dtile-chunk-reduce > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-chunk-reduce | diff %t.once.mlir -

/// One gemv column per thread: the vector is read by every thread, so its
/// reduction is chunked (128 floats, 512 bytes of slab per chunk) for
/// stage_inputs to stage one chunk at a time.
// ROWS-LABEL: func.func @gemv
//       ROWS:   dtile.kernel @gemv_0_reduce knobs<block_threads = 64, chunk = 128, threads = 1> ins(%[[V:[^ ]+]] = %{{[^ ]+}} : memref<256xf32>, %[[M:[^ ]+]] = %{{[^ ]+}} : memref<256x64xf32>)
//       ROWS:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%[[COL:.*]] : 64 "d0") {
//  ROWS-NEXT:       %[[SUM:.*]] = dloop.for %[[RO:.*]] = 0 to 2 reduce "r0_o" iter(%[[ACC:.*]] = %{{.*}} : f32) {
//  ROWS-NEXT:         %[[PART:.*]] = dloop.for %[[RI:.*]] = 0 to 128 reduce "r0_i" iter(%{{.*}} = %[[ACC]] : f32) {
//  ROWS-NEXT:           dloop.load %[[V]][%[[RO]] * 128 + %[[RI]]] : memref<256xf32>
//  ROWS-NEXT:           dloop.load %[[M]][%[[RO]] * 128 + %[[RI]], %[[COL]]] : memref<256x64xf32>
//       ROWS:         dloop.yield %[[PART]] : f32
//       ROWS:       dloop.store %[[SUM]], %{{.*}}[%[[COL]]] : memref<64xf32>

/// The row sum reads only its own row: nothing shared, nothing chunked.
/// No fork: one chunk or none.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: chunk_reduce: does not apply
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: chunk_reduce: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: chunk_reduce: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: chunk_reduce: chunk in {128*}

/// Threads that cooperate on a row (cooperative_reduce) share no input.
// COOP: kernels.mlir:25:5: remark: @rowsum_0_reduce: chunk_reduce: does not apply
// COOP: kernels.mlir:58:5: remark: @gemv_0_reduce: chunk_reduce: does not apply

// ILLEGAL: kernels.mlir:58:5: error: 'dtile.kernel' op knobs chunk=64 are not a legal option of chunk_reduce: chunk in {128*}

// -----

/// Each reduction that reads a shared input is chunked, by the same chunk
/// (both loops fit 128 here: 256 / 128 and 512 / 128 chunks).
// CHECK-LABEL: func.func @two_gemvs
//       CHECK:   dtile.kernel @two_gemvs knobs<block_threads = 64, chunk = 128, threads = 1>
//       CHECK:     %[[S0:.*]] = dloop.for %{{.*}} = 0 to 2 reduce "r_o"
//       CHECK:       dloop.for %{{.*}} = 0 to 128 reduce "r_i"
//       CHECK:     %[[S1:.*]] = dloop.for %{{.*}} = 0 to 4 reduce "s_o"
//       CHECK:       dloop.for %{{.*}} = 0 to 128 reduce "s_i"
//       CHECK:     arith.addf %[[S0]], %[[S1]] : f32
func.func @two_gemvs(%v: memref<256xf32>, %m: memref<256x64xf32>, %w: memref<512xf32>, %n: memref<512x64xf32>) -> memref<64xf32> {
  %alloc = memref.alloc() : memref<64xf32>
  // expected-remark @+1 {{chunk_reduce: chunk in {128*}}}
  dloop.kernel @two_gemvs ins(%in0 = %v : memref<256xf32>, %in1 = %m : memref<256x64xf32>, %in2 = %w : memref<512xf32>, %in3 = %n : memref<512x64xf32>) outs(%out0 = %alloc : memref<64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 64 free "d0" {
      %0 = dloop.for %r = 0 to 256 reduce "r" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%r] : memref<256xf32>
        %2 = dloop.load %in1[%r, %d0] : memref<256x64xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        dloop.yield %4 : f32
      }
      %5 = dloop.for %s = 0 to 512 reduce "s" iter(%acc = %cst : f32) {
        %1 = dloop.load %in2[%s] : memref<512xf32>
        %2 = dloop.load %in3[%s, %d0] : memref<512x64xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        dloop.yield %4 : f32
      }
      %6 = arith.addf %0, %5 : f32
      dloop.store %6, %out0[%d0] : memref<64xf32>
    }
  }
  return %alloc : memref<64xf32>
}

// -----

/// The slab of an iteration spans the thread axes the read does use: the
/// 64 columns of b, shared by the 4 threads of a. 64 floats per iteration
/// fit 8 KB for a chunk of 32.
// CHECK-LABEL: func.func @column_sums
//       CHECK:   dtile.kernel @column_sums knobs<block_threads = 256, chunk = 32, threads = 1> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<512x64xf32>)
//       CHECK:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%{{.*}} : 4 "a", %[[B:.*]] : 64 "b") {
//  CHECK-NEXT:       dloop.for %[[RO:.*]] = 0 to 16 reduce "r_o"
//  CHECK-NEXT:         dloop.for %[[RI:.*]] = 0 to 32 reduce "r_i"
//  CHECK-NEXT:           dloop.load %[[X]][%[[RO]] * 32 + %[[RI]], %[[B]]] : memref<512x64xf32>
func.func @column_sums(%x: memref<512x64xf32>) -> memref<4x64xf32> {
  %alloc = memref.alloc() : memref<4x64xf32>
  // expected-remark @+1 {{chunk_reduce: chunk in {32*}}}
  dloop.kernel @column_sums ins(%in0 = %x : memref<512x64xf32>) outs(%out0 = %alloc : memref<4x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %a = 0 to 4 free "a" {
      dloop.for %b = 0 to 64 free "b" {
        %0 = dloop.for %r = 0 to 512 reduce "r" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%r, %b] : memref<512x64xf32>
          %2 = arith.addf %acc, %1 : f32
          dloop.yield %2 : f32
        }
        dloop.store %0, %out0[%a, %b] : memref<4x64xf32>
      }
    }
  }
  return %alloc : memref<4x64xf32>
}

// -----

/// Row-wise dot products: each thread reads its own rows of both inputs.
// CHECK-LABEL: func.func @negative_nothing_shared
//       CHECK:   dtile.kernel @negative_nothing_shared knobs<block_threads = 64, threads = 1>
//       CHECK:     dloop.for %{{.*}} = 0 to 256 reduce "r"
func.func @negative_nothing_shared(%x: memref<64x256xf32>, %y: memref<64x256xf32>) -> memref<64xf32> {
  %alloc = memref.alloc() : memref<64xf32>
  // expected-remark @+1 {{chunk_reduce: does not apply}}
  dloop.kernel @negative_nothing_shared ins(%in0 = %x : memref<64x256xf32>, %in1 = %y : memref<64x256xf32>) outs(%out0 = %alloc : memref<64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 64 free "d0" {
      %0 = dloop.for %r = 0 to 256 reduce "r" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%d0, %r] : memref<64x256xf32>
        %2 = dloop.load %in1[%d0, %r] : memref<64x256xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        dloop.yield %4 : f32
      }
      dloop.store %0, %out0[%d0] : memref<64xf32>
    }
  }
  return %alloc : memref<64xf32>
}

// -----

/// A shared vector of odd length: no chunk from 8 to 128 divides 100.
// CHECK-LABEL: func.func @negative_no_chunk_divides
//       CHECK:   dtile.kernel @negative_no_chunk_divides knobs<block_threads = 64, threads = 1>
//       CHECK:     dloop.for %{{.*}} = 0 to 100 reduce "r"
func.func @negative_no_chunk_divides(%v: memref<100xf32>, %m: memref<100x64xf32>) -> memref<64xf32> {
  %alloc = memref.alloc() : memref<64xf32>
  // expected-remark @+1 {{chunk_reduce: does not apply}}
  dloop.kernel @negative_no_chunk_divides ins(%in0 = %v : memref<100xf32>, %in1 = %m : memref<100x64xf32>) outs(%out0 = %alloc : memref<64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 64 free "d0" {
      %0 = dloop.for %r = 0 to 100 reduce "r" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%r] : memref<100xf32>
        %2 = dloop.load %in1[%r, %d0] : memref<100x64xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        dloop.yield %4 : f32
      }
      dloop.store %0, %out0[%d0] : memref<64xf32>
    }
  }
  return %alloc : memref<64xf32>
}
