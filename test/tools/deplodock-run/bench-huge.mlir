// A layer far too large for the CPU interpreter and for the fake device's
// host memory: --bench draws no inputs on the host (the worker draws its
// own), checks against the simplest lowering on the device instead of the
// interpreter, and the fake device refuses the 3.6 GB buffer as a GPU
// without the memory would: a clean out-of-memory failure, not a process
// the machine kills.
// RUN: not deplodock-run --bench %s --fake-device --bench-json=%t.json 2>&1 | FileCheck %s
// CHECK: reference: the simplest lowering on the GPU, since the CPU interpreter would hold {{[0-9]+}} elements, more than --cpu-reference-limit=8388608 (not reached)
// CHECK: error: the kernels failed (launch_fail): cuMemAlloc of 3600000000 bytes failed: CUDA_ERROR_OUT_OF_MEMORY (fake device: 0 bytes in use, it holds at most 2147483648 in host memory)
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "status": "launch_fail"

func.func @huge(%a: tensor<30000x30000xf32>, %b: tensor<30000x30000xf32>) -> tensor<30000x30000xf32> {
  %e = tensor.empty() : tensor<30000x30000xf32>
  %r = linalg.add ins(%a, %b : tensor<30000x30000xf32>, tensor<30000x30000xf32>) outs(%e : tensor<30000x30000xf32>) -> tensor<30000x30000xf32>
  return %r : tensor<30000x30000xf32>
}
