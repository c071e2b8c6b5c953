// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs | FileCheck %s --check-prefix=BOTH
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-chunk-reduce --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs | FileCheck %s --check-prefix=FM2FN4
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs="knobs=stage=[1]" | FileCheck %s --check-prefix=ONLYB
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs="knobs=stage=[]" | FileCheck %s --check-prefix=NONE
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-stage-inputs=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-THREADS
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs="knobs=stage=[2]" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-stage-inputs=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s --dtile-stage-inputs="target=sm_80 list-forks=true" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SM80
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-stage-inputs=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=AGAIN
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-stage-inputs | diff %t.once.mlir -

/// Each chunk of the matmul first stages the chunk's slab of both operands
/// (the block's 4 rows of A, 8 columns of B); the reads go to the slabs at
/// the thread's offset. A is shared by the threads of a row, B by those of
/// a column.
// BOTH-LABEL: func.func @matmul
//       BOTH:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, stage = [0, 1]> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>)
//       BOTH:     dtile.tile blocks(%[[MO:.*]] : 4 "d0_o", %[[NO:.*]] : 8 "d1_o") threads(%[[MI:.*]] : 4 "d0_i", %[[NI:.*]] : 8 "d1_i") {
//  BOTH-NEXT:       dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  BOTH-NEXT:         %[[AS:.*]] = dtile.stage %[[A]][%[[MO]] * 4, %[[KO]] * 32] box [4, 32] : memref<16x128xf32> -> memref<4x32xf32, #gpu.address_space<workgroup>>
//  BOTH-NEXT:         %[[BS:.*]] = dtile.stage %[[B]][%[[KO]] * 32, %[[NO]] * 8] box [32, 8] : memref<128x64xf32> -> memref<32x8xf32, #gpu.address_space<workgroup>>
//  BOTH-NEXT:         dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i"
//  BOTH-NEXT:           dloop.load %[[AS]][%[[MI]], %[[KI]]] : memref<4x32xf32, #gpu.address_space<workgroup>>
//  BOTH-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]]] : memref<32x8xf32, #gpu.address_space<workgroup>>
/// The gemv's vector is shared by all threads: one 128-float slab per chunk;
/// the matrix column is each thread's own.
// BOTH-LABEL: func.func @gemv
//       BOTH:   dtile.kernel @gemv_0_reduce knobs<block_threads = 64, chunk = 128, stage = [0], threads = 1> ins(%[[V:[^ ]+]] = %{{[^ ]+}} : memref<256xf32>, %[[M:[^ ]+]] = %{{[^ ]+}} : memref<256x64xf32>)
//       BOTH:       dloop.for %[[RO:.*]] = 0 to 2 reduce "r0_o"
//  BOTH-NEXT:         %[[VS:.*]] = dtile.stage %[[V]][%[[RO]] * 128] box [128] : memref<256xf32> -> memref<128xf32, #gpu.address_space<workgroup>>
//  BOTH-NEXT:         dloop.for %[[RI:.*]] = 0 to 128 reduce "r0_i"
//  BOTH-NEXT:           dloop.load %[[VS]][%[[RI]]] : memref<128xf32, #gpu.address_space<workgroup>>
//  BOTH-NEXT:           dloop.load %[[M]][%[[RO]] * 128 + %[[RI]], %{{.*}}] : memref<256x64xf32>

/// With a register tile the slab covers every copy's rows (16 x 32 of A)
/// and columns (32 x 64 of B); the copies read it at their own offsets.
// FM2FN4-LABEL: func.func @matmul
//       FM2FN4:   knobs<BK = 32, BM = 16, BN = 64, FM = 2, FN = 4, stage = [0, 1]>
//       FM2FN4:     dtile.tile blocks(%[[MO:.*]] : 1 "d0_o", %[[NO:.*]] : 1 "d1_o") threads(%[[MI:.*]] : 8 "d0_i", %[[NI:.*]] : 16 "d1_i") {
//  FM2FN4-NEXT:       dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  FM2FN4-NEXT:         %[[AS:.*]] = dtile.stage %{{.*}}[%[[MO]] * 16, %[[KO]] * 32] box [16, 32] : memref<16x128xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
//  FM2FN4-NEXT:         %[[BS:.*]] = dtile.stage %{{.*}}[%[[KO]] * 32, %[[NO]] * 64] box [32, 64] : memref<128x64xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
//  FM2FN4-NEXT:         dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i"
//  FM2FN4-NEXT:           dloop.load %[[AS]][%[[MI]] * 2, %[[KI]]]
//  FM2FN4-NEXT:           dloop.load %[[AS]][%[[MI]] * 2 + 1, %[[KI]]]
//  FM2FN4-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] * 4]
//  FM2FN4-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] * 4 + 1]
//  FM2FN4-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] * 4 + 2]
//  FM2FN4-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] * 4 + 3]
//   FM2FN4-NOT:           dloop.load
//       FM2FN4:           dloop.yield

/// stage = [1]: only B goes through shared memory.
// ONLYB-LABEL: func.func @matmul
//       ONLYB:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, stage = [1]> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>)
//       ONLYB:       dloop.for %{{.*}} = 0 to 4 reduce "r0_o"
//  ONLYB-NEXT:         %[[BS:.*]] = dtile.stage %[[B]]
//  ONLYB-NEXT:         dloop.for %{{.*}} = 0 to 32 reduce "r0_i"
//  ONLYB-NEXT:           dloop.load %[[A]][
//  ONLYB-NEXT:           dloop.load %[[BS]][
//   ONLYB-NOT:   dtile.stage

/// stage = []: nothing staged, the choice still recorded.
// NONE-LABEL: func.func @matmul
//       NONE:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, stage = []>
//   NONE-NOT:   dtile.stage

/// Every subset of the candidate inputs that fits, most inputs first (then
/// most bytes: B's slab is twice A's), staging nothing last.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: stage_inputs: stage in {[0, 1]*, [1], [0], []}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: stage_inputs: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: stage_inputs: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: stage_inputs: stage in {[0]*, []}

/// Without threads nothing is shared.
// NO-THREADS: kernels.mlir:6:5: remark: @matmul_0_reduce: stage_inputs: does not apply

// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op knobs stage=[2] are not a legal option of stage_inputs: stage in {[0, 1]*, [1], [0], []}

// AGAIN: kernels.mlir:6:5: remark: @matmul_0_reduce: stage_inputs: does not apply

// -----

/// Every thread reads its own row: nothing to share.
// CHECK-LABEL: func.func @negative_private_rows
//   CHECK-NOT:   dtile.stage
func.func @negative_private_rows(%arg0: memref<32x64xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{stage_inputs: does not apply}}
  dtile.kernel @negative_private_rows ins(%x = %arg0 : memref<32x64xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %0 = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %cst : f32) {
        %1 = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %2 = dloop.load %x[%t, %ko * 32 + %ki] : memref<32x64xf32>
          %3 = arith.addf %a, %2 : f32
          dloop.yield %3 : f32
        }
        dloop.yield %1 : f32
      }
      dloop.store %0, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// A reduction that is not chunked has no chunk to stage.
// CHECK-LABEL: func.func @negative_not_chunked
//   CHECK-NOT:   dtile.stage
func.func @negative_not_chunked(%arg0: memref<64xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{stage_inputs: does not apply}}
  dtile.kernel @negative_not_chunked ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %0 = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %cst : f32) {
        %2 = dloop.load %x[%k] : memref<64xf32>
        %3 = arith.addf %acc, %2 : f32
        dloop.yield %3 : f32
      }
      dloop.store %0, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// Two reads of a shared input in a chunk, one column apart, share one slab
/// (the union of what they read); the fixed row 1 is the slab's origin, not
/// an offset into a slab from row 0.
// CHECK-LABEL: func.func @shared_pair
//       CHECK:   dtile.kernel @shared_pair knobs<stage = [0]> ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<2x64xf32>)
//       CHECK:       dloop.for %[[KO:.*]] = 0 to 4 reduce "k_o"
//  CHECK-NEXT:         %[[XS:.*]] = dtile.stage %[[X]][1, %[[KO]] * 16] box [1, 16] : memref<2x64xf32> -> memref<1x16xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:         dloop.for %[[KI:.*]] = 0 to 15 reduce "k_i"
//  CHECK-NEXT:           dloop.load %[[XS]][0, %[[KI]]] : memref<1x16xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:           dloop.load %[[XS]][0, %[[KI]] + 1] : memref<1x16xf32, #gpu.address_space<workgroup>>
func.func @shared_pair(%arg0: memref<2x64xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{stage_inputs: stage in {[0]*, []}}}
  dtile.kernel @shared_pair ins(%x = %arg0 : memref<2x64xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%u : 1 "unit") threads(%t : 32 "t") {
      %0 = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %cst : f32) {
        %1 = dloop.for %ki = 0 to 15 reduce "k_i" iter(%a = %acc : f32) {
          %2 = dloop.load %x[1, %ko * 16 + %ki] : memref<2x64xf32>
          %3 = dloop.load %x[1, %ko * 16 + %ki + 1] : memref<2x64xf32>
          %4 = arith.addf %2, %3 : f32
          %5 = arith.addf %a, %4 : f32
          dloop.yield %5 : f32
        }
        dloop.yield %1 : f32
      }
      dloop.store %0, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// A 128 x 256 tile with K chunks of 128: A's slab takes 64 KB, B's 128 KB.
/// Both fit the 227 KB an H100 block may use, not the 163 KB of an A100.
// SM80: stage-inputs.mlir:[[@LINE+6]]:3: remark: @large_tile: stage_inputs: stage in {[1]*, [0], []}
// CHECK-LABEL: func.func @large_tile
//       CHECK:   dtile.stage %{{.*}}[%{{.*}} * 128, %{{.*}} * 128] box [128, 128] : memref<128x256xf32> -> memref<128x128xf32, #gpu.address_space<workgroup>>
//       CHECK:   dtile.stage %{{.*}}[%{{.*}} * 128, %{{.*}} * 256] box [128, 256] : memref<256x256xf32> -> memref<128x256xf32, #gpu.address_space<workgroup>>
func.func @large_tile(%arg0: memref<128x256xf32>, %arg1: memref<256x256xf32>, %arg2: memref<128x8xf32>) {
  // expected-remark @+1 {{stage_inputs: stage in {[0, 1]*, [1], [0], []}}}
  dtile.kernel @large_tile ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x256xf32>) outs(%c = %arg2 : memref<128x8xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%mo : 1 "m_o", %no : 1 "n_o") threads(%mi : 128 "m_i", %ni : 8 "n_i") {
      %0 = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %cst : f32) {
        %1 = dloop.for %ki = 0 to 128 reduce "k_i" iter(%acc1 = %acc : f32) {
          %2 = dloop.load %a[%mo * 128 + %mi, %ko * 128 + %ki] : memref<128x256xf32>
          %3 = dloop.for %j = 0 to 32 reduce "j" iter(%acc2 = %acc1 : f32) {
            %4 = dloop.load %b[%ko * 128 + %ki, %no * 256 + %ni * 32 + %j] : memref<256x256xf32>
            %5 = arith.mulf %2, %4 : f32
            %6 = arith.addf %acc2, %5 : f32
            dloop.yield %6 : f32
          }
          dloop.yield %3 : f32
        }
        dloop.yield %1 : f32
      }
      dloop.store %0, %c[%mi, %ni] : memref<128x8xf32>
    }
  }
  return
}
