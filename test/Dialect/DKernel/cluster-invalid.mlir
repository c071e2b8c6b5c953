// RUN: deplodock-opt %s -split-input-file -verify-diagnostics

// The cluster launch attribute of dkernel.func and the cluster ops
// (ClusterOps.td), each located error.

// expected-error @+1 {{'dkernel.func' op cluster x must be at least 1, got 0}}
dkernel.func @zero(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] cluster [0, 1, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{'dkernel.func' op cluster must have 3 entries (x, y, z), got 2}}
dkernel.func @rank2(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] cluster [2, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{'dkernel.func' op grid y of 3 is not a multiple of cluster y of 2}}
dkernel.func @not_multiple(%y: memref<8xf32>) outputs [0] grid [4, 3, 1] block [32, 1, 1] cluster [1, 2, 1] smem 0 {
  dkernel.return
}

// -----

// expected-error @+1 {{'dkernel.func' op cluster has 16 blocks, more than the portable 8}}
dkernel.func @too_big(%y: memref<8xf32>) outputs [0] grid [16, 4, 1] block [32, 1, 1] cluster [4, 4, 1] smem 0 {
  dkernel.return
}

// -----

// sm_80 has no thread-block clusters.
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
// expected-error @+1 {{'dkernel.func' op cluster needs a target with thread-block clusters, not sm_80}}
dkernel.func @no_feature(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] cluster [2, 1, 1] smem 0 {
  dkernel.return
}
}

// -----

dkernel.func @rank_without_cluster(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.cluster_block_rank' op needs a kernel launched in clusters: @rank_without_cluster has no cluster attribute}}
  %rank = dkernel.cluster_block_rank
  dkernel.return
}

// -----

dkernel.func @barrier_without_cluster(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.cluster_barrier' op needs a kernel launched in clusters: @barrier_without_cluster has no cluster attribute}}
  dkernel.cluster_barrier
  dkernel.return
}

// -----

func.func @barrier_on_host() {
  // expected-error @+1 {{'dkernel.cluster_barrier' op must be nested in a dkernel.func}}
  dkernel.cluster_barrier
  return
}

// -----

dkernel.func @multicast_without_cluster(%b: memref<32x64xf32>, %desc: !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, %y: memref<8xf32>) outputs [2] grid [2, 1, 1] block [64, 1, 1] smem 4112 {
  dkernel.tma_descriptor %desc describes %b : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<32x64xf32>
  %c0 = arith.constant 0 : index
  %mask = arith.constant 3 : i16
  %slab = dkernel.alloc_shared offset 0 : memref<16x64xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.tma_load' op needs a kernel launched in clusters: @multicast_without_cluster has no cluster attribute}}
  dkernel.tma_load %desc[%c0, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @mask_beyond_cluster(%b: memref<32x64xf32>, %desc: !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, %y: memref<8xf32>) outputs [2] grid [2, 1, 1] block [64, 1, 1] cluster [2, 1, 1] smem 4112 {
  dkernel.tma_descriptor %desc describes %b : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<32x64xf32>
  %c0 = arith.constant 0 : index
  %mask = arith.constant 5 : i16
  %slab = dkernel.alloc_shared offset 0 : memref<16x64xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.tma_load' op multicast mask 0x5 names ranks beyond the cluster's 2 blocks}}
  dkernel.tma_load %desc[%c0, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

// A target with clusters but no TMA.
module attributes {dkernel.target = #dkernel.target<"sm_90", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, clusters]>} {
dkernel.func @fence_without_tma(%y: memref<8xf32>) outputs [0] grid [2, 1, 1] block [32, 1, 1] cluster [2, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.fence_mbarrier_init' op needs a target with TMA and thread-block clusters, not sm_90}}
  dkernel.fence_mbarrier_init
  dkernel.return
}
}

// -----

dkernel.func @fence_without_cluster(%y: memref<8xf32>) outputs [0] grid [2, 1, 1] block [32, 1, 1] smem 0 {
  // expected-error @+1 {{'dkernel.fence_mbarrier_init' op needs a kernel launched in clusters: @fence_without_cluster has no cluster attribute}}
  dkernel.fence_mbarrier_init
  dkernel.return
}

// -----

dkernel.func @arrive_without_cluster(%y: memref<8xf32>) outputs [0] grid [2, 1, 1] block [32, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.mbarrier_arrive_cluster' op needs a kernel launched in clusters: @arrive_without_cluster has no cluster attribute}}
  dkernel.mbarrier_arrive_cluster %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @arrive_beyond_cluster(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] cluster [2, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %mb = dkernel.alloc_shared offset 0 : memref<2xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.mbarrier_arrive_cluster' op rank 2 is not below the cluster size 2}}
  dkernel.mbarrier_arrive_cluster %mb[%c0], %c2 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

dkernel.func @arrive_on_floats(%y: memref<8xf32>) outputs [0] grid [2, 1, 1] block [32, 1, 1] cluster [2, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %mb = dkernel.alloc_shared offset 0 : memref<4xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'dkernel.mbarrier_arrive_cluster' op mbarriers must be a rank-1 memref of i64 in workgroup memory, got 'memref<4xf32, #gpu.address_space<workgroup>>'}}
  dkernel.mbarrier_arrive_cluster %mb[%c0], %c0 : memref<4xf32, #gpu.address_space<workgroup>>
  dkernel.return
}
