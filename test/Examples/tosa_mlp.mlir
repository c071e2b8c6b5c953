// RUN: deplodock-run --interp %deplodock_src_root/examples/tosa_mlp.mlir --pipeline=lower-to-tensor --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %deplodock_src_root/examples/tosa_mlp.mlir --pipeline=lower-to-tensor --compare=lower-to-loop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %deplodock_src_root/examples/tosa_mlp.mlir --lower-to-tensor | FileCheck %s --check-prefix=TENSOR
// RUN: deplodock-opt %deplodock_src_root/examples/tosa_mlp.mlir --lower-to-loop | FileCheck %s

/// TOSA goes through the upstream tosa-to-linalg pipelines into dtensor.
// NUM-NOT: FAIL
// NUM: : PASS

// TENSOR-LABEL: func.func @tosa_mlp
//   TENSOR-NOT:   tosa.
//       TENSOR:   dtensor.reduce add {{.*}} axes [3]
//       TENSOR:   math.exp

/// Matmul, bias and SiLU become one kernel.
// CHECK: dloop.kernel @tosa_mlp_0_reduce
// CHECK:   dloop.for {{.*}} = 0 to 256 reduce
// CHECK:   math.exp
// CHECK-NOT: dloop.kernel
