// Fuzz finding (fuzz/FINDINGS.md, seed 55 under UBSan, ir #330): a thread's
// private row buffer (a memref.alloca in a Loop kernel) of 2^63 - 1 floats
// made attention_blocks multiply its elements by 4 bytes, a signed overflow.
// dtile-lower refuses such an array as it refuses such a buffer: located, in
// any kernel, before any rule runs. An empty buffer has 0 bytes whatever its
// other extents: a kernel bound to one lowers.
// Found as sdpa_d128.loop with extent 0 of every memref<128xf32> -> 2^63 - 1.
// RUN: %fuzz_check -- deplodock-opt %s --dtile-lower -o %t.tile.mlir
// RUN: not deplodock-opt %s --split-input-file --dtile-lower 2>&1 | FileCheck %s
// CHECK: dtile-lower-uncountable-alloca.mlir:[[# @LINE + 5]]:14: error: 'memref.alloca' op allocates 'memref<9223372036854775807xf32>', which has more bytes than a 64-bit size can count
func.func @row(%x: memref<4xf32>) -> memref<4xf32> {
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @row_0_pointwise ins(%in0 = %x : memref<4xf32>) outs(%out0 = %y : memref<4xf32>) {
    dloop.for %d0 = 0 to 4 free "d0" {
      %buf = memref.alloca() : memref<9223372036854775807xf32>
      %v = dloop.load %in0[%d0] : memref<4xf32>
      dloop.store %v, %buf[%d0] : memref<9223372036854775807xf32>
      %w = dloop.load %buf[%d0] : memref<9223372036854775807xf32>
      dloop.store %w, %out0[%d0] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}

// -----

// CHECK-NOT: error
// CHECK: dtile.kernel @empty_0_pointwise
func.func @empty(%x: memref<9223372036854775807x0xf32>, %z: memref<4xf32>) -> memref<4xf32> {
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @empty_0_pointwise ins(%in0 = %x : memref<9223372036854775807x0xf32>, %in1 = %z : memref<4xf32>) outs(%out0 = %y : memref<4xf32>) {
    dloop.for %d0 = 0 to 4 free "d0" {
      %v = dloop.load %in1[%d0] : memref<4xf32>
      dloop.store %v, %out0[%d0] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}
