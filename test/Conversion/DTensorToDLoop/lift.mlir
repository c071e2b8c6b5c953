// RUN: deplodock-opt %s --convert-dtensor-to-dloop | FileCheck %s
// RUN: deplodock-run --interp %s --func=lift --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=constants --compare=convert-dtensor-to-dloop --print=none | FileCheck %s --check-prefix=NUM

/// Each primitive becomes one kernel writing a fresh buffer; arguments and
/// results become memrefs.
// CHECK-LABEL: func.func @lift
//  CHECK-SAME:   (%[[X:.*]]: memref<2x3xf32>, %[[Y:.*]]: memref<2x2xf32>) -> (memref<2x5xf32>, memref<3xf32>, memref<1x3xf32>)
/// An operand read twice is passed once.
//       CHECK:   %[[E:.*]] = memref.alloc() : memref<2x3xf32>
//       CHECK:   dloop.kernel @lift_elementwise0 ins(%[[IN:.*]] = %[[X]] : memref<2x3xf32>) outs(%[[OUT:.*]] = %[[E]] : memref<2x3xf32>)
//       CHECK:     dloop.for %[[I:.*]] = 0 to 2 free "d0"
//       CHECK:       dloop.for %[[J:.*]] = 0 to 3 free "d1"
//       CHECK:         %[[A:.*]] = dloop.load %[[IN]][%[[I]], %[[J]]]
//       CHECK:         %[[B:.*]] = dloop.load %[[IN]][%[[I]], %[[J]]]
//       CHECK:         %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
//       CHECK:         dloop.store %[[M]], %[[OUT]][%[[I]], %[[J]]]
/// A predicated index map is an scf.if chain comparing the loop variable.
//       CHECK:   dloop.kernel @lift_index_map1 ins(%[[P0:.*]] = %[[Y]] : memref<2x2xf32>, %[[P1:.*]] = %[[E]] : memref<2x3xf32>)
//       CHECK:         %[[C:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
//       CHECK:         scf.if %[[C]] -> (f32) {
//       CHECK:           dloop.load %[[P0]]
//       CHECK:         } else {
//       CHECK:           dloop.load %[[P1]][%{{.*}}, %{{.*}} - 2]
/// A reduction: free loops over kept axes, a reduce loop with an accumulator
/// starting at the identity.
//       CHECK:   dloop.kernel @lift_reduce2
//       CHECK:       %[[NINF:.*]] = arith.constant 0xFF800000 : f32
//       CHECK:       dloop.for %[[R:.*]] = 0 to 2 reduce "r0" iter(%[[ACC:.*]] = %[[NINF]] : f32)
//       CHECK:         arith.maximumf %[[ACC]]
/// keepdim stores at index 0 of the reduced axis.
//       CHECK:   dloop.kernel @lift_reduce3
//       CHECK:       dloop.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<1x3xf32>
func.func @lift(%x: tensor<2x3xf32>, %y: tensor<2x2xf32>) -> (tensor<2x5xf32>, tensor<3xf32>, tensor<1x3xf32>) {
  %e = dtensor.elementwise (%a = %x : tensor<2x3xf32>, %b = %x : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %m = arith.mulf %a, %b : f32
    dtensor.yield %m : f32
  }
  %c = dtensor.index_map %y[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 1 >= 0)], %e[(d0, d1) -> (d0, d1 - 2)] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  %s = dtensor.reduce max %e axes [0] : tensor<2x3xf32> -> tensor<3xf32>
  %k = dtensor.reduce add %e axes [0] keepdim : tensor<2x3xf32> -> tensor<1x3xf32>
  return %c, %s, %k : tensor<2x5xf32>, tensor<3xf32>, tensor<1x3xf32>
}

/// Weights become a global; a splat constant and an iota constant become
/// scalar code in the kernel that reads them.
// CHECK-LABEL: memref.global "private" constant @__constant : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @constants
//       CHECK:   %[[G:.*]] = memref.get_global @__constant : memref<4xf32>
//       CHECK:   dloop.kernel @constants_elementwise0 ins(%{{.*}} = %{{.*}} : memref<4xf32>, %{{.*}} = %[[G]] : memref<4xf32>)
//       CHECK:       arith.constant 5.000000e-01 : f32
//       CHECK:       affine.apply
//   CHECK-NOT:   dloop.kernel
func.func @constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %h = arith.constant dense<0.5> : tensor<4xf32>
  %i = arith.constant dense<[0, 1, 2, 3]> : tensor<4xindex>
  %r = dtensor.elementwise (%a = %x : tensor<4xf32>, %b = %w : tensor<4xf32>, %c = %h : tensor<4xf32>, %d = %i : tensor<4xindex>) -> tensor<4xf32> {
    %m = arith.mulf %a, %b : f32
    %n = arith.addf %m, %c : f32
    %j = arith.index_cast %d : index to i32
    %f = arith.sitofp %j : i32 to f32
    %o = arith.addf %n, %f : f32
    dtensor.yield %o : f32
  }
  return %r : tensor<4xf32>
}

// NUM-NOT: FAIL
// NUM: max abs error 0, max rel error 0: PASS
