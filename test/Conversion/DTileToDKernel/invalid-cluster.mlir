// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_90a -split-input-file -verify-diagnostics
// RUN: not deplodock-opt %s -convert-dtile-to-dkernel=target=sm_80 -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SM80

/// What the Kernel lowering refuses of tiles launched in clusters and their
/// multicast stages (cluster_multicast makes only what it takes).

/// Clusters need sm_90.
// SM80: invalid-cluster.mlir:[[#@LINE+3]]:5: error: 'dtile.tile' op is launched in clusters, which target sm_80 lacks ('clusters' feature)
func.func @no_clusters(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @no_clusters ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") cluster [2] threads(%t : 128 "t") {
      %v = dloop.load %x[%b * 32, %t] : memref<64x128xf32>
      dloop.store %v, %y[%b * 32, %t] : memref<64x128xf32>
    }
  }
  return
}

// -----

func.func @linearised(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @linearised ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    // expected-error @+1 {{is launched in clusters, but its block axes do not fit the grid's dimensions}}
    dtile.tile blocks(%a : 2 "a", %b : 2 "b", %c : 2 "c", %d : 2 "d") cluster [2, 1, 1, 1] threads(%t : 128 "t") {
    }
  }
  return
}

// -----

func.func @four_blocks(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @four_blocks ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%a : 4 "a", %b : 2 "b") cluster [4, 1] threads(%t : 128 "t") {
      // expected-error @+1 {{is multicast, which the lowering supports in clusters of 2 blocks; the tile's has 4}}
      %s = dtile.stage %x[0, %b * 32] box [32, 32] transport tma multicast : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
    }
  }
  return
}

// -----

func.func @one_row(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @one_row ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%a : 2 "a", %b : 2 "b") cluster [2, 1] threads(%t : 128 "t") {
      // expected-error @+1 {{is multicast, but its box does not halve along an outer dimension}}
      %s = dtile.stage %x[0, %b * 32] box [1, 32] transport tma multicast : memref<64x128xf32> -> memref<1x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
    }
  }
  return
}

// -----

func.func @small_half(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @small_half ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%a : 2 "a", %b : 2 "b") cluster [2, 1] threads(%t : 128 "t") {
      // expected-error @+1 {{is multicast, but half its box is 32 bytes, not a multiple of 128}}
      %s = dtile.stage %x[0, %b * 8] box [2, 8] transport tma multicast : memref<64x128xf32> -> memref<2x8xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
    }
  }
  return
}

// -----

func.func @mixed_rotation(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @mixed_rotation ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%a : 2 "a", %b : 2 "b") cluster [2, 1] threads(%t : 128 "t") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s0 = dtile.stage %x[0, %b * 32] box [32, 32] buffers 2 slot %c0 transport tma multicast : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{shares its slab with a stage that is multicast}}
      %s1 = dtile.stage %x[32, %b * 32] box [32, 32] buffers 2 slot %c1 transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
    }
  }
  return
}

