// RUN: deplodock-opt %s --convert-dtensor-to-dloop -split-input-file -verify-diagnostics

func.func @return_splat() -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'func.return' op returns a constant or computed value that convert-dtensor-to-dloop cannot turn into a buffer}}
  return %c : tensor<4xf32>
}

// -----

func.func @not_imported(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.addf' op is not supported by convert-dtensor-to-dloop; import it into dtensor first}}
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op has several blocks, which convert-dtensor-to-dloop cannot lift}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

func.func @elided_resource(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{dense_resource constant '__elided__' of type 'tensor<4xf32>' has no data (was the resource elided?)}}
  %w = arith.constant dense_resource<__elided__> : tensor<4xf32>
  %r = dtensor.elementwise (%a = %x : tensor<4xf32>, %b = %w : tensor<4xf32>) -> tensor<4xf32> {
    %m = arith.mulf %a, %b : f32
    dtensor.yield %m : f32
  }
  return %r : tensor<4xf32>
}

// -----

func.func @scalar_read_of_argument(%x: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tensor.extract' op is not supported by convert-dtensor-to-dloop; import it into dtensor first}}
  %v = tensor.extract %x[%c0] : tensor<4xf32>
  return %v : f32
}
