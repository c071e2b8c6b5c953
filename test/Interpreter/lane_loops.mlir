// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 4 1e8,1,-1e8,1
// RUN: %python %S/Inputs/npy.py write %t/i.npy i1 4 0,1,7,2
// RUN: deplodock-run --interp %s --func=lanes --input=%t/x.npy | FileCheck %s --check-prefix=LANES
// RUN: deplodock-run --interp %s --func=prefix --input=%t/x.npy | FileCheck %s --check-prefix=PREFIX
// RUN: deplodock-run --interp %s --func=shared_target --input=%t/x.npy | FileCheck %s --check-prefix=SHARED
// RUN: deplodock-run --interp %s --func=shifted --input=%t/x.npy | FileCheck %s --check-prefix=SHIFTED
// RUN: not deplodock-run --interp %s --func=gather --input=%t/x.npy --input=%t/i.npy 2>&1 | FileCheck %s --check-prefix=GATHER

/// A dloop.kernel runs one iteration of a free loop per lane of the SIMT
/// engine when no iteration can see what another writes (LaneLoops.cpp);
/// otherwise it runs iteration after iteration. Either way the results are
/// those of running the iterations in order. x is [1e8 1 -1e8 1].

/// Each iteration writes its own row: lanes. Row i is x[i] + x[j] over j.
// LANES:      result #0: tensor<4x4xf32>
// LANES-NEXT: 200000000 100000000 0 100000000
// LANES-NEXT: 100000000 2 -100000000 2
// LANES-NEXT: 0 -100000000 -200000000 -100000000
// LANES-NEXT: 100000000 2 -100000000 2
func.func @lanes(%x: memref<4xf32>) -> memref<4x4xf32> {
  %out = memref.alloc() : memref<4x4xf32>
  dloop.kernel @lanes ins(%in = %x : memref<4xf32>) outs(%o = %out : memref<4x4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 4 free "j" {
        %a = dloop.load %in[%i] : memref<4xf32>
        %b = dloop.load %in[%j] : memref<4xf32>
        %s = arith.addf %a, %b : f32
        dloop.store %s, %o[%i, %j] : memref<4x4xf32>
      }
    }
  }
  return %out : memref<4x4xf32>
}

/// Iteration i reads what iteration i - 1 wrote (the loop is marked free,
/// but the interpreter checks, it does not trust): a running sum, which
/// lanes reading before any writes would not give.
// PREFIX:      result #0: tensor<5xf32>
// PREFIX-NEXT: 0 100000000 100000000 0 1
func.func @prefix(%x: memref<4xf32>) -> memref<5xf32> {
  %out = memref.alloc() : memref<5xf32>
  dloop.kernel @init outs(%o = %out : memref<5xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    dloop.store %zero, %o[%c0] : memref<5xf32>
  }
  dloop.kernel @prefix ins(%in = %x : memref<4xf32>) outs(%o = %out : memref<5xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %p = dloop.load %o[%i] : memref<5xf32>
      %v = dloop.load %in[%i] : memref<4xf32>
      %s = arith.addf %p, %v : f32
      dloop.store %s, %o[%i + 1] : memref<5xf32>
    }
  }
  return %out : memref<5xf32>
}

/// Every iteration folds twice into one element: in order that is
/// 0 + 1e8 + 1e8 + 1 + 1 - 1e8 - 1e8 + 1 + 1 = 2 (f32 rounds 2e8 + 1 to
/// 2e8), while lanes taking turns at each store would give 1.
// SHARED:      result #0: tensor<1xf32>
// SHARED-NEXT: 2
func.func @shared_target(%x: memref<4xf32>) -> memref<1xf32> {
  %out = memref.alloc() : memref<1xf32>
  dloop.kernel @init outs(%o = %out : memref<1xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    dloop.store %zero, %o[%c0] : memref<1xf32>
  }
  dloop.kernel @shared ins(%in = %x : memref<4xf32>) outs(%o = %out : memref<1xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %in[%i] : memref<4xf32>
      scf.for %k = %c0 to %c2 step %c1 {
        dloop.store add %v, %o[%c0] : memref<1xf32>
      }
    }
  }
  return %out : memref<1xf32>
}

/// Iteration i writes elements i and i + 1 (its index moves with the inner
/// loop too): iterations overwrite each other, and the last write wins.
// SHIFTED:      result #0: tensor<5xf32>
// SHIFTED-NEXT: 100000000 1 -100000000 1 1
func.func @shifted(%x: memref<4xf32>) -> memref<5xf32> {
  %out = memref.alloc() : memref<5xf32>
  dloop.kernel @shifted ins(%in = %x : memref<4xf32>) outs(%o = %out : memref<5xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %in[%i] : memref<4xf32>
      scf.for %k = %c0 to %c2 step %c1 {
        dloop.store %v, %o[%i + %k] : memref<5xf32>
      }
    }
  }
  return %out : memref<5xf32>
}

/// An error on a lane names the iteration.
// GATHER: lane_loops.mlir:[[# @LINE + 7]]:12: error: 'dloop.load' op accesses index 7 of dimension 0 of size 4 in iteration k = 2
func.func @gather(%x: memref<4xf32>, %i: memref<4xi8>) -> memref<4xf32> {
  %out = memref.alloc() : memref<4xf32>
  dloop.kernel @gather ins(%src = %x : memref<4xf32>, %idx = %i : memref<4xi8>) outs(%y = %out : memref<4xf32>) {
    dloop.for %k = 0 to 4 free "k" {
      %j = dloop.load %idx[%k] : memref<4xi8>
      %ji = arith.index_cast %j : i8 to index
      %v = dloop.load %src[%ji] : memref<4xf32>
      dloop.store %v, %y[%k] : memref<4xf32>
    }
  }
  return %out : memref<4xf32>
}
