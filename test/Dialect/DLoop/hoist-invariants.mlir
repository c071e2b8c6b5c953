// RUN: deplodock-opt %s --dloop-hoist-invariants | FileCheck %s
// RUN: deplodock-run --interp %s --func=scalar_and_loads --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=reduce_loop --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=out_of_reduce_loop --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=whole_if --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_output_loads --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_inside_if --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_stores --compare='func.func(dloop-hoist-invariants)' --print=none | FileCheck %s --check-prefix=NUM

// Hoisting must not change what the kernels compute.
// NUM-NOT: FAIL
// NUM: PASS

/// Scalar code and loads of inputs move out of every loop that does not
/// change their operands, level by level: 1/8 (constants only) out of both
/// loops, the load of s[i] and its exp out of the j loop only.
// CHECK-LABEL: func.func @scalar_and_loads
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>, %[[S:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>) {
//       CHECK:     %[[ONE:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
//       CHECK:     %[[N:[a-z0-9_]+]] = arith.constant 8.000000e+00 : f32
//       CHECK:     %[[INV:[a-z0-9_]+]] = arith.divf %[[ONE]], %[[N]] : f32
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[SV:[a-z0-9_]+]] = dloop.load %[[S]][%[[I]]] : memref<4xf32>
//       CHECK:       %[[E:[a-z0-9_]+]] = math.exp %[[SV]] : f32
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "j" {
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
//       CHECK:         %[[A:[a-z0-9_]+]] = arith.mulf %[[XV]], %[[E]] : f32
//       CHECK:         %[[B:[a-z0-9_]+]] = arith.mulf %[[A]], %[[INV]] : f32
//       CHECK:         dloop.store %[[B]], %[[O]][%[[I]], %[[J]]] : memref<4x8xf32>
func.func @scalar_and_loads(%arg0: memref<4x8xf32>, %arg1: memref<4xf32>) -> memref<4x8xf32> {
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>, %s = %arg1 : memref<4xf32>) outs(%o = %y : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %one = arith.constant 1.000000e+00 : f32
        %n = arith.constant 8.000000e+00 : f32
        %inv = arith.divf %one, %n : f32
        %sv = dloop.load %s[%i] : memref<4xf32>
        %e = math.exp %sv : f32
        %xv = dloop.load %x[%i, %j] : memref<4x8xf32>
        %a = arith.mulf %xv, %e : f32
        %b = arith.mulf %a, %inv : f32
        dloop.store %b, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// A whole reduce loop over inputs moves: the row sum fusion clones into the
/// column loop runs once per row.
// CHECK-LABEL: func.func @reduce_loop
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[SUM:[a-z0-9_]+]] = dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "k" iter(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f32) {
//       CHECK:         dloop.load %[[X]][%[[I]], %[[K]]] : memref<4x8xf32>
//       CHECK:         dloop.yield
//       CHECK:       }
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "j" {
//   CHECK-NOT:         reduce
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
//       CHECK:         arith.divf %[[XV]], %[[SUM]] : f32
func.func @reduce_loop(%arg0: memref<4x8xf32>) -> memref<4x8xf32> {
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %y : memref<4x8xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %sum = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %v = dloop.load %x[%i, %k] : memref<4x8xf32>
          %a = arith.addf %acc, %v : f32
          dloop.yield %a : f32
        }
        %xv = dloop.load %x[%i, %j] : memref<4x8xf32>
        %d = arith.divf %xv, %sum : f32
        dloop.store %d, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// Reduce loops are loops too: w[i] is read once per row, not once per k.
// CHECK-LABEL: func.func @out_of_reduce_loop
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>, %[[W:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[WV:[a-z0-9_]+]] = dloop.load %[[W]][%[[I]]] : memref<4xf32>
//       CHECK:       dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "k"
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[K]]] : memref<4x8xf32>
//       CHECK:         arith.mulf %[[XV]], %[[WV]] : f32
func.func @out_of_reduce_loop(%arg0: memref<4x8xf32>, %arg1: memref<4xf32>) -> memref<4xf32> {
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>, %w = %arg1 : memref<4xf32>) outs(%o = %y : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %sum = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %wv = dloop.load %w[%i] : memref<4xf32>
        %v = dloop.load %x[%i, %k] : memref<4x8xf32>
        %p = arith.mulf %v, %wv : f32
        %a = arith.addf %acc, %p : f32
        dloop.yield %a : f32
      }
      dloop.store %sum, %o[%i] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}

/// An scf.if whose condition and branches are invariant moves whole, still
/// guarding its load.
// CHECK-LABEL: func.func @whole_if
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>, %[[S:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[C:[a-z0-9_]+]] = arith.cmpi slt, %[[I]], %{{.*}} : index
//       CHECK:       %[[R:[a-z0-9_]+]] = scf.if %[[C]] -> (f32) {
//       CHECK:         dloop.load %[[S]][%[[I]]] : memref<4xf32>
//       CHECK:       } else {
//       CHECK:       }
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "j" {
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
//       CHECK:         arith.addf %[[XV]], %[[R]] : f32
func.func @whole_if(%arg0: memref<4x8xf32>, %arg1: memref<4xf32>) -> memref<4x8xf32> {
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>, %s = %arg1 : memref<4xf32>) outs(%o = %y : memref<4x8xf32>) {
    %c2 = arith.constant 2 : index
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %c = arith.cmpi slt, %i, %c2 : index
        %r = scf.if %c -> (f32) {
          %sv = dloop.load %s[%i] : memref<4xf32>
          scf.yield %sv : f32
        } else {
          %z = arith.constant 0.000000e+00 : f32
          scf.yield %z : f32
        }
        %xv = dloop.load %x[%i, %j] : memref<4x8xf32>
        %a = arith.addf %xv, %r : f32
        dloop.store %a, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// A load of an output is never hoisted, even at an invariant index: the
/// kernel writes that buffer (here it reads back the running product).
// CHECK-LABEL: func.func @negative_output_loads
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       dloop.store %{{.*}}, %[[O]][%[[I]]] : memref<4xf32>
//       CHECK:       dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "k" {
//       CHECK:         %[[PREV:[a-z0-9_]+]] = dloop.load %[[O]][%[[I]]] : memref<4xf32>
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[K]]] : memref<4x8xf32>
//       CHECK:         %[[P:[a-z0-9_]+]] = arith.mulf %[[PREV]], %[[XV]] : f32
//       CHECK:         dloop.store add %[[P]], %[[O]][%[[I]]] : memref<4xf32>
func.func @negative_output_loads(%arg0: memref<4x8xf32>) -> memref<4xf32> {
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %y : memref<4xf32>) {
    %one = arith.constant 1.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.store %one, %o[%i] : memref<4xf32>
      dloop.for %k = 0 to 8 reduce "k" {
        %prev = dloop.load %o[%i] : memref<4xf32>
        %v = dloop.load %x[%i, %k] : memref<4x8xf32>
        %p = arith.mulf %prev, %v : f32
        dloop.store add %p, %o[%i] : memref<4xf32>
      }
    }
  }
  return %y : memref<4xf32>
}

/// Nothing leaves the branches of an scf.if that must stay in the loop: the
/// load of s[i] is invariant in j but only runs where j < 4.
// CHECK-LABEL: func.func @negative_inside_if
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4x8xf32>, %[[S:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "j" {
//       CHECK:         %[[C:[a-z0-9_]+]] = arith.cmpi slt, %[[J]], %{{.*}} : index
//       CHECK:         scf.if %[[C]] -> (f32) {
//       CHECK:           %[[SV:[a-z0-9_]+]] = dloop.load %[[S]][%[[I]]] : memref<4xf32>
//       CHECK:           math.exp %[[SV]] : f32
//       CHECK:         } else {
//       CHECK:           dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
func.func @negative_inside_if(%arg0: memref<4x8xf32>, %arg1: memref<4xf32>) -> memref<4x8xf32> {
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4x8xf32>, %s = %arg1 : memref<4xf32>) outs(%o = %y : memref<4x8xf32>) {
    %c4 = arith.constant 4 : index
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %c = arith.cmpi slt, %j, %c4 : index
        %r = scf.if %c -> (f32) {
          %sv = dloop.load %s[%i] : memref<4xf32>
          %e = math.exp %sv : f32
          scf.yield %e : f32
        } else {
          %xv = dloop.load %x[%i, %j] : memref<4x8xf32>
          scf.yield %xv : f32
        }
        dloop.store %r, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// Stores stay, and so does a loop that holds one, however invariant: the
/// inner loop writes the same row for every j.
// CHECK-LABEL: func.func @negative_stores
//       CHECK:   dloop.kernel @k ins(%[[X:[a-z0-9_]+]] = %{{.*}} : memref<4xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<4x4xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "i" {
//       CHECK:       %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]]] : memref<4xf32>
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 2 free "j" {
//       CHECK:         dloop.for %[[K:[a-z0-9_]+]] = 0 to 4 free "k" {
//       CHECK:           dloop.store %[[XV]], %[[O]][%[[I]], %[[K]]] : memref<4x4xf32>
func.func @negative_stores(%arg0: memref<4xf32>) -> memref<4x4xf32> {
  %y = memref.alloc() : memref<4x4xf32>
  dloop.kernel @k ins(%x = %arg0 : memref<4xf32>) outs(%o = %y : memref<4x4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 2 free "j" {
        dloop.for %k = 0 to 4 free "k" {
          %v = dloop.load %x[%i] : memref<4xf32>
          dloop.store %v, %o[%i, %k] : memref<4x4xf32>
        }
      }
    }
  }
  return %y : memref<4x4xf32>
}
