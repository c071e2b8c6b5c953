// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// Three block axes fill blockIdx z, y, x, the last axis on x.
// CHECK-LABEL: dkernel.func @three_axes
//  CHECK-SAME:   grid [4, 3, 2] block [32, 1, 1]
//       CHECK:   %[[A:.*]] = gpu.block_id z
//       CHECK:   %[[B:.*]] = gpu.block_id y
//       CHECK:   %[[C:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   memref.load %{{.*}}[%[[A]], %[[B]], %[[C]], %[[T]]]
func.func @run_three_axes(%arg0: memref<2x3x4x32xf32>, %arg1: memref<2x3x4x32xf32>) {
  dtile.kernel @three_axes ins(%x = %arg0 : memref<2x3x4x32xf32>) outs(%y = %arg1 : memref<2x3x4x32xf32>) {
    dtile.tile blocks(%a : 2 "a", %b : 3 "b", %c : 4 "c") threads(%t : 32 "t") {
      %v = dloop.load %x[%a, %b, %c, %t] : memref<2x3x4x32xf32>
      dloop.store %v, %y[%a, %b, %c, %t] : memref<2x3x4x32xf32>
    }
  }
  return
}

/// Four block axes do not fit x/y/z: the 2*3*4*5 = 120 blocks go on x and
/// the coordinates come back with div/rem, the last axis fastest.
// CHECK-LABEL: dkernel.func @four_axes
//  CHECK-SAME:   grid [120, 1, 1] block [32, 1, 1]
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C20:.*]] = arith.constant 20 : index
//   CHECK-DAG:   %[[C60:.*]] = arith.constant 60 : index
//       CHECK:   %[[BID:.*]] = gpu.block_id x
//       CHECK:   %[[D:.*]] = arith.remui %[[BID]], %[[C5]] : index
//       CHECK:   %[[Q5:.*]] = arith.divui %[[BID]], %[[C5]] : index
//       CHECK:   %[[C:.*]] = arith.remui %[[Q5]], %[[C4]] : index
//       CHECK:   %[[Q20:.*]] = arith.divui %[[BID]], %[[C20]] : index
//       CHECK:   %[[B:.*]] = arith.remui %[[Q20]], %[[C3]] : index
//       CHECK:   %[[A:.*]] = arith.divui %[[BID]], %[[C60]] : index
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   memref.load %{{.*}}[%[[A]], %[[B]], %[[C]], %[[D]], %[[T]]]
func.func @run_four_axes(%arg0: memref<2x3x4x5x32xf32>, %arg1: memref<2x3x4x5x32xf32>) {
  dtile.kernel @four_axes ins(%x = %arg0 : memref<2x3x4x5x32xf32>) outs(%y = %arg1 : memref<2x3x4x5x32xf32>) {
    dtile.tile blocks(%a : 2 "a", %b : 3 "b", %c : 4 "c", %d : 5 "d") threads(%t : 32 "t") {
      %v = dloop.load %x[%a, %b, %c, %d, %t] : memref<2x3x4x5x32xf32>
      dloop.store %v, %y[%a, %b, %c, %d, %t] : memref<2x3x4x5x32xf32>
    }
  }
  return
}

/// 70000 rows would exceed the 65535 of blockIdx.y: the two axes are
/// linearised into x instead.
// CHECK-LABEL: dkernel.func @tall_grid
//  CHECK-SAME:   grid [140000, 1, 1] block [64, 1, 1]
//       CHECK:   %[[BID:.*]] = gpu.block_id x
//       CHECK:   %[[H:.*]] = arith.remui %[[BID]], %{{.*}} : index
//       CHECK:   %[[R:.*]] = arith.divui %[[BID]], %{{.*}} : index
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   memref.load %{{.*}}[%[[R]], %{{.*}}]
func.func @run_tall_grid(%arg0: memref<70000x128xf32>, %arg1: memref<70000x128xf32>) {
  dtile.kernel @tall_grid ins(%x = %arg0 : memref<70000x128xf32>) outs(%y = %arg1 : memref<70000x128xf32>) {
    dtile.tile blocks(%r : 70000 "r", %h : 2 "h") threads(%t : 64 "t") {
      %v = dloop.load %x[%r, %h * 64 + %t] : memref<70000x128xf32>
      dloop.store %v, %y[%r, %h * 64 + %t] : memref<70000x128xf32>
    }
  }
  return
}

/// Unit axes cost nothing: their coordinate is the constant 0. A tile with
/// blocks only runs one thread per block (no thread id at all); a kernel
/// without a tile runs its body once, on one thread of one block.
// CHECK-LABEL: dkernel.func @unit_axes
//  CHECK-SAME:   grid [8, 1, 1] block [32, 1, 1]
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//       CHECK:   %[[B:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   memref.load %{{.*}}[%[[C0]], %[[B]], %[[C0]], %[[T]]] : memref<1x8x1x32xf32>
// CHECK-LABEL: dkernel.func @row_copy
//  CHECK-SAME:   grid [8, 1, 1] block [1, 1, 1] smem 0
//   CHECK-NOT:   gpu.thread_id
//       CHECK:   %[[R:.*]] = gpu.block_id x
//       CHECK:   scf.for %[[C:[^ ]+]] =
//       CHECK:     memref.load %{{.*}}[%[[R]], %[[C]]] : memref<8x16xf32>
// CHECK-LABEL: dkernel.func @no_tile
//  CHECK-SAME:   grid [1, 1, 1] block [1, 1, 1] smem 0
//   CHECK-NOT:   gpu.
//       CHECK:   scf.for
//       CHECK:   dkernel.return
// CHECK-LABEL: func.func @run_one_sided
//  CHECK-NEXT:   dkernel.launch @unit_axes
//  CHECK-NEXT:   dkernel.launch @row_copy
//  CHECK-NEXT:   dkernel.launch @no_tile

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(1)
//  CUDA-NEXT: row_copy(
// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(1)
//  CUDA-NEXT: no_tile(
func.func @run_one_sided(%arg0: memref<1x8x1x32xf32>, %arg1: memref<1x8x1x32xf32>, %arg2: memref<8x16xf32>, %arg3: memref<8x16xf32>, %arg4: memref<16xf32>) {
  dtile.kernel @unit_axes ins(%x = %arg0 : memref<1x8x1x32xf32>) outs(%y = %arg1 : memref<1x8x1x32xf32>) {
    dtile.tile blocks(%a : 1 "a", %b : 8 "b") threads(%u : 1 "u", %t : 32 "t") {
      %v = dloop.load %x[%a, %b, %u, %t] : memref<1x8x1x32xf32>
      dloop.store %v, %y[%a, %b, %u, %t] : memref<1x8x1x32xf32>
    }
  }
  dtile.kernel @row_copy ins(%x = %arg2 : memref<8x16xf32>) outs(%y = %arg3 : memref<8x16xf32>) {
    dtile.tile blocks(%r : 8 "r") {
      dloop.for %c = 0 to 16 free "c" {
        %v = dloop.load %x[%r, %c] : memref<8x16xf32>
        dloop.store %v, %y[%r, %c] : memref<8x16xf32>
      }
    }
  }
  dtile.kernel @no_tile ins(%x = %arg3 : memref<8x16xf32>) outs(%y = %arg4 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %c = 0 to 16 free "c" {
      %s = dloop.for %r = 0 to 8 reduce "r" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%r, %c] : memref<8x16xf32>
        %a = arith.addf %acc, %v : f32
        dloop.yield %a : f32
      }
      dloop.store %s, %y[%c] : memref<16xf32>
    }
  }
  return
}
