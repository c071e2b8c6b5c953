// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_90 -split-input-file -verify-diagnostics
// RUN: not deplodock-opt %s -convert-dtile-to-dkernel=target=sm_80 -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SM80

/// TMA needs sm_90: for sm_80 each TMA stage is refused where it is.
// SM80: invalid-tma.mlir:12:12: error: 'dtile.stage' op transport tma needs the 'tma' feature; target sm_80 lacks it
// SM80: invalid-tma.mlir:28:12: error: 'dtile.stage' op transport tma needs the 'tma' feature; target sm_80 lacks it

/// On sm_90 both kernels lower.
func.func @tma(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @tma ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %s = dtile.stage %x[%b * 32, 0] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %v = dloop.load %s[0, %t mod 32] : memref<32x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%b * 32, %t] : memref<64x128xf32>
    }
  }
  return
}

// -----

/// A swizzled stage lowers on sm_90 (matmul-tma-swizzle.mlir) and is
/// refused like any TMA stage on sm_80.
func.func @swizzled(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @swizzled ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %s = dtile.stage %x[%b * 32, 0] box [32, 32] transport tma swizzle 128 : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %v = dloop.load %s[0, %t mod 32] : memref<32x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%b * 32, %t] : memref<64x128xf32>
    }
  }
  return
}
