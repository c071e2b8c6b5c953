// RUN: %python %deplodock_src_root/examples/generate.py --small rmsnorm > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled rmsnorm > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir

/// The dtensor reference, the unfused kernels and the fused kernels agree on
/// small shapes and on the real shapes scaled down.
// NUM-NOT: FAIL
// NUM: : PASS

/// One kernel: per row, the sum of squares, rsqrt hoisted out of the column
/// loop, then the scaled store.
// KERNELS-COUNT-1: dloop.kernel
// KERNELS-NOT: dloop.kernel
//     CHECK: dloop.kernel @rmsnorm_0_reduce
//     CHECK:   dloop.for %[[R:.*]] = 0 to 32 free
//     CHECK:     dloop.for %{{.*}} = 0 to 2048 reduce
//     CHECK:     math.rsqrt
//     CHECK:     dloop.for %{{.*}} = 0 to 2048 free
