// RUN: deplodock-translate --emit-cuda --cuda-index-bitwidth=16 %s -verify-diagnostics

/// Index values are int or long long.
// expected-error @+1 {{index bitwidth must be 32 or 64, got 16}}
module {
  dkernel.func @k(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
    dkernel.return
  }
}
