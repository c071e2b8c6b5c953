// Fuzz finding (seed 21, ir #13 and #2463: decoder_block.tensor with
// "floordiv 2 -> -4" and "integer 2 -> -2147483648"): a division by a
// non-positive constant nested inside another division or modulo was
// reported, then upstream's affine expansion built on the null value it
// returned and crashed. Now the Kernel lowering refuses it first.
// RUN: %fuzz_check --expect=diagnosed -- deplodock-opt %s --deplodock-pipeline
// RUN: not deplodock-opt %s --deplodock-pipeline 2>&1 | FileCheck %s
// CHECK: error: division by non-positive value is not supported
module {
  func.func @matmul(%arg0: tensor<1x8x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<1x8x32xf32> {
    %0 = dtensor.index_map %arg0[(d0, d1, d2) -> (d0 floordiv 8, (d0 floordiv -4) mod 8, d2)] : (tensor<1x8x32xf32>) -> tensor<8x32x32xf32>
    %1 = dtensor.index_map %arg1[(d0, d1, d2) -> (d2, d1)] : (tensor<32x32xf32>) -> tensor<8x32x32xf32>
    %2 = dtensor.elementwise (%arg2 = %0 : tensor<8x32x32xf32>, %arg3 = %1 : tensor<8x32x32xf32>) -> tensor<8x32x32xf32> {
      %5 = arith.mulf %arg2, %arg3 : f32
      dtensor.yield %5 : f32
    }
    %3 = dtensor.reduce add %2 axes [2] : tensor<8x32x32xf32> -> tensor<8x32xf32>
    %4 = dtensor.index_map %3[(d0, d1, d2) -> (d0 * 8 + d1, d2)] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
    return %4 : tensor<1x8x32xf32>
  }
}
