// RUN: deplodock-opt %s --convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s --convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA

/// A private buffer (the row accumulators of an online softmax) becomes each
/// thread's local array, read and written in place.
// CHECK-LABEL: dkernel.func @rows_0
//       CHECK:   %[[ACC:.*]] = memref.alloca() : memref<4xf32>
//       CHECK:   scf.for %[[D:.*]] = {{.*}} {
//       CHECK:     memref.store %{{.*}}, %[[ACC]][%[[D]]] : memref<4xf32>
//       CHECK:   scf.for %[[E:.*]] = {{.*}} {
//       CHECK:     %[[V:.*]] = memref.load %[[ACC]][%[[E]]] : memref<4xf32>
//       CHECK:     memref.store %[[V]], %{{.*}}[%{{.*}}, %[[E]]]
// CUDA: float [[ACC:[a-z0-9_]+]][4];
func.func @rows(%arg0: memref<64x4xf32>, %arg1: memref<64x4xf32>) {
  dtile.kernel @rows ins(%x = %arg0 : memref<64x4xf32>) outs(%y = %arg1 : memref<64x4xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %acc = memref.alloca() : memref<4xf32>
      dloop.for %d = 0 to 4 free "d" {
        %v = dloop.load %x[%t, %d] : memref<64x4xf32>
        dloop.store %v, %acc[%d] : memref<4xf32>
      }
      dloop.for %e = 0 to 4 free "e" {
        %v = dloop.load %acc[%e] : memref<4xf32>
        dloop.store %v, %y[%t, %e] : memref<64x4xf32>
      }
    }
  }
  return
}
