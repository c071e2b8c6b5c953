// deplodock-run --bench of a function that lowers to two kernels with a
// workspace between them (split-K through an f32 workspace): the worker
// allocates the workspace, runs both launches in order, checks the final
// output against the CPU interpreter and times each kernel and the whole
// sequence (the fake device's 10 us a kernel, on a simulated clock). The
// sum kernel reads the workspace a float4 a thread: 128 threads cover the
// 16 x 32 outputs in one block.
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --knobs="mm_0_reduce:split_k=4,split_workspace=true" | FileCheck %s
// CHECK:      reference: 1 output checked against the CPU interpreter (max abs error 0)
// CHECK-NEXT: #   kernel                 median_us   share
// CHECK-NEXT: 0   mm_0_reduce                10.00   50.0% {{.*}} [4,4,4]
// CHECK-NEXT: 1   mm_0_reduce_split_sum      10.00   50.0% {{.*}} [1,1,1] [128,1,1]
// CHECK-NEXT:     sum of kernels             20.00
// CHECK-NEXT:     function                   20.00

/// A wrong final output is found after both launches ran.
// RUN: not deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --knobs="mm_0_reduce:split_k=4,split_workspace=true" --fake-fault=wrong 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: error: the kernels failed (wrong_result): output alloc0: 1 of 512 elements differ

func.func @mm(%a: tensor<16x1024xf32>, %b: tensor<1024x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x1024xf32>, tensor<1024x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}
