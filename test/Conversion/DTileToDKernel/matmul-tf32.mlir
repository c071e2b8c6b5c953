// RUN: deplodock-opt %S/../../Dialect/DTile/Inputs/half-matmuls.mlir --dtile-lower="precision=tf32 knobs=single_0_reduce:WM=16,WN=8,warps=1,mma_k=16,mma_pad=false,mma_swizzle=true,async_copy=true,double_buffer=false" --convert-dtile-to-dkernel > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: deplodock-translate --emit-cuda %t.mlir | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-translate --emit-cuda %t.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// The f32 matmul @single (16 x 32 x 8) with precision=tf32 at the Kernel
/// level: one warp, 16-deep chunks of both operands copied by cp.async into
/// slabs held in 64-byte swizzle segments (16 f32 per row; B's 8-wide rows,
/// 32 bytes, in 32-byte ones); each 8-deep step reads A's four and B's two
/// fragment elements per lane with scalar loads through the same XOR, then
/// one tf32 mma.sync.
// CHECK-LABEL: dkernel.func @single_0_reduce
//  CHECK-SAME:   grid [1, 1, 1] block [32, 1, 1]
//  CHECK-SAME:   tensor_cores = true
//       CHECK:   %[[A:.*]] = dkernel.alloc_shared offset 0 : memref<256xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[B:.*]] = dkernel.alloc_shared offset 1024 : memref<128xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[XA:.*]] = arith.xori
//  CHECK-NEXT:   dkernel.cp_async %{{.*}}, %[[A]][%[[XA]]], 16
//       CHECK:   %[[XB:.*]] = arith.xori
//  CHECK-NEXT:   dkernel.cp_async %{{.*}}, %[[B]][%[[XB]]], 16
//       CHECK:   %[[A0:.*]] = memref.load %[[A]][%{{.*}}]
//       CHECK:   %[[A1:.*]] = memref.load %[[A]][%{{.*}}]
//       CHECK:   %[[A2:.*]] = memref.load %[[A]][%{{.*}}]
//       CHECK:   %[[A3:.*]] = memref.load %[[A]][%{{.*}}]
//       CHECK:   %[[B0:.*]] = memref.load %[[B]][%{{.*}}]
//       CHECK:   %[[B1:.*]] = memref.load %[[B]][%{{.*}}]
//  CHECK-NEXT:   %[[D0:[a-z0-9_]+]], %[[D1:[a-z0-9_]+]], %[[D2:[a-z0-9_]+]], %[[D3:[a-z0-9_]+]] = dkernel.mma_sync [%[[A0]], %[[A1]], %[[A2]], %[[A3]]], [%[[B0]], %[[B1]]], [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : f32
//       CHECK:   dkernel.mma_sync [{{.*}}], [{{.*}}], [%[[D0]], %[[D1]], %[[D2]], %[[D3]]] : f32
//       CHECK:   memref.store {{.*}} : memref<16x8xf32>

/// The emitter rounds each f32 operand to tf32 with cvt.rna (a register of
/// its own) and issues the m16n8k8 tf32 mma.sync on them.
// CUDA-LABEL: single_0_reduce(
//       CUDA:   unsigned [[T:tf[0-9]+]][6];
//       CUDA:   asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[T]][0]) : "f"(v{{[0-9]+}}));
//       CUDA:   asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[T]][5]) : "f"(v{{[0-9]+}}));
//  CUDA-NEXT:   asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n" : "=f"(acc{{[0-9]+}}), "=f"(acc{{[0-9]+}}), "=f"(acc{{[0-9]+}}), "=f"(acc{{[0-9]+}}) : "r"([[T]][0]), "r"([[T]][1]), "r"([[T]][2]), "r"([[T]][3]), "r"([[T]][4]), "r"([[T]][5]), "f"(acc{{[0-9]+}}), "f"(acc{{[0-9]+}}), "f"(acc{{[0-9]+}}), "f"(acc{{[0-9]+}}));
