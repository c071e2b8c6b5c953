// Fuzz finding, area interp-memory (fuzz/FINDINGS.md #4): an extent of 2^62
// wraps the interpreter's element count; the SIMT engine segfaults.
// Found as ir #368 of seed 11: silu_mul.loop with an extent of 2^62.
// RUN: %fuzz_check --expect=diagnosed -- deplodock-run --interp %s --print=summary --compare=dtile-lower,convert-dtile-to-dkernel
module {
  func.func @silu_mul(%arg0: memref<1x4611686018427387904x48xf32>, %arg1: memref<1x4611686018427387904x48xf32>) -> memref<1x4611686018427387904x48xf32> {
    %alloc = memref.alloc() : memref<1x4611686018427387904x48xf32>
    dloop.kernel @silu_mul_0_pointwise ins(%in0 = %arg0 : memref<1x4611686018427387904x48xf32>, %in1 = %arg1 : memref<1x4611686018427387904x48xf32>) outs(%out0 = %alloc : memref<1x4611686018427387904x48xf32>) {
      %cst = arith.constant 1.000000e+00 : f32
      dloop.for %d0 = 0 to 8 free "d0" {
        dloop.for %d1 = 0 to 48 free "d1" {
          %0 = dloop.load %in0[0, %d0, %d1] : memref<1x4611686018427387904x48xf32>
          %1 = dloop.load %in1[0, %d0, %d1] : memref<1x4611686018427387904x48xf32>
          %2 = arith.negf %0 : f32
          %3 = math.exp %2 : f32
          %4 = arith.addf %3, %cst : f32
          %5 = arith.divf %0, %4 : f32
          %6 = arith.mulf %5, %1 : f32
          dloop.store %6, %out0[0, %d0, %d1] : memref<1x4611686018427387904x48xf32>
        }
      }
    }
    return %alloc : memref<1x4611686018427387904x48xf32>
  }
}

