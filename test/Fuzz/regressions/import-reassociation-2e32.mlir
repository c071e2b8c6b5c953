// Fuzz finding, area frontend (fuzz/FINDINGS.md #8): a reassociation index
// of 2^32 + 1 passes the upstream verifier (it truncates to 1) and crashes
// importTensorOp.
// RUN: %fuzz_check --expect=diagnosed -- deplodock-opt %s --lower-to-tensor
func.func @collapse(%x: tensor<2x4xf32>) -> tensor<8xf32> {
  %0 = tensor.collapse_shape %x [[0, 4294967297]] : tensor<2x4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}
