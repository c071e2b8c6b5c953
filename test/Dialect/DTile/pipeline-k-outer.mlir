// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy --dtile-pipeline-k-outer | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy --dtile-pipeline-k-outer=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-pipeline-k-outer=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SYNC-FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-pipeline-k-outer="knobs=pipeline=true" | FileCheck %s --check-prefix=SYNC
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer="knobs=double_buffer=false" --dtile-async-copy --dtile-pipeline-k-outer=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SINGLE
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:double_buffer=false,pipeline=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-pipeline-k-outer=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy --dtile-pipeline-k-outer > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-pipeline-k-outer | diff %t.once.mlir -

/// Chunk 0 is staged into slot 0 before the loop; iteration k waits for
/// chunk k, prefetches chunk k + 1 into the other slot while there is one,
/// and computes on the carried slabs of chunk k.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]>
//   DEFAULT-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   DEFAULT-DAG:   %[[C0:.*]] = arith.constant 0 : index
//       DEFAULT:     %[[A0:.*]] = dtile.stage %[[A:.*]][%[[MO:.*]] * 4, 0] box [4, 32] buffers 2 slot %[[C0]] transport cp_async
//  DEFAULT-NEXT:     %[[B0:.*]] = dtile.stage %[[B:.*]][0, %[[NO:.*]] * 8] box [32, 8] buffers 2 slot %[[C0]] transport cp_async
//  DEFAULT-NEXT:     %{{.*}}:3 = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o" iter(%[[ACC:.*]] = %{{.*}} : f32, %[[AS:.*]] = %[[A0]] : memref<4x32xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] = %[[B0]] : memref<32x8xf32, #gpu.address_space<workgroup>>) {
//  DEFAULT-NEXT:       dtile.async_wait keep 0
//  DEFAULT-NEXT:       %[[MORE:.*]] = arith.cmpi ult, %[[KO]], %[[C3]] : index
//  DEFAULT-NEXT:       %[[NEXT:.*]]:2 = scf.if %[[MORE]]
//  DEFAULT-NEXT:         %[[SLOT:.*]] = affine.apply #{{.*}}(%[[KO]])
//  DEFAULT-NEXT:         %[[AN:.*]] = dtile.stage %[[A]][%[[MO]] * 4, %[[KO]] * 32 + 32] box [4, 32] buffers 2 slot %[[SLOT]] transport cp_async
//  DEFAULT-NEXT:         %[[BN:.*]] = dtile.stage %[[B]][%[[KO]] * 32 + 32, %[[NO]] * 8] box [32, 8] buffers 2 slot %[[SLOT]] transport cp_async
//  DEFAULT-NEXT:         scf.yield %[[AN]], %[[BN]]
//  DEFAULT-NEXT:       } else {
//  DEFAULT-NEXT:         scf.yield %[[AS]], %[[BS]]
//  DEFAULT-NEXT:       }
//  DEFAULT-NEXT:       %[[PART:.*]] = dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i" iter(%{{.*}} = %[[ACC]] : f32) {
//  DEFAULT-NEXT:         dloop.load %[[AS]][%{{.*}}, %[[KI]]]
//  DEFAULT-NEXT:         dloop.load %[[BS]][%[[KI]], %{{.*}}]
//       DEFAULT:       dloop.yield %[[PART]], %[[NEXT]]#0, %[[NEXT]]#1 :
// DEFAULT-LABEL: func.func @gemv
//       DEFAULT:   pipeline = true

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer: pipeline in {true*, false}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: pipeline_k_outer: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: pipeline_k_outer: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: pipeline_k_outer: pipeline in {true*, false}

/// Synchronous copies cannot overlap the computation: legal, not the default.
// SYNC-FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer: pipeline in {false*, true}

/// Without async copies there is no wait: the copies of chunk k + 1 end
/// with a barrier of their own.
// SYNC-LABEL: func.func @matmul
//       SYNC:   pipeline = true
//   SYNC-NOT:   async_wait
//       SYNC:     dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  SYNC-NEXT:       arith.cmpi ult, %[[KO]]
//  SYNC-NEXT:       scf.if
//       SYNC: func.func @rowsum

/// One slab per stage: prefetching would overwrite the slab being read.
// SINGLE: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer: does not apply

// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op no rule took knob "pipeline" for this kernel

// -----

/// One chunk: the prefetch guard is never true, so chunk 0 is staged and
/// waited for exactly once. Nothing overlaps, so the heuristic skips.
// CHECK-LABEL: func.func @one_chunk
//       CHECK:   knobs<pipeline = false>
func.func @one_chunk(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{pipeline_k_outer: pipeline in {false*, true}}}
  dtile.kernel @one_chunk ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 1 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
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
