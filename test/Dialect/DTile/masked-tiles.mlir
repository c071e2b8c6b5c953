// RUN: deplodock-opt %s --dtile-lower="knobs=BK=32,BM=37,BN=24,FM=4,FN=2,pad=false,stage=[0,1],unroll=1,double_buffer=false,async_copy=false,vector_reads=false,reg_double=false" | FileCheck %s
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --pipeline=lower-to-tensor --check-variants=2000 --target=sm_80 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --pipeline=lower-to-tensor --check-variants=2000 --target=sm_90 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --pipeline=lower-to-tensor --check-variants=2000 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --pipeline=lower-to-tensor --check-variants=2000 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS

/// Masked tiles end to end: a 37 x 64 . 64 x 24 matmul in one block of
/// 37 x 24 outputs (the extents themselves, no power of two) dealt to
/// 10 x 12 threads of 4 x 2 outputs. 4 does not divide 37, so the last
/// thread row's copies 1..3 are past the tile (copy 0, at most row 36, never
/// is: its check folds away). The slab of A spans the rows the threads
/// reach (40) and is zero-filled past the 37 rows of A, so reads of it need
/// no guard; each row copy's stores are guarded by its own row.
// CHECK-LABEL: func.func @masked_matmul
//       CHECK:   dtile.kernel @masked_matmul knobs<BK = 32, BM = 37, BN = 24, FM = 4, FN = 2, async_copy = false, double_buffer = false, pad = false, reg_double = false, stage = [0, 1], tma = false, transpose_a = false, unroll = 1, vector_copy = false, vector_reads = false, vector_stores = false> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<37x64xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<64x24xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<37x24xf32>) {
//       CHECK:     %[[M:.*]] = arith.constant 37 : index
//       CHECK:     dtile.tile blocks(%[[MO:.*]] : 1 "m_o", %[[NO:.*]] : 1 "n_o") threads(%[[MI:.*]] : 10 "m_i", %[[NI:.*]] : 12 "n_i") {
//       CHECK:       %[[R1:.*]] = affine.apply #{{.*}}(%[[MI]])
//       CHECK:       %[[R2:.*]] = affine.apply #{{.*}}(%[[MI]])
//       CHECK:       %[[R3:.*]] = affine.apply #{{.*}}(%[[MI]])
//  CHECK-NEXT:       %[[IN1:.*]] = arith.cmpi ult, %[[R1]], %[[M]] : index
//  CHECK-NEXT:       %[[IN2:.*]] = arith.cmpi ult, %[[R2]], %[[M]] : index
//  CHECK-NEXT:       %[[IN3:.*]] = arith.cmpi ult, %[[R3]], %[[M]] : index
//  CHECK-NEXT:       dloop.for %{{.*}} = 0 to 2 reduce "k_o"
//  CHECK-NEXT:         %[[AS:.*]] = dtile.stage %[[A]][%[[MO]] * 37, %{{.*}} * 32] box [40, 32] zero_fill : memref<37x64xf32> -> memref<40x32xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:         %[[BS:.*]] = dtile.stage %[[B]][%{{.*}} * 32, %[[NO]] * 24] box [32, 24] : memref<64x24xf32> -> memref<32x24xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:         scf.if
//       CHECK:         dloop.load %[[AS]][%[[MI]] * 4 + 3, %{{.*}}] : memref<40x32xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:         scf.if
//       CHECK:       dloop.store %{{.*}}, %[[C]][%[[MO]] * 37 + %[[MI]] * 4, %[[NO]] * 24 + %[[NI]] * 2 + 1] : memref<37x24xf32>
//  CHECK-NEXT:       scf.if %[[IN1]] {
//  CHECK-NEXT:         dloop.store %{{.*}}, %[[C]][%[[MO]] * 37 + %[[MI]] * 4 + 1, %[[NO]] * 24 + %[[NI]] * 2] : memref<37x24xf32>
//       CHECK:       scf.if %[[IN3]] {
//  CHECK-NEXT:         dloop.store %{{.*}}, %[[C]][%[[MO]] * 37 + %[[MI]] * 4 + 3, %[[NO]] * 24 + %[[NI]] * 2] : memref<37x24xf32>
//  CHECK-NEXT:         dloop.store %{{.*}}, %[[C]][%[[MO]] * 37 + %[[MI]] * 4 + 3, %[[NO]] * 24 + %[[NI]] * 2 + 1] : memref<37x24xf32>

/// The property test: every variant of every kernel of the odd-shaped
/// layers (a 5 x 40 . 40 x 13 matmul, SiLU over 1000 elements, a square
/// over 3 x 5 x 7), at the Tile and the Kernel level, on both targets (the
/// matmul's tree, with its bank-conflict and staging forks, sampled).
// VARIANTS: variants of @odd_0_reduce: {{[0-9]+}} ({{all|seeded sample}}) checked, 0 failed
// VARIANTS: variants of @odd_1_pointwise: 6 (all) checked, 0 failed
// VARIANTS: variants of @odd_2_pointwise: 3 (all) checked, 0 failed

func.func @masked_matmul(%a: memref<37x64xf32>, %b: memref<64x24xf32>) -> memref<37x24xf32> {
  %alloc = memref.alloc() : memref<37x24xf32>
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
