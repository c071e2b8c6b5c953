// RUN: deplodock-translate --emit-cuda --cuda-index-bitwidth=64 %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda --cuda-index-bitwidth=64 %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t.cu %}

/// With --cuda-index-bitwidth=64, index is long long: ids, loop variables,
/// linear indices and index constants beyond 32 bits; unsigned index ops go
/// through unsigned long long. (With 32-bit indices this kernel is rejected:
/// see invalid.mlir.)

/// A buffer of 2^32 + 8 elements: its linear index does not fit in 32 bits.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CHECK-NEXT: big_buffer(const signed char* __restrict__ in0, signed char* __restrict__ out0) {
//  CHECK-NEXT:   const long long v0 = (long long)blockIdx.x;
//  CHECK-NEXT:   const long long v1 = (long long)threadIdx.x;
//  CHECK-NEXT:   const long long v2 = v0 * 256;
//  CHECK-NEXT:   const long long v3 = v2 + v1;
//  CHECK-NEXT:   for (long long i0 = v3; i0 < 4294967304; i0 += 262144) {
//  CHECK-NEXT:     const signed char v4 = in0[i0];
//  CHECK-NEXT:     const long long v5 = (unsigned long long)i0 / (unsigned long long)8;
//  CHECK-NEXT:     const long long v6 = i0 % 8;
//  CHECK-NEXT:     const long long v7 = v5 + v6;
//  CHECK-NEXT:     const signed char v8 = (signed char)(unsigned long long)v7;
//  CHECK-NEXT:     const signed char v9 = v4 + v8;
//  CHECK-NEXT:     out0[i0] = v9;
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
dkernel.func @big_buffer(%x: memref<4294967304xi8>, %y: memref<4294967304xi8>) outputs [1] grid [1024, 1, 1] block [256, 1, 1] smem 0 {
  %c256 = arith.constant 256 : index
  %stride = arith.constant 262144 : index
  %n = arith.constant 4294967304 : index
  %c8 = arith.constant 8 : index
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %base = arith.muli %b, %c256 : index
  %i0 = arith.addi %base, %t : index
  scf.for %i = %i0 to %n step %stride {
    %v = memref.load %x[%i] : memref<4294967304xi8>
    %q = arith.divui %i, %c8 : index
    %r = arith.remsi %i, %c8 : index
    %s = arith.addi %q, %r : index
    %w = arith.index_castui %s : index to i8
    %o = arith.addi %v, %w : i8
    memref.store %o, %y[%i] : memref<4294967304xi8>
  }
  dkernel.return
}
