// RUN: rm -rf %t && mkdir -p %t/sm_90
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=odd_silu_mul_matmul --pipeline=lower-to-tensor --check-variants=40 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --check-variants=40 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --check-variants=20 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=scaled_weight --pipeline=lower-to-tensor --check-variants=20 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --compare="lower-to-tile{target=sm_90a}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %S/Inputs/prologues.mlir --func=relu_matmul --pipeline=lower-to-tensor --compare="lower-to-tile{target=sm_90a knobs=relu_matmul_0_reduce:transpose_a=true}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %S/Inputs/prologues.mlir --lower-to-tile=target=sm_90a | FileCheck %s
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t/sm_90/*.cu %}

/// Every variant (a seeded sample) of each fused kernel is checked on the
/// SIMT interpreter against the dtensor reference, and the Tile IR of the
/// default (and a transposed A slab) directly.
// VARIANTS: variants of @{{.*}} checked, 0 failed
// VARIANTS-NOT: {{[1-9][0-9]*}} failed
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
