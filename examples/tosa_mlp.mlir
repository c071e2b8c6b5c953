// A SiLU-activated projection with bias written in TOSA, as a TFLite or
// torch-mlir TOSA user would hand it over: silu(x . W + b). lower-to-tensor
// runs the upstream tosa-to-linalg pipelines first. (Written by hand, not by
// examples/generate.py.)
func.func @tosa_mlp(%x: tensor<1x32x256xf32>, %w: tensor<1x256x512xf32>, %b: tensor<1x1x512xf32>) -> tensor<1x32x512xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x32x256xf32>, tensor<1x256x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x512xf32>
  %a = tosa.add %m, %b : (tensor<1x32x512xf32>, tensor<1x1x512xf32>) -> tensor<1x32x512xf32>
  %s = tosa.sigmoid %a : (tensor<1x32x512xf32>) -> tensor<1x32x512xf32>
  %y = tosa.mul %a, %s, %shift : (tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1xi8>) -> tensor<1x32x512xf32>
  return %y : tensor<1x32x512xf32>
}
