// RUN: rm -rf %t && mkdir -p %t

/// What the function does hold must fit: a 4 MiB result is refused at the
/// op that makes it, before anything is allocated, with the sizes.
// RUN: not deplodock-run --interp %s --func=broadcast_result --memory-limit=1M --print=none 2>&1 | FileCheck %s --check-prefix=RESULT
// RESULT: memory.mlir:[[# @LINE + 3]]:8: error: 'dtensor.index_map' op cannot be interpreted within the memory limit: tensor<1024x1024xf32> needs 4.00 MiB (4.00 KiB already held); the limit is 1.00 MiB
// RESULT-NOT: result #
func.func @broadcast_result(%x: tensor<1024xf32>) -> tensor<1024x1024xf32> {
  %0 = dtensor.index_map %x[(d0, d1) -> (d1)] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

/// A 16 GiB buffer at the Loop level, refused before allocating; the held
/// bytes (the argument and its copy) are counted.
// RUN: not deplodock-run --interp %s --func=huge_alloc --memory-limit=1G --print=none 2>&1 | FileCheck %s --check-prefix=ALLOC
// ALLOC: memory.mlir:[[# @LINE + 3]]:8: error: 'memref.alloc' op cannot be interpreted within the memory limit: memref<65536x65536xf32> needs 16.0 GiB (8.00 KiB already held); the limit is 1.00 GiB
// ALLOC-NOT: result #
func.func @huge_alloc(%x: memref<1024xf32>) -> memref<65536x65536xf32> {
  %0 = memref.alloc() : memref<65536x65536xf32>
  return %0 : memref<65536x65536xf32>
}

/// An element count that does not fit in 64 bits (2^32 x 2^32 wraps to 0)
/// is an error, never an empty tensor: no result, no .npy written.
// RUN: not deplodock-run --interp %s --func=wraps --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: not ls %t/out/result0.npy
// WRAPS: memory.mlir:[[# @LINE + 2]]:1: error: 'func.func' op argument #0 has type 'tensor<4294967296x4294967296xf32>', which has more elements than a 64-bit size can count
// WRAPS-NOT: result #
func.func @wraps(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %x : tensor<4294967296x4294967296xf32>
}

/// Inside a function, and inside a kernel (a per-thread array and a shared
/// slice), such types are compile errors too.
// RUN: not deplodock-run --interp %s --func=wraps_inside --print=none 2>&1 | FileCheck %s --check-prefix=INSIDE
// INSIDE: memory.mlir:[[# @LINE + 3]]:8: error: 'memref.alloc' op result #0 has type 'memref<4294967296x4294967296xf32>', which has more elements than a 64-bit size can count
func.func @wraps_inside(%x: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %0 = memref.alloc() : memref<4294967296x4294967296xf32>
  %v = memref.load %0[%c0, %c0] : memref<4294967296x4294967296xf32>
  memref.store %v, %x[%c0] : memref<4xf32>
  return %x : memref<4xf32>
}

// RUN: not deplodock-run --interp %s --func=wraps_alloca --print=none 2>&1 | FileCheck %s --check-prefix=ALLOCA
// ALLOCA: memory.mlir:[[# @LINE + 3]]:8: error: 'memref.alloca' op has type 'memref<4294967296x4294967296xf32>', which has more elements than a 64-bit size can count
dkernel.func @k_wraps(%y: memref<32xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<4294967296x4294967296xf32>
  %t = gpu.thread_id x
  %v = memref.load %a[%c0, %c0] : memref<4294967296x4294967296xf32>
  memref.store %v, %y[%t] : memref<32xf32>
  dkernel.return
}

func.func @wraps_alloca() -> memref<32xf32> {
  %y = memref.alloc() : memref<32xf32>
  dkernel.launch @k_wraps(%y) : memref<32xf32>
  return %y : memref<32xf32>
}

/// A per-thread array of 4 MiB in each of 1024 threads takes 4 GiB of
/// block-local state (doubles): refused, not a crash.
// RUN: not deplodock-run --interp %s --func=big_alloca --memory-limit=1G --print=none 2>&1 | FileCheck %s --check-prefix=LOCAL
// LOCAL: memory.mlir:[[# @LINE + 1]]:1: error: 'dkernel.func' op cannot be interpreted within the memory limit: the block-local state of the kernel needs 4.00 GiB (4.00 KiB already held); the limit is 1.00 GiB
dkernel.func @k_big(%y: memref<1024xf32>) outputs [0] grid [1, 1, 1] block [1024, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<524288xf32>
  %t = gpu.thread_id x
  %one = arith.constant 1.0 : f32
  memref.store %one, %a[%c0] : memref<524288xf32>
  %v = memref.load %a[%c0] : memref<524288xf32>
  memref.store %v, %y[%t] : memref<1024xf32>
  dkernel.return
}

func.func @big_alloca() -> memref<1024xf32> {
  %y = memref.alloc() : memref<1024xf32>
  dkernel.launch @k_big(%y) : memref<1024xf32>
  return %y : memref<1024xf32>
}

/// A Tile kernel over 65536 x 65536 blocks would run for days; the lowering
/// rejects it (more blocks than a grid holds), and so does the interpreter,
/// at once.
// RUN: not deplodock-run --interp %s --func=huge_grid --print=none 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: memory.mlir:[[# @LINE + 5]]:5: error: 'dtile.tile' op binds 4294967296 blocks; a grid has at most 2147483647
func.func @huge_grid(%x: memref<1x1xf32>) -> memref<1x1xf32> {
  %y = memref.alloc() : memref<1x1xf32>
  dtile.kernel @huge knobs<> ins(%in = %x : memref<1x1xf32>) outs(%out = %y : memref<1x1xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%i : 65536 "i", %j : 65536 "j") threads(%t : 1 "t") {
      %v = dloop.load %in[%c0, %c0] : memref<1x1xf32>
      dloop.store %v, %out[%c0, %c0] : memref<1x1xf32>
    }
  }
  return %y : memref<1x1xf32>
}

/// A launch the GPU runs in a blink can take the CPU hours: more threads
/// than --thread-limit (blocks x threads per block) are refused at once.
// RUN: not deplodock-run --interp %s --func=many_threads --print=none 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: memory.mlir:[[# @LINE + 8]]:3: error: 'dtile.kernel' op cannot be interpreted: would simulate 4294967296 threads (16777216 blocks of 256), more than the interpreter's limit of 268435456 per launch (deplodock-run --thread-limit)
// RUN: not deplodock-run --interp %s --func=many_threads --thread-limit=255 --print=none 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: error: 'dtile.kernel' op cannot be interpreted: would simulate 4294967296 threads (16777216 blocks of 256), more than the interpreter's limit of 255 per launch
/// Within the limit, the same kind of kernel runs.
// RUN: deplodock-run --interp %s --func=few_threads --print=summary 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: result #0
func.func @many_threads(%x: memref<1x1xf32>) -> memref<1x1xf32> {
  %y = memref.alloc() : memref<1x1xf32>
  dtile.kernel @many knobs<> ins(%in = %x : memref<1x1xf32>) outs(%out = %y : memref<1x1xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%i : 4096 "i", %j : 4096 "j") threads(%t : 256 "t") {
      %v = dloop.load %in[%c0, %c0] : memref<1x1xf32>
      dloop.store %v, %out[%c0, %c0] : memref<1x1xf32>
    }
  }
  return %y : memref<1x1xf32>
}
func.func @few_threads(%x: memref<1x1xf32>) -> memref<1x1xf32> {
  %y = memref.alloc() : memref<1x1xf32>
  dtile.kernel @few knobs<> ins(%in = %x : memref<1x1xf32>) outs(%out = %y : memref<1x1xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%i : 4 "i") threads(%t : 32 "t") {
      %v = dloop.load %in[%c0, %c0] : memref<1x1xf32>
      dloop.store %v, %out[%c0, %c0] : memref<1x1xf32>
    }
  }
  return %y : memref<1x1xf32>
}

/// The limit's flag takes sizes only.
// RUN: not deplodock-run --interp %s --func=broadcast_result --memory-limit=1Q 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: error: --memory-limit: '1Q' is not a size (bytes, or a number with K, M, G or T: 512M, 1.5G)
// RUN: not deplodock-run --interp %s --func=broadcast_result --memory-limit=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: --memory-limit: '0' is not a size from 1 byte to 8 EiB
