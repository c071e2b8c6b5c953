// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled silu_mul_matmul > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --lower-to-tile=target=sm_90a | FileCheck %s --check-prefix=TILE
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --deplodock-pipeline=target=sm_90a | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare="lower-to-tile{target=sm_90a}" --seed=4 --print=none | FileCheck %s --check-prefix=NUM
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

/// silu(g)*u fuses into the matmul as its prologue, one kernel: at the
/// Loop level it sits in the K loop (once per product), and the Tile level
/// stages it as a computed slab (below), once per element a block stages.
// KERNELS-COUNT-1: dloop.kernel
// KERNELS-NOT: dloop.kernel
//     CHECK: dloop.kernel @silu_mul_matmul_0_reduce ins(%[[W:.*]] = %arg2 : memref<5632x2048xf32>, %[[G:.*]] = %arg0 : memref<1x32x5632xf32>, %[[U:.*]] = %arg1 : memref<1x32x5632xf32>)
//     CHECK:   dloop.for %[[K:.*]] = 0 to 5632 reduce
//     CHECK:     %[[GV:.*]] = dloop.load %[[G]][0, %{{.*}}, %[[K]]]
//     CHECK:     %[[UV:.*]] = dloop.load %[[U]][0, %{{.*}}, %[[K]]]
//     CHECK:     math.exp
//     CHECK:     %[[ACT:.*]] = arith.mulf %{{.*}}, %[[UV]] : f32
//     CHECK:     %[[WV:.*]] = dloop.load %[[W]][%[[K]], %{{.*}}]
//     CHECK:     arith.mulf %[[ACT]], %[[WV]] : f32

/// The heuristic's Tile form: the gate slab is computed from gate and up
/// (apply region) while the weight slab travels by cp.async (the pipeline's
/// prefetch of the next chunk too); the K loop only reads the slabs.
//      TILE: dtile.kernel @silu_mul_matmul_0_reduce {{.*}}stage = [0, 1]
//      TILE:   dtile.stage %in1[{{.*}}] box [1, 32, 32] {{.*}}-> memref<1x32x32xf32, #gpu.address_space<workgroup>> apply(%in2 : memref<1x32x5632xf32>) {
// TILE-NEXT:   ^bb0(%[[GA:.*]]: f32, %[[UA:.*]]: f32):
//      TILE:     math.exp
//      TILE:     %[[P:.*]] = arith.mulf %{{.*}}, %[[UA]] : f32
// TILE-NEXT:     dtile.yield %[[P]] : f32
//      TILE:   dtile.stage %in0[{{.*}}] box [32, 128] {{.*}}transport cp_async : memref<5632x2048xf32>
//      TILE:   dloop.for %{{.*}} = 0 to 32 reduce "r0_i"
//  TILE-NOT:   math.exp
//      TILE: return

/// In Kernel IR each thread computes one aligned run of 4 of the 1024
/// slab elements: a 128-bit load of gate and of up, the region per element,
/// and one 128-bit store into the slab.
//      KERNEL: dkernel.func @silu_mul_matmul_0_reduce
//      KERNEL: %[[G:.*]]:4 = dkernel.vector_load %arg1[%c0, %[[ROW:.*]], %[[COL:.*]]] : memref<1x32x5632xf32> -> f32, f32, f32, f32
//      KERNEL: %[[U:.*]]:4 = dkernel.vector_load %arg2[%c0, %[[ROW]], %[[COL]]] : memref<1x32x5632xf32> -> f32, f32, f32, f32
//      KERNEL: math.exp
//      KERNEL: arith.mulf %{{.*}}, %[[U]]#0 : f32
//      KERNEL: math.exp
//      KERNEL: math.exp
//      KERNEL: math.exp
//      KERNEL: dkernel.vector_store({{.*}}), %smem[{{.*}}] : (f32, f32, f32, f32), memref<2x1x32x32xf32, #gpu.address_space<workgroup>>
