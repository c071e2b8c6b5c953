// RUN: deplodock-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #dtile.knobs
//===----------------------------------------------------------------------===//

func.func @knob_unknown(%arg0: memref<4xf32>) {
  // expected-error @+1 {{unknown knob 'BZ' (knobs: wgmma, warpgroups, wgmma_n, wgmma_split_k, tensor_cores, WM, WN, warps, mma_k, mma_pad, mma_swizzle, mma_split_k, BK, }}
  dtile.kernel @k knobs<BZ = 32> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @knob_not_integer(%arg0: memref<4xf32>) {
  // expected-error @+1 {{knob 'BK' expects an integer}}
  dtile.kernel @k knobs<BK = true> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @knob_not_boolean(%arg0: memref<4xf32>) {
  // expected-error @+1 {{knob 'tma' expects a boolean}}
  dtile.kernel @k knobs<tma = 1> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @knob_not_list(%arg0: memref<4xf32>) {
  // expected-error @+1 {{knob 'stage' expects a list of integers}}
  dtile.kernel @k knobs<stage = 0> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @knob_negative(%arg0: memref<4xf32>) {
  // expected-error @+1 {{knob 'BM' must not be negative}}
  dtile.kernel @k knobs<BM = -64> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @knob_negative_list(%arg0: memref<4xf32>) {
  // expected-error @+1 {{knob 'stage' must not be negative}}
  dtile.kernel @k knobs<stage = [0, -1]> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @knob_twice(%arg0: memref<4xf32>) {
  // expected-error @+1 {{knob 'BK' is set twice}}
  dtile.kernel @k knobs<BK = 32, BK = 64> outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

// The same checks hold where the attribute stands alone.
// expected-error @+1 {{unknown knob 'threads_per_row'}}
func.func @knob_standalone() attributes {dtile.knobs = #dtile.knobs<threads_per_row = 4>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// dtile.kernel
//===----------------------------------------------------------------------===//

func.func @kernel_name(%arg0: memref<4xf32>) {
  // expected-error @+1 {{name "1st" is not a C identifier; it becomes the CUDA function name}}
  dtile.kernel @"1st" outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_no_output(%arg0: memref<4xf32>) {
  // expected-error @+1 {{expected at least one output buffer}}
  dtile.kernel @k ins(%x = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_dynamic_shape(%arg0: memref<?xf32>, %arg1: memref<4xf32>) {
  // expected-error @+1 {{buffer #0 has type 'memref<?xf32>'; buffers need a static shape}}
  dtile.kernel @k ins(%x = %arg0 : memref<?xf32>) outs(%y = %arg1 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_layout(%arg0: memref<4xf32>, %arg1: memref<4xf32, strided<[2]>>) {
  // expected-error @+1 {{buffer #1 has type 'memref<4xf32, strided<[2]>>'; buffers need an identity layout}}
  dtile.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32, strided<[2]>>) {
  }
  return
}

// -----

func.func @kernel_alias(%arg0: memref<4xf32>) {
  // expected-error @+1 {{buffer #1 is passed twice (also as buffer #0)}}
  dtile.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg0 : memref<4xf32>) {
  }
  return
}

// -----

func.func @kernel_arity(%arg0: memref<4xf32>) {
  // expected-error @+1 {{body takes 0 arguments but the kernel has 1 buffers}}
  "dtile.kernel"(%arg0) <{knobs = #dtile.knobs<>, operandSegmentSizes = array<i32: 0, 1>, sym_name = "k"}> ({
    "dtile.yield"() : () -> ()
  }) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @kernel_arg_type(%arg0: memref<4xf32>) {
  // expected-error @+1 {{body argument #0 has type 'memref<8xf32>', expected 'memref<4xf32>'}}
  "dtile.kernel"(%arg0) <{knobs = #dtile.knobs<>, operandSegmentSizes = array<i32: 0, 1>, sym_name = "k"}> ({
  ^bb0(%y: memref<8xf32>):
    "dtile.yield"() : () -> ()
  }) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @kernel_two_tiles(%arg0: memref<4xf32>) {
  // expected-error @+1 {{expected at most one dtile.tile in a kernel}}
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
    }
    dtile.tile threads(%t : 4 "t") {
    }
  }
  return
}

// -----

func.func @kernel_yield_value(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %c = arith.constant 0.0 : f32
    // expected-error @+1 {{dtile.kernel body yields no values}}
    dtile.yield %c : f32
  }
  return
}

// -----

func.func @yield_outside(%x: f32) {
  // expected-error @+1 {{'dtile.yield' op expects parent op to be one of 'dtile.kernel, dtile.tile, dtile.strided_for, dtile.stage'}}
  dtile.yield %x : f32
}

// -----

//===----------------------------------------------------------------------===//
// dtile.tile
//===----------------------------------------------------------------------===//

func.func @tile_outside_kernel() {
  // expected-error @+1 {{'dtile.tile' op expects parent op 'dtile.kernel'}}
  dtile.tile threads(%t : 4 "t") {
  }
  return
}

// -----

func.func @tile_extents(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{expected one extent per axis}}
    "dtile.tile"() <{block_axes = ["r"], block_extents = array<i64>, thread_axes = [], thread_extents = array<i64>}> ({
    ^bb0(%r: index):
      "dtile.yield"() : () -> ()
    }) : () -> ()
  }
  return
}

// -----

func.func @tile_no_axes(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{expected at least one block or thread axis}}
    dtile.tile {
    }
  }
  return
}

// -----

func.func @tile_arguments(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{expected one index block argument per axis}}
    "dtile.tile"() <{block_axes = ["r"], block_extents = array<i64: 4>, thread_axes = [], thread_extents = array<i64>}> ({
    ^bb0(%r: i32):
      "dtile.yield"() : () -> ()
    }) : () -> ()
  }
  return
}

// -----

func.func @tile_axis_name(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{axis name "thread x" is not an identifier}}
    dtile.tile threads(%t : 4 "thread x") {
    }
  }
  return
}

// -----

func.func @tile_axis_twice(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{axis "i" is bound twice}}
    dtile.tile blocks(%b : 4 "i") threads(%t : 4 "i") {
    }
  }
  return
}

// -----

func.func @tile_extent(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{axis extents must be at least 1, got 0}}
    dtile.tile blocks(%b : 0 "b") threads(%t : 4 "t") {
    }
  }
  return
}

// -----

func.func @tile_threads(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{binds 2048 threads per block; the limit is 1024}}
    dtile.tile threads(%ty : 8 "ty", %tx : 256 "tx") {
    }
  }
  return
}

// -----

/// The thread count saturates rather than wrapping around below the limit
/// (2^32 * 2^32 would wrap to 0).
func.func @tile_threads_overflow(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{binds more than 9223372036854775807 threads per block; the limit is 1024}}
    dtile.tile threads(%ty : 4294967296 "ty", %tx : 4294967296 "tx") {
    }
  }
  return
}

// -----

func.func @tile_yield_value(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      %c = arith.constant 0.0 : f32
      // expected-error @+1 {{dtile.tile body yields no values}}
      dtile.yield %c : f32
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// dtile.strided_for
//===----------------------------------------------------------------------===//

func.func @strided_kind(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{expected 'free' or 'reduce'}}
      dtile.strided_for %i = %t to 4 step 4 parallel "i" {
      }
    }
  }
  return
}

// -----

func.func @strided_extent(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{extent must be at least 1, got 0}}
      dtile.strided_for %i = %t to 0 step 4 free "i" {
      }
    }
  }
  return
}

// -----

func.func @strided_step(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{step must be at least 1, got 0}}
      dtile.strided_for %i = %t to 4 step 0 free "i" {
      }
    }
  }
  return
}

// -----

func.func @strided_unroll(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{unroll factor must be at least 1, got 0}}
      dtile.strided_for %i = %t to 4 step 4 free "i" unroll 0 {
      }
    }
  }
  return
}

// -----

func.func @strided_axis_name(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{axis name "i-1" is not an identifier}}
      dtile.strided_for %i = %t to 4 step 4 free "i-1" {
      }
    }
  }
  return
}

// -----

func.func @strided_free_carries(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{a free loop cannot carry values; use a reduce loop}}
      %s = dtile.strided_for %i = %t to 4 step 4 free "i" iter(%acc = %zero : f32) {
        dtile.yield %acc : f32
      }
    }
  }
  return
}

// -----

func.func @strided_arity(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{body takes 0 arguments but the loop needs 2 (the induction variable and one per init)}}
      %s = "dtile.strided_for"(%t, %zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32, step = 4 : i64}> ({
        "dtile.yield"(%zero) : (f32) -> ()
      }) : (index, f32) -> f32
    }
  }
  return
}

// -----

func.func @strided_induction_type(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{induction variable has type 'i32', expected 'index'}}
      "dtile.strided_for"(%t) <{axis = "i", extent = 4 : i64, kind = 0 : i32, step = 4 : i64}> ({
      ^bb0(%i: i32):
        "dtile.yield"() : () -> ()
      }) : (index) -> ()
    }
  }
  return
}

// -----

func.func @strided_iter_arg_type(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{iter arg #0 has type 'f16' but its init has type 'f32'}}
      %s = "dtile.strided_for"(%t, %zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32, step = 4 : i64}> ({
      ^bb0(%k: index, %acc: f16):
        "dtile.yield"(%acc) : (f16) -> ()
      }) : (index, f32) -> f32
    }
  }
  return
}

// -----

func.func @strided_result_count(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{expected 1 results, one per init, got 2}}
      %s:2 = "dtile.strided_for"(%t, %zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32, step = 4 : i64}> ({
      ^bb0(%k: index, %acc: f32):
        "dtile.yield"(%acc) : (f32) -> ()
      }) : (index, f32) -> (f32, f32)
    }
  }
  return
}

// -----

func.func @strided_result_type(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{result #0 has type 'f16' but its init has type 'f32'}}
      %s = "dtile.strided_for"(%t, %zero) <{axis = "k", extent = 4 : i64, kind = 1 : i32, step = 4 : i64}> ({
      ^bb0(%k: index, %acc: f32):
        "dtile.yield"(%acc) : (f32) -> ()
      }) : (index, f32) -> f16
    }
  }
  return
}

// -----

func.func @strided_yield_count(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{body yields 0 values but the loop carries 1}}
      %s = dtile.strided_for %k = %t to 4 step 4 reduce "k" iter(%acc = %zero : f32) {
      }
    }
  }
  return
}

// -----

func.func @strided_yield_type(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{yielded value #0 has type 'i32' but iter arg #0 has type 'f32'}}
      %s = dtile.strided_for %k = %t to 4 step 4 reduce "k" iter(%acc = %zero : f32) {
        %i = arith.fptosi %acc : f32 to i32
        dtile.yield %i : i32
      }
    }
  }
  return
}

// -----

func.func @strided_reduce_nothing(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{a reduce loop must carry an accumulator or contain a reducing store}}
      dtile.strided_for %k = %t to 4 step 4 reduce "k" {
        %v = dloop.load %x[%k] : memref<4xf32>
        dloop.store %v, %y[%k] : memref<4xf32>
      }
    }
  }
  return
}

// -----

func.func @strided_shadows_tile_axis(%arg0: memref<4x64xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%r : 4 "r") threads(%t : 16 "t") {
      // expected-error @+1 {{axis "t" shadows an enclosing axis}}
      dtile.strided_for %c = %t to 64 step 16 free "t" {
        dloop.store %zero, %y[%r, %c] : memref<4x64xf32>
      }
    }
  }
  return
}

// -----

func.func @for_shadows_strided_axis(%arg0: memref<64x4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<64x4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 16 "t") {
      dtile.strided_for %c = %t to 64 step 16 free "c" {
        // expected-error @+1 {{'dloop.for' op axis "c" shadows an enclosing axis}}
        dloop.for %j = 0 to 4 free "c" {
          dloop.store %zero, %y[%c, %j] : memref<64x4xf32>
        }
      }
    }
  }
  return
}

// -----

/// The loop variable of a strided loop is bounded by its extent, so a read
/// past a smaller buffer is caught.
func.func @strided_out_of_bounds(%arg0: memref<64xf32>, %arg1: memref<32xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<32xf32>) {
    dtile.tile threads(%t : 16 "t") {
      dtile.strided_for %c = %t to 64 step 16 free "c" {
        %v = dloop.load %x[%c] : memref<64xf32>
        // expected-error @+1 {{writes out of bounds: index 0 (d0) ranges over [0, 63] but dimension 0 has size 32}}
        dloop.store %v, %y[%c] : memref<32xf32>
      }
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// dtile.stage
//===----------------------------------------------------------------------===//

func.func @stage_map_rank(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{origin map has 1 results for a rank-2 source}}
      %s = dtile.stage %x[%b * 16] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_map_inputs(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{origin map takes 2 indices but 1 are given}}
      %s = "dtile.stage"(%x, %b) <{box = array<i64: 16, 64>, map = affine_map<(d0, d1) -> (d0 * 16, d1)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
      }) : (memref<64x64xf32>, index) -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_box_rank(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{box has rank 1 but the source has rank 2}}
      %s = dtile.stage %x[%b * 16, 0] box [16] : memref<64x64xf32> -> memref<16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_box_extent(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{box extent 128 of dimension 1 is outside [1, 64]}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 128] : memref<64x64xf32> -> memref<16x128xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_zero_fill_origin(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{origin 0 (d0 * 32) ranges over [0, 96], outside the dimension of size 64}}
      %s = dtile.stage %x[%b * 32, 0] box [32, 64] zero_fill : memref<64x64xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_pad_rank(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{expected one padding per box dimension}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] pad [1] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_pad_negative(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{padding must not be negative}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] pad [0, -1] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// A buffer count past any shared memory (fuzz seed 27, ir #2684: the
// interpreter allocated that many slabs and died) is refused.
func.func @stage_too_many_buffers(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{holds 9223372036854775807 buffers of its box, more than 4 GiB of shared memory}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] buffers 9223372036854775807 slot %c0 : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_no_buffer(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{expected at least one buffer}}
      %s = "dtile.stage"(%x, %b) <{box = array<i64: 16, 64>, buffers = 0 : i64, map = affine_map<(d0) -> (d0 * 16, 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
      }) : (memref<64x64xf32>, index) -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_slot_one_buffer(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a slot operand is needed exactly when there are several buffers}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] buffers 1 slot %c0 : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_buffers_no_slot(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a slot operand is needed exactly when there are several buffers}}
      %s = "dtile.stage"(%x, %b) <{box = array<i64: 16, 64>, buffers = 2 : i64, map = affine_map<(d0) -> (d0 * 16, 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
      }) : (memref<64x64xf32>, index) -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_transport(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{expected 'sync', 'cp_async' or 'tma'}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] transport bulk : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_swizzle_width(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{swizzle must be 0, 32, 64 or 128 bytes, got 16}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transport tma swizzle 16 : memref<64x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_swizzle_padded(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a swizzled stage cannot be padded: the swizzle already spreads its rows over the banks}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] pad [0, 4] transport cp_async swizzle 128 : memref<64x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// Rows of 33 f32: no 8-byte run is aligned in the source.
func.func @stage_vector_unaligned(%arg0: memref<64x33xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x33xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a vector stage needs rows that allow aligned runs of 8 or 16 bytes in the source and the slab}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transport vector : memref<64x33xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_vector_zero_fill(%arg0: memref<60x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<60x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a vector stage cannot zero-fill}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] zero_fill transport vector : memref<60x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_swizzle_segments(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a 128-byte swizzle splits the inner box dimension into 128-byte segments, but its rows are 96 bytes}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 24] transport tma swizzle 128 : memref<64x64xf32> -> memref<16x24xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_swizzle_rows(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 16 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a swizzled box needs a multiple of 8 rows (the pattern repeats every 8), got 4}}
      %s = dtile.stage %x[%b * 4, 0] box [4, 32] transport tma swizzle 128 : memref<64x64xf32> -> memref<4x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_tma_padded(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a tma stage cannot be padded: TMA writes the box densely; swizzle it instead}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] pad [0, 1] transport tma : memref<64x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_result_space(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{result must live in workgroup memory}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32>
    }
  }
  return
}

// -----

func.func @stage_result_shape(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{result must be the box of the source, 'memref<16x64xf32, #gpu.address_space<workgroup>>'}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<64x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// Padding does not change the slab's type: the layout stays the identity.
func.func @stage_result_layout(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{result must be the box of the source, 'memref<16x64xf32, #gpu.address_space<workgroup>>'}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] pad [0, 1] : memref<64x64xf32> -> memref<16x64xf32, strided<[65, 1]>, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_outside_tile(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    // expected-error @+1 {{must be inside a dtile.tile}}
    %s = dtile.stage %x[0, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

/// Block 3 of 4 would copy rows 48..79 of a 64-row buffer.
func.func @stage_out_of_bounds(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{origin 0 (d0 * 16) ranges over [0, 48], but a box of extent 32 in a dimension of size 64 must start in [0, 32]}}
      %s = dtile.stage %x[%b * 16, 0] box [32, 64] : memref<64x64xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// Without the guard of a double-buffered loop, the stage of the next chunk
/// reads past the end in the last iteration.
func.func @stage_next_chunk_unguarded(%arg0: memref<64x256xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x256xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      dloop.for %ko = 0 to 8 free "k_o" {
        // expected-error @+1 {{origin 1 (d1 * 32 + 32) ranges over [32, 256], but a box of extent 32 in a dimension of size 256 must start in [0, 224]}}
        %s = dtile.stage %x[%b * 16, %ko * 32 + 32] box [16, 32] transport cp_async : memref<64x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      }
    }
  }
  return
}

// -----

/// The K loop variable is not a slot number: it runs past the two buffers.
func.func @stage_slot_range(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      dloop.for %ko = 0 to 4 free "k_o" {
        // expected-error @+1 {{slot ranges over [0, 3] but the stage has 2 buffers}}
        %s = dtile.stage %x[%b * 16, 0] box [16, 64] buffers 2 slot %ko transport cp_async : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
      }
    }
  }
  return
}

// -----

func.func @stage_slot_constant(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    %c2 = arith.constant 2 : index
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{slot ranges over [2, 2] but the stage has 2 buffers}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] buffers 2 slot %c2 : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// dtile.combine
//===----------------------------------------------------------------------===//

func.func @combine_type(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %v = arith.constant dense<1.0> : vector<2xf32>
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{expected an integer or float value}}
      %s = dtile.combine add %v over ["t"] : vector<2xf32>
    }
  }
  return
}

// -----

func.func @combine_outside_tile(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %v = arith.constant 1.0 : f32
    // expected-error @+1 {{must be inside a dtile.tile}}
    %s = dtile.combine add %v over ["t"] : f32
  }
  return
}

// -----

func.func @combine_maxnum_int(%arg0: memref<4xi32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xi32>) {
    %v = arith.constant 1 : i32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{a maxnum reduction needs float elements, got 'i32'}}
      %s = dtile.combine maxnum %v over ["t"] : i32
    }
  }
  return
}

// -----

func.func @combine_over_nothing(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %v = arith.constant 1.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{expected at least one thread axis to combine over}}
      %s = dtile.combine add %v over [] : f32
    }
  }
  return
}

// -----

func.func @combine_block_axis(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %v = arith.constant 1.0 : f32
    dtile.tile blocks(%r : 4 "r") threads(%t : 4 "t") {
      // expected-error @+1 {{"r" is not a thread axis of the tile}}
      %s = dtile.combine add %v over ["r"] : f32
    }
  }
  return
}

// -----

func.func @combine_axis_twice(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    %v = arith.constant 1.0 : f32
    dtile.tile threads(%ty : 4 "ty", %tx : 4 "tx") {
      // expected-error @+1 {{axis "tx" is listed twice}}
      %s = dtile.combine add %v over ["tx", "ty", "tx"] : f32
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// dtile.async_wait
//===----------------------------------------------------------------------===//

func.func @async_wait_keep(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{keep must not be negative}}
      dtile.async_wait keep -1
    }
  }
  return
}

// -----

func.func @async_wait_outside_tile(%arg0: memref<4xf32>) {
  dtile.kernel @k outs(%y = %arg0 : memref<4xf32>) {
    // expected-error @+1 {{must be inside a dtile.tile}}
    dtile.async_wait keep 0
  }
  return
}

// -----

func.func @store_into_input(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-note @+1 {{kernel is here}}
  dtile.kernel @k ins(%x = %a : memref<4xf32>) outs(%y = %b : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 4 "t") {
      // expected-error @+1 {{writes input #0 of its kernel; inputs are read-only}}
      dloop.store %zero, %x[%t] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @zero_init_not_an_output(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{zero_init index 1 is not an output (the kernel has 1)}}
  dtile.kernel @k zero_init [1] ins(%x = %a : memref<4xf32>) outs(%y = %b : memref<4xf32>) {
  }
  return
}

// -----

func.func @zero_init_unsorted(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{zero_init indices must be strictly increasing}}
  dtile.kernel @k zero_init [0, 0] outs(%x = %a : memref<4xf32>, %y = %b : memref<4xf32>) {
  }
  return
}

// -----

func.func @stage_transpose_shape(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{result must be the box of the source with its two innermost dimensions swapped, 'memref<32x16xf32, #gpu.address_space<workgroup>>'}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transpose : memref<64x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_transpose_rank(%arg0: memref<64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{transposes the two innermost dimensions of its box, which needs a rank of 2 or more, got 1}}
      %s = dtile.stage %x[%b * 16] box [16] transpose : memref<64xf32> -> memref<16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// TMA writes the box as the source holds it.
func.func @stage_transpose_tma(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a transposed stage is copied one element at a time, which transport tma cannot do}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transpose transport tma : memref<64x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_transpose_vector(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a vector stage needs rows that allow aligned runs of 8 or 16 bytes in the source and the slab}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transpose transport vector : memref<64x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @stage_transpose_swizzle(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a transposed stage cannot be swizzled}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transpose transport cp_async swizzle 128 : memref<64x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// cp.async moves 4 bytes at least: two halves would land in two places.
func.func @stage_transpose_cp_async_half(%arg0: memref<64x64xf16>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf16>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a transposed cp_async stage copies 4-byte elements one at a time, but its elements are 2 bytes}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 32] transpose transport cp_async : memref<64x64xf16> -> memref<32x16xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// Apply buffers name what a region reads: without one they mean nothing.
func.func @stage_apply_no_region(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{has apply buffers but no apply region}}
      %s = "dtile.stage"(%x, %b, %u) <{box = array<i64: 16, 64>, map = affine_map<(d0) -> (d0 * 16, 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 1>}> ({
      }) : (memref<64x64xf32>, index, memref<64x64xf32>) -> memref<16x64xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// The apply buffers are read at the source's index: same shape.
func.func @stage_apply_shape(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{apply buffer 0 has shape 'memref<64x32xf32>', not the source's 'memref<64x64xf32>'}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply(%w : memref<64x32xf32>) {
      ^bb0(%a: f32, %c: f32):
        dtile.yield %a : f32
      }
    }
  }
  return
}

// -----

/// One argument per buffer read, of its element type.
func.func @stage_apply_arguments(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{apply region takes one element of the source and of each apply buffer, 2 arguments of their element types}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply(%u : memref<64x64xf32>) {
      ^bb0(%a: f32):
        dtile.yield %a : f32
      }
    }
  }
  return
}

// -----

/// The region computes one element from elements: no memory, no regions.
func.func @stage_apply_region_op(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply() {
      ^bb0(%a: f32):
        // expected-error @+1 {{cannot compute a stage's slab: an apply region holds only scalar computations}}
        %r = scf.execute_region -> f32 {
          scf.yield %a : f32
        }
        dtile.yield %r : f32
      }
    }
  }
  return
}

// -----

/// The region yields the one element of the slab.
func.func @stage_apply_yield(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{apply region must yield one element}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply() {
      ^bb0(%a: f32):
        dtile.yield %a, %a : f32, f32
      }
    }
  }
  return
}

// -----

/// The slab holds what the region yields.
func.func @stage_apply_result(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{result must be the box of the source, 'memref<16x64xf16, #gpu.address_space<workgroup>>'}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply() {
      ^bb0(%a: f32):
        %h = arith.truncf %a : f32 to f16
        dtile.yield %h : f16
      }
    }
  }
  return
}

// -----

/// cp.async and TMA bypass the registers a region computes in.
func.func @stage_apply_transport(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x32xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>, %u = %arg1 : memref<64x64xf32>, %w = %arg2 : memref<64x32xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{a computed stage passes its values through registers: its transport must be sync, not cp_async}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] transport cp_async : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply(%u : memref<64x64xf32>) {
      ^bb0(%a: f32, %c: f32):
        %p = arith.mulf %a, %c : f32
        dtile.yield %p : f32
      }
    }
  }
  return
}

// -----

/// A region without its yield computes nothing.
func.func @stage_apply_empty(%arg0: memref<64x64xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{apply region must yield one element}}
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply() {
      ^bb0(%a: f32):
      }
    }
  }
  return
}

// -----

/// Elements, not shaped values: a tensor constant has no place in it.
func.func @stage_apply_tensor(%arg0: memref<64x64xf32>, %arg3: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg3 : memref<4xf32>) {
    dtile.tile blocks(%b : 4 "b") threads(%t : 32 "t") {
      %s = dtile.stage %x[%b * 16, 0] box [16, 64] : memref<64x64xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>> apply() {
      ^bb0(%a: f32):
        // expected-error @+1 {{cannot compute a stage's slab: an apply region holds only scalar computations}}
        %c = arith.constant dense<1.0> : tensor<4xf32>
        dtile.yield %a : f32
      }
    }
  }
  return
}
