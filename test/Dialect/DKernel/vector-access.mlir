// RUN: deplodock-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s -split-input-file -verify-diagnostics | deplodock-opt -split-input-file -verify-diagnostics | FileCheck %s

/// dkernel.vector_load / vector_store: one thread's aligned run of 8 or 16
/// bytes, or of two 16-bit elements, the results (or values) one per
/// element.

// CHECK-LABEL: dkernel.func @runs
//       CHECK:   %{{.*}}:4 = dkernel.vector_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x64xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
//       CHECK:   dkernel.vector_store(%{{.*}}#0, %{{.*}}#1, %{{.*}}#2, %{{.*}}#3), %{{.*}}[%{{.*}}, %{{.*}}] : (f32, f32, f32, f32), memref<4x64xf32>
//       CHECK:   %{{.*}}:4 = dkernel.vector_load %{{.*}}[%{{.*}}] : memref<64xf16> -> f16, f16, f16, f16
//       CHECK:   dkernel.vector_store(%{{.*}}#0, %{{.*}}#1), %{{.*}}[%{{.*}}] : (f16, f16), memref<64xf16>
dkernel.func @runs(%x: memref<64xf16>, %y: memref<4x64xf32>) outputs [1] grid [1, 1, 1] block [16, 1, 1] smem 1024 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %col = arith.muli %t, %c4 : index
  %s = dkernel.alloc_shared offset 0 : memref<4x64xf32, #gpu.address_space<workgroup>>
  %v:4 = dkernel.vector_load %s[%c0, %col] : memref<4x64xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
  dkernel.vector_store(%v#0, %v#1, %v#2, %v#3), %y[%c0, %col] : (f32, f32, f32, f32), memref<4x64xf32>
  %h:4 = dkernel.vector_load %x[%col] : memref<64xf16> -> f16, f16, f16, f16
  dkernel.vector_store(%h#0, %h#1), %x[%col] : (f16, f16), memref<64xf16>
  dkernel.return
}

// -----

dkernel.func @bytes(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{moves 12 bytes (3 x 'f32'); it must move 8 or 16}}
  %v:3 = dkernel.vector_load %y[%c0] : memref<64xf32> -> f32, f32, f32
  dkernel.return
}

// -----

dkernel.func @one_word(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{moves 4 bytes (1 x 'f32'); it must move 8 or 16, or 4 in two elements}}
  %v = dkernel.vector_load %y[%c0] : memref<64xf32> -> f32
  dkernel.return
}

// -----

dkernel.func @types(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %h = arith.constant 1.0 : f16
  // expected-error @+1 {{every element must be the buffer's 'f32'}}
  dkernel.vector_store(%h, %h), %y[%c0] : (f16, f16), memref<64xf32>
  dkernel.return
}

// -----

dkernel.func @row(%y: memref<16x6xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{runs of 4 elements do not tile the innermost dimension of 'memref<16x6xf32>'}}
  %v:4 = dkernel.vector_load %y[%c0, %c0] : memref<16x6xf32> -> f32, f32, f32, f32
  dkernel.return
}

// -----

dkernel.func @misaligned(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{innermost index 2 is not the start of an aligned run of 4 inside the row}}
  dkernel.vector_store(%f, %f, %f, %f), %y[%c2] : (f32, f32, f32, f32), memref<64xf32>
  dkernel.return
}

// -----

dkernel.func @indices(%y: memref<4x64xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected 2 indices, one per dimension, got 1}}
  %v:2 = dkernel.vector_load %y[%c0] : memref<4x64xf32> -> f32, f32
  dkernel.return
}
