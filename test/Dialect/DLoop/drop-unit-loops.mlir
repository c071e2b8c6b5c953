// RUN: deplodock-opt %s --dloop-drop-unit-loops | FileCheck %s
// RUN: deplodock-run --interp %s --func=free_unit_loops --compare='func.func(dloop-drop-unit-loops)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=reduce_unit_loop --compare='func.func(dloop-drop-unit-loops)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=reducing_store_unit_loop --compare='func.func(dloop-drop-unit-loops)' --print=none | FileCheck %s --check-prefix=NUM

// Dropping a loop must not change what the kernel computes.
// NUM-NOT: FAIL
// NUM: PASS

/// Free loops of extent 1, nested ones included, become their body with the
/// loop variable replaced by 0 (a constant the next canonicalization folds
/// into the maps); the loop of extent 8 stays.
// CHECK-LABEL: func.func @free_unit_loops
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<1x8x1xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<1x8x1xf32>) {
//       CHECK:     %[[U:[a-z0-9_]+]] = arith.constant 0 : index
//   CHECK-NOT:     dloop.for
//       CHECK:     dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "j" {
//       CHECK:       %[[W:[a-z0-9_]+]] = arith.constant 0 : index
//   CHECK-NOT:       dloop.for
//       CHECK:       %[[V:[a-z0-9_]+]] = dloop.load %[[X]][%[[U]], %[[J]], %[[W]]] : memref<1x8x1xf32>
//       CHECK:       %[[E:[a-z0-9_]+]] = math.exp %[[V]] : f32
//       CHECK:       dloop.store %[[E]], %[[O]][%[[U]], %[[J]], %[[W]]] : memref<1x8x1xf32>
func.func @free_unit_loops(%arg0: memref<1x8x1xf32>) -> memref<1x8x1xf32> {
  %y = memref.alloc() : memref<1x8x1xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<1x8x1xf32>) outs(%o = %y : memref<1x8x1xf32>) {
    dloop.for %u = 0 to 1 free "u" {
      dloop.for %j = 0 to 8 free "j" {
        dloop.for %w = 0 to 1 free "w" {
          %v = dloop.load %x[%u, %j, %w] : memref<1x8x1xf32>
          %e = math.exp %v : f32
          dloop.store %e, %o[%u, %j, %w] : memref<1x8x1xf32>
        }
      }
    }
  }
  return %y : memref<1x8x1xf32>
}

/// A reduce loop of extent 1 with iter args: its results become the values
/// its body yields for the inits, also when it yields an iter arg unchanged.
// CHECK-LABEL: func.func @reduce_unit_loop
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x1xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>) {
//       CHECK:     %[[ZERO:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
//       CHECK:     %[[ONE:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//   CHECK-NOT:       dloop.for
//   CHECK-NOT:       dloop.yield
//       CHECK:       %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
//       CHECK:       %[[V:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[C0]]] : memref<4x1xf32>
//       CHECK:       %[[S:[a-z0-9_]+]] = arith.addf %[[ZERO]], %[[V]] : f32
//       CHECK:       %[[T:[a-z0-9_]+]] = arith.addf %[[S]], %[[ONE]] : f32
//       CHECK:       dloop.store %[[T]], %[[O]][%[[I]]] : memref<4xf32>
func.func @reduce_unit_loop(%arg0: memref<4x1xf32>) -> memref<4xf32> {
  %s = memref.alloc() : memref<4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x1xf32>) outs(%o = %s : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %r:2 = dloop.for %k = 0 to 1 reduce "k" iter(%acc = %zero : f32, %keep = %one : f32) {
        %v = dloop.load %x[%i, %k] : memref<4x1xf32>
        %a = arith.addf %acc, %v : f32
        dloop.yield %a, %keep : f32, f32
      }
      %t = arith.addf %r#0, %r#1 : f32
      dloop.store %t, %o[%i] : memref<4xf32>
    }
  }
  return %s : memref<4xf32>
}

/// A reduce loop of extent 1 that folds through a reducing store leaves the
/// store in place; the reduce loop of extent 8 stays.
// CHECK-LABEL: func.func @reducing_store_unit_loop
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x1xf32>, %[[Z:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>) {
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       dloop.store %{{.*}}, %[[O]][%[[I]]] : memref<4xf32>
//   CHECK-NOT:       dloop.for {{.*}} to 1
//       CHECK:       %[[V:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %{{.*}}] : memref<4x1xf32>
//       CHECK:       dloop.store add %[[V]], %[[O]][%[[I]]] : memref<4xf32>
//       CHECK:       dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "k" {
//       CHECK:         %[[W:[a-z0-9_]+]] = dloop.load %[[Z]][%[[I]], %[[K]]] : memref<4x8xf32>
//       CHECK:         dloop.store add %[[W]], %[[O]][%[[I]]] : memref<4xf32>
func.func @reducing_store_unit_loop(%arg0: memref<4x1xf32>, %arg1: memref<4x8xf32>) -> memref<4xf32> {
  %s = memref.alloc() : memref<4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x1xf32>, %z = %arg1 : memref<4x8xf32>) outs(%o = %s : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.store %zero, %o[%i] : memref<4xf32>
      dloop.for %k = 0 to 1 reduce "k" {
        %v = dloop.load %x[%i, %k] : memref<4x1xf32>
        dloop.store add %v, %o[%i] : memref<4xf32>
      }
      dloop.for %k = 0 to 8 reduce "k" {
        %w = dloop.load %z[%i, %k] : memref<4x8xf32>
        dloop.store add %w, %o[%i] : memref<4xf32>
      }
    }
  }
  return %s : memref<4xf32>
}
