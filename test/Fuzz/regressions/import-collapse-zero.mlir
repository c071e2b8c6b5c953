// Fuzz finding, area frontend (fuzz/FINDINGS.md #8): importing a
// collapse_shape of a zero-size dimension divides by zero (SIGFPE).
// RUN: %fuzz_check -- deplodock-opt %s --lower-to-tensor
func.func @collapse(%x: tensor<0x4xf32>) -> tensor<0xf32> {
  %0 = tensor.collapse_shape %x [[0, 1]] : tensor<0x4xf32> into tensor<0xf32>
  return %0 : tensor<0xf32>
}
