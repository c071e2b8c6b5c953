// A worker that answers nonsense is a protocol error, never a result: a
// negative or NaN time would pass for the fastest variant, a huge blob would
// fill the client's memory, deep JSON would overflow its stack.
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=negative-time 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: malformed message from the bench worker: expected finite, non-negative times with min <= median <= max, at least one sample and repeat, and a launch >= -1 at result.timings[0]
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=nan-time 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: error: malformed message from the bench worker: expected finite, non-negative times {{.*}} at result.timings[1]
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=no-samples 2>&1 | FileCheck %s --check-prefix=SAMPLES
// SAMPLES: error: malformed message from the bench worker: expected finite, non-negative times {{.*}} at result.timings[1]
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=other-launch 2>&1 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: error: malformed message from the bench worker: the result times launch #5 of a request with 1
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=huge-blob 2>&1 | FileCheck %s --check-prefix=BLOB
// BLOB: error: malformed message from the bench worker: frame blob of 34359738368 bytes, more than the 0 this message can carry
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=huge-blob --output-dir=%t.out 2>&1 | FileCheck %s --check-prefix=BLOB-OUT
// BLOB-OUT: error: malformed message from the bench worker: frame blob of 34359738368 bytes, more than the 128 this message can carry
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=deep-json 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: error: malformed message from the bench worker: malformed frame JSON: arrays and objects nested deeper than 64 levels
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=outputs 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: error: malformed message from the bench worker: frame blob of 4 bytes, more than the 0 this message can carry
// RUN: not deplodock-run --bench %s --worker=%S/Inputs/lying-worker.py --worker-arg=outputs --output-dir=%t.out 2>&1 | FileCheck %s --check-prefix=OUTPUT-SIZE
// OUTPUT-SIZE: error: malformed message from the bench worker: the result holds 4 bytes of output buffer #2, not 128

func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
