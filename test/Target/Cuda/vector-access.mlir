// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t.cu %}

/// f32 runs move as float4 / float2; other elements as the raw bits of a
/// uint4 / uint2 through an aligned array nvcc keeps in registers.

// CHECK-LABEL: vec(const float
//       CHECK:   const float4 vl0 = *reinterpret_cast<const float4 *>(&
//  CHECK-NEXT:   const float [[A:v[0-9]+]] = vl0.x;
//  CHECK-NEXT:   const float {{v[0-9]+}} = vl0.y;
//  CHECK-NEXT:   const float {{v[0-9]+}} = vl0.z;
//  CHECK-NEXT:   const float [[D:v[0-9]+]] = vl0.w;
//       CHECK:   *reinterpret_cast<float4 *>(&{{.*}}) = make_float4([[A]], {{v[0-9]+}}, {{v[0-9]+}}, [[D]]);
//       CHECK:   const float2 vl1 = *reinterpret_cast<const float2 *>(&
//       CHECK:   alignas(16) __half vl2[8];
//  CHECK-NEXT:   *reinterpret_cast<uint4 *>(vl2) = *reinterpret_cast<const uint4 *>(&
//  CHECK-NEXT:   const __half [[H:v[0-9]+]] = vl2[0];
//       CHECK:   alignas(16) const __half vs0[8] = {[[H]],
//  CHECK-NEXT:   *reinterpret_cast<uint4 *>(&{{.*}}) = *reinterpret_cast<const uint4 *>(vs0);
dkernel.func @vec(%x: memref<64xf32>, %h: memref<128xf16>, %y: memref<64xf32>, %g: memref<128xf16>) outputs [2, 3] grid [1, 1, 1] block [16, 1, 1] smem 256 {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = gpu.thread_id x
  %i = arith.muli %t, %c4 : index
  %j = arith.muli %t, %c8 : index
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  %a:4 = dkernel.vector_load %x[%i] : memref<64xf32> -> f32, f32, f32, f32
  dkernel.vector_store(%a#0, %a#1, %a#2, %a#3), %y[%i] : (f32, f32, f32, f32), memref<64xf32>
  %b:2 = dkernel.vector_load %s[%i] : memref<64xf32, #gpu.address_space<workgroup>> -> f32, f32
  %c:8 = dkernel.vector_load %h[%j] : memref<128xf16> -> f16, f16, f16, f16, f16, f16, f16, f16
  dkernel.vector_store(%c#0, %c#1, %c#2, %c#3, %c#4, %c#5, %c#6, %c#7), %g[%j] : (f16, f16, f16, f16, f16, f16, f16, f16), memref<128xf16>
  dkernel.return
}
