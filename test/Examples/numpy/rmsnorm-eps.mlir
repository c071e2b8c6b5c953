// REQUIRES: numpy
// RUN: %python %deplodock_src_root/examples/generate.py --small rmsnorm > %t.mlir
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %numpy_python -c "import numpy as np; r = np.random.default_rng(1); np.save('%t.d/input0.npy', (r.uniform(-1, 1, (1, 8, 32)) * 1e-3).astype(np.float32)); np.save('%t.d/input1.npy', r.uniform(-1, 1, 32).astype(np.float32))"
// RUN: deplodock-run --interp %t.mlir --pipeline=lower-to-loop --input=%t.d/input0.npy --input=%t.d/input1.npy --output-dir=%t.d --print=none
// RUN: %numpy_python %S/reference.py rmsnorm %t.d | FileCheck %s

/// Inputs of magnitude 1e-3, whose mean square (3e-7) is of the order of
/// eps: the check fails unless eps is 1e-6, where it is added, and how.
// CHECK:     rmsnorm result #0: {{.*}}: PASS
// CHECK-NOT: FAIL
