// RUN: %python %deplodock_src_root/examples/generate.py --small softmax > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --scaled softmax > %t.scaled.mlir
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/softmax.mlir --lower-to-loop > %t.loop.mlir
// RUN: FileCheck %s < %t.loop.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.loop.mlir

/// The dtensor reference, the unfused kernels and the fused kernels agree on
/// small shapes and on the real shapes scaled down.
// NUM-NOT: FAIL
// NUM: : PASS

/// One kernel per row: the max, the sum of exponentials, then the store;
/// the max is computed once though two consumers read it.
// KERNELS-COUNT-1: dloop.kernel
// KERNELS-NOT: dloop.kernel
//     CHECK: dloop.kernel @softmax_0_reduce
//     CHECK:   dloop.for {{.*}} reduce
//     CHECK:     arith.maxnumf
//     CHECK:   dloop.for {{.*}} reduce
//     CHECK:     math.exp
//     CHECK:   dloop.for {{.*}} free
//     CHECK:     math.exp
//     CHECK:     arith.divf
