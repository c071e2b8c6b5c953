// Fuzz finding, area decision-layer (fuzz/FINDINGS.md #1): a Tensor-level
// mod by -1 goes through every level and crashes the Kernel lowering.
// Found as ir #6 of seed 11: matmul.tensor with "mod 8 -> -1".
// RUN: %fuzz_check --expect=diagnosed -- deplodock-opt %s --deplodock-pipeline
module {
  func.func @matmul(%arg0: tensor<1x8x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<1x8x32xf32> {
    %0 = dtensor.index_map %arg0[(d0, d1, d2) -> (d0 floordiv 8, d0 mod -1, d2)] : (tensor<1x8x32xf32>) -> tensor<8x32x32xf32>
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

