// RUN: deplodock-opt %s --dloop-fuse | FileCheck %s
// RUN: deplodock-opt %s --dloop-fuse='max-blowup=1.0 prologues=false' | FileCheck %s --check-prefix=BLOWUP
// RUN: deplodock-opt %s --dloop-fuse='reduce-heavy=0.5 prologues=false' | FileCheck %s --check-prefix=LIGHT
// RUN: deplodock-opt %s --dloop-fuse='reduce-heavy=100' | FileCheck %s --check-prefix=HEAVY
// RUN: deplodock-run --interp %s --func=elementwise_chain --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=rmsnorm --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=matmul --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=gqa_floordiv --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=concat --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=transposed --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=keepdim --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=rename_and_dead --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=shared_reduction --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=recompute_in_matmul --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=heavy_read_twice --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_returned --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_two_writers --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_reducing_store --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_store_under_if --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_store_repeated_variable --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_store_missing_variable --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_reads_own_output --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_input_overwritten --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=negative_input_freed --compare='func.func(dloop-fuse)' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=heavy_read_twice --compare='func.func(dloop-fuse{reduce-heavy=100})' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=shared_reduction --compare='func.func(dloop-fuse{reduce-heavy=100})' --print=none | FileCheck %s --check-prefix=NUM

// Each fused kernel must compute what the kernels it replaces did.
// NUM-NOT: FAIL
// NUM: PASS
// NUM-NOT: FAIL

/// An elementwise chain becomes one kernel: each producer is cloned at the
/// load that read it. The consumer read the intermediate twice at the same
/// index; the two clones merge, so the square reads one value. The load of
/// %arg0 by the multiply and by the add is merged too.
// CHECK-LABEL: func.func @elementwise_chain
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x8xf32>, %[[A1:[a-z0-9_]+]]: memref<4x8xf32>)
//       CHECK:   %[[C:[a-z0-9_]+]] = memref.alloc() : memref<4x8xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   dloop.kernel @elementwise_chain_0_pointwise ins(%[[X:[a-z0-9_]+]] = %[[A0]] : memref<4x8xf32>, %[[Y:[a-z0-9_]+]] = %[[A1]] : memref<4x8xf32>) outs(%[[O:[a-z0-9_]+]] = %[[C]] : memref<4x8xf32>) {
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "d1" {
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
//       CHECK:         %[[YV:[a-z0-9_]+]] = dloop.load %[[Y]][%[[I]], %[[J]]] : memref<4x8xf32>
//       CHECK:         %[[M:[a-z0-9_]+]] = arith.mulf %[[XV]], %[[YV]] : f32
//       CHECK:         %[[S:[a-z0-9_]+]] = arith.addf %[[M]], %[[XV]] : f32
//       CHECK:         %[[Q:[a-z0-9_]+]] = arith.mulf %[[S]], %[[S]] : f32
//       CHECK:         dloop.store %[[Q]], %[[O]][%[[I]], %[[J]]] : memref<4x8xf32>
//   CHECK-NOT:   dloop.kernel
//       CHECK:   return %[[C]] : memref<4x8xf32>
func.func @elementwise_chain(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>) -> memref<4x8xf32> {
  %a = memref.alloc() : memref<4x8xf32>
  dloop.kernel @chain_mul ins(%x = %arg0 : memref<4x8xf32>, %y = %arg1 : memref<4x8xf32>) outs(%o = %a : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x8xf32>
        %1 = dloop.load %y[%i, %j] : memref<4x8xf32>
        %2 = arith.mulf %0, %1 : f32
        dloop.store %2, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  %b = memref.alloc() : memref<4x8xf32>
  dloop.kernel @chain_add ins(%p = %a : memref<4x8xf32>, %x = %arg0 : memref<4x8xf32>) outs(%o = %b : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %0 = dloop.load %p[%i, %j] : memref<4x8xf32>
        %1 = dloop.load %x[%i, %j] : memref<4x8xf32>
        %2 = arith.addf %0, %1 : f32
        dloop.store %2, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  %c = memref.alloc() : memref<4x8xf32>
  dloop.kernel @chain_square ins(%p = %b : memref<4x8xf32>) outs(%o = %c : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %0 = dloop.load %p[%i, %j] : memref<4x8xf32>
        %1 = dloop.load %p[%i, %j] : memref<4x8xf32>
        %2 = arith.mulf %0, %1 : f32
        dloop.store %2, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %c : memref<4x8xf32>
}

/// RMSNorm: square, row sum (keepdim), broadcast of the sum, scale. The sum
/// is read through a broadcast copy that feeds the scale, so it waits until
/// the copy has moved into the scale; then it lands there once per row, with
/// rsqrt, outside the column loop, and the whole layer is one kernel.
// CHECK-LABEL: func.func @rmsnorm
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x16xf32>, %[[A1:[a-z0-9_]+]]: memref<16xf32>)
//       CHECK:   %[[Y:[a-z0-9_]+]] = memref.alloc() : memref<4x16xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   dloop.kernel @rmsnorm_0_reduce ins(%[[X:[a-z0-9_]+]] = %[[A0]] : memref<4x16xf32>, %[[W:[a-z0-9_]+]] = %[[A1]] : memref<16xf32>) outs(%[[O:[a-z0-9_]+]] = %[[Y]] : memref<4x16xf32>) {
//       CHECK:     %[[ZERO:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       %[[SUM:[a-z0-9_]+]] = dloop.for %[[K:[a-z0-9_]+]] = 0 to 16 reduce "r0" iter(%[[ACC:[a-z0-9_]+]] = %[[ZERO]] : f32) {
//       CHECK:         %[[V:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[K]]] : memref<4x16xf32>
//       CHECK:         %[[SQ:[a-z0-9_]+]] = arith.mulf %[[V]], %[[V]] : f32
//       CHECK:         %[[NEXT:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[SQ]] : f32
//       CHECK:         dloop.yield %[[NEXT]] : f32
//       CHECK:       }
//       CHECK:       %[[MEAN:[a-z0-9_]+]] = arith.divf %[[SUM]], %{{.*}} : f32
//       CHECK:       %[[ME:[a-z0-9_]+]] = arith.addf %[[MEAN]], %{{.*}} : f32
//       CHECK:       %[[INV:[a-z0-9_]+]] = math.rsqrt %[[ME]] : f32
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 16 free "d1" {
//   CHECK-NOT:         reduce
//       CHECK:         %[[XV:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x16xf32>
//       CHECK:         %[[G:[a-z0-9_]+]] = dloop.load %[[W]][%[[J]]] : memref<16xf32>
//       CHECK:         %[[T:[a-z0-9_]+]] = arith.mulf %[[XV]], %[[INV]] : f32
//       CHECK:         %[[R:[a-z0-9_]+]] = arith.mulf %[[T]], %[[G]] : f32
//       CHECK:         dloop.store %[[R]], %[[O]][%[[I]], %[[J]]] : memref<4x16xf32>
//   CHECK-NOT:   dloop.kernel
//       CHECK:   return %[[Y]] : memref<4x16xf32>
func.func @rmsnorm(%arg0: memref<4x16xf32>, %arg1: memref<16xf32>) -> memref<4x16xf32> {
  %sq = memref.alloc() : memref<4x16xf32>
  dloop.kernel @rmsnorm_square ins(%x = %arg0 : memref<4x16xf32>) outs(%o = %sq : memref<4x16xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 16 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x16xf32>
        %1 = arith.mulf %0, %0 : f32
        dloop.store %1, %o[%i, %j] : memref<4x16xf32>
      }
    }
  }
  %sum = memref.alloc() : memref<4x1xf32>
  dloop.kernel @rmsnorm_sum ins(%p = %sq : memref<4x16xf32>) outs(%o = %sum : memref<4x1xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %zero : f32) {
        %1 = dloop.load %p[%i, %k] : memref<4x16xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %o[%i, 0] : memref<4x1xf32>
    }
  }
  %bsum = memref.alloc() : memref<4x16xf32>
  dloop.kernel @rmsnorm_broadcast ins(%p = %sum : memref<4x1xf32>) outs(%o = %bsum : memref<4x16xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 16 free "j" {
        %0 = dloop.load %p[%i, 0] : memref<4x1xf32>
        dloop.store %0, %o[%i, %j] : memref<4x16xf32>
      }
    }
  }
  %y = memref.alloc() : memref<4x16xf32>
  dloop.kernel @rmsnorm_scale ins(%x = %arg0 : memref<4x16xf32>, %s = %bsum : memref<4x16xf32>, %w = %arg1 : memref<16xf32>) outs(%o = %y : memref<4x16xf32>) {
    %eps = arith.constant 9.99999997E-7 : f32
    %n = arith.constant 1.600000e+01 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 16 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x16xf32>
        %1 = dloop.load %s[%i, %j] : memref<4x16xf32>
        %2 = dloop.load %w[%j] : memref<16xf32>
        %3 = arith.divf %1, %n : f32
        %4 = arith.addf %3, %eps : f32
        %5 = math.rsqrt %4 : f32
        %6 = arith.mulf %0, %5 : f32
        %7 = arith.mulf %6, %2 : f32
        dloop.store %7, %o[%i, %j] : memref<4x16xf32>
      }
    }
  }
  return %y : memref<4x16xf32>
}

/// Matmul as the lowering writes it: two index-map copies broadcast A and B
/// to MxNxK, an elementwise multiply, a reduce over K. All fuse into one
/// kernel whose loads index A and B directly at the composed maps.
// CHECK-LABEL: func.func @matmul
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x8xf32>, %[[A1:[a-z0-9_]+]]: memref<8x6xf32>)
//       CHECK:   %[[C:[a-z0-9_]+]] = memref.alloc() : memref<4x6xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   dloop.kernel @matmul_0_reduce ins(%[[A:[a-z0-9_]+]] = %[[A0]] : memref<4x8xf32>, %[[B:[a-z0-9_]+]] = %[[A1]] : memref<8x6xf32>) outs(%[[O:[a-z0-9_]+]] = %[[C]] : memref<4x6xf32>) {
//       CHECK:     dloop.for %[[M:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       dloop.for %[[N:[a-z0-9_]+]] = 0 to 6 free "d1" {
//       CHECK:         %[[SUM:[a-z0-9_]+]] = dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "r0" iter(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f32) {
//       CHECK:           %[[AV:[a-z0-9_]+]] = dloop.load %[[A]][%[[M]], %[[K]]] : memref<4x8xf32>
//       CHECK:           %[[BV:[a-z0-9_]+]] = dloop.load %[[B]][%[[K]], %[[N]]] : memref<8x6xf32>
//       CHECK:           %[[P:[a-z0-9_]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//       CHECK:           %[[NEXT:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[P]] : f32
//       CHECK:           dloop.yield %[[NEXT]] : f32
//       CHECK:         dloop.store %[[SUM]], %[[O]][%[[M]], %[[N]]] : memref<4x6xf32>
//   CHECK-NOT:   dloop.kernel
func.func @matmul(%arg0: memref<4x8xf32>, %arg1: memref<8x6xf32>) -> memref<4x6xf32> {
  %ab = memref.alloc() : memref<4x6x8xf32>
  dloop.kernel @matmul_lhs ins(%a = %arg0 : memref<4x8xf32>) outs(%o = %ab : memref<4x6x8xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        dloop.for %k = 0 to 8 free "k" {
          %0 = dloop.load %a[%m, %k] : memref<4x8xf32>
          dloop.store %0, %o[%m, %n, %k] : memref<4x6x8xf32>
        }
      }
    }
  }
  %bb = memref.alloc() : memref<4x6x8xf32>
  dloop.kernel @matmul_rhs ins(%b = %arg1 : memref<8x6xf32>) outs(%o = %bb : memref<4x6x8xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        dloop.for %k = 0 to 8 free "k" {
          %0 = dloop.load %b[%k, %n] : memref<8x6xf32>
          dloop.store %0, %o[%m, %n, %k] : memref<4x6x8xf32>
        }
      }
    }
  }
  %prod = memref.alloc() : memref<4x6x8xf32>
  dloop.kernel @matmul_mul ins(%a = %ab : memref<4x6x8xf32>, %b = %bb : memref<4x6x8xf32>) outs(%o = %prod : memref<4x6x8xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        dloop.for %k = 0 to 8 free "k" {
          %0 = dloop.load %a[%m, %n, %k] : memref<4x6x8xf32>
          %1 = dloop.load %b[%m, %n, %k] : memref<4x6x8xf32>
          %2 = arith.mulf %0, %1 : f32
          dloop.store %2, %o[%m, %n, %k] : memref<4x6x8xf32>
        }
      }
    }
  }
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul_sum ins(%p = %prod : memref<4x6x8xf32>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %p[%m, %n, %k] : memref<4x6x8xf32>
          %2 = arith.addf %acc, %1 : f32
          dloop.yield %2 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %c : memref<4x6xf32>
}

/// GQA: four query heads share two key heads, read at `h floordiv 2`. The
/// producer's load takes that index (the floordiv stays: h ranges over 4).
// CHECK-LABEL: func.func @gqa_floordiv
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<2x8xf32>, %[[A1:[a-z0-9_]+]]: memref<4x8xf32>)
//       CHECK:   dloop.kernel @gqa_floordiv_0_pointwise ins(%[[Q:[a-z0-9_]+]] = %[[A1]] : memref<4x8xf32>, %[[K:[a-z0-9_]+]] = %[[A0]] : memref<2x8xf32>)
//       CHECK:     dloop.for %[[H:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       dloop.for %[[D:[a-z0-9_]+]] = 0 to 8 free "d1" {
//       CHECK:         %[[KV:[a-z0-9_]+]] = dloop.load %[[K]][%[[H]] floordiv 2, %[[D]]] : memref<2x8xf32>
//       CHECK:         %[[N:[a-z0-9_]+]] = arith.negf %[[KV]] : f32
//       CHECK:         %[[QV:[a-z0-9_]+]] = dloop.load %[[Q]][%[[H]], %[[D]]] : memref<4x8xf32>
//       CHECK:         arith.mulf %[[N]], %[[QV]] : f32
//   CHECK-NOT:   dloop.kernel
func.func @gqa_floordiv(%arg0: memref<2x8xf32>, %arg1: memref<4x8xf32>) -> memref<4x8xf32> {
  %kv = memref.alloc() : memref<2x8xf32>
  dloop.kernel @gqa_neg ins(%k = %arg0 : memref<2x8xf32>) outs(%o = %kv : memref<2x8xf32>) {
    dloop.for %h = 0 to 2 free "h" {
      dloop.for %d = 0 to 8 free "d" {
        %0 = dloop.load %k[%h, %d] : memref<2x8xf32>
        %1 = arith.negf %0 : f32
        dloop.store %1, %o[%h, %d] : memref<2x8xf32>
      }
    }
  }
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @gqa_mul ins(%p = %kv : memref<2x8xf32>, %q = %arg1 : memref<4x8xf32>) outs(%o = %y : memref<4x8xf32>) {
    dloop.for %h = 0 to 4 free "h" {
      dloop.for %d = 0 to 8 free "d" {
        %0 = dloop.load %p[%h floordiv 2, %d] : memref<2x8xf32>
        %1 = dloop.load %q[%h, %d] : memref<4x8xf32>
        %2 = arith.mulf %0, %1 : f32
        dloop.store %2, %o[%h, %d] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// Concat along the columns, an exp feeding its first piece, and a
/// transposed read of the result. The exp lands in the `then` branch where
/// the piece was loaded; the whole scf.if lands in the consumer with its
/// condition on the consumer's loop variable (hoisted: it only depends on the
/// outer loop), and the second piece keeps its `- 4` offset.
// CHECK-LABEL: func.func @concat
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<2x4xf32>, %[[A1:[a-z0-9_]+]]: memref<2x3xf32>)
//       CHECK:   dloop.kernel @concat_0_pointwise ins(%[[B:[a-z0-9_]+]] = %[[A1]] : memref<2x3xf32>, %[[A:[a-z0-9_]+]] = %[[A0]] : memref<2x4xf32>) outs(%[[O:[a-z0-9_]+]] = %{{.*}} : memref<7x2xf32>) {
//       CHECK:     %[[C3:[a-z0-9_]+]] = arith.constant 3 : index
//       CHECK:     dloop.for %[[J:[a-z0-9_]+]] = 0 to 7 free "d0" {
//       CHECK:       %[[FIRST:[a-z0-9_]+]] = arith.cmpi sle, %[[J]], %[[C3]] : index
//       CHECK:       dloop.for %[[I:[a-z0-9_]+]] = 0 to 2 free "d1" {
//       CHECK:         %[[V:[a-z0-9_]+]] = scf.if %[[FIRST]] -> (f32) {
//       CHECK:           %[[AV:[a-z0-9_]+]] = dloop.load %[[A]][%[[I]], %[[J]]] : memref<2x4xf32>
//       CHECK:           %[[E:[a-z0-9_]+]] = math.exp %[[AV]] : f32
//       CHECK:           scf.yield %[[E]] : f32
//       CHECK:         } else {
//       CHECK:           %[[BV:[a-z0-9_]+]] = dloop.load %[[B]][%[[I]], %[[J]] - 4] : memref<2x3xf32>
//       CHECK:           scf.yield %[[BV]] : f32
//       CHECK:         }
//       CHECK:         %[[N:[a-z0-9_]+]] = arith.negf %[[V]] : f32
//       CHECK:         dloop.store %[[N]], %[[O]][%[[J]], %[[I]]] : memref<7x2xf32>
//   CHECK-NOT:   dloop.kernel
func.func @concat(%arg0: memref<2x4xf32>, %arg1: memref<2x3xf32>) -> memref<7x2xf32> {
  %e = memref.alloc() : memref<2x4xf32>
  dloop.kernel @concat_exp ins(%x = %arg0 : memref<2x4xf32>) outs(%o = %e : memref<2x4xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 4 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<2x4xf32>
        %1 = math.exp %0 : f32
        dloop.store %1, %o[%i, %j] : memref<2x4xf32>
      }
    }
  }
  %cat = memref.alloc() : memref<2x7xf32>
  dloop.kernel @concat_pieces ins(%a = %e : memref<2x4xf32>, %b = %arg1 : memref<2x3xf32>) outs(%o = %cat : memref<2x7xf32>) {
    %c3 = arith.constant 3 : index
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 7 free "j" {
        %0 = arith.cmpi sle, %j, %c3 : index
        %1 = scf.if %0 -> (f32) {
          %2 = dloop.load %a[%i, %j] : memref<2x4xf32>
          scf.yield %2 : f32
        } else {
          %2 = dloop.load %b[%i, %j - 4] : memref<2x3xf32>
          scf.yield %2 : f32
        }
        dloop.store %1, %o[%i, %j] : memref<2x7xf32>
      }
    }
  }
  %y = memref.alloc() : memref<7x2xf32>
  dloop.kernel @concat_transpose ins(%p = %cat : memref<2x7xf32>) outs(%o = %y : memref<7x2xf32>) {
    dloop.for %j = 0 to 7 free "j" {
      dloop.for %i = 0 to 2 free "i" {
        %0 = dloop.load %p[%i, %j] : memref<2x7xf32>
        %1 = arith.negf %0 : f32
        dloop.store %1, %o[%j, %i] : memref<7x2xf32>
      }
    }
  }
  return %y : memref<7x2xf32>
}

/// The producer stores at `[j, i]` (a permutation of its loops); the consumer
/// reads `[b, a]` and `[b, 3 - a]`. Solving the store for (i, j) gives the
/// loads x[a, b] and x[3 - a, b]: the two transposes cancel.
// CHECK-LABEL: func.func @transposed
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x8xf32>, %[[A1:[a-z0-9_]+]]: memref<4x8xf32>)
//       CHECK:   dloop.kernel @transposed_0_pointwise ins(%[[Z:[a-z0-9_]+]] = %[[A1]] : memref<4x8xf32>, %[[X:[a-z0-9_]+]] = %[[A0]] : memref<4x8xf32>)
//       CHECK:     dloop.for %[[A:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       dloop.for %[[B:[a-z0-9_]+]] = 0 to 8 free "d1" {
//       CHECK:         %[[V0:[a-z0-9_]+]] = dloop.load %[[X]][%[[A]], %[[B]]] : memref<4x8xf32>
//       CHECK:         %[[E0:[a-z0-9_]+]] = math.exp %[[V0]] : f32
//       CHECK:         %[[V1:[a-z0-9_]+]] = dloop.load %[[X]][-%[[A]] + 3, %[[B]]] : memref<4x8xf32>
//       CHECK:         %[[E1:[a-z0-9_]+]] = math.exp %[[V1]] : f32
//       CHECK:         %[[ZV:[a-z0-9_]+]] = dloop.load %[[Z]][%[[A]], %[[B]]] : memref<4x8xf32>
//       CHECK:         %[[S:[a-z0-9_]+]] = arith.addf %[[E0]], %[[E1]] : f32
//       CHECK:         arith.addf %[[S]], %[[ZV]] : f32
//   CHECK-NOT:   dloop.kernel
func.func @transposed(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>) -> memref<4x8xf32> {
  %t = memref.alloc() : memref<8x4xf32>
  dloop.kernel @transposed_store ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %t : memref<8x4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x8xf32>
        %1 = math.exp %0 : f32
        dloop.store %1, %o[%j, %i] : memref<8x4xf32>
      }
    }
  }
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @transposed_load ins(%p = %t : memref<8x4xf32>, %z = %arg1 : memref<4x8xf32>) outs(%o = %y : memref<4x8xf32>) {
    dloop.for %a = 0 to 4 free "a" {
      dloop.for %b = 0 to 8 free "b" {
        %0 = dloop.load %p[%b, %a] : memref<8x4xf32>
        %1 = dloop.load %p[%b, 3 - %a] : memref<8x4xf32>
        %2 = dloop.load %z[%a, %b] : memref<4x8xf32>
        %3 = arith.addf %0, %1 : f32
        %4 = arith.addf %3, %2 : f32
        dloop.store %4, %o[%a, %b] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// A keepdim reduction stores at `[i, 0]`: the constant index of a size-1
/// axis is fine, and the consumer's `[i, 0]` read solves to the row i.
// CHECK-LABEL: func.func @keepdim
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x8xf32>)
//       CHECK:   dloop.kernel @keepdim_0_reduce ins(%[[X:[a-z0-9_]+]] = %[[A0]] : memref<4x8xf32>)
//       CHECK:     dloop.for %[[I:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       %[[MAX:[a-z0-9_]+]] = dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "r0"
//       CHECK:         dloop.load %[[X]][%[[I]], %[[K]]] : memref<4x8xf32>
//       CHECK:       dloop.for %[[J:[a-z0-9_]+]] = 0 to 8 free "d1" {
//       CHECK:         %[[V:[a-z0-9_]+]] = dloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
//       CHECK:         arith.subf %[[V]], %[[MAX]] : f32
//   CHECK-NOT:   dloop.kernel
func.func @keepdim(%arg0: memref<4x8xf32>) -> memref<4x8xf32> {
  %m = memref.alloc() : memref<4x1xf32>
  dloop.kernel @keepdim_max ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %m : memref<4x1xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %ninf : f32) {
        %1 = dloop.load %x[%i, %k] : memref<4x8xf32>
        %2 = arith.maximumf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %o[%i, 0] : memref<4x1xf32>
    }
  }
  %y = memref.alloc() : memref<4x8xf32>
  dloop.kernel @keepdim_sub ins(%x = %arg0 : memref<4x8xf32>, %p = %m : memref<4x1xf32>) outs(%o = %y : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x8xf32>
        %1 = dloop.load %p[%i, 0] : memref<4x1xf32>
        %2 = arith.subf %0, %1 : f32
        dloop.store %2, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return %y : memref<4x8xf32>
}

/// A kernel whose buffer nobody reads goes, with its buffer. The survivors
/// are renamed `<func>_<position>_<reduce|pointwise>`, and their loops
/// `d<i>` (free) and `r<i>` (reduce) in pre-order.
// CHECK-LABEL: func.func @rename_and_dead
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<8xf32>)
//   CHECK-NOT:   math.exp
//       CHECK:   %[[S:[a-z0-9_]+]] = memref.alloc() : memref<1xf32>
//       CHECK:   dloop.kernel @rename_and_dead_0_reduce ins(%{{.*}} = %[[A0]] : memref<8xf32>) outs(%{{.*}} = %[[S]] : memref<1xf32>)
//       CHECK:     dloop.for %{{.*}} = 0 to 8 reduce "r0"
//       CHECK:   %[[Y:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @rename_and_dead_1_pointwise ins(%{{.*}} = %[[A0]] : memref<8xf32>) outs(%{{.*}} = %[[Y]] : memref<8xf32>)
//       CHECK:     dloop.for %{{.*}} = 0 to 8 free "d0"
//   CHECK-NOT:   dloop.kernel
//       CHECK:   return %[[S]], %[[Y]]
func.func @rename_and_dead(%arg0: memref<8xf32>) -> (memref<1xf32>, memref<8xf32>) {
  %dead = memref.alloc() : memref<8xf32>
  dloop.kernel @unused ins(%x = %arg0 : memref<8xf32>) outs(%o = %dead : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %x[%i] : memref<8xf32>
      %1 = math.exp %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  %s = memref.alloc() : memref<1xf32>
  dloop.kernel @total ins(%x = %arg0 : memref<8xf32>) outs(%o = %s : memref<1xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
      %1 = dloop.load %x[%k] : memref<8xf32>
      %2 = arith.addf %acc, %1 : f32
      dloop.yield %2 : f32
    }
    dloop.store %0, %o[0] : memref<1xf32>
  }
  %y = memref.alloc() : memref<8xf32>
  dloop.kernel @normalize ins(%x = %arg0 : memref<8xf32>) outs(%o = %y : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %x[%i] : memref<8xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  return %s, %y : memref<1xf32>, memref<8xf32>
}

/// A row max behind a broadcast, the broadcast read by two consumers. The
/// broadcast fuses into both; the max would then run twice (16 operations
/// per element it writes, above `reduce-heavy`), so it stays materialised
/// and both consumers read it once per row. With `reduce-heavy=100` it is
/// recomputed in each consumer, still once per row.
// CHECK-LABEL: func.func @shared_reduction
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x16xf32>)
//       CHECK:   %[[M:[a-z0-9_]+]] = memref.alloc() : memref<4x1xf32>
//       CHECK:   dloop.kernel @shared_reduction_0_reduce ins(%{{.*}} = %[[A0]] : memref<4x16xf32>) outs(%{{.*}} = %[[M]] : memref<4x1xf32>)
//       CHECK:   dloop.kernel @shared_reduction_1_pointwise ins(%{{.*}} = %[[A0]] : memref<4x16xf32>, %[[P1:[a-z0-9_]+]] = %[[M]] : memref<4x1xf32>)
//       CHECK:     dloop.for %[[I1:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       %[[MAX1:[a-z0-9_]+]] = dloop.load %[[P1]][%[[I1]], 0] : memref<4x1xf32>
//       CHECK:       dloop.for
//       CHECK:         arith.subf %{{.*}}, %[[MAX1]] : f32
//       CHECK:   dloop.kernel @shared_reduction_2_pointwise ins(%{{.*}} = %[[A0]] : memref<4x16xf32>, %[[P2:[a-z0-9_]+]] = %[[M]] : memref<4x1xf32>)
//       CHECK:     dloop.for %[[I2:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       %[[MAX2:[a-z0-9_]+]] = dloop.load %[[P2]][%[[I2]], 0] : memref<4x1xf32>
//       CHECK:       dloop.for
//       CHECK:         arith.divf %{{.*}}, %[[MAX2]] : f32
//   CHECK-NOT:   dloop.kernel
//
// HEAVY-LABEL: func.func @shared_reduction
//       HEAVY:   dloop.kernel @shared_reduction_0_reduce
//       HEAVY:     dloop.for %{{.*}} = 0 to 4 free "d0" {
//       HEAVY:       %[[MAX1:[a-z0-9_]+]] = dloop.for %{{.*}} = 0 to 16 reduce "r0"
//       HEAVY:       dloop.for %{{.*}} = 0 to 16 free "d1" {
//       HEAVY:         arith.subf %{{.*}}, %[[MAX1]] : f32
//       HEAVY:   dloop.kernel @shared_reduction_1_reduce
//       HEAVY:     dloop.for %{{.*}} = 0 to 4 free "d0" {
//       HEAVY:       %[[MAX2:[a-z0-9_]+]] = dloop.for %{{.*}} = 0 to 16 reduce "r0"
//       HEAVY:       dloop.for %{{.*}} = 0 to 16 free "d1" {
//       HEAVY:         arith.divf %{{.*}}, %[[MAX2]] : f32
//   HEAVY-NOT:   dloop.kernel
//       HEAVY:   return
func.func @shared_reduction(%arg0: memref<4x16xf32>) -> (memref<4x16xf32>, memref<4x16xf32>) {
  %m = memref.alloc() : memref<4x1xf32>
  dloop.kernel @row_max ins(%x = %arg0 : memref<4x16xf32>) outs(%o = %m : memref<4x1xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %ninf : f32) {
        %1 = dloop.load %x[%i, %k] : memref<4x16xf32>
        %2 = arith.maximumf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.store %0, %o[%i, 0] : memref<4x1xf32>
    }
  }
  %b = memref.alloc() : memref<4x16xf32>
  dloop.kernel @broadcast ins(%p = %m : memref<4x1xf32>) outs(%o = %b : memref<4x16xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 16 free "j" {
        %0 = dloop.load %p[%i, 0] : memref<4x1xf32>
        dloop.store %0, %o[%i, %j] : memref<4x16xf32>
      }
    }
  }
  %y1 = memref.alloc() : memref<4x16xf32>
  dloop.kernel @subtract ins(%x = %arg0 : memref<4x16xf32>, %p = %b : memref<4x16xf32>) outs(%o = %y1 : memref<4x16xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 16 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x16xf32>
        %1 = dloop.load %p[%i, %j] : memref<4x16xf32>
        %2 = arith.subf %0, %1 : f32
        dloop.store %2, %o[%i, %j] : memref<4x16xf32>
      }
    }
  }
  %y2 = memref.alloc() : memref<4x16xf32>
  dloop.kernel @divide ins(%x = %arg0 : memref<4x16xf32>, %p = %b : memref<4x16xf32>) outs(%o = %y2 : memref<4x16xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 16 free "j" {
        %0 = dloop.load %x[%i, %j] : memref<4x16xf32>
        %1 = dloop.load %p[%i, %j] : memref<4x16xf32>
        %2 = arith.divf %0, %1 : f32
        dloop.store %2, %o[%i, %j] : memref<4x16xf32>
      }
    }
  }
  return %y1, %y2 : memref<4x16xf32>, memref<4x16xf32>
}

/// An exp feeding a matmul: fused, the exp runs once per (m, n, k) instead
/// of once per (m, k), 576 operations instead of 416 apart. The default
/// `max-blowup` (8) takes that; `max-blowup=1.0` does not, and neither does
/// `reduce-heavy=0.5`, which calls one operation per element heavy, where
/// prologues are off (`prologues=false`): as a contraction prologue it
/// fuses whatever the work (fuse-prologue.mlir).
// CHECK-LABEL: func.func @recompute_in_matmul
//  CHECK-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x8xf32>, %[[A1:[a-z0-9_]+]]: memref<8x6xf32>)
//       CHECK:   dloop.kernel @recompute_in_matmul_0_reduce ins(%[[B:[a-z0-9_]+]] = %[[A1]] : memref<8x6xf32>, %[[A:[a-z0-9_]+]] = %[[A0]] : memref<4x8xf32>)
//       CHECK:     dloop.for %[[M:[a-z0-9_]+]] = 0 to 4 free "d0" {
//       CHECK:       dloop.for %[[N:[a-z0-9_]+]] = 0 to 6 free "d1" {
//       CHECK:         dloop.for %[[K:[a-z0-9_]+]] = 0 to 8 reduce "r0"
//       CHECK:           %[[AV:[a-z0-9_]+]] = dloop.load %[[A]][%[[M]], %[[K]]] : memref<4x8xf32>
//       CHECK:           %[[E:[a-z0-9_]+]] = math.exp %[[AV]] : f32
//       CHECK:           %[[BV:[a-z0-9_]+]] = dloop.load %[[B]][%[[K]], %[[N]]] : memref<8x6xf32>
//       CHECK:           arith.mulf %[[E]], %[[BV]] : f32
//   CHECK-NOT:   dloop.kernel
//
// BLOWUP-LABEL: func.func @recompute_in_matmul
//       BLOWUP:   %[[E:[a-z0-9_]+]] = memref.alloc() : memref<4x8xf32>
//       BLOWUP:   dloop.kernel @recompute_in_matmul_0_pointwise {{.*}} outs(%{{.*}} = %[[E]] : memref<4x8xf32>)
//       BLOWUP:     math.exp
//       BLOWUP:   dloop.kernel @recompute_in_matmul_1_reduce ins(%[[P:[a-z0-9_]+]] = %[[E]] : memref<4x8xf32>,
//       BLOWUP:           %[[AV:[a-z0-9_]+]] = dloop.load %[[P]]
//       BLOWUP:           arith.mulf %[[AV]], %{{.*}} : f32
//
// LIGHT-LABEL: func.func @recompute_in_matmul
//       LIGHT:   dloop.kernel @recompute_in_matmul_0_pointwise
//       LIGHT:   dloop.kernel @recompute_in_matmul_1_reduce
func.func @recompute_in_matmul(%arg0: memref<4x8xf32>, %arg1: memref<8x6xf32>) -> memref<4x6xf32> {
  %e = memref.alloc() : memref<4x8xf32>
  dloop.kernel @exp ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %e : memref<4x8xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %k = 0 to 8 free "k" {
        %0 = dloop.load %x[%m, %k] : memref<4x8xf32>
        %1 = math.exp %0 : f32
        dloop.store %1, %o[%m, %k] : memref<4x8xf32>
      }
    }
  }
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul ins(%a = %e : memref<4x8xf32>, %b = %arg1 : memref<8x6xf32>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %a[%m, %k] : memref<4x8xf32>
          %2 = dloop.load %b[%k, %n] : memref<8x6xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %c : memref<4x6xf32>
}

/// A matmul (16 operations per element) read by two kernels would run
/// twice: it stays materialised. `reduce-heavy=100` lets it be recomputed in
/// both readers.
// CHECK-LABEL: func.func @heavy_read_twice
//       CHECK:   %[[C:[a-z0-9_]+]] = memref.alloc() : memref<4x6xf32>
//       CHECK:   dloop.kernel @heavy_read_twice_0_reduce {{.*}} outs(%{{.*}} = %[[C]] : memref<4x6xf32>)
//       CHECK:   dloop.kernel @heavy_read_twice_1_pointwise ins(%{{.*}} = %[[C]] : memref<4x6xf32>)
//   CHECK-NOT:     reduce
//       CHECK:   dloop.kernel @heavy_read_twice_2_pointwise ins(%{{.*}} = %[[C]] : memref<4x6xf32>)
//   CHECK-NOT:     reduce
//       CHECK:   return
//
// HEAVY-LABEL: func.func @heavy_read_twice
//  HEAVY-SAME:   (%[[A0:[a-z0-9_]+]]: memref<4x8xf32>, %[[A1:[a-z0-9_]+]]: memref<8x6xf32>)
//       HEAVY:   dloop.kernel @heavy_read_twice_0_reduce ins(%{{.*}} = %[[A0]] : memref<4x8xf32>, %{{.*}} = %[[A1]] : memref<8x6xf32>)
//       HEAVY:     %[[S1:[a-z0-9_]+]] = dloop.for %{{.*}} = 0 to 8 reduce "r0"
//       HEAVY:     arith.maximumf %[[S1]], %{{.*}} : f32
//       HEAVY:   dloop.kernel @heavy_read_twice_1_reduce ins(%{{.*}} = %[[A0]] : memref<4x8xf32>, %{{.*}} = %[[A1]] : memref<8x6xf32>)
//       HEAVY:     %[[S2:[a-z0-9_]+]] = dloop.for %{{.*}} = 0 to 8 reduce "r0"
//       HEAVY:     math.exp %[[S2]] : f32
//   HEAVY-NOT:   dloop.kernel
//       HEAVY:   return
func.func @heavy_read_twice(%arg0: memref<4x8xf32>, %arg1: memref<8x6xf32>) -> (memref<4x6xf32>, memref<4x6xf32>) {
  %c = memref.alloc() : memref<4x6xf32>
  dloop.kernel @matmul ins(%a = %arg0 : memref<4x8xf32>, %b = %arg1 : memref<8x6xf32>) outs(%o = %c : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %1 = dloop.load %a[%m, %k] : memref<4x8xf32>
          %2 = dloop.load %b[%k, %n] : memref<8x6xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  %y1 = memref.alloc() : memref<4x6xf32>
  dloop.kernel @relu ins(%p = %c : memref<4x6xf32>) outs(%o = %y1 : memref<4x6xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.load %p[%m, %n] : memref<4x6xf32>
        %1 = arith.maximumf %0, %zero : f32
        dloop.store %1, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  %y2 = memref.alloc() : memref<4x6xf32>
  dloop.kernel @exp ins(%p = %c : memref<4x6xf32>) outs(%o = %y2 : memref<4x6xf32>) {
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 6 free "n" {
        %0 = dloop.load %p[%m, %n] : memref<4x6xf32>
        %1 = math.exp %0 : f32
        dloop.store %1, %o[%m, %n] : memref<4x6xf32>
      }
    }
  }
  return %y1, %y2 : memref<4x6xf32>, memref<4x6xf32>
}

/// The intermediate is also returned: it must be materialised, and the
/// consumer keeps reading it.
// CHECK-LABEL: func.func @negative_returned
//       CHECK:   %[[E:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @negative_returned_0_pointwise {{.*}} outs(%{{.*}} = %[[E]] : memref<8xf32>)
//       CHECK:   dloop.kernel @negative_returned_1_pointwise ins(%[[P:[a-z0-9_]+]] = %[[E]] : memref<8xf32>)
//       CHECK:       dloop.load %[[P]]
//       CHECK:   return %[[E]], %{{.*}} : memref<8xf32>, memref<8xf32>
func.func @negative_returned(%arg0: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %e = memref.alloc() : memref<8xf32>
  dloop.kernel @producer ins(%x = %arg0 : memref<8xf32>) outs(%o = %e : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %x[%i] : memref<8xf32>
      %1 = math.exp %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  %y = memref.alloc() : memref<8xf32>
  dloop.kernel @consumer ins(%p = %e : memref<8xf32>) outs(%o = %y : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  return %e, %y : memref<8xf32>, memref<8xf32>
}

/// Two kernels write the buffer (an initialisation, then a split-K style
/// reducing store): no single computation defines an element.
// CHECK-LABEL: func.func @negative_two_writers
//       CHECK:   %[[S:[a-z0-9_]+]] = memref.alloc() : memref<4xf32>
//       CHECK:   dloop.kernel @negative_two_writers_0_pointwise outs(%{{.*}} = %[[S]] : memref<4xf32>)
//       CHECK:   dloop.kernel @negative_two_writers_1_reduce {{.*}} outs(%{{.*}} = %[[S]] : memref<4xf32>)
//       CHECK:   dloop.kernel @negative_two_writers_2_pointwise ins(%[[P:[a-z0-9_]+]] = %[[S]] : memref<4xf32>)
//       CHECK:       dloop.load %[[P]]
func.func @negative_two_writers(%arg0: memref<4x8xf32>) -> memref<4xf32> {
  %s = memref.alloc() : memref<4xf32>
  dloop.kernel @init outs(%o = %s : memref<4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 4 free "i" {
      dloop.store %zero, %o[%i] : memref<4xf32>
    }
  }
  dloop.kernel @accumulate ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %s : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %k = 0 to 8 reduce "k" {
        %0 = dloop.load %x[%i, %k] : memref<4x8xf32>
        dloop.store add %0, %o[%i] : memref<4xf32>
      }
    }
  }
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @consumer ins(%p = %s : memref<4xf32>) outs(%o = %y : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.load %p[%i] : memref<4xf32>
      %1 = math.sqrt %0 : f32
      dloop.store %1, %o[%i] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}

/// The only writer folds into the buffer (`store add`), which is not one
/// plain write per element. (The buffer is never initialised: the numeric
/// run only compares NaNs.)
// CHECK-LABEL: func.func @negative_reducing_store
//       CHECK:   %[[S:[a-z0-9_]+]] = memref.alloc() : memref<4xf32>
//       CHECK:   dloop.kernel @negative_reducing_store_0_reduce {{.*}} outs(%{{.*}} = %[[S]] : memref<4xf32>)
//       CHECK:         dloop.store add
//       CHECK:   dloop.kernel @negative_reducing_store_1_pointwise ins(%[[P:[a-z0-9_]+]] = %[[S]] : memref<4xf32>)
//       CHECK:       dloop.load %[[P]]
func.func @negative_reducing_store(%arg0: memref<4x8xf32>) -> memref<4xf32> {
  %s = memref.alloc() : memref<4xf32>
  dloop.kernel @accumulate ins(%x = %arg0 : memref<4x8xf32>) outs(%o = %s : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %k = 0 to 8 reduce "k" {
        %0 = dloop.load %x[%i, %k] : memref<4x8xf32>
        dloop.store add %0, %o[%i] : memref<4xf32>
      }
    }
  }
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @consumer ins(%p = %s : memref<4xf32>) outs(%o = %y : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.load %p[%i] : memref<4xf32>
      %1 = math.sqrt %0 : f32
      dloop.store %1, %o[%i] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}

/// The store sits under an scf.if. This condition always holds, but the
/// pass does not try to prove it.
// CHECK-LABEL: func.func @negative_store_under_if
//       CHECK:   %[[E:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @negative_store_under_if_0_pointwise {{.*}} outs(%{{.*}} = %[[E]] : memref<8xf32>)
//       CHECK:       scf.if
//       CHECK:   dloop.kernel @negative_store_under_if_1_pointwise ins(%[[P:[a-z0-9_]+]] = %[[E]] : memref<8xf32>)
//       CHECK:       dloop.load %[[P]]
func.func @negative_store_under_if(%arg0: memref<8xf32>) -> memref<8xf32> {
  %e = memref.alloc() : memref<8xf32>
  dloop.kernel @guarded ins(%x = %arg0 : memref<8xf32>) outs(%o = %e : memref<8xf32>) {
    %c8 = arith.constant 8 : index
    dloop.for %i = 0 to 8 free "i" {
      %0 = arith.cmpi slt, %i, %c8 : index
      scf.if %0 {
        %1 = dloop.load %x[%i] : memref<8xf32>
        %2 = math.exp %1 : f32
        dloop.store %2, %o[%i] : memref<8xf32>
      }
    }
  }
  %y = memref.alloc() : memref<8xf32>
  dloop.kernel @consumer ins(%p = %e : memref<8xf32>) outs(%o = %y : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  return %y : memref<8xf32>
}

/// The store index `[i, i]` is not a permutation of the loop variables:
/// i appears twice.
// CHECK-LABEL: func.func @negative_store_repeated_variable
//       CHECK:   %[[D:[a-z0-9_]+]] = memref.alloc() : memref<4x4xf32>
//       CHECK:   dloop.kernel @negative_store_repeated_variable_0_pointwise {{.*}} outs(%{{.*}} = %[[D]] : memref<4x4xf32>)
//       CHECK:   dloop.kernel @negative_store_repeated_variable_1_pointwise ins(%[[P:[a-z0-9_]+]] = %[[D]] : memref<4x4xf32>)
//       CHECK:       dloop.load %[[P]]
func.func @negative_store_repeated_variable(%arg0: memref<4xf32>) -> memref<4xf32> {
  %d = memref.alloc() : memref<4x4xf32>
  dloop.kernel @diagonal ins(%x = %arg0 : memref<4xf32>) outs(%o = %d : memref<4x4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.load %x[%i] : memref<4xf32>
      %1 = math.exp %0 : f32
      dloop.store %1, %o[%i, %i] : memref<4x4xf32>
    }
  }
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @consumer ins(%p = %d : memref<4x4xf32>) outs(%o = %y : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.load %p[%i, %i] : memref<4x4xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}

/// The store index `[i]` leaves out the loop variable j: every j
/// overwrites the same element.
// CHECK-LABEL: func.func @negative_store_missing_variable
//       CHECK:   %[[E:[a-z0-9_]+]] = memref.alloc() : memref<4xf32>
//       CHECK:   dloop.kernel @negative_store_missing_variable_0_pointwise {{.*}} outs(%{{.*}} = %[[E]] : memref<4xf32>)
//       CHECK:   dloop.kernel @negative_store_missing_variable_1_pointwise ins(%[[P:[a-z0-9_]+]] = %[[E]] : memref<4xf32>)
//       CHECK:       dloop.load %[[P]]
func.func @negative_store_missing_variable(%arg0: memref<4xf32>) -> memref<4xf32> {
  %e = memref.alloc() : memref<4xf32>
  dloop.kernel @overwrite ins(%x = %arg0 : memref<4xf32>) outs(%o = %e : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 3 free "j" {
        %0 = dloop.load %x[%i] : memref<4xf32>
        %1 = math.exp %0 : f32
        dloop.store %1, %o[%i] : memref<4xf32>
      }
    }
  }
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @consumer ins(%p = %e : memref<4xf32>) outs(%o = %y : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %0 = dloop.load %p[%i] : memref<4xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<4xf32>
    }
  }
  return %y : memref<4xf32>
}

/// The producer loads its own output (here a read-back of the element it
/// just stored).
// CHECK-LABEL: func.func @negative_reads_own_output
//       CHECK:   %[[E:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @negative_reads_own_output_0_pointwise {{.*}} outs(%{{.*}} = %[[E]] : memref<8xf32>)
//       CHECK:   dloop.kernel @negative_reads_own_output_1_pointwise ins(%[[P:[a-z0-9_]+]] = %[[E]] : memref<8xf32>)
//       CHECK:       dloop.load %[[P]]
func.func @negative_reads_own_output(%arg0: memref<8xf32>) -> memref<8xf32> {
  %e = memref.alloc() : memref<8xf32>
  dloop.kernel @read_back ins(%x = %arg0 : memref<8xf32>) outs(%o = %e : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %x[%i] : memref<8xf32>
      %1 = math.exp %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
      %2 = dloop.load %o[%i] : memref<8xf32>
    }
  }
  %y = memref.alloc() : memref<8xf32>
  dloop.kernel @consumer ins(%p = %e : memref<8xf32>) outs(%o = %y : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  return %y : memref<8xf32>
}

/// The producer of %t reads %a, which a later kernel zeroes before the
/// consumer runs: the consumer cannot read %a in the producer's stead, so %t
/// stays (and %a, with two writers, too).
// CHECK-LABEL: func.func @negative_input_overwritten
//       CHECK:   %[[A:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @negative_input_overwritten_0_pointwise {{.*}} outs(%{{.*}} = %[[A]] : memref<8xf32>)
//       CHECK:   %[[T:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @negative_input_overwritten_1_pointwise ins(%{{.*}} = %[[A]] : memref<8xf32>) outs(%{{.*}} = %[[T]] : memref<8xf32>)
//       CHECK:     arith.negf
//       CHECK:   dloop.kernel @negative_input_overwritten_2_pointwise outs(%{{.*}} = %[[A]] : memref<8xf32>)
//       CHECK:   dloop.kernel @negative_input_overwritten_3_pointwise ins(%{{.*}} = %[[T]] : memref<8xf32>, %{{.*}} = %[[A]] : memref<8xf32>)
//   CHECK-NOT:     arith.negf
//       CHECK:   return
func.func @negative_input_overwritten(%arg0: memref<8xf32>) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  dloop.kernel @first ins(%x = %arg0 : memref<8xf32>) outs(%o = %a : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %x[%i] : memref<8xf32>
      %1 = math.exp %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  %t = memref.alloc() : memref<8xf32>
  dloop.kernel @producer ins(%p = %a : memref<8xf32>) outs(%o = %t : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  dloop.kernel @overwrite outs(%o = %a : memref<8xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "i" {
      dloop.store %zero, %o[%i] : memref<8xf32>
    }
  }
  %y = memref.alloc() : memref<8xf32>
  dloop.kernel @consumer ins(%p = %t : memref<8xf32>, %q = %a : memref<8xf32>) outs(%o = %y : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = dloop.load %q[%i] : memref<8xf32>
      %2 = arith.addf %0, %1 : f32
      dloop.store %2, %o[%i] : memref<8xf32>
    }
  }
  return %y : memref<8xf32>
}

/// The same when the buffer the producer reads is freed before the
/// consumer runs.
// CHECK-LABEL: func.func @negative_input_freed
//       CHECK:   %[[A:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   %[[T:[a-z0-9_]+]] = memref.alloc() : memref<8xf32>
//       CHECK:   dloop.kernel @negative_input_freed_1_pointwise ins(%{{.*}} = %[[A]] : memref<8xf32>) outs(%{{.*}} = %[[T]] : memref<8xf32>)
//       CHECK:   memref.dealloc %[[A]] : memref<8xf32>
//       CHECK:   dloop.kernel @negative_input_freed_2_pointwise ins(%{{.*}} = %[[T]] : memref<8xf32>)
func.func @negative_input_freed(%arg0: memref<8xf32>) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  dloop.kernel @first ins(%x = %arg0 : memref<8xf32>) outs(%o = %a : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %x[%i] : memref<8xf32>
      %1 = math.exp %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  %t = memref.alloc() : memref<8xf32>
  dloop.kernel @producer ins(%p = %a : memref<8xf32>) outs(%o = %t : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = arith.negf %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  memref.dealloc %a : memref<8xf32>
  %y = memref.alloc() : memref<8xf32>
  dloop.kernel @consumer ins(%p = %t : memref<8xf32>) outs(%o = %y : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %0 = dloop.load %p[%i] : memref<8xf32>
      %1 = math.sqrt %0 : f32
      dloop.store %1, %o[%i] : memref<8xf32>
    }
  }
  return %y : memref<8xf32>
}
