// RUN: rm -f %t.cu
// RUN: not deplodock-translate --emit-cuda %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not ls %t.cu
// RUN: not deplodock-translate --emit-cuda %s 2>/dev/null | count 0

/// When a kernel cannot be printed, nothing is written: not the kernels
/// before it, not the header, not even an empty output file.

// CHECK: error: 'math.atan' op cannot be emitted as CUDA
// CHECK-NOT: error:

dkernel.func @fine(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  %a = math.exp %v : f32
  memref.store %a, %y[%c0] : memref<4xf32>
  dkernel.return
}

dkernel.func @broken(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  %a = math.atan %v : f32
  memref.store %a, %y[%c0] : memref<4xf32>
  dkernel.return
}
