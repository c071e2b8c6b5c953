// RUN: rm -rf %t && mkdir -p %t
/// --save-inputs writes the seeded inputs, --output-dir the results; the
/// directories are created. Rerunning on the saved inputs gives the same
/// results, and the written results read back as inputs hold the same values.
// RUN: deplodock-run --interp %s --func=mixed --seed=5 --save-inputs=%t/in --output-dir=%t/out > %t/seeded.txt
// RUN: deplodock-run --interp %s --func=mixed --input=%t/in/input0.npy --input=%t/in/input1.npy --input=%t/in/input2.npy > %t/rerun.txt
// RUN: diff %t/seeded.txt %t/rerun.txt
// RUN: deplodock-run --interp %s --func=mixed --input=%t/out/result0.npy --input=%t/out/result1.npy --input=%t/out/result2.npy > %t/reread.txt
// RUN: diff %t/seeded.txt %t/reread.txt
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/in/input0.npy | FileCheck %s --check-prefix=IN0
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/in/input1.npy | FileCheck %s --check-prefix=IN1
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/in/input2.npy | FileCheck %s --check-prefix=IN2
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/out/result3.npy | FileCheck %s --check-prefix=OUT3
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/out/result4.npy | FileCheck %s --check-prefix=OUT4
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t/out/result5.npy | FileCheck %s --check-prefix=OUT5
// RUN: not ls %t/out/result6.npy

/// Only the files for arguments and results are written.
// IN0: descr <f4 shape (2, 3) fortran_order False
// IN1: descr <i4 shape (4,) fortran_order False
// IN1-NEXT: {{^[0-7] [0-7] [0-7] [0-7]$}}
// IN2: descr |b1 shape (3,) fortran_order False
// IN2-NEXT: {{^(True|False) (True|False) (True|False)$}}
/// A memref result, a 0-d f64 and an index result (written as int64).
// OUT3:      descr <f8 shape () fortran_order False
// OUT3-NEXT: 0.1
// OUT4:      descr <i8 shape (2,) fortran_order False
// OUT4-NEXT: 3 -1
// OUT5:      descr <i4 shape (2, 1) fortran_order False
// OUT5-NEXT: 7 -7
func.func @mixed(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %b: tensor<3xi1>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<3xi1>, tensor<f64>, memref<2xindex>, tensor<2x1xi32>) {
  %d = arith.constant dense<0.1> : tensor<f64>
  %k = memref.alloc() : memref<2xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m1 = arith.constant -1 : index
  memref.store %c3, %k[%c0] : memref<2xindex>
  memref.store %m1, %k[%c1] : memref<2xindex>
  %s = arith.constant dense<[[7], [-7]]> : tensor<2x1xi32>
  return %x, %i, %b, %d, %k, %s : tensor<2x3xf32>, tensor<4xi32>, tensor<3xi1>, tensor<f64>, memref<2xindex>, tensor<2x1xi32>
}
