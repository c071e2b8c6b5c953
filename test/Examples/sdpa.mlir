// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled sdpa > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --check-variants=1000 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --check-variants=1000 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --check-variants=200 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=5 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --deplodock-pipeline=target=sm_80 | deplodock-translate --emit-cuda -o %t.sm_80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm_80.cubin %t.sm_80.cu %}
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --deplodock-pipeline=target=sm_90 | deplodock-translate --emit-cuda -o %t.sm_90.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm_90.cubin %t.sm_90.cu %}

/// Every fork of every kernel is proven on the SIMT interpreter at the
/// Kernel level against the dtensor reference: all variants where the
/// tree has at most 1000, else a seeded sample; the scaled shapes
/// with a sample of 200 on sm_90. The default lowering compiles for sm_80
/// and sm_90.
// VARIANTS: variants of @{{.*}} checked, 0 failed
// VARIANTS-NOT: {{[1-9][0-9]*}} failed

/// The dtensor reference, the unfused kernels and the fused kernels agree on
/// small shapes and on the real shapes scaled down.
// NUM-NOT: FAIL
// NUM: : PASS

/// One kernel: the scores (with scale, causal mask and the GQA head
/// mapping) are computed once per (query, key) in the loop over the keys,
/// which carries the running maximum and sum and rescales the private
/// accumulators over the head dimension (dloop-fuse-attention).
// KERNELS-COUNT-1: dloop.kernel
// KERNELS-NOT: dloop.kernel
//     CHECK: dloop.kernel @sdpa_0_reduce
//     CHECK:   dloop.for %[[H:.*]] = 0 to 32 free
//     CHECK:     %[[ACC:.*]] = memref.alloca() : memref<64xf32>
//     CHECK:     dloop.for %[[J:.*]] = 0 to 32 reduce {{.*}} iter({{.*}} : f32, {{.*}} : f32) {
//     CHECK:       dloop.for {{.*}} = 0 to 64 reduce
//     CHECK:         dloop.load %{{.*}}[0, %[[H]] floordiv 8, %[[J]], %{{.*}}] : memref<1x4x32x64xf32>
//     CHECK:       arith.select
//     CHECK:       dloop.for %[[D:.*]] = 0 to 64 free
//     CHECK:         dloop.load %{{.*}}[0, %[[H]] floordiv 8, %[[J]], %[[D]]] : memref<1x4x32x64xf32>
//     CHECK:         dloop.store {{.*}}, %[[ACC]][%[[D]]]
