// A buffer whose element count does not fit in 64 bits cannot be indexed
// linearly: an error, not an overflowing stride (found by the sanitized fuzz
// run, UBSan: signed integer overflow in CudaEmitter::element).
// RUN: not deplodock-translate --emit-cuda %s 2>&1 | FileCheck %s
// CHECK: huge-buffer.mlir:[[# @LINE + 2]]:3: error: 'dkernel.func' op parameter #0 has type 'memref<1x8x9223372036854775807xf32>', which has more elements than a 64-bit index can count
module {
  dkernel.func @copy(%arg0: memref<1x8x9223372036854775807xf32>, %arg1: memref<4xf32>) outputs [1] grid [1, 1, 1] block [4, 1, 1] smem 0 {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    %t = gpu.thread_id x
    %v = memref.load %arg0[%c0, %c7, %t] : memref<1x8x9223372036854775807xf32>
    memref.store %v, %arg1[%t] : memref<4xf32>
    dkernel.return
  }
}
