// Fuzz finding (fuzz/FINDINGS.md, seed 52 under UBSan, ir #440):
// blockify_launch multiplied a pointwise kernel's extents 127 x 8 x (2^63 - 1)
// into its point count, a signed overflow (undefined behaviour, which UBSan
// reported and a plain build silently wrapped). dtile-lower now refuses a
// kernel whose buffers have more bytes than a 64-bit size counts, with the
// kernel's location, before any rule runs.
// Found as silu_mul.tensor with extent 2 of every tensor -> 2^63 - 1, extent 0
// -> 127.
// RUN: %fuzz_check -- deplodock-opt %s --deplodock-pipeline -o %t.kernel.mlir
// RUN: not deplodock-opt %s --deplodock-pipeline 2>&1 | FileCheck %s
// CHECK: dtile-lower-uncountable-bytes.mlir:[[# @LINE + 2]]:8: error: 'dloop.kernel' op reads or writes a buffer of type 'memref<127x8x9223372036854775807xf32>', which has more bytes than a 64-bit size can count
func.func @silu_mul(%a: tensor<127x8x9223372036854775807xf32>, %b: tensor<127x8x9223372036854775807xf32>) -> tensor<127x8x9223372036854775807xf32> {
  %0 = dtensor.elementwise (%x = %a : tensor<127x8x9223372036854775807xf32>, %y = %b : tensor<127x8x9223372036854775807xf32>) -> tensor<127x8x9223372036854775807xf32> {
    %one = arith.constant 1.000000e+00 : f32
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %x, %d : f32
    %m = arith.mulf %s, %y : f32
    dtensor.yield %m : f32
  }
  return %0 : tensor<127x8x9223372036854775807xf32>
}
