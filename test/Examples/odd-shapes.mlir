// RUN: rm -rf %t && mkdir -p %t/sm_80 %t/sm_90
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --func=odd_matmul --pipeline=lower-to-tensor --check-variants=12 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=MATMUL
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --func=odd_matmul --pipeline=lower-to-tensor --check-variants=12 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_80 --print=none | FileCheck %s --check-prefix=MATMUL
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --func=odd_rmsnorm --pipeline=lower-to-tensor --check-variants=64 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=RMSNORM
// RUN: deplodock-run --interp %S/Inputs/odd-shapes.mlir --func=odd_rmsnorm --pipeline=lower-to-tensor --check-variants=64 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_80 --print=none | FileCheck %s --check-prefix=RMSNORM
// RUN: deplodock-opt %S/Inputs/odd-shapes.mlir --deplodock-pipeline | deplodock-translate --emit-cuda -o %t/default.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t/default.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t/default90.cubin %t/default.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t/default80.cubin %t/default.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90 %t/sm_90/*.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t/sm_80/*.cu %}

/// Masked tiles at the shapes of issue 5 (Inputs/odd-shapes.mlir): a
/// 1x37x1000 . 1000x333 projection and an RMSNorm over 37 rows of 333, which
/// no power-of-two tile divides. A seeded sample of the matmul's variants
/// and every variant of the RMSNorm run on the SIMT interpreter at the
/// Kernel level against the tensor reference, and are compiled for their
/// target; so is the default lowering, whose last blocks guard their loads
/// (the staged slabs read zeros past the edge) and their stores.
// MATMUL: variants of @odd_matmul_0_reduce: 12 (seeded sample) checked, 0 failed
// RMSNORM: variants of @odd_rmsnorm_0_reduce: 7 (all) checked, 0 failed

// CUDA-LABEL: odd_matmul_0_reduce(
//       CUDA:   const bool [[ROW:v[0-9]+]] = (unsigned){{v[0-9]+}} < (unsigned)37;
//       CUDA:   const bool [[COL:v[0-9]+]] = (unsigned){{v[0-9]+}} < (unsigned)333;
//       CUDA:   for (int [[K:i[0-9]+]] = 0; [[K]] < 25; [[K]] += 1) {
//       CUDA:       if (v{{[0-9]+}}) {
//  CUDA-NEXT:         const float v{{[0-9]+}} = in0[
//       CUDA:       } else {
//  CUDA-NEXT:         v{{[0-9]+}} = 0.00000000e+00f;
//       CUDA:   const bool [[BOTH:v[0-9]+]] = [[ROW]] & [[COL]];
//  CUDA-NEXT:   if ([[BOTH]]) {
//  CUDA-NEXT:     out0[{{.*}}] = acc0;
// CUDA-LABEL: odd_rmsnorm_0_reduce(
//       CUDA:   if (v{{[0-9]+}}) {
