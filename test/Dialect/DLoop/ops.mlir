// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s

/// RMSNorm as one kernel (the Loop IR of WALKTHROUGH.md): a free row loop, a
/// reduce loop over k with an f32 accumulator, rsqrt hoisted out of the free
/// column loop that stores x * inv * w. Loop variables print with their axis
/// names, iter args as %acc and kernel buffers as %inN / %outN.
// CHECK-LABEL: func.func @rmsnorm
//  CHECK-SAME:   (%[[A0:.*]]: memref<1x32x2048xf32>, %[[A1:.*]]: memref<2048xf32>, %[[A2:.*]]: memref<1x32x2048xf32>)
//       CHECK:   dloop.kernel @rmsnorm ins(%[[X:in0]] = %[[A0]] : memref<1x32x2048xf32>, %[[W:in1]] = %[[A1]] : memref<2048xf32>) outs(%[[Y:out0]] = %[[A2]] : memref<1x32x2048xf32>) {
//       CHECK:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:     %[[N:.*]] = arith.constant 2.048000e+03 : f32
//       CHECK:     %[[EPS:.*]] = arith.constant 9.99999997E-7 : f32
//       CHECK:     dloop.for %[[R:r]] = 0 to 32 free "r" {
//       CHECK:       %[[SS:.*]] = dloop.for %[[K:k]] = 0 to 2048 reduce "k" iter(%[[ACC:acc]] = %[[ZERO]] : f32) {
//       CHECK:         %[[V:.*]] = dloop.load %[[X]][0, %[[R]], %[[K]]] : memref<1x32x2048xf32>
//       CHECK:         %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
//       CHECK:         %[[NEXT:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
//       CHECK:         dloop.yield %[[NEXT]] : f32
//       CHECK:       }
//       CHECK:       %[[MEAN:.*]] = arith.divf %[[SS]], %[[N]] : f32
//       CHECK:       %[[ME:.*]] = arith.addf %[[MEAN]], %[[EPS]] : f32
//       CHECK:       %[[INV:.*]] = math.rsqrt %[[ME]] : f32
//       CHECK:       dloop.for %[[C:c]] = 0 to 2048 free "c" {
//       CHECK:         %[[XV:.*]] = dloop.load %[[X]][0, %[[R]], %[[C]]] : memref<1x32x2048xf32>
//       CHECK:         %[[G:.*]] = dloop.load %[[W]][%[[C]]] : memref<2048xf32>
//       CHECK:         %[[T:.*]] = arith.mulf %[[XV]], %[[INV]] : f32
//       CHECK:         %[[O:.*]] = arith.mulf %[[T]], %[[G]] : f32
//       CHECK:         dloop.store %[[O]], %[[Y]][0, %[[R]], %[[C]]] : memref<1x32x2048xf32>
//   CHECK-NOT:         dloop.yield
//       CHECK:       }
//   CHECK-NOT:       dloop.yield
//       CHECK:     }
//   CHECK-NOT:     dloop.yield
//       CHECK:   }
//       CHECK:   return
func.func @rmsnorm(%arg0: memref<1x32x2048xf32>, %arg1: memref<2048xf32>, %arg2: memref<1x32x2048xf32>) {
  dloop.kernel @rmsnorm ins(%x = %arg0 : memref<1x32x2048xf32>, %w = %arg1 : memref<2048xf32>) outs(%y = %arg2 : memref<1x32x2048xf32>) {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 2048.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    dloop.for %r = 0 to 32 free "r" {
      %ss = dloop.for %k = 0 to 2048 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[0, %r, %k] : memref<1x32x2048xf32>
        %sq = arith.mulf %v, %v : f32
        %next = arith.addf %acc, %sq : f32
        dloop.yield %next : f32
      }
      %mean = arith.divf %ss, %n : f32
      %me = arith.addf %mean, %eps : f32
      %inv = math.rsqrt %me : f32
      dloop.for %c = 0 to 2048 free "c" {
        %xv = dloop.load %x[0, %r, %c] : memref<1x32x2048xf32>
        %g = dloop.load %w[%c] : memref<2048xf32>
        %t = arith.mulf %xv, %inv : f32
        %o = arith.mulf %t, %g : f32
        dloop.store %o, %y[0, %r, %c] : memref<1x32x2048xf32>
      }
    }
  }
  return
}

/// Matmul: free m and n loops, a reduce loop over k with an accumulator, and
/// an unroll hint on the inner loop.
// CHECK-LABEL: func.func @matmul
//  CHECK-SAME:   (%[[A0:.*]]: memref<32x64xf32>, %[[A1:.*]]: memref<64x16xf32>, %[[A2:.*]]: memref<32x16xf32>)
//       CHECK:   dloop.kernel @matmul ins(%[[A:.*]] = %[[A0]] : memref<32x64xf32>, %[[B:.*]] = %[[A1]] : memref<64x16xf32>) outs(%[[C:.*]] = %[[A2]] : memref<32x16xf32>) {
//       CHECK:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:     dloop.for %[[M:.*]] = 0 to 32 free "m" {
//       CHECK:       dloop.for %[[N:.*]] = 0 to 16 free "n" {
//       CHECK:         %[[SUM:.*]] = dloop.for %[[K:.*]] = 0 to 64 reduce "k" iter(%[[ACC:.*]] = %[[ZERO]] : f32) unroll 4 {
//       CHECK:           %[[AV:.*]] = dloop.load %[[A]][%[[M]], %[[K]]] : memref<32x64xf32>
//       CHECK:           %[[BV:.*]] = dloop.load %[[B]][%[[K]], %[[N]]] : memref<64x16xf32>
//       CHECK:           %[[P:.*]] = arith.mulf %[[AV]], %[[BV]] : f32
//       CHECK:           %[[NEXT:.*]] = arith.addf %[[ACC]], %[[P]] : f32
//       CHECK:           dloop.yield %[[NEXT]] : f32
//       CHECK:         }
//       CHECK:         dloop.store %[[SUM]], %[[C]][%[[M]], %[[N]]] : memref<32x16xf32>
func.func @matmul(%arg0: memref<32x64xf32>, %arg1: memref<64x16xf32>, %arg2: memref<32x16xf32>) {
  dloop.kernel @matmul ins(%a = %arg0 : memref<32x64xf32>, %b = %arg1 : memref<64x16xf32>) outs(%c = %arg2 : memref<32x16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 32 free "m" {
      dloop.for %n = 0 to 16 free "n" {
        %sum = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %zero : f32) unroll 4 {
          %av = dloop.load %a[%m, %k] : memref<32x64xf32>
          %bv = dloop.load %b[%k, %n] : memref<64x16xf32>
          %p = arith.mulf %av, %bv : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %sum, %c[%m, %n] : memref<32x16xf32>
      }
    }
  }
  return
}

/// Softmax: three sibling loops over k (a max, a sum, a free store) may all be
/// called "k"; only enclosing loops must differ.
// CHECK-LABEL: func.func @softmax
//       CHECK:   dloop.kernel @softmax ins(%[[X:.*]] = %{{.*}} : memref<4x64xf32>) outs(%[[Y:.*]] = %{{.*}} : memref<4x64xf32>) {
//       CHECK:     dloop.for %[[R:.*]] = 0 to 4 free "r" {
//       CHECK:       %[[MAX:.*]] = dloop.for %[[K0:.*]] = 0 to 64 reduce "k" iter(%[[ACC0:.*]] = %{{.*}} : f32) {
//       CHECK:         %[[V0:.*]] = dloop.load %[[X]][%[[R]], %[[K0]]] : memref<4x64xf32>
//       CHECK:         %[[M0:.*]] = arith.maximumf %[[ACC0]], %[[V0]] : f32
//       CHECK:         dloop.yield %[[M0]] : f32
//       CHECK:       %[[SUM:.*]] = dloop.for %[[K1:.*]] = 0 to 64 reduce "k" iter(%[[ACC1:.*]] = %{{.*}} : f32) {
//       CHECK:         arith.subf %{{.*}}, %[[MAX]] : f32
//       CHECK:         dloop.yield
//       CHECK:       dloop.for %[[K2:.*]] = 0 to 64 free "k" {
//       CHECK:         %[[O:.*]] = arith.divf %{{.*}}, %[[SUM]] : f32
//       CHECK:         dloop.store %[[O]], %[[Y]][%[[R]], %[[K2]]] : memref<4x64xf32>
func.func @softmax(%arg0: memref<4x64xf32>, %arg1: memref<4x64xf32>) {
  dloop.kernel @softmax ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %arg1 : memref<4x64xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    dloop.for %r = 0 to 4 free "r" {
      %max = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %ninf : f32) {
        %v = dloop.load %x[%r, %k] : memref<4x64xf32>
        %m = arith.maximumf %acc, %v : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%r, %k] : memref<4x64xf32>
        %d = arith.subf %v, %max : f32
        %e = math.exp %d : f32
        %s = arith.addf %acc, %e : f32
        dloop.yield %s : f32
      }
      dloop.for %k = 0 to 64 free "k" {
        %v = dloop.load %x[%r, %k] : memref<4x64xf32>
        %d = arith.subf %v, %max : f32
        %e = math.exp %d : f32
        %o = arith.divf %e, %sum : f32
        dloop.store %o, %y[%r, %k] : memref<4x64xf32>
      }
    }
  }
  return
}

/// A reduce loop with several accumulators of different types has one result
/// per accumulator (an argmax keeps the best value and its index).
// CHECK-LABEL: func.func @argmax
//       CHECK:   dloop.kernel @argmax ins(%[[X:.*]] = %{{.*}} : memref<8x100xf32>) outs(%[[Y:.*]] = %{{.*}} : memref<8xi32>) {
//       CHECK:     %[[NINF:.*]] = arith.constant 0xFF800000 : f32
//       CHECK:     %[[C0:.*]] = arith.constant 0 : index
//       CHECK:     dloop.for %[[R:.*]] = 0 to 8 free "r" {
//       CHECK:       %[[BEST:.*]]:2 = dloop.for %[[K:.*]] = 0 to 100 reduce "k" iter(%[[M:.*]] = %[[NINF]] : f32, %[[I:.*]] = %[[C0]] : index) {
//       CHECK:         %[[V:.*]] = dloop.load %[[X]][%[[R]], %[[K]]] : memref<8x100xf32>
//       CHECK:         %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[M]] : f32
//       CHECK:         %[[M2:.*]] = arith.select %[[GT]], %[[V]], %[[M]] : f32
//       CHECK:         %[[I2:.*]] = arith.select %[[GT]], %[[K]], %[[I]] : index
//       CHECK:         dloop.yield %[[M2]], %[[I2]] : f32, index
//       CHECK:       }
//       CHECK:       %[[CAST:.*]] = arith.index_cast %[[BEST]]#1 : index to i32
//       CHECK:       dloop.store %[[CAST]], %[[Y]][%[[R]]] : memref<8xi32>
func.func @argmax(%arg0: memref<8x100xf32>, %arg1: memref<8xi32>) {
  dloop.kernel @argmax ins(%x = %arg0 : memref<8x100xf32>) outs(%y = %arg1 : memref<8xi32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %c0 = arith.constant 0 : index
    dloop.for %r = 0 to 8 free "r" {
      %best:2 = dloop.for %k = 0 to 100 reduce "k" iter(%m = %ninf : f32, %i = %c0 : index) {
        %v = dloop.load %x[%r, %k] : memref<8x100xf32>
        %gt = arith.cmpf ogt, %v, %m : f32
        %m2 = arith.select %gt, %v, %m : f32
        %i2 = arith.select %gt, %k, %i : index
        dloop.yield %m2, %i2 : f32, index
      }
      %cast = arith.index_cast %best#1 : index to i32
      dloop.store %cast, %y[%r] : memref<8xi32>
    }
  }
  return
}

/// Split-K: a function launches a kernel that zeroes the output (no inputs)
/// and then one whose outer reduce loop carries nothing and folds partial sums
/// into the output with a reducing store.
// CHECK-LABEL: func.func @matmul_split_k
//  CHECK-SAME:   (%[[A0:.*]]: memref<32x64xf32>, %[[A1:.*]]: memref<64x16xf32>, %[[A2:.*]]: memref<32x16xf32>)
//       CHECK:   dloop.kernel @zero outs(%[[Z:.*]] = %[[A2]] : memref<32x16xf32>) {
//       CHECK:     dloop.store %{{.*}}, %[[Z]][%{{.*}}, %{{.*}}] : memref<32x16xf32>
//       CHECK:   dloop.kernel @partial ins(%[[A:.*]] = %[[A0]] : memref<32x64xf32>, %[[B:.*]] = %[[A1]] : memref<64x16xf32>) outs(%[[C:.*]] = %[[A2]] : memref<32x16xf32>) {
//       CHECK:     dloop.for %[[S:.*]] = 0 to 4 reduce "s" {
//       CHECK:       dloop.for %[[M:.*]] = 0 to 32 free "m" {
//       CHECK:         dloop.for %[[N:.*]] = 0 to 16 free "n" {
//       CHECK:           %[[P:.*]] = dloop.for %[[K:.*]] = 0 to 16 reduce "k" iter(%{{.*}} = %{{.*}} : f32) {
//       CHECK:             dloop.load %[[A]][%[[M]], %[[S]] * 16 + %[[K]]] : memref<32x64xf32>
//       CHECK:             dloop.load %[[B]][%[[S]] * 16 + %[[K]], %[[N]]] : memref<64x16xf32>
//       CHECK:           dloop.store add %[[P]], %[[C]][%[[M]], %[[N]]] : memref<32x16xf32>
func.func @matmul_split_k(%arg0: memref<32x64xf32>, %arg1: memref<64x16xf32>, %arg2: memref<32x16xf32>) {
  dloop.kernel @zero outs(%c = %arg2 : memref<32x16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 32 free "m" {
      dloop.for %n = 0 to 16 free "n" {
        dloop.store %zero, %c[%m, %n] : memref<32x16xf32>
      }
    }
  }
  dloop.kernel @partial ins(%a = %arg0 : memref<32x64xf32>, %b = %arg1 : memref<64x16xf32>) outs(%c = %arg2 : memref<32x16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %s = 0 to 4 reduce "s" {
      dloop.for %m = 0 to 32 free "m" {
        dloop.for %n = 0 to 16 free "n" {
          %p = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %zero : f32) {
            %av = dloop.load %a[%m, %s * 16 + %k] : memref<32x64xf32>
            %bv = dloop.load %b[%s * 16 + %k, %n] : memref<64x16xf32>
            %t = arith.mulf %av, %bv : f32
            %next = arith.addf %acc, %t : f32
            dloop.yield %next : f32
          }
          dloop.store add %p, %c[%m, %n] : memref<32x16xf32>
        }
      }
    }
  }
  return
}

/// Every reduce kind of a reducing store, on float and integer buffers; a
/// free loop may hold reducing stores too.
// CHECK-LABEL: func.func @reducing_stores
//       CHECK:   dloop.store add %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
//       CHECK:   dloop.store mul %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
//       CHECK:   dloop.store max %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xi32>
//       CHECK:   dloop.store min %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xi32>
func.func @reducing_stores(%arg0: memref<4x8xf32>, %arg1: memref<4xf32>, %arg2: memref<4xf32>, %arg3: memref<4xi32>, %arg4: memref<4xi32>) {
  dloop.kernel @reducing_stores ins(%x = %arg0 : memref<4x8xf32>) outs(%s = %arg1 : memref<4xf32>, %p = %arg2 : memref<4xf32>, %hi = %arg3 : memref<4xi32>, %lo = %arg4 : memref<4xi32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %v = dloop.load %x[%i, %j] : memref<4x8xf32>
        %q = arith.fptosi %v : f32 to i32
        dloop.store add %v, %s[%i] : memref<4xf32>
        dloop.store mul %v, %p[%i] : memref<4xf32>
        dloop.store max %q, %hi[%i] : memref<4xi32>
        dloop.store min %q, %lo[%i] : memref<4xi32>
      }
    }
  }
  return
}

/// Affine index expressions: constants, floordiv and mod (reshapes, grouped
/// heads), strides and offsets, a repeated index and a symbol.
// CHECK-LABEL: func.func @affine_indices
//       CHECK:   dloop.kernel @affine_indices ins(%[[KV:.*]] = %{{.*}} : memref<1x4x16xf32>, %[[V:.*]] = %{{.*}} : memref<64xf32>, %[[SQ:.*]] = %{{.*}} : memref<8x8xf32>) outs(%[[Y:.*]] = %{{.*}} : memref<1x32x16xf32>) {
//       CHECK:     dloop.for %[[H:.*]] = 0 to 32 free "h" {
//       CHECK:       dloop.for %[[D:.*]] = 0 to 16 free "d" {
//       CHECK:         dloop.load %[[KV]][0, %[[H]] floordiv 8, %[[D]]] : memref<1x4x16xf32>
//       CHECK:         dloop.load %[[V]][%[[D]] * 2 + 1] : memref<64xf32>
//       CHECK:         dloop.load %[[V]][(%[[H]] * 16 + %[[D]]) mod 64] : memref<64xf32>
//       CHECK:         dloop.load %[[SQ]][%[[D]] floordiv 2, %[[D]] floordiv 2] : memref<8x8xf32>
//       CHECK:         dloop.load %[[SQ]][%[[D]] mod 8, symbol(%[[H]]) floordiv 4] : memref<8x8xf32>
//       CHECK:         dloop.store %{{.*}}, %[[Y]][0, %[[H]], %[[D]]] {note = "gqa"} : memref<1x32x16xf32>
func.func @affine_indices(%arg0: memref<1x4x16xf32>, %arg1: memref<64xf32>, %arg2: memref<8x8xf32>, %arg3: memref<1x32x16xf32>) {
  dloop.kernel @affine_indices ins(%kv = %arg0 : memref<1x4x16xf32>, %v = %arg1 : memref<64xf32>, %sq = %arg2 : memref<8x8xf32>) outs(%y = %arg3 : memref<1x32x16xf32>) {
    dloop.for %h = 0 to 32 free "h" {
      dloop.for %d = 0 to 16 free "d" {
        %a = dloop.load %kv[0, %h floordiv 8, %d] : memref<1x4x16xf32>
        %b = dloop.load %v[%d * 2 + 1] : memref<64xf32>
        %c = dloop.load %v[(%h * 16 + %d) mod 64] : memref<64xf32>
        %e = dloop.load %sq[%d floordiv 2, %d floordiv 2] : memref<8x8xf32>
        %f = dloop.load %sq[%d mod 8, symbol(%h) floordiv 4] : memref<8x8xf32>
        %s0 = arith.addf %a, %b : f32
        %s1 = arith.addf %s0, %c : f32
        %s2 = arith.addf %s1, %e : f32
        %s3 = arith.addf %s2, %f : f32
        dloop.store %s3, %y[0, %h, %d] {note = "gqa"} : memref<1x32x16xf32>
      }
    }
  }
  return
}

/// Concat along axis 1: scf.if picks the piece, and the second piece is read
/// at an index computed with affine.apply. The bounds check narrows %j by the
/// scf.if condition, so both reads are known to be in bounds.
// CHECK-LABEL: func.func @concat
//       CHECK:   dloop.kernel @concat ins(%[[A:.*]] = %{{.*}} : memref<2x4xf32>, %[[B:.*]] = %{{.*}} : memref<2x3xf32>) outs(%[[Y:.*]] = %{{.*}} : memref<2x7xf32>) {
//       CHECK:     %[[C4:.*]] = arith.constant 4 : index
//       CHECK:     dloop.for %[[I:.*]] = 0 to 2 free "i" {
//       CHECK:       dloop.for %[[J:.*]] = 0 to 7 free "j" {
//       CHECK:         %[[FIRST:.*]] = arith.cmpi ult, %[[J]], %[[C4]] : index
//       CHECK:         %[[JB:.*]] = affine.apply #{{.*}}(%[[J]])
//       CHECK:         %[[V:.*]] = scf.if %[[FIRST]] -> (f32) {
//       CHECK:           %[[AV:.*]] = dloop.load %[[A]][%[[I]], %[[J]]] : memref<2x4xf32>
//       CHECK:           scf.yield %[[AV]] : f32
//       CHECK:         } else {
//       CHECK:           %[[BV:.*]] = dloop.load %[[B]][%[[I]], %[[JB]]] : memref<2x3xf32>
//       CHECK:           scf.yield %[[BV]] : f32
//       CHECK:         }
//       CHECK:         dloop.store %[[V]], %[[Y]][%[[I]], %[[J]]] : memref<2x7xf32>
func.func @concat(%arg0: memref<2x4xf32>, %arg1: memref<2x3xf32>, %arg2: memref<2x7xf32>) {
  dloop.kernel @concat ins(%a = %arg0 : memref<2x4xf32>, %b = %arg1 : memref<2x3xf32>) outs(%y = %arg2 : memref<2x7xf32>) {
    %c4 = arith.constant 4 : index
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 7 free "j" {
        %first = arith.cmpi ult, %j, %c4 : index
        %jb = affine.apply affine_map<(d0) -> (d0 - 4)>(%j)
        %v = scf.if %first -> f32 {
          %av = dloop.load %a[%i, %j] : memref<2x4xf32>
          scf.yield %av : f32
        } else {
          %bv = dloop.load %b[%i, %jb] : memref<2x3xf32>
          scf.yield %bv : f32
        }
        dloop.store %v, %y[%i, %j] : memref<2x7xf32>
      }
    }
  }
  return
}

/// A causal mask with arith.cmpi and arith.select; the kernel carries a
/// discardable attribute after `attributes`, the loop one after its body.
// CHECK-LABEL: func.func @causal_mask
//       CHECK:   dloop.kernel @causal_mask ins(%[[S:.*]] = %{{.*}} : memref<16x16xf32>) outs(%[[Y:.*]] = %{{.*}} : memref<16x16xf32>) attributes {note = "mask"} {
//       CHECK:     dloop.for %[[Q:.*]] = 0 to 16 free "q" {
//       CHECK:       dloop.for %[[K:.*]] = 0 to 16 free "k" {
//       CHECK:         %[[V:.*]] = dloop.load %[[S]][%[[Q]], %[[K]]] : memref<16x16xf32>
//       CHECK:         %[[LE:.*]] = arith.cmpi ule, %[[K]], %[[Q]] : index
//       CHECK:         %[[M:.*]] = arith.select %[[LE]], %[[V]], %{{.*}} : f32
//       CHECK:         dloop.store %[[M]], %[[Y]][%[[Q]], %[[K]]] : memref<16x16xf32>
//       CHECK:       } {note = "inner"}
func.func @causal_mask(%arg0: memref<16x16xf32>, %arg1: memref<16x16xf32>) {
  dloop.kernel @causal_mask ins(%s = %arg0 : memref<16x16xf32>) outs(%y = %arg1 : memref<16x16xf32>) attributes {note = "mask"} {
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %q = 0 to 16 free "q" {
      dloop.for %k = 0 to 16 free "k" {
        %v = dloop.load %s[%q, %k] : memref<16x16xf32>
        %le = arith.cmpi ule, %k, %q : index
        %m = arith.select %le, %v, %ninf : f32
        dloop.store %m, %y[%q, %k] : memref<16x16xf32>
      } {note = "inner"}
    }
  }
  return
}

/// An axis name that is already taken in scope (here by a constant) is
/// uniqued when the loop variable prints.
// CHECK-LABEL: func.func @name_clash
//       CHECK:   dloop.kernel @name_clash outs(%[[Y:.*]] = %{{.*}} : memref<3xindex>) {
//       CHECK:     %[[C0:c0]] = arith.constant 0 : index
//       CHECK:     dloop.for %[[I:c0_[0-9]+]] = 0 to 3 free "c0" {
//       CHECK:       %[[S:.*]] = arith.addi %[[I]], %[[C0]] : index
//       CHECK:       dloop.store %[[S]], %[[Y]][%[[I]]] : memref<3xindex>
func.func @name_clash(%arg0: memref<3xindex>) {
  dloop.kernel @name_clash outs(%y = %arg0 : memref<3xindex>) {
    %c0 = arith.constant 0 : index
    dloop.for %i = 0 to 3 free "c0" {
      %s = arith.addi %i, %c0 : index
      dloop.store %s, %y[%i] : memref<3xindex>
    }
  }
  return
}
