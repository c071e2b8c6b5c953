// RUN: deplodock-opt %s --convert-to-dtensor -split-input-file -verify-diagnostics

func.func @unsupported_op(%x: tensor<4x8xf32>, %i: tensor<2x1xindex>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tensor.gather' op is not supported by convert-to-dtensor}}
  %g = tensor.gather %x[%i] gather_dims([0]) : (tensor<4x8xf32>, tensor<2x1xindex>) -> tensor<2x8xf32>
  return %g : tensor<2x8xf32>
}

// -----

// expected-error @+1 {{'func.func' op argument #0 has type 'tensor<?x8xf32>'; dynamic shapes are not supported by convert-to-dtensor}}
func.func @dynamic_argument(%x: tensor<?x8xf32>) -> tensor<8xf32> {
  %c = arith.constant dense<0.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

func.func @dynamic_result(%x: tensor<4x8xf32>, %n: index) {
  // expected-error @+1 {{'tensor.empty' op result #0 has type 'tensor<?xf32>'; dynamic shapes are not supported by convert-to-dtensor}}
  %e = tensor.empty(%n) : tensor<?xf32>
  return
}

// -----

func.func @tosa_direct(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.tanh' op is not supported by convert-to-dtensor; lower TOSA with the tosa-to-linalg pipelines first (lower-to-tensor does)}}
  %r = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @op_in_body(%x: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant true
    // expected-error @+1 {{'scf.if' op in a linalg.generic body is not supported by convert-to-dtensor}}
    %v = scf.if %c -> f32 {
      scf.yield %a : f32
    } else {
      scf.yield %o : f32
    }
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @read_output_in_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op reads its output inside a reduction, which convert-to-dtensor cannot import}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %acc : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @not_a_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op has a reduction body for result #0 that is neither an add, mul, max or min into the output nor an argmax or argmin, which convert-to-dtensor cannot import}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.subf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @argmax_over_two_axes(%x: tensor<4x8xf32>, %i0: tensor<f32>, %i1: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'linalg.generic' op has a reduction body for result #1 that is neither an add, mul, max or min into the output nor an argmax or argmin, which convert-to-dtensor cannot import}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%i0, %i1 : tensor<f32>, tensor<i64>) {
  ^bb0(%a: f32, %m: f32, %k: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    %m2 = arith.maximumf %a, %m : f32
    %gt = arith.cmpf ogt, %a, %m : f32
    %k2 = arith.select %gt, %c, %k : i64
    linalg.yield %m2, %k2 : f32, i64
  } -> (tensor<f32>, tensor<i64>)
  return %r#1 : tensor<i64>
}

// -----

func.func @argmax_of_the_wrong_reduction(%x: tensor<4x8xf32>, %i0: tensor<4xf32>, %i1: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'linalg.generic' op has a reduction body for result #1 that is neither an add, mul, max or min into the output nor an argmax or argmin, which convert-to-dtensor cannot import}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%i0, %i1 : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%a: f32, %m: f32, %k: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    %m2 = arith.maximumf %a, %m : f32
    %lt = arith.cmpf olt, %a, %m : f32
    %k2 = arith.select %lt, %c, %k : i64
    linalg.yield %m2, %k2 : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// -----

func.func @scalar_not_constant(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{'linalg.generic' op has a scalar operand that is not a constant, which convert-to-dtensor cannot import}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %s : tensor<4xf32>, f32) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @value_from_outside(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{'linalg.generic' op reads a value defined outside its body, which convert-to-dtensor cannot import}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @buffers(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{'linalg.generic' op works on buffers; convert-to-dtensor imports ops on tensors}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

func.func @output_map_not_permutation(%x: tensor<4x4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{'linalg.generic' op has an output map that is not a permutation of its parallel dimensions, which convert-to-dtensor cannot import}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @mixed_scalar(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.select' op mixes tensors of different shapes or scalars, which convert-to-dtensor cannot import}}
  %r = arith.select %c, %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @dynamic_pad_value(%x: tensor<3xf32>, %v: f32) -> tensor<5xf32> {
  // expected-error @+1 {{'tensor.pad' op pads with a value that is not a constant, which convert-to-dtensor cannot import}}
  %r = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<3xf32> to tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

func.func @strided_insert(%s: tensor<2xf32>, %d: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op has strides other than 1, which convert-to-dtensor cannot import}}
  %r = tensor.insert_slice %s into %d[0] [2] [2] : tensor<2xf32> into tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

func.func @call_on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op is not supported by convert-to-dtensor}}
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>

// -----

func.func @dynamic_offset(%x: tensor<8xf32>, %o: index) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op has dynamic offsets, sizes or strides; dynamic shapes are not supported by convert-to-dtensor}}
  %r = tensor.extract_slice %x[%o] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @expand_reassociation_past_rank(%x: tensor<8xf32>) -> tensor<2x4xf32> {
  // The upstream verifier reads 2^32 as affine position 0.
  // expected-error @+1 {{'tensor.expand_shape' op has reassociation index 4294967296, out of range for rank 2}}
  %r = tensor.expand_shape %x [[4294967296, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @collapse_reassociation_past_rank(%x: tensor<2x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tensor.collapse_shape' op has reassociation index 4294967296, out of range for rank 2}}
  %r = tensor.collapse_shape %x [[4294967296, 1]] : tensor<2x4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @insert_at_computed_index(%x: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'tensor.insert' op inserts at a computed index, which convert-to-dtensor cannot import}}
  %r = tensor.insert %c into %x[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @insert_out_of_bounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  %i = arith.constant 4 : index
  // expected-error @+1 {{'tensor.insert' op inserts at index 4 of dimension 0, out of bounds for 'tensor<4xf32>'}}
  %r = tensor.insert %c into %x[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @insert_computed_scalar(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %i = arith.constant 1 : index
  // expected-error @+1 {{'tensor.insert' op inserts a scalar that is neither a constant nor an extracted element, which convert-to-dtensor cannot import}}
  %r = tensor.insert %s into %x[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @negative_pad(%x: tensor<3xf32>) -> tensor<2xf32> {
  %lo = arith.constant -1 : index
  %hi = arith.constant 0 : index
  %v = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.pad' op pads by -1, a negative amount}}
  %r = tensor.pad %x low[%lo] high[%hi] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<3xf32> to tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @elided_resource() -> tensor<4xf32> {
  // expected-error @+1 {{dense_resource constant '__elided__' of type 'tensor<4xf32>' has no data (was the resource elided?)}}
  %c = arith.constant dense_resource<__elided__> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @short_resource() -> tensor<4xf32> {
  // expected-error @+1 {{dense_resource constant 'three_floats' holds 12 bytes, which is not the data of a 'tensor<4xf32>'}}
  %c = arith.constant dense_resource<three_floats> : tensor<4xf32>
  return %c : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      three_floats: "0x040000000000803F0000004000004040"
    }
  }
#-}
