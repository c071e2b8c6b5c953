// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify | FileCheck %s --check-prefix=KERNELS
// RUN: deplodock-opt %s --dtile-tileify -split-input-file | FileCheck %s

/// Tileify keeps the buffers, binds the outer chain of free loops to block
/// axes (one thread per block) and stamps no knobs: no rule has run.
// KERNELS-LABEL: func.func @matmul
//  KERNELS-SAME:   (%[[A:.*]]: memref<16x128xf32>, %[[B:.*]]: memref<128x64xf32>)
//       KERNELS:   %[[C:.*]] = memref.alloc() : memref<16x64xf32>
//       KERNELS:   dtile.kernel @matmul_0_reduce ins(%[[IN0:.*]] = %[[A]] : memref<16x128xf32>, %[[IN1:.*]] = %[[B]] : memref<128x64xf32>) outs(%[[OUT:.*]] = %[[C]] : memref<16x64xf32>) {
//  KERNELS-NEXT:     dtile.tile blocks(%[[D0:.*]] : 16 "d0", %[[D1:.*]] : 64 "d1") {
/// Constants of the kernel body move into the tile with the rest.
//  KERNELS-NEXT:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//  KERNELS-NEXT:       %[[SUM:.*]] = dloop.for %[[K:.*]] = 0 to 128 reduce "r0" iter(%[[ACC:.*]] = %[[ZERO]] : f32) {
//  KERNELS-NEXT:         dloop.load %[[IN0]][%[[D0]], %[[K]]]
//  KERNELS-NEXT:         dloop.load %[[IN1]][%[[K]], %[[D1]]]
//       KERNELS:       dloop.store %[[SUM]], %[[OUT]][%[[D0]], %[[D1]]] : memref<16x64xf32>
//   KERNELS-NOT:   dloop.kernel
//       KERNELS:   return %[[C]]

/// The chain stops at a body holding more than one loop: the row sum's free
/// loop over d1 stays a loop inside the tile.
// KERNELS-LABEL: func.func @rowsum
//       KERNELS:   dtile.kernel @rowsum_0_reduce ins(%[[IN:[^ ]+]] = %{{[^ ]+}} : memref<8x512xf32>) outs(%[[OUT:[^ ]+]] = %{{[^ ]+}} : memref<8x512xf32>) {
//  KERNELS-NEXT:     dtile.tile blocks(%[[D0:.*]] : 8 "d0") {
//       KERNELS:       %[[SUM:.*]] = dloop.for %{{.*}} = 0 to 512 reduce "r0"
//       KERNELS:       dloop.for %[[D1:.*]] = 0 to 512 free "d1" {
//       KERNELS:         dloop.load %[[IN]][%[[D0]], %[[D1]]]
//       KERNELS:         arith.divf %{{.*}}, %[[SUM]] : f32

/// A pointwise kernel: every loop becomes a block axis.
// KERNELS-LABEL: func.func @scale
//       KERNELS:   dtile.kernel @scale_0_pointwise ins(%[[IN:[^ ]+]] = %{{[^ ]+}} : memref<4x256xf32>) outs(%[[OUT:[^ ]+]] = %{{[^ ]+}} : memref<4x256xf32>) {
//  KERNELS-NEXT:     dtile.tile blocks(%[[D0:.*]] : 4 "d0", %[[D1:.*]] : 256 "d1") {
//  KERNELS-NEXT:       %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
//  KERNELS-NEXT:       %[[X:.*]] = dloop.load %[[IN]][%[[D0]], %[[D1]]] : memref<4x256xf32>
//  KERNELS-NEXT:       %[[Y:.*]] = arith.mulf %[[X]], %[[TWO]] : f32
//  KERNELS-NEXT:       dloop.store %[[Y]], %[[OUT]][%[[D0]], %[[D1]]] : memref<4x256xf32>
//  KERNELS-NEXT:     }
//  KERNELS-NEXT:   }

// KERNELS-LABEL: func.func @gemv
//       KERNELS:   dtile.kernel @gemv_0_reduce
//  KERNELS-NEXT:     dtile.tile blocks(%{{.*}} : 64 "d0") {

// -----

/// A kernel with no free loop (a full reduction) still gets a launch: one
/// block on a unit axis.
// CHECK-LABEL: func.func @full_sum
//       CHECK:   dtile.kernel @full_sum ins(%[[X:[^ ]+]] = %{{[^ ]+}} : memref<64xf32>) outs(%[[Y:[^ ]+]] = %{{[^ ]+}} : memref<1xf32>) {
//  CHECK-NEXT:     dtile.tile blocks(%{{.*}} : 1 "unit") {
//  CHECK-NEXT:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:       %[[SUM:.*]] = dloop.for %[[R:.*]] = 0 to 64 reduce "r" iter(%{{.*}} = %[[ZERO]] : f32) {
//  CHECK-NEXT:         dloop.load %[[X]][%[[R]]] : memref<64xf32>
//       CHECK:       dloop.store %[[SUM]], %[[Y]][0] : memref<1xf32>
func.func @full_sum(%arg0: memref<64xf32>) -> memref<1xf32> {
  %alloc = memref.alloc() : memref<1xf32>
  dloop.kernel @full_sum ins(%x = %arg0 : memref<64xf32>) outs(%y = %alloc : memref<1xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = dloop.for %r = 0 to 64 reduce "r" iter(%acc = %cst : f32) {
      %1 = dloop.load %x[%r] : memref<64xf32>
      %2 = arith.addf %acc, %1 : f32
      dloop.yield %2 : f32
    }
    dloop.store %0, %y[0] : memref<1xf32>
  }
  return %alloc : memref<1xf32>
}

// -----

/// Pure scalar code between the loops of the chain moves into the innermost
/// body, after the block coordinates it uses.
// CHECK-LABEL: func.func @scalar_between_loops
//       CHECK:   dtile.tile blocks(%[[I:.*]] : 4 "i", %[[J:.*]] : 8 "j") {
//  CHECK-NEXT:     %[[C:.*]] = arith.index_cast %[[I]] : index to i32
//  CHECK-NEXT:     %[[F:.*]] = arith.sitofp %[[C]] : i32 to f32
//  CHECK-NEXT:     %[[V:.*]] = dloop.load %{{.*}}[%[[I]], %[[J]]] : memref<4x8xf32>
//  CHECK-NEXT:     arith.addf %[[V]], %[[F]] : f32
func.func @scalar_between_loops(%arg0: memref<4x8xf32>) -> memref<4x8xf32> {
  %alloc = memref.alloc() : memref<4x8xf32>
  dloop.kernel @scalar_between_loops ins(%x = %arg0 : memref<4x8xf32>) outs(%y = %alloc : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f32
      dloop.for %j = 0 to 8 free "j" {
        %1 = dloop.load %x[%i, %j] : memref<4x8xf32>
        %2 = arith.addf %1, %f : f32
        dloop.store %2, %y[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %alloc : memref<4x8xf32>
}

// -----

/// A free loop after a reduce loop is not part of the chain: only the outer
/// loop becomes a block axis (as for the row sum above), even though the
/// inner free loop comes first.
// CHECK-LABEL: func.func @free_then_reduce
//       CHECK:   dtile.tile blocks(%[[I:.*]] : 4 "i") {
//       CHECK:     dloop.for %{{.*}} = 0 to 8 free "j"
//       CHECK:     dloop.for %{{.*}} = 0 to 8 reduce "r"
func.func @free_then_reduce(%arg0: memref<4x8xf32>) -> (memref<4x8xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<4xf32>
  dloop.kernel @free_then_reduce ins(%x = %arg0 : memref<4x8xf32>) outs(%y = %a : memref<4x8xf32>, %s = %b : memref<4xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %1 = dloop.load %x[%i, %j] : memref<4x8xf32>
        dloop.store %1, %y[%i, %j] : memref<4x8xf32>
      }
      %0 = dloop.for %r = 0 to 8 reduce "r" iter(%acc = %cst : f32) {
        %1 = dloop.load %x[%i, %r] : memref<4x8xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %s[%i] : memref<4xf32>
    }
  }
  return %a, %b : memref<4x8xf32>, memref<4xf32>
}

// -----

/// A load of a buffer the kernel only reads (a per-tensor scale, hoisted out
/// by dloop-hoist-invariants) is invariant too: it moves into the innermost
/// body and the loops stay block axes.
// CHECK-LABEL: func.func @scale_before_loops
//       CHECK:   dtile.tile blocks(%[[I:.*]] : 4 "i", %[[J:.*]] : 8 "j") {
//  CHECK-NEXT:     %[[S:.*]] = dloop.load %{{.*}}[] : memref<f32>
//  CHECK-NEXT:     %[[V:.*]] = dloop.load %{{.*}}[%[[I]], %[[J]]] : memref<4x8xf32>
//  CHECK-NEXT:     arith.mulf %[[V]], %[[S]] : f32
func.func @scale_before_loops(%arg0: memref<4x8xf32>, %arg1: memref<f32>) -> memref<4x8xf32> {
  %alloc = memref.alloc() : memref<4x8xf32>
  dloop.kernel @scale_before_loops ins(%x = %arg0 : memref<4x8xf32>, %scale = %arg1 : memref<f32>) outs(%y = %alloc : memref<4x8xf32>) {
    %s = dloop.load %scale[] : memref<f32>
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %1 = dloop.load %x[%i, %j] : memref<4x8xf32>
        %2 = arith.mulf %1, %s : f32
        dloop.store %2, %y[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %alloc : memref<4x8xf32>
}

// -----

/// A load of a buffer the kernel writes is not: run per output element it
/// could see another element's store, so the chain stops above it.
// CHECK-LABEL: func.func @load_of_written_buffer
//       CHECK:   dtile.tile blocks(%{{.*}} : 1 "unit") {
//       CHECK:     dloop.for %{{.*}} = 0 to 4 free "i"
func.func @load_of_written_buffer(%arg0: memref<4xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  dloop.kernel @load_of_written_buffer ins(%x = %arg0 : memref<4xf32>) outs(%y = %alloc : memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %first = dloop.load %y[%c0] : memref<4xf32>
    dloop.for %i = 0 to 4 free "i" {
      %1 = dloop.load %x[%i] : memref<4xf32>
      %2 = arith.addf %1, %first : f32
      dloop.store %2, %y[%i] : memref<4xf32>
    }
  }
  return %alloc : memref<4xf32>
}
