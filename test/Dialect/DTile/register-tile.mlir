// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile | FileCheck %s --check-prefix=F11
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-chunk-reduce --dtile-register-tile="knobs=FM=2,FN=4" | FileCheck %s --check-prefix=F24
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch="knobs=matmul_0_reduce:BM=1,BN=64" --dtile-chunk-reduce --dtile-register-tile="knobs=FN=2" | FileCheck %s --check-prefix=ROW
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-chunk-reduce --dtile-register-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT-FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-blockify-launch --dtile-register-tile --dtile-register-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=AGAIN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-blockify-launch --dtile-register-tile=knobs=FM=3 --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-register-tile | diff %t.once.mlir -

/// A 4 x 8 tile of one output per thread: the two tile loops become the
/// thread axes and the body is unchanged.
// F11-LABEL: func.func @matmul
//       F11:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       F11:     dtile.tile blocks(%[[MO:.*]] : 4 "d0_o", %[[NO:.*]] : 8 "d1_o") threads(%[[MI:.*]] : 4 "d0_i", %[[NI:.*]] : 8 "d1_i") {
//  F11-NEXT:       %[[SUM:.*]] = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o" iter(%{{.*}} : f32) {
//  F11-NEXT:         dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i" iter(%{{.*}} : f32) {
//  F11-NEXT:           dloop.load %[[A]][%[[MO]] * 4 + %[[MI]], %[[KO]] * 32 + %[[KI]]] : memref<16x128xf32>
//  F11-NEXT:           dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 8 + %[[NI]]] : memref<128x64xf32>
//       F11:       dloop.store %[[SUM]], %[[C]][%[[MO]] * 4 + %[[MI]], %[[NO]] * 8 + %[[NI]]] : memref<16x64xf32>
//  F11-NEXT:     }
/// Kernels without a matmul tile are untouched.
// F11-LABEL: func.func @rowsum
//       F11:   dtile.kernel @rowsum_0_reduce knobs<threads = 64>
// F11-LABEL: func.func @scale
//       F11:   dtile.kernel @scale_0_pointwise knobs<block_threads = 256>

/// 16 x 64 outputs as 8 x 16 threads of 2 x 4 each: one merged K loop (and
/// chunk loop) carries the 8 accumulators; a thread loads 2 rows of A and 4
/// columns of B per step and feeds each to 4 (2) products; it stores its
/// 2 x 4 outputs.
// F24-LABEL: func.func @matmul
//       F24:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 16, BN = 64, FM = 2, FN = 4> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       F24:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       F24:     dtile.tile blocks(%[[MO:.*]] : 1 "d0_o", %[[NO:.*]] : 1 "d1_o") threads(%[[MI:.*]] : 8 "d0_i", %[[NI:.*]] : 16 "d1_i") {
//  F24-NEXT:       %[[SUM:.*]]:8 = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o" iter(%{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32, %{{.*}} = %[[ZERO]] : f32) {
//  F24-NEXT:         %[[PART:.*]]:8 = dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i"
//  F24-NEXT:           %[[A0:.*]] = dloop.load %[[A]][%[[MO]] * 16 + %[[MI]] * 2, %[[KO]] * 32 + %[[KI]]] : memref<16x128xf32>
//  F24-NEXT:           %[[A1:.*]] = dloop.load %[[A]][%[[MO]] * 16 + %[[MI]] * 2 + 1, %[[KO]] * 32 + %[[KI]]] : memref<16x128xf32>
//  F24-NEXT:           %[[B0:.*]] = dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 64 + %[[NI]] * 4] : memref<128x64xf32>
//  F24-NEXT:           %[[B1:.*]] = dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 64 + %[[NI]] * 4 + 1] : memref<128x64xf32>
//  F24-NEXT:           %[[B2:.*]] = dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 64 + %[[NI]] * 4 + 2] : memref<128x64xf32>
//  F24-NEXT:           %[[B3:.*]] = dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 64 + %[[NI]] * 4 + 3] : memref<128x64xf32>
//  F24-NEXT:           arith.mulf %[[A0]], %[[B0]] : f32
//  F24-NEXT:           arith.mulf %[[A0]], %[[B1]] : f32
//  F24-NEXT:           arith.mulf %[[A0]], %[[B2]] : f32
//  F24-NEXT:           arith.mulf %[[A0]], %[[B3]] : f32
//  F24-NEXT:           arith.mulf %[[A1]], %[[B0]] : f32
//       F24:           arith.mulf %[[A1]], %[[B3]] : f32
//   F24-NOT:           dloop.load
//       F24:           dloop.yield
//       F24:         dloop.yield %[[PART]]#0, %[[PART]]#1, %[[PART]]#2, %[[PART]]#3, %[[PART]]#4, %[[PART]]#5, %[[PART]]#6, %[[PART]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
//  F24-NEXT:       }
//  F24-NEXT:       dloop.store %[[SUM]]#0, %[[C]][%[[MO]] * 16 + %[[MI]] * 2, %[[NO]] * 64 + %[[NI]] * 4] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#1, %[[C]][%[[MO]] * 16 + %[[MI]] * 2, %[[NO]] * 64 + %[[NI]] * 4 + 1] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#2, %[[C]][%[[MO]] * 16 + %[[MI]] * 2, %[[NO]] * 64 + %[[NI]] * 4 + 2] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#3, %[[C]][%[[MO]] * 16 + %[[MI]] * 2, %[[NO]] * 64 + %[[NI]] * 4 + 3] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#4, %[[C]][%[[MO]] * 16 + %[[MI]] * 2 + 1, %[[NO]] * 64 + %[[NI]] * 4] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#5, %[[C]][%[[MO]] * 16 + %[[MI]] * 2 + 1, %[[NO]] * 64 + %[[NI]] * 4 + 1] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#6, %[[C]][%[[MO]] * 16 + %[[MI]] * 2 + 1, %[[NO]] * 64 + %[[NI]] * 4 + 2] : memref<16x64xf32>
//  F24-NEXT:       dloop.store %[[SUM]]#7, %[[C]][%[[MO]] * 16 + %[[MI]] * 2 + 1, %[[NO]] * 64 + %[[NI]] * 4 + 3] : memref<16x64xf32>
//  F24-NEXT:     }

/// BM = 1: blockify_launch made only the column loop; threads take the
/// columns, FN = 2 each, and share the row of A.
// ROW-LABEL: func.func @matmul
//       ROW:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 1, BN = 64, FM = 1, FN = 2> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       ROW:     dtile.tile blocks(%[[MO:.*]] : 16 "d0_o", %[[NO:.*]] : 1 "d1_o") threads(%[[NI:.*]] : 32 "d1_i") {
//  ROW-NEXT:       %[[SUM:.*]]:2 = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  ROW-NEXT:         dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i"
//  ROW-NEXT:           dloop.load %[[A]][%[[MO]], %[[KO]] * 32 + %[[KI]]] : memref<16x128xf32>
//  ROW-NEXT:           dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 64 + %[[NI]] * 2] : memref<128x64xf32>
//  ROW-NEXT:           dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[NO]] * 64 + %[[NI]] * 2 + 1] : memref<128x64xf32>
//       ROW:       dloop.store %[[SUM]]#0, %[[C]][%[[MO]], %[[NO]] * 64 + %[[NI]] * 2] : memref<16x64xf32>
//  ROW-NEXT:       dloop.store %[[SUM]]#1, %[[C]][%[[MO]], %[[NO]] * 64 + %[[NI]] * 2 + 1] : memref<16x64xf32>

/// Powers of two up to 16 per side and 64 outputs per thread, 32 to 1024
/// threads, listed by preference: about 256 threads, then the squarest
/// (the default first).
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: register_tile: (FM, FN) in {(2, 2)*, (1, 4), (4, 1), (1, 2), (2, 4), (2, 1), (4, 2), (1, 8), (8, 1), (1, 1), (4, 4), (2, 8), (8, 2), (1, 16), (16, 1), (4, 8), (8, 4), (2, 16), (16, 2)}
    dloop.kernel @matmul_0_reduce ins(%in0 = %arg0 : memref<16x128xf32>, %in1 = %arg1 : memref<128x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: register_tile: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: register_tile: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: register_tile: does not apply

/// A 4 x 8 tile has only 32 outputs: one per thread.
// DEFAULT-FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: register_tile: (FM, FN) in {(1, 1)*}

/// Once the tile has threads, the rule does not apply again.
// AGAIN: kernels.mlir:6:5: remark: @matmul_0_reduce: register_tile: does not apply

// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op knobs FM=3 are not a legal option of register_tile: (FM, FN) in {(1, 1)*}
