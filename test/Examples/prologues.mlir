// RUN: rm -rf %t && mkdir -p %t/sm_90
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=odd_silu_mul_matmul --pipeline=lower-to-tensor --check-variants=40 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --check-variants=40 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --check-variants=20 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=scaled_weight --pipeline=lower-to-tensor --check-variants=20 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=bf16_silu_mul_matmul --pipeline=lower-to-tensor --half-prologues --check-variants=60 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=HALFVARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=bf16_silu_mul_matmul --pipeline=lower-to-tensor --half-prologues --check-variants=40 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=HALFVARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --check-variants=40 --target=sm_80 --precision=tf32 --rtol=1e-3 --atol=0.128 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-opt %S/Inputs/prologues.mlir --deplodock-pipeline="target=sm_90a half-prologues=true" | FileCheck %s --check-prefix=WGMMA
// RUN: deplodock-opt %S/Inputs/prologues.mlir --lower-to-tile=target=sm_90a | FileCheck %s --check-prefix=HALF-OFF
// RUN: deplodock-opt %S/Inputs/prologues.mlir --lower-to-tile="target=sm_80 precision=tf32" | FileCheck %s --check-prefix=TF32
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --compare="lower-to-tile{target=sm_90a}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --compare="lower-to-tile{target=sm_90a knobs=relu_matmul_0_reduce:transpose_a=true}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %S/Inputs/prologues.mlir --lower-to-tile=target=sm_90a | FileCheck %s
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t/sm_90/*.cu %}

/// Every variant (a seeded sample) of each fused kernel is checked on the
/// SIMT interpreter against the dtensor reference, and the Tile IR of the
/// default (and a transposed A slab) directly. With tf32 the inputs in
/// [-1, 1) bound an output's error by 1e-3 of its K = 128 products' sum of
/// magnitudes (tf32-matmul.mlir's reasoning): rtol 1e-3, atol 0.128.
// VARIANTS: variants of @{{.*}} checked, 0 failed
// VARIANTS-NOT: {{[1-9][0-9]*}} failed
// HALFVARIANTS: variants of @bf16_silu_mul_matmul_0_reduce: {{.*}} checked, 0 failed
// HALFVARIANTS-NOT: {{[1-9][0-9]*}} failed
// NUM: : PASS

/// Masked tiles guard each read, so the prologue is not one value of loads:
/// gate and up are staged as they are (cp.async) and it runs at the read.
// CHECK-LABEL: dtile.kernel @odd_silu_mul_matmul_0_reduce
//   CHECK-NOT:   apply(
//       CHECK:   dtile.stage %in1[{{.*}}] box [8, 32] zero_fill {{.*}}transport cp_async
//       CHECK:   dtile.stage %in2[{{.*}}] box [8, 32] zero_fill {{.*}}transport cp_async
//       CHECK:   math.exp
//       CHECK: return

/// One input and a constant (cloned into the region): relu(x).
// CHECK-LABEL: dtile.kernel @relu_matmul_0_reduce
//       CHECK:   dtile.stage %in0[{{.*}}] box [8, 32] {{.*}}-> memref<8x32xf32, #gpu.address_space<workgroup>> apply() {
//  CHECK-NEXT:   ^bb0(%[[X:.*]]: f32):
//  CHECK-NEXT:     %[[Z:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:     %[[R:.*]] = arith.maximumf %[[X]], %[[Z]] : f32
//  CHECK-NEXT:     dtile.yield %[[R]] : f32
//       CHECK: return

/// The scale is read at another index than the weight (its column only),
/// so w * s is no value of loads at one index: both operands stage as they
/// are and the product runs at the read.
// CHECK-LABEL: dtile.kernel @scaled_weight_0_reduce
//   CHECK-NOT:   apply(
//       CHECK: return

/// Half-precision prologues fuse only on request (half-prologues): by
/// default the BF16 activation stays a kernel of its own.
// HALF-OFF: dtile.kernel @bf16_silu_mul_matmul_0_pointwise
// HALF-OFF: dtile.kernel @bf16_silu_mul_matmul_1_reduce

/// BF16 on sm_90a with half-prologues: wgmma, B by TMA, the activation's slab computed by the
/// threads (runs of 8: a 16-byte load of gate and of up, 16 bytes stored)
/// into the 128-byte swizzle the descriptors read, aligned to the
/// swizzle's 1024-byte repeat (its address bits pick the pattern: 9216 =
/// 9 x 1024, past the mbarriers at 8192) and
/// fenced for the async proxy before the barrier that publishes it.
// WGMMA-LABEL: dkernel.func @bf16_silu_mul_matmul_0_reduce
//       WGMMA:   %[[A:smem_[0-9]+]] = dkernel.alloc_shared offset 9216 : memref<8192xbf16
//       WGMMA:   dkernel.tma_load
//       WGMMA:   dkernel.vector_load %arg1[{{.*}}] : memref<64x256xbf16> -> bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16
//       WGMMA:   dkernel.vector_load %arg2[{{.*}}] : memref<64x256xbf16> -> bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16
//       WGMMA:   math.exp
//       WGMMA:   arith.truncf {{.*}} : f32 to bf16
//       WGMMA:   dkernel.vector_store({{.*}}), %[[A]][{{.*}}] : (bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16)
//       WGMMA:   dkernel.fence_proxy_async
//  WGMMA-NEXT:   gpu.barrier
//       WGMMA:   dkernel.wgmma_desc %[[A]]
//       WGMMA:   dkernel.wgmma_mma_async

/// tf32 on sm_80: mma_sync reads the computed relu(x) slab.
// TF32-LABEL: dtile.kernel @relu_matmul_0_reduce {{.*}}tensor_cores = true
//       TF32:   dtile.stage %in0[{{.*}}] box [16, 32] {{.*}}swizzle 128 : memref<64x128xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>> apply() {
//       TF32:     arith.maximumf
