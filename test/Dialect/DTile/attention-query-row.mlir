// The query row of attention_blocks (AttentionQueryRow.cpp): a read the
// key loop repeats for every key is read once, before it, into a private
// buffer; a read under a guard that does not depend on the key (which may
// be what keeps it in bounds) is left where it is.
// RUN: deplodock-opt %s --dtile-attention-blocks="knobs=BQ=32,BKV=8,split_kv=1" -split-input-file | FileCheck %s

#causal = affine_map<(d0, d1) -> (-d0 + d1 - 1)>

/// The row is read once, r1 reads the buffer, and nothing in the key loop
/// reads %in1.
// CHECK-LABEL: dtile.kernel @plain
//       CHECK:   memref.alloca() : memref<8xf32>
//       CHECK:   memref.alloca() : memref<8xf32>
//  CHECK-NEXT:   dloop.for %[[I:.*]] = 0 to 8 free "r1_row" {
//  CHECK-NEXT:     %[[V:.*]] = dloop.load %in1[0, %{{.*}}, %{{.*}}, %[[I]]] : memref<1x4x8x8xf32>
//  CHECK-NEXT:     dloop.store %[[V]], %[[Q:alloca_[0-9]+]][%[[I]]] : memref<8xf32>
//       CHECK:   dloop.for %{{.*}} = 0 to 8 reduce "r0"
//       CHECK:     dloop.for %[[D:.*]] = 0 to 8 reduce "r1"
//  CHECK-NEXT:       dloop.load %[[Q]][%[[D]]] : memref<8xf32>
//   CHECK-NOT:   %in1
//       CHECK:   return
func.func @plain(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
  %alloc = memref.alloc() : memref<1x4x8x8xf32>
  dtile.kernel @plain ins(%in0 = %arg2 : memref<1x2x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x2x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
    dtile.tile blocks(%d0 : 4 "d0", %d1 : 8 "d1") {
      %cst = arith.constant 0.353553385 : f32
      %c0 = arith.constant 0 : index
      %c6 = arith.constant 6 : index
      %cst_0 = arith.constant 0xFF800000 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      %guard = arith.cmpi ult, %d1, %c6 : index
      %alloca = memref.alloca() : memref<8xf32>
      dloop.for %d2 = 0 to 8 free "d2" {
        dloop.store %cst_1, %alloca[%d2] : memref<8xf32>
      }
      %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
        %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
          %15 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
          %16 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
          %17 = arith.mulf %15, %16 : f32
          %18 = arith.addf %acc_3, %17 : f32
          dloop.yield %18 : f32
        }
        %2 = affine.apply #causal(%d1, %r0)
        %3 = arith.cmpi sge, %2, %c0 : index
        %4 = arith.mulf %1, %cst : f32
        %5 = arith.select %3, %cst_0, %4 : f32
        %6 = arith.maxnumf %acc, %5 : f32
        %7 = arith.cmpf oeq, %6, %cst_0 : f32
        %8 = arith.select %7, %cst_1, %6 : f32
        %9 = arith.subf %acc, %8 : f32
        %10 = math.exp %9 : f32
        %11 = arith.subf %5, %8 : f32
        %12 = math.exp %11 : f32
        %13 = arith.mulf %acc_2, %10 : f32
        %14 = arith.addf %13, %12 : f32
        dloop.for %d3 = 0 to 8 free "d3" {
          %15 = dloop.load %alloca[%d3] : memref<8xf32>
          %16 = arith.mulf %15, %10 : f32
          %17 = dloop.load %in0[0, %d0 floordiv 2, %r0, %d3] : memref<1x2x8x8xf32>
          %18 = arith.mulf %12, %17 : f32
          %19 = arith.addf %16, %18 : f32
          dloop.store %19, %alloca[%d3] : memref<8xf32>
        }
        dloop.yield %6, %14 : f32, f32
      }
      dloop.for %d4 = 0 to 8 free "d4" {
        %1 = dloop.load %alloca[%d4] : memref<8xf32>
        %2 = arith.divf %1, %0#1 : f32
        dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
      }
    }
  }
  return %alloc : memref<1x4x8x8xf32>
}

// -----

#causal = affine_map<(d0, d1) -> (-d0 + d1 - 1)>

/// Under a guard on the query row only, the read stays in the key loop.
// CHECK-LABEL: dtile.kernel @guarded
//   CHECK-NOT:   "r1_row"
//       CHECK:   dloop.for %{{.*}} = 0 to 8 reduce "r0"
//       CHECK:     scf.if
//       CHECK:       dloop.load %in1[
func.func @guarded(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
  %alloc = memref.alloc() : memref<1x4x8x8xf32>
  dtile.kernel @guarded ins(%in0 = %arg2 : memref<1x2x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x2x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
    dtile.tile blocks(%d0 : 4 "d0", %d1 : 8 "d1") {
      %cst = arith.constant 0.353553385 : f32
      %c0 = arith.constant 0 : index
      %c6 = arith.constant 6 : index
      %cst_0 = arith.constant 0xFF800000 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      %guard = arith.cmpi ult, %d1, %c6 : index
      %alloca = memref.alloca() : memref<8xf32>
      dloop.for %d2 = 0 to 8 free "d2" {
        dloop.store %cst_1, %alloca[%d2] : memref<8xf32>
      }
      %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
        %1 = scf.if %guard -> (f32) {
          %g = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
            %15 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
            %16 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
            %17 = arith.mulf %15, %16 : f32
            %18 = arith.addf %acc_3, %17 : f32
            dloop.yield %18 : f32
          }
          scf.yield %g : f32
        } else {
          scf.yield %cst_1 : f32
        }
        %2 = affine.apply #causal(%d1, %r0)
        %3 = arith.cmpi sge, %2, %c0 : index
        %4 = arith.mulf %1, %cst : f32
        %5 = arith.select %3, %cst_0, %4 : f32
        %6 = arith.maxnumf %acc, %5 : f32
        %7 = arith.cmpf oeq, %6, %cst_0 : f32
        %8 = arith.select %7, %cst_1, %6 : f32
        %9 = arith.subf %acc, %8 : f32
        %10 = math.exp %9 : f32
        %11 = arith.subf %5, %8 : f32
        %12 = math.exp %11 : f32
        %13 = arith.mulf %acc_2, %10 : f32
        %14 = arith.addf %13, %12 : f32
        dloop.for %d3 = 0 to 8 free "d3" {
          %15 = dloop.load %alloca[%d3] : memref<8xf32>
          %16 = arith.mulf %15, %10 : f32
          %17 = dloop.load %in0[0, %d0 floordiv 2, %r0, %d3] : memref<1x2x8x8xf32>
          %18 = arith.mulf %12, %17 : f32
          %19 = arith.addf %16, %18 : f32
          dloop.store %19, %alloca[%d3] : memref<8xf32>
        }
        dloop.yield %6, %14 : f32, f32
      }
      dloop.for %d4 = 0 to 8 free "d4" {
        %1 = dloop.load %alloca[%d4] : memref<8xf32>
        %2 = arith.divf %1, %0#1 : f32
        dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
      }
    }
  }
  return %alloc : memref<1x4x8x8xf32>
}
