/// --bench needs the interpreter's seeded inputs only for the CPU reference
/// (the worker draws its own). A layer whose inputs pass the interpreter's
/// memory limit benches on the fake device with the GPU reference; with the
/// CPU reference it is refused, cleanly.
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --cpu-reference-limit=0 --memory-limit=64K | FileCheck %s --check-prefix=GPU
// GPU: reference: 1 output checked against the simplest lowering on the GPU, since the CPU interpreter would hold 786432 elements, more than --cpu-reference-limit=0
// RUN: not deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --memory-limit=64K 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: 'func.func' op cannot be interpreted within the memory limit: argument #0: tensor<512x512xf32> needs 1.00 MiB; the limit is 64.0 KiB
func.func @add(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e = tensor.empty() : tensor<512x512xf32>
  %0 = linalg.add ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
