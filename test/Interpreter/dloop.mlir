// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy f4 2x3 1,-2,3,4,0.5,-6
// RUN: %python %S/Inputs/npy.py write %t/b.npy f4 3x2 1,2,3,4,5,6
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 2x4 3,-1,7,7,-2,-5,-3,-9
// RUN: deplodock-run --interp %s --func=matmul --input=%t/a.npy --input=%t/b.npy | FileCheck %s --check-prefix=MATMUL
// RUN: deplodock-run --interp %s --func=reducing_stores --input=%t/a.npy | FileCheck %s --check-prefix=STORES
// RUN: deplodock-run --interp %s --func=argmax --input=%t/x.npy | FileCheck %s --check-prefix=ARGMAX
// RUN: deplodock-run --interp %s --func=control_flow --input=%t/x.npy | FileCheck %s --check-prefix=CONTROL
// RUN: deplodock-run --interp %s --func=globals --input=%t/x.npy | FileCheck %s --check-prefix=GLOBALS
// RUN: deplodock-run --interp %s --func=guarded_store --input=%t/x.npy | FileCheck %s --check-prefix=GUARDED

/// a = [1 -2 3; 4 0.5 -6], b = [1 2; 3 4; 5 6]. A reduce loop carries the
/// sum of products; a second kernel reads the first one's output buffer and
/// writes two outputs: c + 1 and its transpose.
// MATMUL:      result #0: tensor<2x2xf32>
// MATMUL-NEXT: 10 12
// MATMUL-NEXT: -24.5 -26
// MATMUL-NEXT: result #1: tensor<2x2xf32>
// MATMUL-NEXT: 11 13
// MATMUL-NEXT: -23.5 -25
// MATMUL-NEXT: result #2: tensor<2x2xf32>
// MATMUL-NEXT: 10 -24.5
// MATMUL-NEXT: 12 -26
// MATMUL-NOT:  result
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x2xf32>) -> (memref<2x2xf32>, memref<2x2xf32>, memref<2x2xf32>) {
  %c = memref.alloc() : memref<2x2xf32>
  %d = memref.alloc() : memref<2x2xf32>
  %t = memref.alloc() : memref<2x2xf32>
  dloop.kernel @matmul ins(%x = %a : memref<2x3xf32>, %y = %b : memref<3x2xf32>) outs(%z = %c : memref<2x2xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 2 free "m" {
      dloop.for %n = 0 to 2 free "n" {
        %sum = dloop.for %k = 0 to 3 reduce "k" iter(%acc = %zero : f32) unroll 3 {
          %u = dloop.load %x[%m, %k] : memref<2x3xf32>
          %v = dloop.load %y[%k, %n] : memref<3x2xf32>
          %p = arith.mulf %u, %v : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %sum, %z[%m, %n] : memref<2x2xf32>
      }
    }
  }
  dloop.kernel @epilogue ins(%x = %c : memref<2x2xf32>) outs(%p = %d : memref<2x2xf32>, %q = %t : memref<2x2xf32>) {
    %one = arith.constant 1.0 : f32
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 2 free "j" {
        %v = dloop.load %x[%i, %j] : memref<2x2xf32>
        %w = arith.addf %v, %one : f32
        dloop.store %w, %p[%i, %j] : memref<2x2xf32>
        dloop.store %v, %q[%j, %i] : memref<2x2xf32>
      }
    }
  }
  return %c, %d, %t : memref<2x2xf32>, memref<2x2xf32>, memref<2x2xf32>
}

/// Reducing stores fold into the element they write: column sums (add),
/// products (mul), row maxima and minima, each into a buffer first set to
/// the identity. The loops run in order, so later kernels see the result.
// STORES:      result #0: tensor<3xf32>
// STORES-NEXT: 5 -1.5 -3
// STORES-NEXT: result #1: tensor<3xf32>
// STORES-NEXT: 4 -1 -18
// STORES-NEXT: result #2: tensor<2x2xf32>
// STORES-NEXT: 3 -2
// STORES-NEXT: 4 -6
// STORES-NEXT: result #3: tensor<3xi32>
// STORES-NEXT: 5 -2 -3
// STORES-NOT:  result
func.func @reducing_stores(%a: memref<2x3xf32>) -> (memref<3xf32>, memref<3xf32>, memref<2x2xf32>, memref<3xi32>) {
  %sum = memref.alloc() : memref<3xf32>
  %prod = memref.alloc() : memref<3xf32>
  %ext = memref.alloc() : memref<2x2xf32>
  %isum = memref.alloc() : memref<3xi32>
  dloop.kernel @columns ins(%x = %a : memref<2x3xf32>) outs(%s = %sum : memref<3xf32>, %p = %prod : memref<3xf32>, %is = %isum : memref<3xi32>) {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %izero = arith.constant 0 : i32
    dloop.for %j = 0 to 3 free "j" {
      dloop.store %zero, %s[%j] : memref<3xf32>
      dloop.store %one, %p[%j] : memref<3xf32>
      dloop.store %izero, %is[%j] : memref<3xi32>
    }
    dloop.for %i = 0 to 2 reduce "i" {
      dloop.for %j = 0 to 3 free "j" {
        %v = dloop.load %x[%i, %j] : memref<2x3xf32>
        dloop.store add %v, %s[%j] : memref<3xf32>
        dloop.store mul %v, %p[%j] : memref<3xf32>
        %t = arith.fptosi %v : f32 to i32
        dloop.store add %t, %is[%j] : memref<3xi32>
      }
    }
  }
  dloop.kernel @extrema ins(%x = %a : memref<2x3xf32>) outs(%e = %ext : memref<2x2xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %inf = arith.constant 0x7F800000 : f32
    dloop.for %i = 0 to 2 free "i" {
      dloop.store %ninf, %e[%i, 0] : memref<2x2xf32>
      dloop.store %inf, %e[%i, 1] : memref<2x2xf32>
      dloop.for %j = 0 to 3 reduce "j" {
        %v = dloop.load %x[%i, %j] : memref<2x3xf32>
        dloop.store max %v, %e[%i, 0] : memref<2x2xf32>
        dloop.store min %v, %e[%i, 1] : memref<2x2xf32>
      }
    }
  }
  return %sum, %prod, %ext, %isum : memref<3xf32>, memref<3xf32>, memref<2x2xf32>, memref<3xi32>
}

/// A reduce loop with two accumulators of different types: the maximum of
/// each row of x = [3 -1 7 7; -2 -5 -3 -9] and the first index holding it.
// ARGMAX:      result #0: tensor<2xf32>
// ARGMAX-NEXT: 7 -2
// ARGMAX-NEXT: result #1: tensor<2xindex>
// ARGMAX-NEXT: 2 0
// ARGMAX-NOT:  result
func.func @argmax(%arg: memref<2x4xf32>) -> (memref<2xf32>, memref<2xindex>) {
  %vals = memref.alloc() : memref<2xf32>
  %idxs = memref.alloc() : memref<2xindex>
  dloop.kernel @argmax ins(%x = %arg : memref<2x4xf32>) outs(%v = %vals : memref<2xf32>, %k = %idxs : memref<2xindex>) {
    %ninf = arith.constant 0xFF800000 : f32
    %c0 = arith.constant 0 : index
    dloop.for %r = 0 to 2 free "r" {
      %best:2 = dloop.for %c = 0 to 4 reduce "c" iter(%m = %ninf : f32, %i = %c0 : index) {
        %e = dloop.load %x[%r, %c] : memref<2x4xf32>
        %gt = arith.cmpf ogt, %e, %m : f32
        %nm = arith.select %gt, %e, %m : f32
        %ni = arith.select %gt, %c, %i : index
        dloop.yield %nm, %ni : f32, index
      }
      dloop.store %best#0, %v[%r] : memref<2xf32>
      dloop.store %best#1, %k[%r] : memref<2xindex>
    }
  }
  return %vals, %idxs : memref<2xf32>, memref<2xindex>
}

/// scf.if picks per element (a ReLU and a clamp to 5 through nested ifs),
/// scf.for with iter_args computes x * 2^j, affine.apply computes indices
/// (a reversal and a floordiv/mod reshape), and loads take affine indices
/// directly.
// CONTROL:      result #0: tensor<2x4xf32>
// CONTROL-NEXT: 3 0 5 5
// CONTROL-NEXT: 0 0 0 0
// CONTROL-NEXT: result #1: tensor<2x4xf32>
// CONTROL-NEXT: 3 -2 28 56
// CONTROL-NEXT: -2 -10 -12 -72
// CONTROL-NEXT: result #2: tensor<2x4xf32>
// CONTROL-NEXT: -9 -3 -5 -2
// CONTROL-NEXT: 7 7 -1 3
// CONTROL-NEXT: result #3: tensor<4x2xf32>
// CONTROL-NEXT: 3 -1
// CONTROL-NEXT: 7 7
// CONTROL-NEXT: -2 -5
// CONTROL-NEXT: -3 -9
// CONTROL-NOT:  result
func.func @control_flow(%arg: memref<2x4xf32>) -> (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<4x2xf32>) {
  %relu = memref.alloc() : memref<2x4xf32>
  %pow = memref.alloc() : memref<2x4xf32>
  %rev = memref.alloc() : memref<2x4xf32>
  %resh = memref.alloc() : memref<4x2xf32>
  dloop.kernel @control ins(%x = %arg : memref<2x4xf32>) outs(%o = %relu : memref<2x4xf32>, %p = %pow : memref<2x4xf32>, %q = %rev : memref<2x4xf32>, %s = %resh : memref<4x2xf32>) {
    %zero = arith.constant 0.0 : f32
    %five = arith.constant 5.0 : f32
    %two = arith.constant 2.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 4 free "j" {
        %v = dloop.load %x[%i, %j] : memref<2x4xf32>
        %neg = arith.cmpf olt, %v, %zero : f32
        %r = scf.if %neg -> (f32) {
          scf.yield %zero : f32
        } else {
          %big = arith.cmpf ogt, %v, %five : f32
          %c = scf.if %big -> (f32) {
            scf.yield %five : f32
          } else {
            scf.yield %v : f32
          }
          scf.yield %c : f32
        }
        dloop.store %r, %o[%i, %j] : memref<2x4xf32>
        %w = scf.for %n = %c0 to %j step %c1 iter_args(%acc = %v) -> (f32) {
          %d = arith.mulf %acc, %two : f32
          scf.yield %d : f32
        }
        dloop.store %w, %p[%i, %j] : memref<2x4xf32>
        %ri = affine.apply affine_map<(d0) -> (1 - d0)>(%i)
        %rj = affine.apply affine_map<(d0) -> (3 - d0)>(%j)
        %u = dloop.load %x[%ri, %rj] : memref<2x4xf32>
        dloop.store %u, %q[%i, %j] : memref<2x4xf32>
        %flat = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
        dloop.store %v, %s[%flat floordiv 2, %flat mod 2] : memref<4x2xf32>
      }
    }
  }
  return %relu, %pow, %rev, %resh : memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<4x2xf32>
}

/// Weights in a memref.global (as convert-dtensor-to-dloop makes them), a
/// splat global, and memref.load/store outside kernels.
// GLOBALS:      result #0: tensor<2x4xf32>
// GLOBALS-NEXT: 3.5 -0.5 7.5 7.5
// GLOBALS-NEXT: -4 -7 -5 -11
// GLOBALS-NEXT: result #1: tensor<f32>
// GLOBALS-NEXT: -9
// GLOBALS-NOT:  result
memref.global "private" constant @bias : memref<2x1xf32> = dense<[[0.5], [-2.0]]>
memref.global "private" constant @zeros : memref<2x4xf32> = dense<0.0>
func.func @globals(%arg: memref<2x4xf32>) -> (memref<2x4xf32>, memref<f32>) {
  %bias = memref.get_global @bias : memref<2x1xf32>
  %zeros = memref.get_global @zeros : memref<2x4xf32>
  %out = memref.alloc() : memref<2x4xf32>
  dloop.kernel @add_bias ins(%x = %arg : memref<2x4xf32>, %b = %bias : memref<2x1xf32>, %z = %zeros : memref<2x4xf32>) outs(%y = %out : memref<2x4xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 4 free "j" {
        %v = dloop.load %x[%i, %j] : memref<2x4xf32>
        %w = dloop.load %b[%i, 0] : memref<2x1xf32>
        %o = dloop.load %z[%i, %j] : memref<2x4xf32>
        %s = arith.addf %v, %w : f32
        %t = arith.addf %s, %o : f32
        dloop.store %t, %y[%i, %j] : memref<2x4xf32>
      }
    }
  }
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %last = memref.load %arg[%c1, %c3] : memref<2x4xf32>
  %cell = memref.alloca() : memref<f32>
  memref.store %last, %cell[] : memref<f32>
  return %out, %cell : memref<2x4xf32>, memref<f32>
}

/// An scf.if without results guards a store: only positive elements
/// overwrite the zeros.
// GUARDED:      result #0: tensor<2x4xf32>
// GUARDED-NEXT: 3 0 7 7
// GUARDED-NEXT: 0 0 0 0
func.func @guarded_store(%arg: memref<2x4xf32>) -> memref<2x4xf32> {
  %out = memref.alloc() : memref<2x4xf32>
  dloop.kernel @guarded ins(%x = %arg : memref<2x4xf32>) outs(%y = %out : memref<2x4xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 4 free "j" {
        dloop.store %zero, %y[%i, %j] : memref<2x4xf32>
        %v = dloop.load %x[%i, %j] : memref<2x4xf32>
        %pos = arith.cmpf ogt, %v, %zero : f32
        scf.if %pos {
          dloop.store %v, %y[%i, %j] : memref<2x4xf32>
        }
      }
    }
  }
  return %out : memref<2x4xf32>
}
