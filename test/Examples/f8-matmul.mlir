// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=scaled --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_90}" --print=none | FileCheck %s --check-prefix=SCALED
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=mixed --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_90}" --print=none | FileCheck %s --check-prefix=MIXED
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=pointwise --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_90}" --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=POINTWISE
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=scaled --pipeline=lower-to-tensor --check-variants=120 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=mixed --pipeline=lower-to-tensor --check-variants=120 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-opt %S/Inputs/f8-layers.mlir --lower-to-tile="target=sm_90a list-forks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/f8-layers.mlir --lower-to-kernel=target=sm_90 | deplodock-translate --emit-cuda -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}

/// FP8 layers (f8E4M3FN and f8E5M2 operands) on the SIMT path: the 8-bit
/// values are loaded and copied as bytes, widened to f32 where they are used
/// and summed in f32; the per-tensor scales apply to the f32 sums and the
/// result rounds once, to bf16. At the Kernel level each matches the tensor
/// program within f32's tolerance (the sums run in another order), every
/// sampled variant too, and 8-bit arithmetic rounds after each op as the
/// tensor program does, exactly.
// SCALED: compare result #0 after 'lower-to-kernel{target=sm_90}': {{.*}}: PASS
// MIXED: compare result #0 after 'lower-to-kernel{target=sm_90}': {{.*}}: PASS
// POINTWISE: compare result #0 after 'lower-to-kernel{target=sm_90}': max abs error 0, max rel error 0: PASS
// VARIANTS: checked, 0 failed

/// The scaled matmul is tiled as a matmul although its scales are loaded
/// outside the output loops; tensor cores refuse 8-bit operands with a reason.
// FORKS: @scaled_0_reduce: wgmma_async: does not apply: the operands are not both f16 or both bf16
// FORKS: @scaled_0_reduce: chunk_matmul_k: BK in
// FORKS: @scaled_0_reduce: blockify_launch: (BM, BN) in

/// In CUDA the values are cuda_fp8.h's types, read through float; a result
/// rounds through a helper that keeps arith.truncf's overflow (NaN for e4m3fn,
/// infinity for e5m2) rather than the constructors' saturation.
// CUDA: #include <cuda_fp8.h>
// CUDA: __device__ __forceinline__ __nv_fp8_e4m3 dk_to_f8e4m3(double x) {
// CUDA:   r.__x = __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E4M3);
// CUDA: scaled_0_reduce(const __nv_fp8_e4m3* __restrict__ in0, const __nv_fp8_e4m3* __restrict__ in1, const float* __restrict__ in2, const float* __restrict__ in3, __nv_bfloat16* __restrict__ out0)
// CUDA: mixed_0_reduce(const __nv_fp8_e5m2* __restrict__ in0, const __nv_fp8_e4m3* __restrict__ in1, float* __restrict__ out0)
// CUDA: pointwise_0_pointwise(
// CUDA: = (float)(float)
// CUDA: = dk_to_f8e4m3((double)
