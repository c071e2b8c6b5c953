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
