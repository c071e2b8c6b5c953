// RUN: deplodock-opt %s -convert-dtile-to-dkernel -split-input-file -verify-diagnostics

// The threads sharing a result of a combine over the outer axis are 64
// apart, not contiguous lanes.
func.func @strided_combine(%arg0: memref<4x64xf32>, %arg1: memref<4x64xf32>) {
  dtile.kernel @strided_combine ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %arg1 : memref<4x64xf32>) {
    dtile.tile threads(%ty : 4 "ty", %tx : 64 "tx") {
      %v = dloop.load %x[%ty, %tx] : memref<4x64xf32>
      // expected-error @+1 {{'dtile.combine' op combines over thread axes that are not the innermost ones (["ty", "tx"]), so the threads sharing a result are not contiguous lanes}}
      %s = dtile.combine add %v over ["ty"] : f32
      dloop.store %s, %y[%ty, %tx] : memref<4x64xf32>
    }
  }
  return
}

// -----

// Booleans have no reduction in Kernel IR.
func.func @bool_combine(%arg0: memref<64xf32>, %arg1: memref<64xi32>) {
  dtile.kernel @bool_combine ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xi32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32>
      %pos = arith.cmpf ogt, %v, %zero : f32
      // expected-error @+1 {{'dtile.combine' op cannot combine values of type 'i1' in Kernel IR}}
      %any = dtile.combine max %pos over ["t"] : i1
      %w = arith.extui %any : i1 to i32
      dloop.store %w, %y[%t] : memref<64xi32>
    }
  }
  return
}

// -----

// One f16 per row: no run of 4 bytes fits.
func.func @cp_async_misaligned(%arg0: memref<64x8xf16>, %arg1: memref<64xf16>) {
  dtile.kernel @cp_async_misaligned ins(%x = %arg0 : memref<64x8xf16>) outs(%y = %arg1 : memref<64xf16>) {
    dtile.tile threads(%t : 64 "t") {
      // expected-error @+1 {{'dtile.stage' op cannot be copied with cp.async: no run of 4, 8 or 16 bytes of 'f16' is aligned in both the source and the slab}}
      %s = dtile.stage %x[0, 3] box [64, 1] transport cp_async : memref<64x8xf16> -> memref<64x1xf16, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %v = dloop.load %s[%t, 0] : memref<64x1xf16, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<64xf16>
    }
  }
  return
}

// -----

// A stage copies from a kernel buffer, not from another slab.
func.func @stage_of_slab(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>) {
  dtile.kernel @stage_of_slab ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<64x64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %s = dtile.stage %x[0, 0] box [64, 64] : memref<64x64xf32> -> memref<64x64xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'dtile.stage' op stages a buffer that is not a kernel buffer}}
      %s2 = dtile.stage %s[0, 0] box [32, 32] : memref<64x64xf32, #gpu.address_space<workgroup>> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s2[%t mod 32, 0] : memref<32x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t, 0] : memref<64x64xf32>
    }
  }
  return
}

// -----

// Slabs are read-only.
func.func @store_to_slab(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @store_to_slab ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %one = arith.constant 1.0 : f32
    dtile.tile threads(%t : 64 "t") {
      %s = dtile.stage %x[0] box [64] : memref<64xf32> -> memref<64xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'dloop.store' op writes a staged slab; slabs are read-only}}
      dloop.store %one, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// CUDA has no 8-bit atomics.
func.func @byte_atomic(%arg0: memref<64xi8>, %arg1: memref<1xi8>) {
  dtile.kernel @byte_atomic ins(%x = %arg0 : memref<64xi8>) outs(%y = %arg1 : memref<1xi8>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xi8>
      // expected-error @+1 {{'dloop.store' op reduces into 'i8' elements, but atomics need elements of 2, 4 or 8 bytes}}
      dloop.store add %v, %y[0] : memref<1xi8>
    }
  }
  return
}

// -----

// A slab carried through a branch stays in one stage's buffers.
func.func @mixed_slabs(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>, %arg3: i1) {
  dtile.kernel @mixed_slabs ins(%a = %arg0 : memref<64xf32>, %b = %arg1 : memref<64xf32>) outs(%y = %arg2 : memref<64xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile threads(%t : 64 "t") {
      %sa = dtile.stage %a[0] box [64] : memref<64xf32> -> memref<64xf32, #gpu.address_space<workgroup>>
      %sb = dtile.stage %b[0] box [64] : memref<64xf32> -> memref<64xf32, #gpu.address_space<workgroup>>
      %first = arith.cmpi eq, %t, %c0 : index
      %s = scf.if %first -> (memref<64xf32, #gpu.address_space<workgroup>>) {
        scf.yield %sa : memref<64xf32, #gpu.address_space<workgroup>>
      } else {
        // expected-error @+1 {{'scf.yield' op yields a slab of another stage in position 0; a carried slab must stay in one stage's buffers}}
        scf.yield %sb : memref<64xf32, #gpu.address_space<workgroup>>
      }
      %v = dloop.load %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// Only slabs flow through branches, not kernel buffers.
func.func @carried_buffer(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>) {
  dtile.kernel @carried_buffer ins(%a = %arg0 : memref<64xf32>, %b = %arg1 : memref<64xf32>) outs(%y = %arg2 : memref<64xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile threads(%t : 64 "t") {
      %first = arith.cmpi eq, %t, %c0 : index
      %s = scf.if %first -> (memref<64xf32>) {
        // expected-error @+1 {{'scf.yield' op carries a buffer that is not a staged slab; only slabs can flow through loops and branches}}
        scf.yield %a : memref<64xf32>
      } else {
        scf.yield %b : memref<64xf32>
      }
      %v = dloop.load %s[%t] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// Ops with no Kernel IR form are named.
func.func @alloc(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @alloc ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      // expected-error @+1 {{'memref.alloc' op cannot be lowered to Kernel IR}}
      %tmp = memref.alloc() : memref<4xf32>
      %v = dloop.load %x[%t] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// Outside the tile an op would run on every thread of every block.
func.func @store_outside_tile(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @store_outside_tile ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %one = arith.constant 1.0 : f32
    // expected-error @+1 {{'dloop.store' op outside the dtile.tile would run on every thread; only side-effect-free ops may be there}}
    dloop.store %one, %y[0] : memref<64xf32>
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// Kernel parameters are global buffers of CUDA scalars.
func.func @nibbles(%arg0: memref<64xi4>, %arg1: memref<64xi4>) {
  // expected-error @+1 {{'dtile.kernel' op buffer #0 has element type 'i4', which Kernel IR cannot hold}}
  dtile.kernel @nibbles ins(%x = %arg0 : memref<64xi4>) outs(%y = %arg1 : memref<64xi4>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xi4>
      dloop.store %v, %y[%t] : memref<64xi4>
    }
  }
  return
}

// -----

func.func @memory_space(%arg0: memref<64xf32, 1>, %arg1: memref<64xf32>) {
  // expected-error @+1 {{'dtile.kernel' op buffer #0 has type 'memref<64xf32, 1>'; kernel parameters live in global memory (no memory space)}}
  dtile.kernel @memory_space ins(%x = %arg0 : memref<64xf32, 1>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32, 1>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// 2^32 blocks do not fit a grid, even linearised.
func.func @huge_grid(%arg0: memref<1xf32>) {
  dtile.kernel @huge_grid outs(%y = %arg0 : memref<1xf32>) {
    %one = arith.constant 1.0 : f32
    // expected-error @+1 {{'dtile.tile' op binds 4294967296 blocks; a grid has at most 2147483647}}
    dtile.tile blocks(%a : 65536 "a", %b : 65536 "b") {
      dloop.store add %one, %y[0] : memref<1xf32>
    }
  }
  return
}

// -----

// Arith has no remainder by a non-positive constant: a located error, and
// no crash after it.
func.func @mod_by_negative(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @mod_by_negative ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      // expected-error @+1 {{modulo by non-positive value is not supported}}
      %v = dloop.load %x[%t mod -2] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

func.func @floordiv_by_zero(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @floordiv_by_zero ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32>
      // expected-error @+1 {{division by non-positive value is not supported}}
      dloop.store %v, %y[(%t floordiv 0) + 1] : memref<64xf32>
    }
  }
  return
}

// -----

func.func @ceildiv_by_negative(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @ceildiv_by_negative ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      // expected-error @+1 {{division by non-positive value is not supported}}
      %i = affine.apply affine_map<(d0) -> ((d0 ceildiv -4) * 2)>(%t)
      %v = dloop.load %x[%i] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}

// -----

// ldmatrix reads staged slabs only.
func.func @ldmatrix_not_slab(%arg0: memref<32x8xf32>) {
  dtile.kernel @ldmatrix_not_slab outs(%y = %arg0 : memref<32x8xf32>) {
    dtile.tile threads(%t : 32 "t") {
      %c0 = arith.constant 0 : index
      %s = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'dkernel.ldmatrix' op reads a buffer that is not a staged slab}}
      %a:2 = dkernel.ldmatrix %s[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>> -> f16, f16
      %f = arith.extf %a#0 : f16 to f32
      dloop.store %f, %y[%t, %c0] : memref<32x8xf32>
    }
  }
  return
}
