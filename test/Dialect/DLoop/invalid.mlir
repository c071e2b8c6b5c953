// RUN: deplodock-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// dloop.kernel
//===----------------------------------------------------------------------===//

func.func @kernel_name(%arg0: memref<4xf32>) {
  // expected-error @+1 {{name "1st" is not a C identifier; it becomes the CUDA function name}}
  dloop.kernel @"1st" outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_no_output(%arg0: memref<4xf32>) {
  // expected-error @+1 {{expected at least one output buffer}}
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_dynamic_shape(%arg0: memref<?xf32>, %arg1: memref<4xf32>) {
  // expected-error @+1 {{buffer #0 has type 'memref<?xf32>'; buffers need a static shape}}
  dloop.kernel @k ins(%x = %arg0 : memref<?xf32>) outs(%y = %arg1 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_layout(%arg0: memref<4xf32>, %arg1: memref<4xf32, strided<[2]>>) {
  // expected-error @+1 {{buffer #1 has type 'memref<4xf32, strided<[2]>>'; buffers need an identity layout}}
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32, strided<[2]>>) {
  }
  return
}

// -----

func.func @kernel_alias(%arg0: memref<4xf32>) {
  // expected-error @+1 {{buffer #1 is passed twice (also as buffer #0)}}
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_not_memref(%arg0: tensor<4xf32>, %arg1: memref<4xf32>) {
  // expected-error @+1 {{operand #0 must be variadic of memref of any type values}}
  dloop.kernel @k ins(%x = %arg0 : tensor<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_arity(%arg0: memref<4xf32>) {
  // expected-error @+1 {{body takes 0 arguments but the kernel has 1 buffers}}
  "dloop.kernel"(%arg0) <{operandSegmentSizes = array<i32: 0, 1>, sym_name = "k"}> ({
    "dloop.yield"() : () -> ()
  }) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @kernel_arg_type(%arg0: memref<4xf32>) {
  // expected-error @+1 {{body argument #0 has type 'memref<8xf32>', expected 'memref<4xf32>'}}
  "dloop.kernel"(%arg0) <{operandSegmentSizes = array<i32: 0, 1>, sym_name = "k"}> ({
  ^bb0(%y: memref<8xf32>):
    "dloop.yield"() : () -> ()
  }) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @kernel_yield_value(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %c = arith.constant 0.0 : f32
    // expected-error @+1 {{dloop.kernel body yields no values}}
    dloop.yield %c : f32
  }
  return
}

// -----

func.func @yield_outside(%x: f32) {
  // expected-error @+1 {{'dloop.yield' op expects parent op to be one of 'dloop.kernel, dloop.for'}}
  dloop.yield %x : f32
}

// -----

//===----------------------------------------------------------------------===//
// dloop.for
//===----------------------------------------------------------------------===//

func.func @for_lower_bound(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{expected the lower bound 0; dloop.for always starts at 0}}
    dloop.for %i = 1 to 4 free "i" {
    }
  }
  return
}

// -----

func.func @for_kind(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{expected loop kind 'free' or 'reduce'}}
    dloop.for %i = 0 to 4 parallel "i" {
    }
  }
  return
}

// -----

func.func @for_extent(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{extent must be at least 1, got 0}}
    dloop.for %i = 0 to 0 free "i" {
    }
  }
  return
}

// -----

func.func @for_axis_name(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{axis name "1i" is not an identifier}}
    dloop.for %i = 0 to 4 free "1i" {
    }
  }
  return
}

// -----

func.func @for_unroll(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{unroll factor must be at least 1, got 0}}
    dloop.for %i = 0 to 4 free "i" unroll 0 {
    }
  }
  return
}

// -----

func.func @for_free_carries(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{a free loop cannot carry values; use a reduce loop}}
    %s = dloop.for %i = 0 to 4 free "i" iter(%acc = %zero : f32) {
      dloop.yield %acc : f32
    }
  }
  return
}

// -----

func.func @for_result_count(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{expected 1 results, one per init, got 2}}
    %s:2 = "dloop.for"(%zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32}> ({
    ^bb0(%k: index, %acc: f32):
      "dloop.yield"(%acc) : (f32) -> ()
    }) : (f32) -> (f32, f32)
  }
  return
}

// -----

func.func @for_result_type(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{result #0 has type 'f16' but its init has type 'f32'}}
    %s = "dloop.for"(%zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32}> ({
    ^bb0(%k: index, %acc: f32):
      "dloop.yield"(%acc) : (f32) -> ()
    }) : (f32) -> f16
  }
  return
}

// -----

func.func @for_shadow(%arg0: memref<4x4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4x4xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %i = 0 to 4 free "k" {
      // expected-error @+1 {{axis "k" shadows an enclosing axis}}
      dloop.for %j = 0 to 4 free "k" {
        dloop.store %zero, %y[%i, %j] : memref<4x4xf32>
      }
    }
  }
  return
}

// -----

func.func @for_arity(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{body takes 1 arguments but the loop needs 2 (the induction variable and one per init)}}
    %s = "dloop.for"(%zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32}> ({
    ^bb0(%k: index):
      "dloop.yield"(%zero) : (f32) -> ()
    }) : (f32) -> f32
  }
  return
}

// -----

func.func @for_induction_type(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{induction variable has type 'i32', expected 'index'}}
    "dloop.for"() <{axis = "i", extent = 4 : i64, kind = 0 : i32}> ({
    ^bb0(%i: i32):
      "dloop.yield"() : () -> ()
    }) : () -> ()
  }
  return
}

// -----

func.func @for_iter_arg_type(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{iter arg #0 has type 'f16' but its init has type 'f32'}}
    %s = "dloop.for"(%zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32}> ({
    ^bb0(%k: index, %acc: f16):
      "dloop.yield"(%acc) : (f16) -> ()
    }) : (f32) -> f32
  }
  return
}

// -----

func.func @for_yield_count(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{body yields 0 values but the loop carries 1}}
    %s = dloop.for %k = 0 to 4 reduce "k" iter(%acc = %zero : f32) {
    }
  }
  return
}

// -----

func.func @for_yield_type(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{yielded value #0 has type 'i32' but iter arg #0 has type 'f32'}}
    %s = dloop.for %k = 0 to 4 reduce "k" iter(%acc = %zero : f32) {
      %i = arith.fptosi %acc : f32 to i32
      dloop.yield %i : i32
    }
  }
  return
}

// -----

func.func @for_reduce_nothing(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    // expected-error @+1 {{a reduce loop must carry an accumulator or contain a reducing store}}
    dloop.for %k = 0 to 4 reduce "k" {
      %v = dloop.load %x[%k] : memref<4xf32>
      dloop.store %v, %y[%k] : memref<4xf32>
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// dloop.load and dloop.store
//===----------------------------------------------------------------------===//

func.func @load_rank(%arg0: memref<4x4xf32>, %arg1: memref<4xf32>) {
  dloop.kernel @k ins(%x = %arg0 : memref<4x4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      // expected-error @+1 {{map has 1 results but the memref has rank 2}}
      %v = dloop.load %x[%i] : memref<4x4xf32>
    }
  }
  return
}

// -----

func.func @load_operands(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      // expected-error @+1 {{map takes 2 operands but 1 indices are given}}
      %v = "dloop.load"(%x, %i) <{map = affine_map<(d0, d1) -> (d0 + d1)>}> : (memref<4xf32>, index) -> f32
    }
  }
  return
}

// -----

func.func @load_index_type(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %n: i32) {
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    %c = arith.constant 1 : i32
    // expected-error @+1 {{operand #1 must be variadic of index, but got 'i32'}}
    %v = "dloop.load"(%x, %c) <{map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>, i32) -> f32
  }
  return
}

// -----

func.func @load_result_type(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    // expected-error @+1 {{failed to verify that result type matches the memref element type}}
    %v = "dloop.load"(%x) <{map = affine_map<() -> (0)>}> : (memref<4xf32>) -> f16
  }
  return
}

// -----

func.func @load_out_of_bounds(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      // expected-error @+1 {{reads out of bounds: index 0 (d0 + 1) ranges over [1, 4] but dimension 0 has size 4}}
      %v = dloop.load %x[%i + 1] : memref<4xf32>
      dloop.store %v, %y[%i] : memref<4xf32>
    }
  }
  return
}

// -----

/// An index computed by affine.apply is bounded through the apply's map.
func.func @load_out_of_bounds_apply(%arg0: memref<2x3xf32>, %arg1: memref<2x7xf32>) {
  dloop.kernel @k ins(%b = %arg0 : memref<2x3xf32>) outs(%y = %arg1 : memref<2x7xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 7 free "j" {
        %jb = affine.apply affine_map<(d0) -> (d0 - 4)>(%j)
        // expected-error @+1 {{reads out of bounds: index 1 (d1) ranges over [-4, 2] but dimension 1 has size 3}}
        %v = dloop.load %b[%i, %jb] : memref<2x3xf32>
        dloop.store %v, %y[%i, %j] : memref<2x7xf32>
      }
    }
  }
  return
}

// -----

/// An scf.if narrows the loop variable it tests: in the else-region of
/// `%j < 4`, %j ranges over [4, 6].
func.func @load_out_of_bounds_guarded(%arg0: memref<2x4xf32>, %arg1: memref<2x7xf32>) {
  dloop.kernel @k ins(%a = %arg0 : memref<2x4xf32>) outs(%y = %arg1 : memref<2x7xf32>) {
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 7 free "j" {
        %first = arith.cmpi ult, %j, %c4 : index
        %v = scf.if %first -> f32 {
          scf.yield %zero : f32
        } else {
          // expected-error @+1 {{reads out of bounds: index 1 (d1) ranges over [4, 6] but dimension 1 has size 4}}
          %av = dloop.load %a[%i, %j] : memref<2x4xf32>
          scf.yield %av : f32
        }
        dloop.store %v, %y[%i, %j] : memref<2x7xf32>
      }
    }
  }
  return
}

// -----

func.func @store_out_of_bounds(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{writes out of bounds: index 0 (d0) ranges over [4, 4] but dimension 0 has size 4}}
    dloop.store %zero, %y[%c4] : memref<4xf32>
  }
  return
}

// -----

func.func @store_value_type(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %c = arith.constant 1 : i32
    // expected-error @+1 {{failed to verify that value type matches the memref element type}}
    "dloop.store"(%c, %y) <{map = affine_map<() -> (0)>}> : (i32, memref<4xf32>) -> ()
  }
  return
}

// -----

func.func @store_reduce_kind_parse(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{expected reduce kind 'add', 'mul', 'max' or 'min'}}
    dloop.store sum %zero, %y[0] : memref<4xf32>
  }
  return
}

// -----

func.func @store_into_input(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-note @+1 {{kernel is here}}
  dloop.kernel @k ins(%x = %a : memref<4xf32>) outs(%y = %b : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.store %zero, %y[%i] : memref<4xf32>
      // expected-error @+1 {{writes input #0 of its kernel; inputs are read-only}}
      dloop.store %zero, %x[%i] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @store_minnum_int(%arg0: memref<4xi32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xi32>) {
    %c = arith.constant 1 : i32
    // expected-error @+1 {{a minnum reduction needs float elements, got 'i32'}}
    dloop.store minnum %c, %y[0] : memref<4xi32>
  }
  return
}

// -----

func.func @store_reduce_element(%arg0: memref<4xvector<2xf32>>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xvector<2xf32>>) {
    %c = arith.constant dense<1.0> : vector<2xf32>
    // expected-error @+1 {{a reducing store needs integer or float elements, got 'vector<2xf32>'}}
    dloop.store add %c, %y[0] : memref<4xvector<2xf32>>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Private buffers
//===----------------------------------------------------------------------===//

func.func @private_dynamic(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %n = arith.constant 4 : index
    // expected-error @+1 {{'memref.alloca' op in a dloop.kernel is a private buffer and needs a static shape, the identity layout and the default memory space, got 'memref<?xf32>'}}
    %t = memref.alloca(%n) : memref<?xf32>
  }
  return
}

// -----

func.func @private_escapes(%arg0: memref<4xf32>) {
  dloop.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %t = memref.alloca() : memref<4xf32>
    // expected-error @+1 {{'memref.copy' op uses a private buffer of its kernel; only dloop.load and dloop.store may}}
    memref.copy %t, %y : memref<4xf32> to memref<4xf32>
  }
  return
}
