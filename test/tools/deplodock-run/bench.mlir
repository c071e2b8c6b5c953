// deplodock-run --bench on the bench worker's fake device (no GPU): the
// layer is lowered to Kernel IR, its kernels run in the worker, the results
// are checked against the CPU interpreter, and each kernel and the whole
// function are timed. The fake device's latencies are 10 us a kernel with a
// fixed jitter, on a simulated clock.
// RUN: rm -rf %t && mkdir -p %t

/// The report on stdout, and the same as JSON for scripts (bench/harness.py
/// reads total_us.median and DIR/result0.npy).
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --bench-json=%t/add.json | FileCheck %s --check-prefix=REPORT
// REPORT:      @add on Deplodock fake GPU (sm_90, 132 SMs, driver 0.0-fake, CUDA 13.0, NVRTC -)
// REPORT-NEXT: compile: {{[0-9.]+}} ms
// REPORT-NEXT: reference: 1 output checked against the CPU interpreter (max abs error 0)
// REPORT-NEXT: #   kernel          median_us   share     min_us     max_us samples  grid           block             smem  regs
// REPORT-NEXT: 0   add_0_pointwise     10.00  100.0%       9.96      10.04      23  [1,1,1]        [32,1,1]             0    32
// REPORT-NEXT:     sum of kernels      10.00
// REPORT-NEXT:     function            10.00               9.96      10.04      23
// RUN: FileCheck %s --check-prefix=JSON < %t/add.json
// JSON:      "detail": "",
// JSON-NEXT: "device": {
// JSON-NEXT:   "arch": "sm_90",
// JSON:        "fake": true,
// JSON:        "name": "Deplodock fake GPU",
// JSON:      "function": "add",
// JSON-NEXT: "kernels": [
// JSON:          "median_us": 10,
// JSON:          "name": "add_0_pointwise",
// JSON:          "samples": 23,
// JSON:          "status": "ok"
// JSON:      "reference": "the CPU interpreter",
// JSON-NEXT: "status": "ok",
// JSON-NEXT: "total_us": {
// JSON:        "median": 10,
// JSON:        "samples": 23,
// JSON:      "verified": true

/// Inputs from .npy files; the results written to --output-dir. (The fake
/// device writes the reference's values, so this checks the data's way
/// through the request, the worker and back.)
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/a.npy f4 2x4 1,2,3,4,5,6,7,8
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/b.npy f4 2x4 10,20,30,40,50,60,70,80
// RUN: deplodock-run --bench %s --func=add_small --fake-device --warmup-ms=0.1 --max-time-ms=1 --input=%t/a.npy --input=%t/b.npy --output-dir=%t/out --bench-json=%t/small.json
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/out/result0.npy | FileCheck %s --check-prefix=OUT
// OUT:      descr <f4 shape (2, 4)
// OUT-NEXT: 11.0 22.0 33.0 44.0 55.0 66.0 77.0 88.0

/// With the CPU reference off, nothing is verified, and the report says so.
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --cpu-reference-limit=0 --bench-json=%t/gpu-ref.json | FileCheck %s --check-prefix=GPU-REF
// GPU-REF: reference: 1 output checked against the simplest lowering on the GPU, since the CPU interpreter would hold 96 elements, more than --cpu-reference-limit=0
// GPU-REF: function
// RUN: FileCheck %s --check-prefix=GPU-REF-JSON < %t/gpu-ref.json
// GPU-REF-JSON: "status": "ok",
// GPU-REF-JSON: "verified": true
/// The GPU reference catches a wrong kernel too.
// RUN: not deplodock-run --bench %s --fake-device --cpu-reference-limit=0 --fake-fault=wrong 2>&1 | FileCheck %s --check-prefix=GPU-WRONG
// GPU-WRONG: error: the kernels failed (wrong_result): output alloc0: 1 of 32 elements differ

/// Compiling with the real NVRTC on the fake device: the emitted CUDA
/// compiles (nvrtc.test covers the worker side).
// RUN: %if runtime-nvrtc %{ deplodock-run --bench %s --fake-device --worker-arg=--fake-nvrtc --warmup-ms=0.1 --max-time-ms=1 | FileCheck %s --check-prefix=NVRTC %}
// NVRTC: @add on Deplodock fake GPU (sm_90, 132 SMs, driver 0.0-fake, CUDA 13.0, NVRTC {{[0-9]+\.[0-9]+}})

func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @add_small(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %r = linalg.add ins(%a, %b : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
