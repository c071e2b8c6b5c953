// RUN: deplodock-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @elementwise_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 has shape 'tensor<4xf32>' but the result is 'tensor<1x4xf32>'; broadcasts must be explicit index maps}}
  %y = dtensor.elementwise (%a = %x : tensor<4xf32>) -> tensor<1x4xf32> {
    dtensor.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_dynamic(%x: tensor<?xf32>) {
  // expected-error @+1 {{operand #0 must be variadic of statically shaped tensor of any type values}}
  %y = dtensor.elementwise (%a = %x : tensor<?xf32>) -> tensor<?xf32> {
    dtensor.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_arity(%x: tensor<4xf32>) {
  // expected-error @+1 {{body takes 2 arguments but the op has 1 operands}}
  %y = "dtensor.elementwise"(%x) ({
  ^bb0(%a: f32, %b: f32):
    dtensor.yield %a : f32
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_arg_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{body argument #0 has type 'f16', expected 'f32'}}
  %y = "dtensor.elementwise"(%x) ({
  ^bb0(%a: f16):
    %e = arith.extf %a : f16 to f32
    dtensor.yield %e : f32
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_no_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{body must end with dtensor.yield}}
  %y = "dtensor.elementwise"(%x) ({
  ^bb0(%a: f32):
    "test.terminator"(%a) : (f32) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_yield_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{body yields 'i32' but the result elements are 'f32'}}
  %y = dtensor.elementwise (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %i = arith.fptosi %a : f32 to i32
    dtensor.yield %i : i32
  }
  return
}

// -----

func.func @elementwise_foreign_op(%x: tensor<4xf32>) {
  %y = dtensor.elementwise (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'memref.alloca' op is not allowed in a dtensor.elementwise body; only arith and math ops are}}
    %m = memref.alloca() : memref<f32>
    dtensor.yield %a : f32
  }
  return
}

// -----

/// The body is isolated: a scalar from outside is not visible in it.
func.func @elementwise_capture(%x: tensor<4xf32>, %s: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %y = dtensor.elementwise (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{using value defined outside the region}}
    %b = arith.addf %a, %s : f32
    dtensor.yield %b : f32
  }
  return
}

// -----

func.func @yield_outside(%x: f32) {
  // expected-error @+1 {{'dtensor.yield' op expects parent op 'dtensor.elementwise'}}
  dtensor.yield %x : f32
}

// -----

func.func @reduce_no_axes(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{expected at least one axis}}
  %r = dtensor.reduce add %x axes [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_axis_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %r = dtensor.reduce add %x axes [2] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_maxnum_int(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{a maxnum reduction needs float elements, got 'i32'}}
  %r = dtensor.reduce maxnum %x axes [1] : tensor<4x8xi32> -> tensor<4xi32>
  return
}

// -----

func.func @reduce_axis_order(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axes must be strictly increasing}}
  %r = dtensor.reduce add %x axes [1, 0] : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_element_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result element type 'f16' differs from the input's 'f32'}}
  %r = dtensor.reduce add %x axes [1] : tensor<4x8xf32> -> tensor<4xf16>
  return
}

// -----

func.func @reduce_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{expected integer or float elements}}
  %r = dtensor.reduce add %x axes [0] : tensor<4xcomplex<f32>> -> tensor<complex<f32>>
  return
}

// -----

func.func @reduce_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{expected result shape 'tensor<4x1xf32>', got 'tensor<4xf32>'}}
  %r = dtensor.reduce add %x axes [1] keepdim : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @index_map_no_source() {
  // expected-error @+1 {{expected at least one source}}
  %r = "dtensor.index_map"() <{maps = []}> : () -> tensor<4xf32>
  return
}

// -----

func.func @index_map_map_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected 1 maps, one per source, got 0}}
  %r = "dtensor.index_map"(%x) <{maps = []}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_predicate_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected 1 predicates, one per source, got 2}}
  %r = "dtensor.index_map"(%x) <{maps = [affine_map<(d0) -> (d0)>], predicates = [unit, unit]}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_predicate_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{a predicate must be an integer set or unit}}
  %r = "dtensor.index_map"(%x) <{maps = [affine_map<(d0) -> (d0)>], predicates = [1 : i32]}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_padding_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{padding has type 'i32', expected 'f32'}}
  %r = "dtensor.index_map"(%x) <{maps = [affine_map<(d0) -> (d0)>], padding = 0 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_element_type(%x: tensor<4xf16>) {
  // expected-error @+1 {{source #0 has element type 'f16', expected 'f32'}}
  %r = dtensor.index_map %x[(d0) -> (d0)] : (tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_dims(%x: tensor<4xf32>) {
  // expected-error @+1 {{map of source #0 must have 2 dimensions (one per result axis) and no symbols}}
  %r = dtensor.index_map %x[(d0) -> (d0)] : (tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @index_map_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{map of source #0 has 2 results but the source has rank 1}}
  %r = dtensor.index_map %x[(d0, d1) -> (d0, d1)] : (tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @index_map_predicate_dims(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{predicate of source #0 must have 1 dimensions and no symbols}}
  %r = dtensor.index_map %a[(d0) -> (d0)] if [(d0, d1) : (d0 >= 0)], %b[(d0) -> (d0)] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_dead_source(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{source #0 has no predicate, so the sources after it can never be read}}
  %r = dtensor.index_map %a[(d0) -> (d0)], %b[(d0) -> (d0)] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_map_out_of_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{source #0 is read out of bounds: index 0 (d0 + 1) ranges over [1, 4] but the source has size 4}}
  %r = dtensor.index_map %x[(d0) -> (d0 + 1)] : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

/// The second concat piece is only read where the first predicate fails, but
/// here it is still one element too short.
func.func @index_map_concat_out_of_bounds(%a: tensor<2x4xf32>, %b: tensor<2x2xf32>) {
  // expected-error @+1 {{source #1 is read out of bounds: index 1 (d1 - 4) ranges over [0, 2] but the source has size 2}}
  %r = dtensor.index_map %a[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 3 >= 0)], %b[(d0, d1) -> (d0, d1 - 4)] : (tensor<2x4xf32>, tensor<2x2xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @index_map_no_fallback(%x: tensor<4xf32>) {
  // expected-error @+1 {{every source is predicated, so a padding value is needed where none applies}}
  %r = dtensor.index_map %x[(d0) -> (d0 - 1)] if [(d0) : (d0 - 1 >= 0, -d0 + 4 >= 0)] : (tensor<4xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @gather_index_count(%t: tensor<8x4xf32>, %i: tensor<2xindex>) {
  // expected-error @+1 {{expected 2 index tensors, one per source axis, got 1}}
  %g = dtensor.gather %t[%i] : tensor<8x4xf32>[tensor<2xindex>] -> tensor<2xf32>
  return
}

// -----

func.func @gather_index_type(%t: tensor<8xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{index tensor #0 has type 'tensor<2xi64>', expected 'tensor<2xindex>'}}
  %g = dtensor.gather %t[%i] : tensor<8xf32>[tensor<2xi64>] -> tensor<2xf32>
  return
}

// -----

func.func @gather_index_shape(%t: tensor<8xf32>, %i: tensor<3xindex>) {
  // expected-error @+1 {{index tensor #0 has type 'tensor<3xindex>', expected 'tensor<2xindex>'}}
  %g = dtensor.gather %t[%i] : tensor<8xf32>[tensor<3xindex>] -> tensor<2xf32>
  return
}

// -----

func.func @gather_element_type(%t: tensor<8xf16>, %i: tensor<2xindex>) {
  // expected-error @+1 {{result element type 'f32' differs from the source's 'f16'}}
  %g = dtensor.gather %t[%i] : tensor<8xf16>[tensor<2xindex>] -> tensor<2xf32>
  return
}

// -----

func.func @gather_empty_source(%t: tensor<0xf32>, %i: tensor<2xindex>) {
  // expected-error @+1 {{gathers from an empty source}}
  %g = dtensor.gather %t[%i] : tensor<0xf32>[tensor<2xindex>] -> tensor<2xf32>
  return
}
