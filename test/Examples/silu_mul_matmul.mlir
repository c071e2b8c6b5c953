// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled silu_mul_matmul > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --check-variants=200 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --check-variants=200 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --check-variants=100 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=5 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --deplodock-pipeline=target=sm_80 | deplodock-translate --emit-cuda -o %t.sm_80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm_80.cubin %t.sm_80.cu %}
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --deplodock-pipeline=target=sm_90 | deplodock-translate --emit-cuda -o %t.sm_90.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm_90.cubin %t.sm_90.cu %}

/// Every fork of every kernel is proven on the SIMT interpreter at the
/// Kernel level against the dtensor reference: all variants where the
/// tree has at most 200, else a seeded sample; the scaled shapes
/// with a sample of 100 on sm_90. The default lowering compiles for sm_80
/// and sm_90.
// VARIANTS: variants of @{{.*}} checked, 0 failed
// VARIANTS-NOT: {{[1-9][0-9]*}} failed

/// The dtensor reference, the unfused kernels and the fused kernels agree on
/// small shapes and on the real shapes scaled down.
// NUM-NOT: FAIL
// NUM: : PASS

/// silu(g)*u stays a kernel of its own: fused into the matmul it would be
/// recomputed for each of the 2048 output columns.
// KERNELS-COUNT-2: dloop.kernel
// KERNELS-NOT: dloop.kernel
//     CHECK: dloop.kernel @silu_mul_matmul_0_pointwise
//     CHECK:   math.exp
//     CHECK: dloop.kernel @silu_mul_matmul_1_reduce
//     CHECK:   dloop.for {{.*}} = 0 to 5632 reduce
