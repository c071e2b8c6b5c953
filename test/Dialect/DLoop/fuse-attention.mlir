// RUN: deplodock-opt %s --dloop-fuse-attention | FileCheck %s
// RUN: deplodock-run --interp %s --func=two_kernels --compare='func.func(dloop-fuse-attention)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=one_kernel --compare='func.func(dloop-fuse-attention)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=safe_softmax --compare='func.func(dloop-fuse-attention)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=reciprocal --compare='func.func(dloop-fuse-attention)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=masked_first_keys --compare='func.func(dloop-fuse-attention)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=bf16_probabilities --compare='func.func(dloop-fuse-attention)' --rtol=2e-2 --atol=1e-2 --print=none | FileCheck %s --check-prefix=NUM

// The online kernel computes what the softmax and the contraction did apart
// (the bf16 probabilities within bf16's tolerance: they are rounded before
// the division by the sum instead of after).
// NUM-NOT: FAIL
// NUM: PASS

/// A softmax kernel and the kernel contracting its probabilities with v
/// become one kernel: per row, one loop over the keys carries the running
/// maximum and sum, rescales the private accumulators over d by
/// exp(m_old - m_new), and the row ends with acc / sum.
// CHECK-LABEL: func.func @two_kernels
//   CHECK-NOT:   memref.alloc() : memref<2x3x5xf32>
//       CHECK:   dloop.kernel @pv ins(%[[V:[a-z0-9_]+]] = %arg1 : memref<2x5x4xf32>, %[[S:[a-z0-9_]+]] = %arg0 : memref<2x3x5xf32>)
//   CHECK-DAG:     %[[NINF:[a-z0-9_]+]] = arith.constant 0xFF800000 : f32
//   CHECK-DAG:     %[[ZERO:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
//       CHECK:     dloop.for %[[H:[a-z0-9_]+]] = 0 to 2 free
//       CHECK:       dloop.for %[[I:[a-z0-9_]+]] = 0 to 3 free
//       CHECK:         %[[ACC:[a-z0-9_]+]] = memref.alloca() : memref<4xf32>
//       CHECK:         dloop.for %[[D0:[a-z0-9_]+]] = 0 to 4 free
//       CHECK:           dloop.store %[[ZERO]], %[[ACC]][%[[D0]]] : memref<4xf32>
//       CHECK:         %[[ROW:[a-z0-9_]+]]:2 = dloop.for %[[J:[a-z0-9_]+]] = 0 to 5 reduce "r0" iter(%[[M:[a-z0-9_]+]] = %[[NINF]] : f32, %[[L:[a-z0-9_]+]] = %[[ZERO]] : f32) {
//       CHECK:           %[[SV:[a-z0-9_]+]] = dloop.load %[[S]][%[[H]], %[[I]], %[[J]]] : memref<2x3x5xf32>
//       CHECK:           %[[NEXT:[a-z0-9_]+]] = arith.maxnumf %[[M]], %[[SV]] : f32
//       CHECK:           %[[ALLMASKED:[a-z0-9_]+]] = arith.cmpf oeq, %[[NEXT]], %[[NINF]] : f32
//       CHECK:           %[[SAFE:[a-z0-9_]+]] = arith.select %[[ALLMASKED]], %[[ZERO]], %[[NEXT]] : f32
//       CHECK:           %[[DM:[a-z0-9_]+]] = arith.subf %[[M]], %[[SAFE]] : f32
//       CHECK:           %[[ALPHA:[a-z0-9_]+]] = math.exp %[[DM]] : f32
//       CHECK:           %[[DS:[a-z0-9_]+]] = arith.subf %[[SV]], %[[SAFE]] : f32
//       CHECK:           %[[P:[a-z0-9_]+]] = math.exp %[[DS]] : f32
//       CHECK:           %[[LA:[a-z0-9_]+]] = arith.mulf %[[L]], %[[ALPHA]] : f32
//       CHECK:           %[[LNEXT:[a-z0-9_]+]] = arith.addf %[[LA]], %[[P]] : f32
//       CHECK:           dloop.for %[[D:[a-z0-9_]+]] = 0 to 4 free
//       CHECK:             %[[OLD:[a-z0-9_]+]] = dloop.load %[[ACC]][%[[D]]] : memref<4xf32>
//       CHECK:             %[[SCALED:[a-z0-9_]+]] = arith.mulf %[[OLD]], %[[ALPHA]] : f32
//       CHECK:             %[[VV:[a-z0-9_]+]] = dloop.load %[[V]][%[[H]], %[[J]], %[[D]]] : memref<2x5x4xf32>
//       CHECK:             %[[PV:[a-z0-9_]+]] = arith.mulf %[[P]], %[[VV]] : f32
//       CHECK:             %[[NEW:[a-z0-9_]+]] = arith.addf %[[SCALED]], %[[PV]] : f32
//       CHECK:             dloop.store %[[NEW]], %[[ACC]][%[[D]]] : memref<4xf32>
//       CHECK:           }
//       CHECK:           dloop.yield %[[NEXT]], %[[LNEXT]] : f32, f32
//       CHECK:         }
//       CHECK:         dloop.for %[[D2:[a-z0-9_]+]] = 0 to 4 free
//       CHECK:           %[[SUM:[a-z0-9_]+]] = dloop.load %[[ACC]][%[[D2]]] : memref<4xf32>
//       CHECK:           %[[OUT:[a-z0-9_]+]] = arith.divf %[[SUM]], %[[ROW]]#1 : f32
//       CHECK:           dloop.store %[[OUT]], %{{.*}}[%[[H]], %[[I]], %[[D2]]] : memref<2x3x4xf32>
//   CHECK-NOT:   dloop.kernel
func.func @two_kernels(%arg0: memref<2x3x5xf32>, %arg1: memref<2x5x4xf32>) -> memref<2x3x4xf32> {
  %probs = memref.alloc() : memref<2x3x5xf32>
  dloop.kernel @softmax ins(%s = %arg0 : memref<2x3x5xf32>) outs(%p = %probs : memref<2x3x5xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %nan = arith.constant 0x7FC00000 : f32
    dloop.for %h = 0 to 2 free "h" {
      dloop.for %i = 0 to 3 free "i" {
        %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %nan : f32) {
          %x = dloop.load %s[%h, %i, %j] : memref<2x3x5xf32>
          %m = arith.maxnumf %acc, %x : f32
          dloop.yield %m : f32
        }
        %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%h, %i, %j] : memref<2x3x5xf32>
          %d = arith.subf %x, %max : f32
          %e = math.exp %d : f32
          %a = arith.addf %acc, %e : f32
          dloop.yield %a : f32
        }
        dloop.for %j = 0 to 5 free "j" {
          %x = dloop.load %s[%h, %i, %j] : memref<2x3x5xf32>
          %d = arith.subf %x, %max : f32
          %e = math.exp %d : f32
          %q = arith.divf %e, %sum : f32
          dloop.store %q, %p[%h, %i, %j] : memref<2x3x5xf32>
        }
      }
    }
  }
  %out = memref.alloc() : memref<2x3x4xf32>
  dloop.kernel @pv ins(%p = %probs : memref<2x3x5xf32>, %v = %arg1 : memref<2x5x4xf32>) outs(%o = %out : memref<2x3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %h = 0 to 2 free "h" {
      dloop.for %i = 0 to 3 free "i" {
        dloop.for %d = 0 to 4 free "d" {
          %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
            %q = dloop.load %p[%h, %i, %j] : memref<2x3x5xf32>
            %w = dloop.load %v[%h, %j, %d] : memref<2x5x4xf32>
            %t = arith.mulf %q, %w : f32
            %a = arith.addf %acc, %t : f32
            dloop.yield %a : f32
          }
          dloop.store %r, %o[%h, %i, %d] : memref<2x3x4xf32>
        }
      }
    }
  }
  return %out : memref<2x3x4xf32>
}

/// A kernel that already holds the whole chain, the scores computed in it
/// (q . k, scaled): the scores are computed once per key in the merged loop,
/// not once per key and output element.
// CHECK-LABEL: func.func @one_kernel
//       CHECK:   dloop.kernel @attn
//       CHECK:     memref.alloca() : memref<4xf32>
//       CHECK:     dloop.for {{.*}} = 0 to 5 reduce "r0" iter({{.*}} : f32, {{.*}} : f32) {
//       CHECK:       dloop.for {{.*}} = 0 to 4 reduce "r1"
//       CHECK:       arith.maximumf
//       CHECK:       dloop.for {{.*}} = 0 to 4 free
//   CHECK-NOT:         reduce
//       CHECK:         dloop.store
//       CHECK:     dloop.for {{.*}} = 0 to 4 free
//   CHECK-NOT:       reduce
//       CHECK:       arith.divf
func.func @one_kernel(%arg0: memref<3x4xf32>, %arg1: memref<5x4xf32>, %arg2: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%q = %arg0 : memref<3x4xf32>, %k = %arg1 : memref<5x4xf32>, %v = %arg2 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 5.000000e-01 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %dot = dloop.for %c = 0 to 4 reduce "c" iter(%b = %zero : f32) {
          %x = dloop.load %q[%i, %c] : memref<3x4xf32>
          %y = dloop.load %k[%j, %c] : memref<5x4xf32>
          %xy = arith.mulf %x, %y : f32
          %n = arith.addf %b, %xy : f32
          dloop.yield %n : f32
        }
        %s = arith.mulf %dot, %scale : f32
        %m = arith.maximumf %acc, %s : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
        %dot = dloop.for %c = 0 to 4 reduce "c" iter(%b = %zero : f32) {
          %x = dloop.load %q[%i, %c] : memref<3x4xf32>
          %y = dloop.load %k[%j, %c] : memref<5x4xf32>
          %xy = arith.mulf %x, %y : f32
          %n = arith.addf %b, %xy : f32
          dloop.yield %n : f32
        }
        %s = arith.mulf %dot, %scale : f32
        %d = arith.subf %s, %max : f32
        %e = math.exp %d : f32
        %a = arith.addf %acc, %e : f32
        dloop.yield %a : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %dot = dloop.for %c = 0 to 4 reduce "c" iter(%b = %zero : f32) {
            %x = dloop.load %q[%i, %c] : memref<3x4xf32>
            %y = dloop.load %k[%j, %c] : memref<5x4xf32>
            %xy = arith.mulf %x, %y : f32
            %n = arith.addf %b, %xy : f32
            dloop.yield %n : f32
          }
          %s = arith.mulf %dot, %scale : f32
          %dd = arith.subf %s, %max : f32
          %e = math.exp %dd : f32
          %p = arith.divf %e, %sum : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %p, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

/// PyTorch's safe softmax: rows whose scores are all -inf (here row 0) give
/// zeros. The test "every score is -inf" is another reduction over the
/// keys: it joins the merged loop, and its select is applied to the final
/// sums. The other rows' mask is additive, read from a buffer.
// CHECK-LABEL: func.func @safe_softmax
//       CHECK:   dloop.kernel @attn
//       CHECK:     %[[ROW:[a-z0-9_]+]]:3 = dloop.for {{.*}} = 0 to 5 reduce "r0" iter({{.*}} : f32, {{.*}} : f32, {{.*}} : i32) {
//       CHECK:       arith.maxsi
//       CHECK:     }
//       CHECK:     %[[FLAG:[a-z0-9_]+]] = arith.andi %[[ROW]]#2
//       CHECK:     %[[ALL:[a-z0-9_]+]] = arith.cmpi ne, %[[FLAG]]
//       CHECK:     dloop.for {{.*}} = 0 to 4 free
//       CHECK:       %[[Q:[a-z0-9_]+]] = arith.divf %{{.*}}, %[[ROW]]#1 : f32
//       CHECK:       arith.select %[[ALL]], %{{.*}}, %[[Q]] : f32
func.func @safe_softmax(%arg0: memref<3x5xf32>, %arg1: memref<3x5xf32>, %arg2: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %mask = %arg1 : memref<3x5xf32>, %v = %arg2 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %ninf64 = arith.constant 0xFFF0000000000000 : f64
    %min = arith.constant -2147483648 : i32
    %one = arith.constant 1 : i32
    %zero32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    dloop.for %i = 0 to 3 free "i" {
      %first = arith.cmpi eq, %i, %c0 : index
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %b = dloop.load %mask[%i, %j] : memref<3x5xf32>
        %xb = arith.addf %x, %b : f32
        %y = arith.select %first, %ninf, %xb : f32
        %m = arith.maximumf %acc, %y : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %b = dloop.load %mask[%i, %j] : memref<3x5xf32>
        %xb = arith.addf %x, %b : f32
        %y = arith.select %first, %ninf, %xb : f32
        %d = arith.subf %y, %max : f32
        %e = math.exp %d : f32
        %a = arith.addf %acc, %e : f32
        dloop.yield %a : f32
      }
      %all = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %min : i32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %b = dloop.load %mask[%i, %j] : memref<3x5xf32>
        %xb = arith.addf %x, %b : f32
        %y = arith.select %first, %ninf, %xb : f32
        %w = arith.extf %y : f32 to f64
        %c = arith.cmpf oeq, %w, %ninf64 : f64
        %t = arith.extsi %c : i1 to i32
        %a = arith.maxsi %acc, %t : i32
        dloop.yield %a : i32
      }
      %bit = arith.andi %all, %one : i32
      %masked = arith.cmpi ne, %bit, %zero32 : i32
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %b = dloop.load %mask[%i, %j] : memref<3x5xf32>
          %xb = arith.addf %x, %b : f32
        %y = arith.select %first, %ninf, %xb : f32
          %dd = arith.subf %y, %max : f32
          %e = math.exp %dd : f32
          %q = arith.divf %e, %sum : f32
          %p = arith.select %masked, %zero, %q : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %p, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

/// The probabilities as exp * (1 / sum): the reciprocal, computed from the
/// sum, multiplies the final sums; the scale by a row-invariant factor
/// (2.0) stays per key.
// CHECK-LABEL: func.func @reciprocal
//       CHECK:     %[[TWO:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
//       CHECK:     %[[ROW:[a-z0-9_]+]]:2 = dloop.for
//       CHECK:         arith.mulf %{{.*}}, %[[TWO]] : f32
//       CHECK:     }
//       CHECK:     %[[INV:[a-z0-9_]+]] = arith.divf %{{.*}}, %[[ROW]]#1 : f32
//       CHECK:     dloop.for {{.*}} = 0 to 4 free
//       CHECK:       arith.mulf %[[INV]], %{{.*}} : f32
func.func @reciprocal(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %two = arith.constant 2.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %x, %acc : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %d = arith.subf %x, %max : f32
        %e = math.exp %d : f32
        %a = arith.addf %e, %acc : f32
        dloop.yield %a : f32
      }
      %inv = arith.divf %one, %sum : f32
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %dd = arith.subf %x, %max : f32
          %e = math.exp %dd : f32
          %p = arith.mulf %inv, %e : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %w, %p : f32
          %t2 = arith.mulf %t, %two : f32
          %a = arith.addf %acc, %t2 : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

/// Masking with -inf select, where the first keys of a row are masked: the
/// running maximum stays -inf for a while, and the rescaling must not
/// compute exp(-inf - -inf). Row i sees keys j >= 5 - i only: row 1 sees
/// one, and row 0 none, which gives NaN (0 / 0) as the softmax does.
// CHECK-LABEL: func.func @masked_first_keys
//       CHECK:   memref.alloca
func.func @masked_first_keys(%arg0: memref<5x5xf32>, %arg1: memref<5x2xf32>) -> memref<5x2xf32> {
  %out = memref.alloc() : memref<5x2xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<5x5xf32>, %v = %arg1 : memref<5x2xf32>) outs(%o = %out : memref<5x2xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %c5 = arith.constant 5 : index
    dloop.for %i = 0 to 5 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<5x5xf32>
        %ij = arith.addi %i, %j : index
        %hidden = arith.cmpi ult, %ij, %c5 : index
        %y = arith.select %hidden, %ninf, %x : f32
        %m = arith.maximumf %acc, %y : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
        %x = dloop.load %s[%i, %j] : memref<5x5xf32>
        %ij = arith.addi %i, %j : index
        %hidden = arith.cmpi ult, %ij, %c5 : index
        %y = arith.select %hidden, %ninf, %x : f32
        %d = arith.subf %y, %max : f32
        %e = math.exp %d : f32
        %a = arith.addf %acc, %e : f32
        dloop.yield %a : f32
      }
      dloop.for %d = 0 to 2 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<5x5xf32>
          %ij = arith.addi %i, %j : index
          %hidden = arith.cmpi ult, %ij, %c5 : index
          %y = arith.select %hidden, %ninf, %x : f32
          %dd = arith.subf %y, %max : f32
          %e = math.exp %dd : f32
          %p = arith.divf %e, %sum : f32
          %w = dloop.load %v[%j, %d] : memref<5x2xf32>
          %t = arith.mulf %p, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<5x2xf32>
      }
    }
  }
  return %out : memref<5x2xf32>
}

/// Half-precision probabilities: each is rounded to bf16 (truncf, extf) on
/// its way to v, per key, before the division by the sum, which moves to
/// the end (FlashAttention rounds the unnormalised probabilities the same
/// way).
// CHECK-LABEL: func.func @bf16_probabilities
//       CHECK:     dloop.for {{.*}} reduce
//       CHECK:       math.exp
//       CHECK:       %[[P:[a-z0-9_]+]] = math.exp
//       CHECK:       %[[H:[a-z0-9_]+]] = arith.truncf %[[P]] : f32 to bf16
//       CHECK:       %[[PF:[a-z0-9_]+]] = arith.extf %[[H]] : bf16 to f32
//       CHECK:       dloop.for {{.*}} free
//       CHECK:         arith.mulf %[[PF]], %{{.*}} : f32
//       CHECK:     dloop.for {{.*}} free
//       CHECK:       arith.divf
//       CHECK:       arith.truncf %{{.*}} : f32 to bf16
func.func @bf16_probabilities(%arg0: memref<3x5xf32>, %arg1: memref<5x4xbf16>) -> memref<3x4xbf16> {
  %out = memref.alloc() : memref<3x4xbf16>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xbf16>) outs(%o = %out : memref<3x4xbf16>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %d = arith.subf %x, %max : f32
        %e = math.exp %d : f32
        %a = arith.addf %acc, %e : f32
        dloop.yield %a : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %dd = arith.subf %x, %max : f32
          %e = math.exp %dd : f32
          %q = arith.divf %e, %sum : f32
          %h = arith.truncf %q : f32 to bf16
          %p = arith.extf %h : bf16 to f32
          %w = dloop.load %v[%j, %d] : memref<5x4xbf16>
          %wf = arith.extf %w : bf16 to f32
          %t = arith.mulf %p, %wf : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        %rh = arith.truncf %r : f32 to bf16
        dloop.store %rh, %o[%i, %d] : memref<3x4xbf16>
      }
    }
  }
  return %out : memref<3x4xbf16>
}
