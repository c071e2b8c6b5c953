// Fuzz finding, area frontend (fuzz/FINDINGS.md #9): a dense_resource
// constant (how torch-mlir passes weights) crashes convert-dtensor-to-dloop
// in dloop::LoadOp::create, with a message asking to report it to
// llvm-project.
// RUN: %fuzz_check -- deplodock-opt %s --lower-to-loop
func.func @weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<weights> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
