// RUN: deplodock-opt %s --convert-dtensor-to-dloop | FileCheck %s
// RUN: deplodock-opt %s --lower-to-kernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA

/// A gather is a kernel that loads each index, clamps it into its axis of
/// the source and loads the source there.
// CHECK-LABEL: func.func @lookup
//       CHECK:   dloop.kernel @lookup_gather2 ins(%[[T:.*]] = %{{.*}} : memref<10x4xf32>, %[[R:.*]] = %{{.*}} : memref<3x4xindex>, %{{.*}} = %{{.*}} : memref<3x4xindex>) outs(%[[O:.*]] = %{{.*}} : memref<3x4xf32>)
//       CHECK:     dloop.for %[[I:.*]] = 0 to 3 free "d0"
//       CHECK:       dloop.for %[[J:.*]] = 0 to 4 free "d1"
//       CHECK:         %[[ROW:.*]] = dloop.load %[[R]][%[[I]], %[[J]]] : memref<3x4xindex>
//       CHECK:         %[[LO:.*]] = arith.maxsi %[[ROW]], %{{.*}} : index
//       CHECK:         %[[IN:.*]] = arith.minsi %[[LO]], %{{.*}} : index
//       CHECK:         %[[V:.*]] = dloop.load %[[T]][%[[IN]], %{{.*}}] : memref<10x4xf32>
//       CHECK:         dloop.store %[[V]], %[[O]][%[[I]], %[[J]]] : memref<3x4xf32>

/// Fused, the ids are loaded, cast, clamped and used as the row.
// CUDA: lookup_0_pointwise
// CUDA:   const long long [[ID:v[0-9]+]] = in1[
// CUDA:   const int [[ROW:v[0-9]+]] = (int)[[ID]];
// CUDA:   const int [[LO:v[0-9]+]] = max([[ROW]], 0);
// CUDA:   const int [[HI:v[0-9]+]] = min([[LO]], 9);
// CUDA:   in0[[[HI]] * 4 +
func.func @lookup(%t: tensor<10x4xf32>, %ids: tensor<3x4xi64>) -> tensor<3x4xf32> {
  %rows = dtensor.elementwise (%i = %ids : tensor<3x4xi64>) -> tensor<3x4xindex> {
    %c = arith.index_cast %i : i64 to index
    dtensor.yield %c : index
  }
  %iota = arith.constant dense<[0, 1, 2, 3]> : tensor<4xindex>
  %cols = dtensor.index_map %iota[(d0, d1) -> (d1)] : (tensor<4xindex>) -> tensor<3x4xindex>
  %g = dtensor.gather %t[%rows, %cols] : tensor<10x4xf32>[tensor<3x4xindex>, tensor<3x4xindex>] -> tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}
