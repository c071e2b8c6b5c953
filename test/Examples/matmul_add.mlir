// RUN: %python %deplodock_src_root/examples/generate.py --small matmul_add > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled matmul_add > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/matmul_add.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir

/// The dtensor reference, the unfused kernels and the fused kernels agree on
/// small shapes and on the real shapes scaled down.
// NUM-NOT: FAIL
// NUM: : PASS

/// The residual add fuses into the matmul's epilogue.
// KERNELS-COUNT-1: dloop.kernel
// KERNELS-NOT: dloop.kernel
//     CHECK: dloop.kernel @matmul_add_0_reduce
//     CHECK:   dloop.for {{.*}} reduce
//     CHECK:   dloop.load
//     CHECK:   arith.addf
//     CHECK:   dloop.store
