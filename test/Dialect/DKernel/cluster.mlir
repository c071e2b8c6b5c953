// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s

/// A kernel launched in clusters of two blocks along x: the cluster shape
/// prints between the block and the shared memory; the rank and the cluster
/// barrier round-trip.
// CHECK-LABEL: dkernel.func @pairs
//  CHECK-SAME:   outputs [0] grid [4, 2, 1] block [32, 1, 1] cluster [2, 1, 1] smem 0 {
//       CHECK:   %[[R:.*]] = dkernel.cluster_block_rank
//       CHECK:   dkernel.cluster_barrier
//       CHECK:   memref.store %{{.*}}, %{{.*}}[%[[R]]]
dkernel.func @pairs(%y: memref<8xf32>) outputs [0] grid [4, 2, 1] block [32, 1, 1] cluster [2, 1, 1] smem 0 {
  %one = arith.constant 1.0 : f32
  %rank = dkernel.cluster_block_rank
  dkernel.cluster_barrier
  memref.store %one, %y[%rank] : memref<8xf32>
  dkernel.return
}

/// Without a cluster nothing prints.
// CHECK-LABEL: dkernel.func @plain
//  CHECK-SAME:   grid [4, 1, 1] block [32, 1, 1] smem 0 {
dkernel.func @plain(%y: memref<8xf32>) outputs [0] grid [4, 1, 1] block [32, 1, 1] smem 0 {
  dkernel.return
}

/// TMA multicast and the cluster-scope mbarrier ops: the mask prints after
/// the mbarrier; the remote arrival names the rank.
// CHECK-LABEL: dkernel.func @multicast
//       CHECK:   dkernel.fence_mbarrier_init
//       CHECK:   dkernel.tma_load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}, %{{.*}}[%{{.*}}] multicast %{{.*}} : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>
//       CHECK:   dkernel.mbarrier_arrive_cluster %{{.*}}[%{{.*}}], %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>>
dkernel.func @multicast(%b: memref<32x64xf32>, %desc: !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, %y: memref<8xf32>) outputs [2] grid [2, 1, 1] block [64, 1, 1] cluster [2, 1, 1] smem 4112 {
  dkernel.tma_descriptor %desc describes %b : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<32x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mask = arith.constant 3 : i16
  %slab = dkernel.alloc_shared offset 0 : memref<16x64xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.fence_mbarrier_init
  dkernel.tma_load %desc[%c0, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_cluster %mb[%c1], %c1 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}
