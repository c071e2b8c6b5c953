// Fuzz finding (fuzz/FINDINGS.md, seed 26): ir #189, silu_mul.tile with
// "integer 256 -> 9223372036854775807": at the Kernel level the SIMT engine
// computed the index 1 * (2^63 - 1) in a double lane, inexactly, and compared
// a wrong result (max rel error 71.9). Integer results beyond 2^53 are now
// refused with a located error.
// RUN: %fuzz_check --expect=diagnosed --timeout=60 -- deplodock-run --interp %s --print=summary '--compare=convert-dtile-to-dkernel{target=sm_90}'
// RUN: not deplodock-run --interp %s --print=none '--compare=convert-dtile-to-dkernel{target=sm_90}' 2>&1 | FileCheck %s
// CHECK: error: 'arith.muli' op computes {{.*}} of block (1, 0, 0), an integer beyond 2^53, which the interpreter cannot hold exactly
#map = affine_map<(d0, d1) -> (d0 * 256 + d1)>
module {
  func.func @silu_mul(%arg0: memref<1x8x48xf32>, %arg1: memref<1x8x48xf32>) -> memref<1x8x48xf32> {
    %alloc = memref.alloc() : memref<1x8x48xf32>
    dtile.kernel @silu_mul_0_pointwise knobs<block_threads = 256> ins(%in0 = %arg0 : memref<1x8x48xf32>, %in1 = %arg1 : memref<1x8x48xf32>) outs(%out0 = %alloc : memref<1x8x48xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      %cst_0 = arith.constant 1.000000e+00 : f32
      %c384 = arith.constant 384 : index
      dtile.tile blocks(%d0_d1_o : 2 "d0_d1_o") threads(%d0_d1_i : 256 "d0_d1_i") {
        %0 = affine.apply #map(%d0_d1_o, %d0_d1_i)
        %1 = arith.cmpi ult, %0, %c384 : index
        %2:2 = scf.if %1 -> (f32, f32) {
          %8 = dloop.load %in0[0, (%d0_d1_o * 256 + %d0_d1_i) floordiv 48, (%d0_d1_o * 9223372036854775807 + %d0_d1_i) mod 48] : memref<1x8x48xf32>
          %9 = dloop.load %in1[0, (%d0_d1_o * 256 + %d0_d1_i) floordiv 48, (%d0_d1_o * 256 + %d0_d1_i) mod 48] : memref<1x8x48xf32>
          scf.yield %8, %9 : f32, f32
        } else {
          scf.yield %cst, %cst : f32, f32
        }
        %3 = arith.negf %2#0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %cst_0 : f32
        %6 = arith.divf %2#0, %5 : f32
        %7 = arith.mulf %6, %2#1 : f32
        scf.if %1 {
          dloop.store %7, %out0[0, (%d0_d1_o * 256 + %d0_d1_i) floordiv 48, (%d0_d1_o * 256 + %d0_d1_i) mod 48] : memref<1x8x48xf32>
        }
      }
    }
    return %alloc : memref<1x8x48xf32>
  }
}

