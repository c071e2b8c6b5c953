// REQUIRES: cuda-device
// deplodock-run --bench on the real GPU: the lowered kernels compile with
// NVRTC, run, match the CPU interpreter, and are timed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-run --bench %s --warmup-ms=1 --max-time-ms=20 --output-dir=%t --bench-json=%t/bench.json | FileCheck %s
// CHECK:      @add on {{.*}} (sm_{{[0-9]+}}, {{[0-9]+}} SMs, driver {{.*}}, CUDA {{.*}}, NVRTC {{[0-9.]+}})
// CHECK:      reference: 1 output checked against the CPU interpreter
// CHECK:      0   add_0_pointwise
// CHECK:          function
// RUN: FileCheck %s --check-prefix=JSON < %t/bench.json
// JSON: "fake": false,
// JSON: "status": "ok",
// JSON: "verified": true
// RUN: test -f %t/result0.npy

func.func @add(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.add ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
