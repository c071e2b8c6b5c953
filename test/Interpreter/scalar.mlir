// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 - 1.5
// RUN: %python %S/Inputs/npy.py write %t/n.npy i8 - 4
// RUN: deplodock-run --interp %s --input=%t/x.npy --input=%t/n.npy | FileCheck %s
// RUN: deplodock-run --interp %s --seed=3 --save-inputs=%t/seeded --print=none
// RUN: %python %S/Inputs/npy.py read %t/seeded/input1.npy | FileCheck %s --check-prefix=SEEDED

/// Scalar arguments are 0-d .npy files (index arguments read int64), scalar
/// results 0-d tensors: x * 2^n by an scf.for over index bounds, and n > 3.
// CHECK:      result #0: tensor<f32>
// CHECK-NEXT: 24
// CHECK-NEXT: result #1: tensor<i1>
// CHECK-NEXT: 1
// CHECK-NOT:  result
/// Seeded scalar inputs are saved as 0-d arrays.
// SEEDED:      descr <i8 shape () fortran_order False
// SEEDED-NEXT: {{[0-7]$}}
func.func @scalars(%x: f32, %n: index) -> (f32, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %p = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %d = arith.mulf %acc, %two : f32
    scf.yield %d : f32
  }
  %big = arith.cmpi sgt, %n, %c3 : index
  return %p, %big : f32, i1
}
