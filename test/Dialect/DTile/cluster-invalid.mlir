// RUN: deplodock-opt %s -split-input-file -verify-diagnostics

/// The verifier of a tile launched in clusters and of its multicast stages
/// (cluster_multicast).

func.func @cluster_rank(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    // expected-error @+1 {{cluster has 1 extents for 2 block axes}}
    dtile.tile blocks(%a : 4 "a", %b : 4 "b") cluster [2] threads(%t : 32 "t") {
    }
  }
  return
}

// -----

func.func @cluster_divides(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    // expected-error @+1 {{cluster extent 2 does not divide its block axis of extent 3}}
    dtile.tile blocks(%a : 3 "a", %b : 4 "b") cluster [2, 1] threads(%t : 32 "t") {
    }
  }
  return
}

// -----

func.func @cluster_size(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    // expected-error @+1 {{cluster of 16 blocks; a cluster has at most 8}}
    dtile.tile blocks(%a : 4 "a", %b : 4 "b") cluster [4, 4] threads(%t : 32 "t") {
    }
  }
  return
}

// -----

func.func @multicast_transport(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%a : 4 "a", %b : 4 "b") cluster [2, 1] threads(%t : 32 "t") {
      // expected-error @+1 {{a multicast stage travels by TMA, not cp_async}}
      %s = dtile.stage %x[0, %b * 16] box [16, 16] transport cp_async multicast : memref<64x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @multicast_unclustered(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%a : 4 "a", %b : 4 "b") threads(%t : 32 "t") {
      // expected-error @+1 {{is multicast, but its dtile.tile is not launched in clusters of several blocks}}
      %s = dtile.stage %x[0, %b * 16] box [16, 16] transport tma multicast : memref<64x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @multicast_depends(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%a : 4 "a", %b : 4 "b") cluster [2, 1] threads(%t : 32 "t") {
      %r = affine.apply affine_map<(d0) -> (d0 * 16)>(%a)
      // expected-error @+1 {{is multicast to the blocks of a cluster along block axis "a", but its origin depends on that axis}}
      %s = dtile.stage %x[%r, %b * 16] box [16, 16] transport tma multicast : memref<64x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

/// Shared along "a", a stage may follow the other axes.
func.func @multicast_ok(%arg0: memref<64x64xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @k ins(%x = %arg0 : memref<64x64xf32>) outs(%y = %arg1 : memref<4xf32>) {
    dtile.tile blocks(%a : 4 "a", %b : 4 "b") cluster [2, 1] threads(%t : 32 "t") {
      %s = dtile.stage %x[0, %b * 16] box [16, 16] transport tma multicast : memref<64x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}
