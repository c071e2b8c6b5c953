// RUN: not deplodock-run --interp %s --func=divergent_barrier --print=none 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: not deplodock-run --interp %s --func=out_of_bounds --print=none 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not deplodock-run --interp %s --func=partial_warp --print=none 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: not deplodock-run --interp %s --func=partial_warp_sync --print=none 2>&1 | FileCheck %s --check-prefix=WARP-SYNC
// RUN: not deplodock-run --interp %s --func=divergent_combine --print=none 2>&1 | FileCheck %s --check-prefix=COMBINE
// RUN: not deplodock-run --interp %s --func=per_thread_stage --print=none 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not deplodock-run --interp %s --func=tile_out_of_bounds --print=none 2>&1 | FileCheck %s --check-prefix=TILEOOB
// RUN: not deplodock-run --interp %s --func=unsupported --print=none 2>&1 | FileCheck %s --check-prefix=UNKNOWN

/// Kernels the SIMT engine rejects, each with a located error naming the
/// op, the thread and the block, instead of a hang or a silent wrong answer.

/// A barrier only threads 0..36 reach.
// BARRIER: errors.mlir:{{[0-9]+}}:5: error: 'gpu.barrier' op reached by 37 of the 256 threads of block (0, 0, 0); like a barrier, it needs every thread of the block (first missing: thread 37)
dkernel.func @k_barrier(%y: memref<2x256xf32>) outputs [0] grid [2, 1, 1] block [256, 1, 1] smem 0 {
  %c37 = arith.constant 37 : index
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %early = arith.cmpi ult, %t, %c37 : index
  scf.if %early {
    gpu.barrier
  }
  memref.store %one, %y[%b, %t] : memref<2x256xf32>
  dkernel.return
}

func.func @divergent_barrier() -> memref<2x256xf32> {
  %y = memref.alloc() : memref<2x256xf32>
  dkernel.launch @k_barrier(%y) : memref<2x256xf32>
  return %y : memref<2x256xf32>
}

/// Thread 97 of block 3 reads one past the end.
// OOB: errors.mlir:{{[0-9]+}}:8: error: 'memref.load' op accesses index 400 of dimension 0 of size 400 in thread 97 of block (3, 0, 0)
dkernel.func @k_oob(%x: memref<400xf32>, %y: memref<512xf32>) outputs [1] grid [4, 1, 1] block [128, 1, 1] smem 0 {
  %c101 = arith.constant 101 : index
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %base = arith.muli %b, %c101 : index
  %i = arith.addi %base, %t : index
  %v = memref.load %x[%i] : memref<400xf32>
  memref.store %v, %y[%i] : memref<512xf32>
  dkernel.return
}

func.func @out_of_bounds(%x: memref<400xf32>) -> memref<512xf32> {
  %y = memref.alloc() : memref<512xf32>
  dkernel.launch @k_oob(%x, %y) : memref<400xf32>, memref<512xf32>
  return %y : memref<512xf32>
}

/// A warp reduction only half of warp 1 reaches.
// WARP: error: 'dkernel.warp_reduce' op reached by 16 of the 32 threads of warp 1 of block (0, 0, 0); it exchanges values across the whole warp
dkernel.func @k_warp(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c48 = arith.constant 48 : index
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %low = arith.cmpi ult, %t, %c48 : index
  scf.if %low {
    %r = dkernel.warp_reduce add %one width 32 : f32
    memref.store %r, %y[%t] : memref<64xf32>
  }
  dkernel.return
}

func.func @partial_warp() -> memref<64xf32> {
  %y = memref.alloc() : memref<64xf32>
  dkernel.launch @k_warp(%y) : memref<64xf32>
  return %y : memref<64xf32>
}

/// A warp sync only the first lane of each warp reaches.
// WARP-SYNC: error: 'dkernel.warp_sync' op reached by 1 of the 32 threads of warp 0 of block (0, 0, 0); every thread of the warp must take part
dkernel.func @k_warp_sync(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %lane = arith.remui %t, %c32 : index
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    dkernel.warp_sync
  }
  memref.store %one, %y[%t] : memref<64xf32>
  dkernel.return
}

func.func @partial_warp_sync() -> memref<64xf32> {
  %y = memref.alloc() : memref<64xf32>
  dkernel.launch @k_warp_sync(%y) : memref<64xf32>
  return %y : memref<64xf32>
}

/// A combine inside a branch only thread 0 takes.
// COMBINE: error: 'dtile.combine' op reached by 1 of the 64 threads of block (2); like a barrier, it needs every thread of the block (first missing: thread 1)
func.func @divergent_combine(%arg0: memref<4x64xf32>) -> memref<4xf32> {
  %out = memref.alloc() : memref<4xf32>
  dtile.kernel @combine ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %out : memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    dtile.tile blocks(%r : 4 "r") threads(%t : 64 "t") {
      %v = dloop.load %x[%r, %t] : memref<4x64xf32>
      %first = arith.cmpi eq, %t, %c0 : index
      %late = arith.cmpi eq, %r, %c2 : index
      %s = scf.if %late -> (f32) {
        %w = scf.if %first -> (f32) {
          %c = dtile.combine add %v over ["t"] : f32
          scf.yield %c : f32
        } else {
          scf.yield %v : f32
        }
        scf.yield %w : f32
      } else {
        %c = dtile.combine add %v over ["t"] : f32
        scf.yield %c : f32
      }
      dloop.store %s, %y[%r] : memref<4xf32>
    }
  }
  return %out : memref<4xf32>
}

/// A stage whose origin depends on the thread.
// STAGE: error: 'dtile.stage' op has an origin that differs across threads in dimension 0 (0 in thread 0 of block (0), 1 in thread 1 of block (0))
func.func @per_thread_stage(%arg0: memref<64x32xf32>) -> memref<32xf32> {
  %out = memref.alloc() : memref<32xf32>
  dtile.kernel @stage ins(%x = %arg0 : memref<64x32xf32>) outs(%y = %out : memref<32xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 32 "t") {
      %s = dtile.stage %x[%t, 0] box [32, 32] : memref<64x32xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[0, %t] : memref<32x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<32xf32>
    }
  }
  return %out : memref<32xf32>
}

/// A dloop.load of a Tile kernel past the end for the last threads (through
/// arith, which the verifier's bounds check does not follow).
// TILEOOB: error: 'dloop.load' op accesses index 1000 of dimension 0 of size 1000 in thread 104 of block (7)
func.func @tile_out_of_bounds(%arg0: memref<1000xf32>) -> memref<1024xf32> {
  %out = memref.alloc() : memref<1024xf32>
  dtile.kernel @oob ins(%x = %arg0 : memref<1000xf32>) outs(%y = %out : memref<1024xf32>) {
    %c128 = arith.constant 128 : index
    dtile.tile blocks(%b : 8 "b") threads(%t : 128 "t") {
      %base = arith.muli %b, %c128 : index
      %i = arith.addi %base, %t : index
      %v = dloop.load %x[%i] : memref<1000xf32>
      dloop.store %v, %y[%i] : memref<1024xf32>
    }
  }
  return %out : memref<1024xf32>
}

/// An op the engine does not know.
// UNKNOWN: error: 'scf.while' op cannot be interpreted in a kernel
dkernel.func @k_while(%y: memref<32xi32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %f = arith.constant false
    scf.condition(%f) %i : i32
  } do {
  ^bb0(%j: i32):
    scf.yield %j : i32
  }
  dkernel.return
}

func.func @unsupported() -> memref<32xi32> {
  %y = memref.alloc() : memref<32xi32>
  dkernel.launch @k_while(%y) : memref<32xi32>
  return %y : memref<32xi32>
}
