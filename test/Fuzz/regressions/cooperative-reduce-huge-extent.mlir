// Fuzz finding (fuzz/FINDINGS.md, seed 22, ir #87): cooperative_reduce
// rounded a reduction of 2^63 - 1 elements up to a power of two by doubling,
// which overflowed and never ended: deplodock-opt and deplodock-run --bench
// hung. The rounding saturates now. Since seed 52 (ir #440, a product of
// such extents overflowing in blockify_launch) dtile-lower refuses a kernel
// whose buffers have more bytes than a 64-bit size counts, before any rule
// runs: these 4 x 2^65 bytes are a located error.
// Found as softmax.input with extent 3 of every tensor -> 2^63 - 1.
// RUN: %fuzz_check -- deplodock-opt %s --lower-to-tile -o %t.tile.mlir
// RUN: not deplodock-opt %s --lower-to-tile 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: %fuzz_check -- deplodock-run --bench --fake-device %s --warmup-ms=0.1 --max-time-ms=1 --min-samples=1
// RUN: not deplodock-run --bench --fake-device %s --warmup-ms=0.1 --max-time-ms=1 --min-samples=1 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: cooperative-reduce-huge-extent.mlir:[[# @LINE + 3]]:12: error: 'dloop.kernel' op reads or writes a buffer of type 'memref<1x4x8x9223372036854775807xf32>', which has more bytes than a 64-bit size can count
func.func @softmax(%x: tensor<1x4x8x9223372036854775807xf32>) -> (tensor<1x4x8x9223372036854775807xf32>) {
  %init = tensor.empty() : tensor<1x4x8x9223372036854775807xf32>
  %probs = linalg.softmax dimension(3) ins(%x : tensor<1x4x8x9223372036854775807xf32>) outs(%init : tensor<1x4x8x9223372036854775807xf32>) -> tensor<1x4x8x9223372036854775807xf32>
  return %probs : tensor<1x4x8x9223372036854775807xf32>
}
