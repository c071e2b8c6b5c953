// RUN: deplodock-opt %S/../../Dialect/DTile/Inputs/half-matmuls.mlir --dtile-lower="knobs=mm_0_reduce:WM=32,WN=16,warps=2,mma_k=32,mma_pad=false,mma_swizzle=false" --convert-dtile-to-dkernel > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: deplodock-translate --emit-cuda %t.mlir | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-translate --emit-cuda %t.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// The mma_sync kernels of test/Dialect/DTile/mma-sync.mlir at the Kernel
/// level. @mm: two warps of 32 x 16 (64 threads, a 64 x 16 block tile), its
/// double-buffered cp.async slabs in two 2 x box slices; each ldmatrix reads
/// the slot its chunk's rotation is at, like the slab's scalar reads would.
// CHECK-LABEL: dkernel.func @mm_0_reduce
//  CHECK-SAME:   grid [4, 1, 1] block [64, 1, 1] smem 10240
//       CHECK:   %[[A:.*]] = dkernel.alloc_shared offset 0 : memref<2x64x32xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[B:.*]] = dkernel.alloc_shared offset 8192 : memref<2x32x16xf16, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async %{{.*}}, %[[A]][
//       CHECK:   scf.for {{.*}} iter_args({{.*}}, %[[SA:[a-z0-9]+]] = %{{.*}}, %[[SB:[a-z0-9]+]] = %{{.*}}) -> (f32,
//       CHECK:     dkernel.ldmatrix %[[A]][%[[SA]], %{{.*}}, %{{.*}}] : memref<2x64x32xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16, f16, f16
//       CHECK:     dkernel.ldmatrix trans %[[B]][%[[SB]], %{{.*}}, %{{.*}}] : memref<2x32x16xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16
//       CHECK:     dkernel.mma_sync
//       CHECK:   arith.truncf {{.*}} : f32 to f16
//       CHECK:   memref.store {{.*}} : memref<64x64xf16>

/// @ragged: swizzled bf16 slabs, held flat, two slots of 32 x 16 (32-byte
/// segments) and 8 x 32 (64-byte ones): the element copies of A, the
/// zero-filling cp.async of B and both ldmatrix reads address them through
/// the same XOR of the 16-byte chunk with the row; A read transposed, B
/// not; guarded epilogues.
// CHECK-LABEL: dkernel.func @ragged_0_reduce
//       CHECK:   %[[RA:.*]] = dkernel.alloc_shared offset 0 : memref<1024xbf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[RB:.*]] = dkernel.alloc_shared offset 2048 : memref<512xbf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[XA:.*]] = arith.xori
//       CHECK:   memref.store %{{.*}}, %[[RA]][%[[XA]]] : memref<1024xbf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[XB:.*]] = arith.xori
//       CHECK:   dkernel.cp_async %{{.*}}, %[[RB]][%[[XB]]], 16 if %{{.*}} else zeros
//       CHECK:   dkernel.ldmatrix trans %[[RA]][%{{[0-9]+}}] : memref<1024xbf16, {{.*}}> -> bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16
//       CHECK:   dkernel.ldmatrix %[[RB]][%{{[0-9]+}}] : memref<512xbf16, {{.*}}> -> bf16, bf16, bf16, bf16
//       CHECK:   dkernel.mma_sync {{.*}} : bf16
//       CHECK:   scf.if
//       CHECK:     memref.load {{.*}} : memref<37x20xf32>

// CUDA-LABEL: mm_0_reduce(
//       CUDA:   ldmatrix.sync.aligned.m8n8.x4.shared.b16
//       CUDA:   ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
//       CUDA:   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CUDA-LABEL: ragged_0_reduce(
//       CUDA:   ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
//       CUDA:   ldmatrix.sync.aligned.m8n8.x2.shared.b16
//       CUDA:   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
