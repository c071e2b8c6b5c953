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
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=scaled_linear --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90a}" --compare="lower-to-kernel{target=sm_90a knobs=scaled_linear_0_reduce:wgmma=true,warpgroups=2,wgmma_n=64,double_buffer=false}" --compare="lower-to-kernel{target=sm_90a knobs=scaled_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=128,pipeline=true,stages=3,wgmma_wait=1}" --compare="lower-to-kernel{target=sm_90a knobs=scaled_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=64,warp_specialize=true,setmaxnreg=240}" --compare="lower-to-kernel{target=sm_90a knobs=scaled_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=32,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=scaled_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=32,warp_specialize=true,cluster_m=2}" | FileCheck %s --check-prefix=WGMMA
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=mixed_linear --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90a}" --compare="lower-to-kernel{target=sm_90a knobs=mixed_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=32,pipeline=false}" | FileCheck %s --check-prefix=WGMMA
// RUN: deplodock-run --interp %S/Inputs/f8-layers.mlir --func=long_linear --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90a}" --compare="lower-to-kernel{target=sm_90a knobs=long_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=64,wgmma_split_k=2}" --compare="lower-to-kernel{target=sm_90a knobs=long_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=32,wgmma_split_k=4,pipeline=false}" --compare="lower-to-kernel{target=sm_90a knobs=long_linear_0_reduce:wgmma=true,warpgroups=1,wgmma_n=64,vector_stores=true}" | FileCheck %s --check-prefix=WGMMA
// RUN: deplodock-opt %S/Inputs/f8-layers.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-opt %S/Inputs/f8-layers.mlir --lower-to-kernel=target=sm_90a | deplodock-translate --emit-cuda -o %t.sm90a.cu
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90a.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.sm90a.cu %}
// RUN: not deplodock-opt %S/Inputs/f8-layers.mlir --lower-to-tile="target=sm_90a knobs=scaled_0_reduce:wgmma=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ASKED

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
/// outside the output loops; wgmma refuses its MN-major weight (K x N) with
/// the reason, as it reads 8-bit operands K-major only.
// FORKS: @scaled_0_reduce: wgmma_async: does not apply: 8-bit operands must both be K-major ([..., M, K] and [..., N, K], as nn.Linear holds a weight): wgmma reads them no other way
// FORKS: @scaled_0_reduce: chunk_matmul_k: BK in
// FORKS: @scaled_0_reduce: blockify_launch: (BM, BN) in
/// Asked for wgmma, the layer with the MN-major FP8 weight is an error that
/// says why, at the layer.
// ASKED: f8-layers.mlir:10:8: error: 'dtile.kernel' op knob wgmma=true: wgmma_async cannot take @scaled_0_reduce: 8-bit operands must both be K-major
/// The linear layers, their weights held N x K, run on wgmma by default
/// (or any block tile, or SIMT); the long one's few tiles split K.
// FORKS: @scaled_linear_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (1, true, 128), (2, true, 32), (2, true, 64), (2, true, 128), false}
// FORKS: @mixed_linear_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {
// FORKS: @long_linear_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n, wgmma_split_k) in {(1, true, 32, 4)*,

/// FP8 on Hopper's tensor cores (sm_90a): each block's TMA copies 128-byte
/// rows of K (128 8-bit floats) in the 128-byte swizzle, and per chunk four
/// m64nNk32 wgmmas sum the products in f32; the scales and the rounding to
/// bf16 run on the accumulators. On the SIMT interpreter each matches the
/// tensor program within f32's tolerance: the defaults, two warpgroups
/// without double buffering, a 3-stage pipeline waiting one group behind,
/// warp specialisation, clusters of 2 (lock-step and warp-specialised) and
/// K split 2 and 4 ways (the sums of the splits added in a second kernel),
/// the scaled bf16 results stored in pairs, e4m3 by e4m3 and e5m2 by e4m3.
// WGMMA-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a{{.*}}: PASS
// KERNEL-LABEL: dkernel.func @scaled_linear_0_reduce(
// KERNEL-SAME: !dkernel.tma_descriptor<64x128xf8E4M3FN, swizzle = 128>
// KERNEL: dkernel.wgmma_mma_async {{.*}} n 32 : f8E4M3FN{{$}}
// KERNEL-LABEL: dkernel.func @mixed_linear_0_reduce(
// KERNEL: dkernel.wgmma_mma_async {{.*}} : f8E5M2, f8E4M3FN{{$}}
// KERNEL-LABEL: dkernel.func @long_linear_0_reduce(
// KERNEL-SAME: memref<4x64x64xf32>
// KERNEL-LABEL: dkernel.func @long_linear_0_reduce_split_sum(
// PTX: wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 {%0, {{.*}}, %15}, %16, %17, p, 1, 1;
// PTX: wgmma.mma_async.sync.aligned.m64n32k32.f32.e5m2.e4m3 {%0, {{.*}}, %15}, %16, %17, p, 1, 1;

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
