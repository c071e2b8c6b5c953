// RUN: deplodock-opt %s -convert-dtile-to-dkernel -split-input-file -verify-diagnostics
// RUN: not deplodock-opt %s -convert-dtile-to-dkernel -split-input-file -mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// RUN: not deplodock-opt %S/matmul-cp-async.mlir -convert-dtile-to-dkernel=target=gfx90a 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-opt %s -convert-dtile-to-dkernel=target=sm_90 -split-input-file 2>&1 | FileCheck %s --check-prefix=CONTRADICTS

// TARGET: error: unknown target 'gfx90a'; expected sm_80, sm_90 or sm_90a
// CONTRADICTS: error: target option 'sm_90' contradicts the module's target 'sm_75'

/// The module names its GPU: a Turing part the table does not know, with
/// 64 KB of shared memory per block and no cp.async (features are data,
/// so a target is whatever the attribute says). The module is left as it
/// was: the kernel before the failing one is not lowered either.
// UNCHANGED-LABEL: IR Dump After ConvertDTileToDKernel Failed
//   UNCHANGED-NOT:   dkernel.{{func|launch}}
//       UNCHANGED:   dtile.kernel @fine
//       UNCHANGED:   dtile.kernel @early_cp_async
//   UNCHANGED-NOT:   dkernel.{{func|launch}}
module attributes {dkernel.target = #dkernel.target<"sm_75", capability = 75, sm_count = 40, smem_per_block = 65536, smem_per_sm = 65536, threads_per_block = 1024, threads_per_sm = 1024, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = []>} {
func.func @early(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @fine ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  dtile.kernel @early_cp_async ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      // expected-error @+1 {{'dtile.stage' op transport cp_async needs the 'cp_async' feature; target sm_75 lacks it}}
      %s = dtile.stage %x[0] box [64] transport cp_async : memref<64xf32> -> memref<64xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %v = dloop.load %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}
}

// -----

/// 2 x 128 x 129 floats (132096 bytes) fit sm_90 but not the 64 KB of sm_75.
module attributes {dkernel.target = #dkernel.target<"sm_75", capability = 75, sm_count = 40, smem_per_block = 65536, smem_per_sm = 65536, threads_per_block = 1024, threads_per_sm = 1024, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = []>} {
func.func @big_slabs(%arg0: memref<512x128xf32>, %arg1: memref<512x128xf32>) {
  // expected-error @+1 {{'dtile.kernel' op needs 132096 bytes of shared memory, more than the 65536 a block may use on sm_75}}
  dtile.kernel @big_slabs ins(%x = %arg0 : memref<512x128xf32>) outs(%y = %arg1 : memref<512x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      dloop.for %i = 0 to 2 free "i" {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%i)
        %s = dtile.stage %x[%b * 256 + %i * 128, 0] box [128, 128] pad [0, 1] buffers 2 slot %slot : memref<512x128xf32> -> memref<128x128xf32, #gpu.address_space<workgroup>>
        dloop.for %r = 0 to 128 free "r" {
          %v = dloop.load %s[%r, %t] : memref<128x128xf32, #gpu.address_space<workgroup>>
          dloop.store %v, %y[%b * 256 + %i * 128 + %r, %t] : memref<512x128xf32>
        }
      }
    }
  }
  return
}
}
