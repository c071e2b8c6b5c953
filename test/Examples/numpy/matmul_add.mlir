// REQUIRES: numpy
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul_add > %t.mlir
// RUN: rm -rf %t.d %t.tensor
// RUN: deplodock-run --interp %t.mlir --pipeline=lower-to-loop --seed=7 --save-inputs=%t.d --output-dir=%t.d --print=none
// RUN: %numpy_python %S/reference.py matmul_add %t.d | FileCheck %s
/// The imported tensor program alone, before lifting and fusion.
// RUN: deplodock-run --interp %t.mlir --pipeline=lower-to-tensor --seed=7 --save-inputs=%t.tensor --output-dir=%t.tensor --print=none
// RUN: %numpy_python %S/reference.py matmul_add %t.tensor | FileCheck %s

/// A projection and its residual.
/// The fused kernels compute what NumPy computes from the definition in
/// examples/generate.py, within float32 rounding.
// CHECK:     matmul_add result #0: {{.*}}: PASS
// CHECK-NOT: FAIL
