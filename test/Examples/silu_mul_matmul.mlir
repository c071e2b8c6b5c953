// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled silu_mul_matmul > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul_matmul.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir

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
