// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch="knobs=scale_0_pointwise:block_threads=512;matmul_0_reduce:BM=1,BN=64" | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce=knobs=threads=1 --dtile-blockify-launch=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ROWS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-blockify-launch --dtile-blockify-launch=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=AGAIN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-blockify-launch="knobs=matmul_0_reduce:BM=3" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-tileify --dtile-blockify-launch=target=sm_80 -split-input-file | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: deplodock-opt %s --dtile-tileify --dtile-blockify-launch="target=sm_90 list-forks=true" -split-input-file -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,SM90
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-blockify-launch | diff %t.once.mlir -

/// A matmul gets a BM x BN tile of outputs per block: the output axes split
/// into block axes (`_o`) and two free loops walking the tile (`_i`), which
/// register_tile deals out to threads. The default is the largest tile that
/// still gives half the multiprocessors a block: for 16 x 64 outputs none
/// does, so the one with the most blocks (4 x 8, 32 blocks).
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 4, BN = 8> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       DEFAULT:     dtile.tile blocks(%[[MO:.*]] : 4 "d0_o", %[[NO:.*]] : 8 "d1_o") {
//  DEFAULT-NEXT:       dloop.for %[[MI:.*]] = 0 to 4 free "d0_i" {
//  DEFAULT-NEXT:         dloop.for %[[NI:.*]] = 0 to 8 free "d1_i" {
//  DEFAULT-NEXT:           %[[SUM:.*]] = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  DEFAULT-NEXT:             dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i"
//  DEFAULT-NEXT:               dloop.load %[[A]][%[[MO]] * 4 + %[[MI]], %[[KO]] * 32 + %[[KI]]] : memref<16x128xf32>
//  DEFAULT-NEXT:               dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 8 + %[[NI]]] : memref<128x64xf32>
//       DEFAULT:           dloop.store %[[SUM]], %[[C]][%[[MO]] * 4 + %[[MI]], %[[NO]] * 8 + %[[NI]]] : memref<16x64xf32>
/// Cooperative reductions already have their threads.
// DEFAULT-LABEL: func.func @rowsum
//       DEFAULT:   dtile.kernel @rowsum_0_reduce knobs<threads = 64>
//  DEFAULT-NEXT:     arith.constant
//  DEFAULT-NEXT:     dtile.tile blocks(%{{.*}} : 8 "d0") threads(%{{.*}} : 64 "t") {
/// A pointwise kernel takes 256 threads from its innermost axes.
// DEFAULT-LABEL: func.func @scale
//       DEFAULT:   dtile.kernel @scale_0_pointwise knobs<block_threads = 256> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<4x256xf32>) outs(%[[Y:[^ ]+]] = %{{[^ ]+}} : memref<4x256xf32>) {
//       DEFAULT:     dtile.tile blocks(%[[R:.*]] : 4 "d0") threads(%[[C:.*]] : 256 "d1") {
//  DEFAULT-NEXT:       dloop.load %[[X]][%[[R]], %[[C]]] : memref<4x256xf32>
//       DEFAULT:       dloop.store %{{.*}}, %[[Y]][%[[R]], %[[C]]] : memref<4x256xf32>
// DEFAULT-LABEL: func.func @gemv
//       DEFAULT:   dtile.kernel @gemv_0_reduce knobs<threads = 256>

/// BM = 1: only the column loop; the row is the block coordinate.
// KNOBS-LABEL: func.func @matmul
//       KNOBS:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 1, BN = 64> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       KNOBS:     dtile.tile blocks(%[[MO:.*]] : 16 "d0_o", %[[NO:.*]] : 1 "d1_o") {
//  KNOBS-NEXT:       dloop.for %[[NI:.*]] = 0 to 64 free "d1_i" {
//  KNOBS-NEXT:         dloop.for %{{.*}} = 0 to 4 reduce "r0_o"
//  KNOBS-NEXT:           dloop.for %{{.*}} = 0 to 32 reduce "r0_i"
//  KNOBS-NEXT:             dloop.load %[[A]][%[[MO]], %{{.*}}] : memref<16x128xf32>
//  KNOBS-NEXT:             dloop.load %[[B]][%{{.*}}, %[[NO]] * 64 + %[[NI]]] : memref<128x64xf32>
/// One thread per row (threads = 1): the 8 rows are fewer than a warp, so
/// one block holds them all.
// KNOBS-LABEL: func.func @rowsum
//       KNOBS:   dtile.kernel @rowsum_0_reduce knobs<block_threads = 8, threads = 1> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<8x512xf32>)
//       KNOBS:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%[[ROW:.*]] : 8 "d0") {
//  KNOBS-NEXT:       dloop.for %[[R:.*]] = 0 to 512 reduce "r0"
//  KNOBS-NEXT:         dloop.load %[[X]][%[[ROW]], %[[R]]] : memref<8x512xf32>
/// 512 threads: all of d1 and half of d0, which splits into a block part
/// and a thread part.
// KNOBS-LABEL: func.func @scale
//       KNOBS:   dtile.kernel @scale_0_pointwise knobs<block_threads = 512> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<4x256xf32>)
//       KNOBS:     dtile.tile blocks(%[[RO:.*]] : 2 "d0_o") threads(%[[RI:.*]] : 2 "d0_i", %[[C:.*]] : 256 "d1") {
//  KNOBS-NEXT:       dloop.load %[[X]][%[[RO]] * 2 + %[[RI]], %[[C]]] : memref<4x256xf32>
// KNOBS-LABEL: func.func @gemv
//       KNOBS:   dtile.kernel @gemv_0_reduce knobs<block_threads = 64, threads = 1>
//       KNOBS:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%{{.*}} : 64 "d0") {

/// Tiles are powers of two with BN >= 8 and at least 32 outputs, largest
/// (then squarest, then widest) first after the default; thread counts are
/// powers of two from 32 that split the innermost axes evenly.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: blockify_launch: (BM, BN) in {(4, 8)*, (16, 64), (16, 32), (8, 64), (16, 16), (8, 32), (4, 64), (8, 16), (16, 8), (4, 32), (2, 64), (8, 8), (4, 16), (2, 32), (1, 64), (2, 16), (1, 32)}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: blockify_launch: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: blockify_launch: block_threads in {256*, 32, 64, 128, 512, 1024}
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: blockify_launch: does not apply

/// Without cooperation the rows go to threads: 8 rows (fewer than a warp:
/// all in one block), 64 gemv columns (64 or 32 per block).
// ROWS: kernels.mlir:25:5: remark: @rowsum_0_reduce: blockify_launch: block_threads in {8*}
// ROWS: kernels.mlir:58:5: remark: @gemv_0_reduce: blockify_launch: block_threads in {64*, 32}

/// Kernels that already have threads are not blockified again.
// AGAIN: kernels.mlir:6:5: remark: @matmul_0_reduce: blockify_launch: does not apply
// AGAIN: kernels.mlir:25:5: remark: @rowsum_0_reduce: blockify_launch: does not apply
// AGAIN: kernels.mlir:44:5: remark: @scale_0_pointwise: blockify_launch: does not apply
// AGAIN: kernels.mlir:58:5: remark: @gemv_0_reduce: blockify_launch: does not apply

/// Only BM = 3 is named; no option has it.
// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op knobs BM=3 are not a legal option of blockify_launch: (BM, BN) in {(4, 8)*,

// -----

/// 32 x 2048 outputs: the default keeps at least half the multiprocessors
/// busy, so it depends on the target: 32 x 32 (64 blocks) on an A100 (108
/// SMs), 16 x 32 (128 blocks) on an H100 (132 SMs).
// CHECK-LABEL: func.func @big_matmul
//  SM80:   dtile.kernel @big_matmul knobs<BM = 32, BN = 32>
//  SM80:     dtile.tile blocks(%{{.*}} : 1 "m_o", %{{.*}} : 64 "n_o") {
//  SM80:       dloop.for %{{.*}} = 0 to 32 free "m_i"
//  SM80:         dloop.for %{{.*}} = 0 to 32 free "n_i"
//  SM90:   dtile.kernel @big_matmul knobs<BM = 16, BN = 32>
//  SM90:     dtile.tile blocks(%{{.*}} : 2 "m_o", %{{.*}} : 64 "n_o") {
//  SM90:       dloop.for %{{.*}} = 0 to 16 free "m_i"
//  SM90:         dloop.for %{{.*}} = 0 to 32 free "n_i"
func.func @big_matmul(%a: memref<32x2048xf32>, %b: memref<2048x2048xf32>) -> memref<32x2048xf32> {
  %alloc = memref.alloc() : memref<32x2048xf32>
  // expected-remark @+1 {{blockify_launch: (BM, BN) in {(16, 32)*, (32, 256), (32, 128), (16, 256), (32, 64), (16, 128), (8, 256), (32, 32), (16, 64),}}
  dloop.kernel @big_matmul ins(%in0 = %a : memref<32x2048xf32>, %in1 = %b : memref<2048x2048xf32>) outs(%out0 = %alloc : memref<32x2048xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 32 free "m" {
      dloop.for %j = 0 to 2048 free "n" {
        %0 = dloop.for %k = 0 to 2048 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<32x2048xf32>
          %2 = dloop.load %in1[%k, %j] : memref<2048x2048xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<32x2048xf32>
      }
    }
  }
  return %alloc : memref<32x2048xf32>
}

// -----

/// Six elements, fewer than a warp: one block of 2 x 3 threads.
// CHECK-LABEL: func.func @tiny
//       CHECK:   dtile.kernel @tiny knobs<block_threads = 6>
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%{{.*}} : 2 "i", %{{.*}} : 3 "j") {
func.func @tiny(%arg0: memref<2x3xf32>) -> memref<2x3xf32> {
  %alloc = memref.alloc() : memref<2x3xf32>
  // expected-remark @+1 {{blockify_launch: block_threads in {6*}}}
  dloop.kernel @tiny ins(%x = %arg0 : memref<2x3xf32>) outs(%y = %alloc : memref<2x3xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 3 free "j" {
        %1 = dloop.load %x[%i, %j] : memref<2x3xf32>
        %2 = arith.negf %1 : f32
        dloop.store %2, %y[%i, %j] : memref<2x3xf32>
      }
    }
  }
  return %alloc : memref<2x3xf32>
}

// -----

/// 3 x 5 x 7 elements: no power of two from 32 splits the axes evenly, so
/// the threads take the linearised elements, up to 128 (the elements
/// rounded up to a power of two): one block of 128 threads, of which the
/// last 23 guard their load (yielding zero) and skip their store.
// CHECK-LABEL: func.func @odd_extents_masked
//       CHECK:   dtile.kernel @odd_extents_masked knobs<block_threads = 128> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<3x5x7xf32>) outs(%[[Y:[^ ]+]] = %{{[^ ]+}} : memref<3x5x7xf32>) {
//       CHECK:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:     %[[N:.*]] = arith.constant 105 : index
//       CHECK:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%[[T:.*]] : 128 "i_j_k") {
//  CHECK-NEXT:       %[[IN:.*]] = arith.cmpi ult, %[[T]], %[[N]] : index
//  CHECK-NEXT:       %[[V:.*]] = scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:         %[[L:.*]] = dloop.load %[[X]][%[[T]] floordiv 35, (%[[T]] floordiv 7) mod 5, %[[T]] mod 7] : memref<3x5x7xf32>
//  CHECK-NEXT:         scf.yield %[[L]] : f32
//  CHECK-NEXT:       } else {
//  CHECK-NEXT:         scf.yield %[[ZERO]] : f32
//  CHECK-NEXT:       }
//  CHECK-NEXT:       %[[NEG:.*]] = arith.negf %[[V]] : f32
//  CHECK-NEXT:       scf.if %[[IN]] {
//  CHECK-NEXT:         dloop.store %[[NEG]], %[[Y]][%[[T]] floordiv 35, (%[[T]] floordiv 7) mod 5, %[[T]] mod 7] : memref<3x5x7xf32>
//  CHECK-NEXT:       }
func.func @odd_extents_masked(%arg0: memref<3x5x7xf32>) -> memref<3x5x7xf32> {
  %alloc = memref.alloc() : memref<3x5x7xf32>
  // expected-remark @+1 {{blockify_launch: block_threads in {128*, 32, 64}}}
  dloop.kernel @odd_extents_masked ins(%x = %arg0 : memref<3x5x7xf32>) outs(%y = %alloc : memref<3x5x7xf32>) {
    dloop.for %i = 0 to 3 free "i" {
      dloop.for %j = 0 to 5 free "j" {
        dloop.for %k = 0 to 7 free "k" {
          %1 = dloop.load %x[%i, %j, %k] : memref<3x5x7xf32>
          %2 = arith.negf %1 : f32
          dloop.store %2, %y[%i, %j, %k] : memref<3x5x7xf32>
        }
      }
    }
  }
  return %alloc : memref<3x5x7xf32>
}

// -----

/// A single element needs no threads.
// CHECK-LABEL: func.func @negative_single_element
//       CHECK:   dtile.kernel @negative_single_element ins(
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 1 "unit") {
func.func @negative_single_element(%arg0: memref<1xf32>) -> memref<1xf32> {
  %alloc = memref.alloc() : memref<1xf32>
  // expected-remark @+1 {{blockify_launch: does not apply}}
  dloop.kernel @negative_single_element ins(%x = %arg0 : memref<1xf32>) outs(%y = %alloc : memref<1xf32>) {
    %1 = dloop.load %x[0] : memref<1xf32>
    %2 = arith.negf %1 : f32
    dloop.store %2, %y[0] : memref<1xf32>
  }
  return %alloc : memref<1xf32>
}

// -----

/// 1000 elements: 256 threads per block, 4 blocks, the last 24 threads of
/// the last block masked.
// CHECK-LABEL: func.func @vector_masked
//       CHECK:   dtile.kernel @vector_masked knobs<block_threads = 256>
//       CHECK:     dtile.tile blocks(%[[B:.*]] : 4 "i_o") threads(%[[T:.*]] : 256 "i_i") {
//  CHECK-NEXT:       %[[I:.*]] = affine.apply #{{.*}}(%[[B]], %[[T]])
//  CHECK-NEXT:       %[[IN:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
//  CHECK-NEXT:       scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:         dloop.load %{{.*}}[%[[B]] * 256 + %[[T]]] : memref<1000xf32>
//       CHECK:       scf.if %[[IN]] {
//  CHECK-NEXT:         dloop.store %{{.*}}, %{{.*}}[%[[B]] * 256 + %[[T]]] : memref<1000xf32>
func.func @vector_masked(%arg0: memref<1000xf32>) -> memref<1000xf32> {
  %alloc = memref.alloc() : memref<1000xf32>
  // expected-remark @+1 {{blockify_launch: block_threads in {256*, 32, 64, 128, 512, 1024}}}
  dloop.kernel @vector_masked ins(%x = %arg0 : memref<1000xf32>) outs(%y = %alloc : memref<1000xf32>) {
    dloop.for %i = 0 to 1000 free "i" {
      %1 = dloop.load %x[%i] : memref<1000xf32>
      %2 = math.exp %1 : f32
      dloop.store %2, %y[%i] : memref<1000xf32>
    }
  }
  return %alloc : memref<1000xf32>
}

// -----

/// A 37 x 24 output: tiles are powers of two up to the extent rounded up
/// (64, 32) and the extents themselves (37, 24), dividing or not; the tile
/// must still hold 32 outputs. None of them gives half the multiprocessors
/// a block while wasting at most a quarter of its outputs, so the default
/// is the one of those wasting at most a quarter with the most blocks: one
/// row of 32 columns, the last 8 columns masked. Their loads of B yield
/// zero and their stores are skipped; the loads of A need no guard.
// CHECK-LABEL: func.func @masked_matmul
//       CHECK:   dtile.kernel @masked_matmul knobs<BM = 1, BN = 32> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<37x64xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<64x24xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<37x24xf32>) {
//       CHECK:     %[[N:.*]] = arith.constant 24 : index
//       CHECK:     dtile.tile blocks(%[[MO:.*]] : 37 "m_o", %[[NO:.*]] : 1 "n_o") {
//  CHECK-NEXT:       dloop.for %[[NI:.*]] = 0 to 32 free "n_i" {
//  CHECK-NEXT:         %[[COL:.*]] = affine.apply #{{.*}}(%[[NO]], %[[NI]])
//  CHECK-NEXT:         %[[IN:.*]] = arith.cmpi ult, %[[COL]], %[[N]] : index
//  CHECK-NEXT:         %[[SUM:.*]] = dloop.for %[[K:.*]] = 0 to 64 reduce "k"
//  CHECK-NEXT:           dloop.load %[[A]][%[[MO]], %[[K]]] : memref<37x64xf32>
//  CHECK-NEXT:           scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:             dloop.load %[[B]][%[[K]], %[[NO]] * 32 + %[[NI]]] : memref<64x24xf32>
//       CHECK:         scf.if %[[IN]] {
//  CHECK-NEXT:           dloop.store %[[SUM]], %[[C]][%[[MO]], %[[NO]] * 32 + %[[NI]]] : memref<37x24xf32>
func.func @masked_matmul(%a: memref<37x64xf32>, %b: memref<64x24xf32>) -> memref<37x24xf32> {
  %alloc = memref.alloc() : memref<37x24xf32>
  // expected-remark @+1 {{blockify_launch: (BM, BN) in {(1, 32)*, (64, 32), (64, 24), (37, 32), (32, 32), (64, 16), (37, 24), (32, 24), (37, 16), (16, 32), (32, 16), (64, 8), (16, 24), (37, 8), (16, 16), (8, 32), (32, 8), (8, 24), (8, 16), (16, 8), (4, 32), (4, 24), (8, 8), (4, 16), (2, 32), (2, 24), (4, 8), (2, 16)}}}
  dloop.kernel @masked_matmul ins(%in0 = %a : memref<37x64xf32>, %in1 = %b : memref<64x24xf32>) outs(%out0 = %alloc : memref<37x24xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 37 free "m" {
      dloop.for %j = 0 to 24 free "n" {
        %0 = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<37x64xf32>
          %2 = dloop.load %in1[%k, %j] : memref<64x24xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<37x24xf32>
      }
    }
  }
  return %alloc : memref<37x24xf32>
}
