// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy f4 6 -2.5,-1,-0.0,0.5,1.5,3
// RUN: %python %S/Inputs/npy.py write %t/b.npy f4 6 2,0.25,1,-0.5,1.5,-4
// RUN: %python %S/Inputs/npy.py write %t/u.npy f4 5 0.5,1,2,-1.5,0
// RUN: %python %S/Inputs/npy.py write %t/n.npy f4 4 nan,1,-inf,-0.0
// RUN: %python %S/Inputs/npy.py write %t/m.npy f4 4 1,nan,2,0
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 5 -2.75,-0.5,0.5,2.5,300.7
// RUN: %python %S/Inputs/npy.py write %t/i.npy i4 5 7,-7,100,-100,2147483647
// RUN: %python %S/Inputs/npy.py write %t/j.npy i4 5 2,2,-3,7,1
// RUN: %python %S/Inputs/npy.py write %t/s.npy i4 5 1,2,3,4,31
// RUN: %python %S/Inputs/npy.py write %t/k.npy i1 5 -128,-1,0,1,127
// RUN: %python %S/Inputs/npy.py write %t/h.npy f2 4 0.1,1000,65504,3
// RUN: %python %S/Inputs/npy.py write %t/f.npy f4 4 1,0.00390625,0.005859375,3.14159
// RUN: deplodock-run --interp %s --func=narrow --input=%t/h.npy --input=%t/f.npy | FileCheck %s --check-prefix=NARROW
// RUN: deplodock-run --interp %s --func=float_binary --input=%t/a.npy --input=%t/b.npy | FileCheck %s --check-prefix=FBIN
// RUN: deplodock-run --interp %s --func=float_unary --input=%t/u.npy | FileCheck %s --check-prefix=FUN
// RUN: deplodock-run --interp %s --func=nan --input=%t/n.npy --input=%t/m.npy | FileCheck %s --check-prefix=NAN
// RUN: deplodock-run --interp %s --func=int_binary --input=%t/i.npy --input=%t/j.npy --input=%t/s.npy | FileCheck %s --check-prefix=IBIN
// RUN: deplodock-run --interp %s --func=conversions --input=%t/x.npy --input=%t/i.npy --input=%t/k.npy | FileCheck %s --check-prefix=CONV

/// Every element goes through the body; results are rounded to f32. Results:
/// addf subf mulf divf remf maximumf minimumf fma powf, and a constant.
// FBIN:      result #0: tensor<6xf32>
// FBIN-NEXT: -0.5 -0.75 1 0 3 -1
// FBIN-NEXT: result #1: tensor<6xf32>
// FBIN-NEXT: -4.5 -1.25 -1 1 0 7
// FBIN-NEXT: result #2: tensor<6xf32>
// FBIN-NEXT: -5 -0.25 -0 -0.25 2.25 -12
// FBIN-NEXT: result #3: tensor<6xf32>
// FBIN-NEXT: -1.25 -4 -0 -1 1 -0.75
// FBIN-NEXT: result #4: tensor<6xf32>
// FBIN-NEXT: -0.5 -0 -0 0 0 3
// FBIN-NEXT: result #5: tensor<6xf32>
// FBIN-NEXT: 2 0.25 1 0.5 1.5 3
// FBIN-NEXT: result #6: tensor<6xf32>
// FBIN-NEXT: -2.5 -1 -0 -0.5 1.5 -4
// FBIN-NEXT: result #7: tensor<6xf32>
// FBIN-NEXT: -7.5 -1.25 -0 0.25 3.75 -9
// FBIN-NEXT: result #8: tensor<6xf32>
// FBIN-NEXT: 6.25 1 0 1.41421354 1.83711731 0.0123456791
// FBIN-NEXT: result #9: tensor<6xf32>
// FBIN-NEXT: 0.100000001 0.100000001 0.100000001 0.100000001 0.100000001 0.100000001
// FBIN-NOT:  result
func.func @float_binary(%a: tensor<6xf32>, %b: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.addf %x, %y : f32
    dtensor.yield %r : f32
  }
  %1 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.subf %x, %y : f32
    dtensor.yield %r : f32
  }
  %2 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.mulf %x, %y : f32
    dtensor.yield %r : f32
  }
  %3 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.divf %x, %y : f32
    dtensor.yield %r : f32
  }
  // C fmod: the sign of the dividend.
  %4 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.remf %x, %y : f32
    dtensor.yield %r : f32
  }
  %5 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.maximumf %x, %y : f32
    dtensor.yield %r : f32
  }
  %6 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = arith.minimumf %x, %y : f32
    dtensor.yield %r : f32
  }
  // x * y + x, rounded once.
  %7 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %r = math.fma %x, %y, %x : f32
    dtensor.yield %r : f32
  }
  // |x| ^ y.
  %8 = dtensor.elementwise (%x = %a : tensor<6xf32>, %y = %b : tensor<6xf32>) -> tensor<6xf32> {
    %ax = math.absf %x : f32
    %r = math.powf %ax, %y : f32
    dtensor.yield %r : f32
  }
  // A body that reads no operand.
  %9 = dtensor.elementwise (%x = %a : tensor<6xf32>) -> tensor<6xf32> {
    %c = arith.constant 1.0e-01 : f32
    dtensor.yield %c : f32
  }
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

/// Math functions are computed in double and rounded once to f32. Rows:
/// exp exp2 log log2 log1p sqrt rsqrt tanh erf sin cos absf negf floor ceil,
/// of 0.5 1 2 -1.5 0.
// FUN:      result #0: tensor<15x5xf32>
// FUN-NEXT: 1.64872122 2.71828175 7.38905621 0.223130167 1
// FUN-NEXT: 1.41421354 2 4 0.353553385 1
// FUN-NEXT: -0.693147182 0 0.693147182 nan -inf
// FUN-NEXT: -1 0 1 nan -inf
// FUN-NEXT: 0.405465096 0.693147182 1.09861231 nan 0
// FUN-NEXT: 0.707106769 1 1.41421354 nan 0
// FUN-NEXT: 1.41421354 1 0.707106769 nan inf
// FUN-NEXT: 0.462117165 0.761594176 0.964027584 -0.905148268 0
// FUN-NEXT: 0.520499885 0.842700779 0.995322287 -0.966105163 0
// FUN-NEXT: 0.47942555 0.841470957 0.909297407 -0.997494996 0
// FUN-NEXT: 0.87758255 0.540302277 -0.416146845 0.070737198 1
// FUN-NEXT: 0.5 1 2 1.5 0
// FUN-NEXT: -0.5 -1 -2 1.5 -0
// FUN-NEXT: 0 1 2 -2 0
// FUN-NEXT: 1 1 2 -1 0
func.func @float_unary(%u: tensor<5xf32>) -> tensor<15x5xf32> {
  // One row per function: the row index picks it.
  %b = dtensor.index_map %u[(d0, d1) -> (d1)] : (tensor<5xf32>) -> tensor<15x5xf32>
  %iota = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]> : tensor<15xindex>
  %rows = dtensor.index_map %iota[(d0, d1) -> (d0)] : (tensor<15xindex>) -> tensor<15x5xindex>
  %r = dtensor.elementwise (%x = %b : tensor<15x5xf32>, %k = %rows : tensor<15x5xindex>) -> tensor<15x5xf32> {
    %f = arith.index_cast %k : index to i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %c6 = arith.constant 6 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c9 = arith.constant 9 : i32
    %c10 = arith.constant 10 : i32
    %c11 = arith.constant 11 : i32
    %c12 = arith.constant 12 : i32
    %c13 = arith.constant 13 : i32
    %v0 = math.exp %x : f32
    %v1 = math.exp2 %x : f32
    %v2 = math.log %x : f32
    %v3 = math.log2 %x : f32
    %v4 = math.log1p %x : f32
    %v5 = math.sqrt %x : f32
    %v6 = math.rsqrt %x : f32
    %v7 = math.tanh %x : f32
    %v8 = math.erf %x : f32
    %v9 = math.sin %x : f32
    %v10 = math.cos %x : f32
    %v11 = math.absf %x : f32
    %v12 = arith.negf %x : f32
    %v13 = math.floor %x : f32
    %v14 = math.ceil %x : f32
    %e0 = arith.cmpi eq, %f, %c0 : i32
    %e1 = arith.cmpi eq, %f, %c1 : i32
    %e2 = arith.cmpi eq, %f, %c2 : i32
    %e3 = arith.cmpi eq, %f, %c3 : i32
    %e4 = arith.cmpi eq, %f, %c4 : i32
    %e5 = arith.cmpi eq, %f, %c5 : i32
    %e6 = arith.cmpi eq, %f, %c6 : i32
    %e7 = arith.cmpi eq, %f, %c7 : i32
    %e8 = arith.cmpi eq, %f, %c8 : i32
    %e9 = arith.cmpi eq, %f, %c9 : i32
    %e10 = arith.cmpi eq, %f, %c10 : i32
    %e11 = arith.cmpi eq, %f, %c11 : i32
    %e12 = arith.cmpi eq, %f, %c12 : i32
    %e13 = arith.cmpi eq, %f, %c13 : i32
    %s13 = arith.select %e13, %v13, %v14 : f32
    %s12 = arith.select %e12, %v12, %s13 : f32
    %s11 = arith.select %e11, %v11, %s12 : f32
    %s10 = arith.select %e10, %v10, %s11 : f32
    %s9 = arith.select %e9, %v9, %s10 : f32
    %s8 = arith.select %e8, %v8, %s9 : f32
    %s7 = arith.select %e7, %v7, %s8 : f32
    %s6 = arith.select %e6, %v6, %s7 : f32
    %s5 = arith.select %e5, %v5, %s6 : f32
    %s4 = arith.select %e4, %v4, %s5 : f32
    %s3 = arith.select %e3, %v3, %s4 : f32
    %s2 = arith.select %e2, %v2, %s3 : f32
    %s1 = arith.select %e1, %v1, %s2 : f32
    %s0 = arith.select %e0, %v0, %s1 : f32
    dtensor.yield %s0 : f32
  }
  return %r : tensor<15x5xf32>
}

/// maximumf and minimumf propagate NaNs, maxnumf and minnumf drop them;
/// ordered comparisons with NaN are false, unordered ones true.
// NAN:      result #0: tensor<4xf32>
// NAN-NEXT: nan nan 2 0
// NAN-NEXT: result #1: tensor<4xf32>
// NAN-NEXT: nan nan -inf -0
// NAN-NEXT: result #2: tensor<4xf32>
// NAN-NEXT: 1 1 2 0
// NAN-NEXT: result #3: tensor<4xf32>
// NAN-NEXT: 1 1 -inf -0
// NAN-NEXT: result #4: tensor<8x4xi1>
// NAN-NEXT: 0 0 0 1
// NAN-NEXT: 0 0 0 0
// NAN-NEXT: 0 0 0 1
// NAN-NEXT: 0 0 1 0
// NAN-NEXT: 0 0 1 1
// NAN-NEXT: 1 1 1 0
// NAN-NEXT: 1 1 0 0
// NAN-NEXT: 1 1 1 0
func.func @nan(%n: tensor<4xf32>, %m: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8x4xi1>) {
  %0 = dtensor.elementwise (%x = %n : tensor<4xf32>, %y = %m : tensor<4xf32>) -> tensor<4xf32> {
    %r = arith.maximumf %x, %y : f32
    dtensor.yield %r : f32
  }
  %1 = dtensor.elementwise (%x = %n : tensor<4xf32>, %y = %m : tensor<4xf32>) -> tensor<4xf32> {
    %r = arith.minimumf %x, %y : f32
    dtensor.yield %r : f32
  }
  %2 = dtensor.elementwise (%x = %n : tensor<4xf32>, %y = %m : tensor<4xf32>) -> tensor<4xf32> {
    %r = arith.maxnumf %x, %y : f32
    dtensor.yield %r : f32
  }
  %3 = dtensor.elementwise (%x = %n : tensor<4xf32>, %y = %m : tensor<4xf32>) -> tensor<4xf32> {
    %r = arith.minnumf %x, %y : f32
    dtensor.yield %r : f32
  }
  // Rows: oeq ogt oge olt ord une uno ult, of n against m (-0 == 0).
  %nb = dtensor.index_map %n[(d0, d1) -> (d1)] : (tensor<4xf32>) -> tensor<8x4xf32>
  %mb = dtensor.index_map %m[(d0, d1) -> (d1)] : (tensor<4xf32>) -> tensor<8x4xf32>
  %iota = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xindex>
  %rows = dtensor.index_map %iota[(d0, d1) -> (d0)] : (tensor<8xindex>) -> tensor<8x4xindex>
  %4 = dtensor.elementwise (%x = %nb : tensor<8x4xf32>, %y = %mb : tensor<8x4xf32>, %k = %rows : tensor<8x4xindex>) -> tensor<8x4xi1> {
    %p0 = arith.cmpf oeq, %x, %y : f32
    %p1 = arith.cmpf ogt, %x, %y : f32
    %p2 = arith.cmpf oge, %x, %y : f32
    %p3 = arith.cmpf olt, %x, %y : f32
    %p4 = arith.cmpf ord, %x, %y : f32
    %p5 = arith.cmpf une, %x, %y : f32
    %p6 = arith.cmpf uno, %x, %y : f32
    %p7 = arith.cmpf ult, %x, %y : f32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %e1 = arith.cmpi eq, %k, %c1 : index
    %e2 = arith.cmpi eq, %k, %c2 : index
    %e3 = arith.cmpi eq, %k, %c3 : index
    %e4 = arith.cmpi eq, %k, %c4 : index
    %e5 = arith.cmpi eq, %k, %c5 : index
    %e6 = arith.cmpi eq, %k, %c6 : index
    %e7 = arith.cmpi eq, %k, %c7 : index
    %s7 = arith.select %e7, %p7, %p0 : i1
    %s6 = arith.select %e6, %p6, %s7 : i1
    %s5 = arith.select %e5, %p5, %s6 : i1
    %s4 = arith.select %e4, %p4, %s5 : i1
    %s3 = arith.select %e3, %p3, %s4 : i1
    %s2 = arith.select %e2, %p2, %s3 : i1
    %s1 = arith.select %e1, %p1, %s2 : i1
    dtensor.yield %s1 : i1
  }
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8x4xi1>
}

/// Integers wrap at 32 bits; unsigned ops see the bits as unsigned; shift
/// amounts are below the width.
// IBIN:      result #0: tensor<16x5xi32>
// IBIN-NEXT: 9 -5 97 -93 -2147483648
// IBIN-NEXT: 5 -9 103 -107 2147483646
// IBIN-NEXT: 14 -14 -300 -700 2147483647
// IBIN-NEXT: 3 -3 -33 -14 2147483647
// IBIN-NEXT: 3 2147483644 0 613566742 2147483647
// IBIN-NEXT: 1 -1 1 -2 0
// IBIN-NEXT: 1 1 100 2 0
// IBIN-NEXT: 2 0 100 4 1
// IBIN-NEXT: 7 -5 -3 -97 2147483647
// IBIN-NEXT: 5 -5 -103 -101 2147483646
// IBIN-NEXT: 14 -28 800 -1600 -2147483648
// IBIN-NEXT: 3 -2 12 -7 0
// IBIN-NEXT: 3 1073741822 12 268435449 0
// IBIN-NEXT: 7 2 100 7 2147483647
// IBIN-NEXT: 2 -7 -3 -100 1
// IBIN-NEXT: 7 -7 -3 -100 2147483647
// IBIN-NEXT: result #1: tensor<3x5xi32>
// IBIN-NEXT: 2 2 100 7 1
// IBIN-NEXT: 7 7 100 100 2147483647
// IBIN-NEXT: 7 2 100 7 2147483647
// IBIN-NEXT: result #2: tensor<6x5xi1>
// IBIN-NEXT: 0 0 0 0 0
// IBIN-NEXT: 1 1 1 1 1
// IBIN-NEXT: 0 1 0 1 0
// IBIN-NEXT: 1 0 1 0 1
// IBIN-NEXT: 0 0 1 0 0
// IBIN-NEXT: 1 1 0 1 1
func.func @int_binary(%i: tensor<5xi32>, %j: tensor<5xi32>, %s: tensor<5xi32>) -> (tensor<16x5xi32>, tensor<3x5xi32>, tensor<6x5xi1>) {
  // Rows: addi subi muli divsi divui remsi remui andi ori xori (of i and j),
  // shli shrsi shrui (of i by s), maxsi minsi maxui (of i and j).
  %ib = dtensor.index_map %i[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<16x5xi32>
  %jb = dtensor.index_map %j[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<16x5xi32>
  %sb = dtensor.index_map %s[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<16x5xi32>
  %iota = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi32>
  %rows = dtensor.index_map %iota[(d0, d1) -> (d0)] : (tensor<16xi32>) -> tensor<16x5xi32>
  %0 = dtensor.elementwise (%a = %ib : tensor<16x5xi32>, %b = %jb : tensor<16x5xi32>, %c = %sb : tensor<16x5xi32>, %k = %rows : tensor<16x5xi32>) -> tensor<16x5xi32> {
    %v0 = arith.addi %a, %b : i32
    %v1 = arith.subi %a, %b : i32
    %v2 = arith.muli %a, %b : i32
    %v3 = arith.divsi %a, %b : i32
    %v4 = arith.divui %a, %b : i32
    %v5 = arith.remsi %a, %b : i32
    %v6 = arith.remui %a, %b : i32
    %v7 = arith.andi %a, %b : i32
    %v8 = arith.ori %a, %b : i32
    %v9 = arith.xori %a, %b : i32
    %v10 = arith.shli %a, %c : i32
    %v11 = arith.shrsi %a, %c : i32
    %v12 = arith.shrui %a, %c : i32
    %v13 = arith.maxsi %a, %b : i32
    %v14 = arith.minsi %a, %b : i32
    %v15 = arith.maxui %a, %b : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %c6 = arith.constant 6 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c9 = arith.constant 9 : i32
    %c10 = arith.constant 10 : i32
    %c11 = arith.constant 11 : i32
    %c12 = arith.constant 12 : i32
    %c13 = arith.constant 13 : i32
    %c14 = arith.constant 14 : i32
    %c15 = arith.constant 15 : i32
    %e1 = arith.cmpi eq, %k, %c1 : i32
    %e2 = arith.cmpi eq, %k, %c2 : i32
    %e3 = arith.cmpi eq, %k, %c3 : i32
    %e4 = arith.cmpi eq, %k, %c4 : i32
    %e5 = arith.cmpi eq, %k, %c5 : i32
    %e6 = arith.cmpi eq, %k, %c6 : i32
    %e7 = arith.cmpi eq, %k, %c7 : i32
    %e8 = arith.cmpi eq, %k, %c8 : i32
    %e9 = arith.cmpi eq, %k, %c9 : i32
    %e10 = arith.cmpi eq, %k, %c10 : i32
    %e11 = arith.cmpi eq, %k, %c11 : i32
    %e12 = arith.cmpi eq, %k, %c12 : i32
    %e13 = arith.cmpi eq, %k, %c13 : i32
    %e14 = arith.cmpi eq, %k, %c14 : i32
    %e15 = arith.cmpi eq, %k, %c15 : i32
    %s15 = arith.select %e15, %v15, %v0 : i32
    %s14 = arith.select %e14, %v14, %s15 : i32
    %s13 = arith.select %e13, %v13, %s14 : i32
    %s12 = arith.select %e12, %v12, %s13 : i32
    %s11 = arith.select %e11, %v11, %s12 : i32
    %s10 = arith.select %e10, %v10, %s11 : i32
    %s9 = arith.select %e9, %v9, %s10 : i32
    %s8 = arith.select %e8, %v8, %s9 : i32
    %s7 = arith.select %e7, %v7, %s8 : i32
    %s6 = arith.select %e6, %v6, %s7 : i32
    %s5 = arith.select %e5, %v5, %s6 : i32
    %s4 = arith.select %e4, %v4, %s5 : i32
    %s3 = arith.select %e3, %v3, %s4 : i32
    %s2 = arith.select %e2, %v2, %s3 : i32
    %s1 = arith.select %e1, %v1, %s2 : i32
    dtensor.yield %s1 : i32
  }
  // Rows: minui, math.absi, and a select on i < j.
  %ib3 = dtensor.index_map %i[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<3x5xi32>
  %jb3 = dtensor.index_map %j[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<3x5xi32>
  %iota3 = arith.constant dense<[0, 1, 2]> : tensor<3xi32>
  %rows3 = dtensor.index_map %iota3[(d0, d1) -> (d0)] : (tensor<3xi32>) -> tensor<3x5xi32>
  %1 = dtensor.elementwise (%a = %ib3 : tensor<3x5xi32>, %b = %jb3 : tensor<3x5xi32>, %k = %rows3 : tensor<3x5xi32>) -> tensor<3x5xi32> {
    %v0 = arith.minui %a, %b : i32
    %v1 = math.absi %a : i32
    %lt = arith.cmpi slt, %a, %b : i32
    %v2 = arith.select %lt, %b, %a : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %e0 = arith.cmpi eq, %k, %c0 : i32
    %e1 = arith.cmpi eq, %k, %c1 : i32
    %s1 = arith.select %e1, %v1, %v2 : i32
    %s0 = arith.select %e0, %v0, %s1 : i32
    dtensor.yield %s0 : i32
  }
  // Rows: eq ne slt sge ult uge, of i against j.
  %ib6 = dtensor.index_map %i[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<6x5xi32>
  %jb6 = dtensor.index_map %j[(d0, d1) -> (d1)] : (tensor<5xi32>) -> tensor<6x5xi32>
  %iota6 = arith.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>
  %rows6 = dtensor.index_map %iota6[(d0, d1) -> (d0)] : (tensor<6xi32>) -> tensor<6x5xi32>
  %2 = dtensor.elementwise (%a = %ib6 : tensor<6x5xi32>, %b = %jb6 : tensor<6x5xi32>, %k = %rows6 : tensor<6x5xi32>) -> tensor<6x5xi1> {
    %p0 = arith.cmpi eq, %a, %b : i32
    %p1 = arith.cmpi ne, %a, %b : i32
    %p2 = arith.cmpi slt, %a, %b : i32
    %p3 = arith.cmpi sge, %a, %b : i32
    %p4 = arith.cmpi ult, %a, %b : i32
    %p5 = arith.cmpi uge, %a, %b : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %e1 = arith.cmpi eq, %k, %c1 : i32
    %e2 = arith.cmpi eq, %k, %c2 : i32
    %e3 = arith.cmpi eq, %k, %c3 : i32
    %e4 = arith.cmpi eq, %k, %c4 : i32
    %e5 = arith.cmpi eq, %k, %c5 : i32
    %s5 = arith.select %e5, %p5, %p0 : i1
    %s4 = arith.select %e4, %p4, %s5 : i1
    %s3 = arith.select %e3, %p3, %s4 : i1
    %s2 = arith.select %e2, %p2, %s3 : i1
    %s1 = arith.select %e1, %p1, %s2 : i1
    dtensor.yield %s1 : i1
  }
  return %0, %1, %2 : tensor<16x5xi32>, tensor<3x5xi32>, tensor<6x5xi1>
}

/// Conversions: truncation towards zero, rounding to nearest even, sign and
/// zero extension, wrapping truncation, bit casts; an i1 true is -1 signed
/// and 1 unsigned.
// CONV:      result #0: tensor<5xi32>
// CONV-NEXT: -2 0 0 2 300
// CONV-NEXT: result #1: tensor<5xi32>
// CONV-NEXT: 2 0 0 2 300
// CONV-NEXT: result #2: tensor<5xf32>
// CONV-NEXT: 7 -7 100 -100 2.14748365e+09
// CONV-NEXT: result #3: tensor<5xf32>
// CONV-NEXT: 7 4.2949673e+09 100 4.2949673e+09 2.14748365e+09
// CONV-NEXT: result #4: tensor<5xf64>
// CONV-NEXT: -2.75 -0.5 0.5 2.5 300.70001220703125
// CONV-NEXT: result #5: tensor<5xf16>
// CONV-NEXT: -2.75 -0.5 0.5 2.5 300.75
// CONV-NEXT: result #6: tensor<5xbf16>
// CONV-NEXT: -2.75 -0.5 0.5 2.5 300
// CONV-NEXT: result #7: tensor<5xi32>
// CONV-NEXT: -128 -1 0 1 127
// CONV-NEXT: result #8: tensor<5xi32>
// CONV-NEXT: 128 255 0 1 127
// CONV-NEXT: result #9: tensor<5xi8>
// CONV-NEXT: 7 -7 100 -100 -1
// CONV-NEXT: result #10: tensor<5xindex>
// CONV-NEXT: 7 -7 100 -100 2147483647
// CONV-NEXT: result #11: tensor<5xindex>
// CONV-NEXT: 7 4294967289 100 4294967196 2147483647
// CONV-NEXT: result #12: tensor<5xi32>
// CONV-NEXT: -1070596096 -1090519040 1056964608 1075838976 1133926810
// CONV-NEXT: result #13: tensor<5xi1>
// CONV-NEXT: 1 1 0 0 1
// CONV-NEXT: result #14: tensor<5xi32>
// CONV-NEXT: -1 -1 0 0 -1
// CONV-NEXT: result #15: tensor<5xf32>
// CONV-NEXT: 0 0 0 0 0
func.func @conversions(%x: tensor<5xf32>, %i: tensor<5xi32>, %k: tensor<5xi8>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf64>, tensor<5xf16>, tensor<5xbf16>, tensor<5xi32>, tensor<5xi32>, tensor<5xi8>, tensor<5xindex>, tensor<5xindex>, tensor<5xi32>, tensor<5xi1>, tensor<5xi32>, tensor<5xf32>) {
  %0 = dtensor.elementwise (%v = %x : tensor<5xf32>) -> tensor<5xi32> {
    %r = arith.fptosi %v : f32 to i32
    dtensor.yield %r : i32
  }
  %1 = dtensor.elementwise (%v = %x : tensor<5xf32>) -> tensor<5xi32> {
    %a = math.absf %v : f32
    %r = arith.fptoui %a : f32 to i32
    dtensor.yield %r : i32
  }
  %2 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xf32> {
    %r = arith.sitofp %v : i32 to f32
    dtensor.yield %r : f32
  }
  %3 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xf32> {
    %r = arith.uitofp %v : i32 to f32
    dtensor.yield %r : f32
  }
  %4 = dtensor.elementwise (%v = %x : tensor<5xf32>) -> tensor<5xf64> {
    %r = arith.extf %v : f32 to f64
    dtensor.yield %r : f64
  }
  %5 = dtensor.elementwise (%v = %x : tensor<5xf32>) -> tensor<5xf16> {
    %r = arith.truncf %v : f32 to f16
    dtensor.yield %r : f16
  }
  %6 = dtensor.elementwise (%v = %x : tensor<5xf32>) -> tensor<5xbf16> {
    %r = arith.truncf %v : f32 to bf16
    dtensor.yield %r : bf16
  }
  %7 = dtensor.elementwise (%v = %k : tensor<5xi8>) -> tensor<5xi32> {
    %r = arith.extsi %v : i8 to i32
    dtensor.yield %r : i32
  }
  %8 = dtensor.elementwise (%v = %k : tensor<5xi8>) -> tensor<5xi32> {
    %r = arith.extui %v : i8 to i32
    dtensor.yield %r : i32
  }
  %9 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xi8> {
    %r = arith.trunci %v : i32 to i8
    dtensor.yield %r : i8
  }
  %10 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xindex> {
    %r = arith.index_cast %v : i32 to index
    dtensor.yield %r : index
  }
  %11 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xindex> {
    %r = arith.index_castui %v : i32 to index
    dtensor.yield %r : index
  }
  %12 = dtensor.elementwise (%v = %x : tensor<5xf32>) -> tensor<5xi32> {
    %r = arith.bitcast %v : f32 to i32
    dtensor.yield %r : i32
  }
  %13 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xi1> {
    %r = arith.trunci %v : i32 to i1
    dtensor.yield %r : i1
  }
  %14 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xi32> {
    %t = arith.trunci %v : i32 to i1
    %r = arith.extsi %t : i1 to i32
    dtensor.yield %r : i32
  }
  %15 = dtensor.elementwise (%v = %i : tensor<5xi32>) -> tensor<5xf32> {
    %t = arith.trunci %v : i32 to i1
    %s = arith.sitofp %t : i1 to f32
    %u = arith.uitofp %t : i1 to f32
    %r = arith.addf %s, %u : f32
    dtensor.yield %r : f32
  }
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : tensor<5xi32>, tensor<5xi32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf64>, tensor<5xf16>, tensor<5xbf16>, tensor<5xi32>, tensor<5xi32>, tensor<5xi8>, tensor<5xindex>, tensor<5xindex>, tensor<5xi32>, tensor<5xi1>, tensor<5xi32>, tensor<5xf32>
}

/// f16 and bf16 arithmetic rounds after every op: 65504 + 65504 overflows
/// to inf; bf16 keeps 8 significant bits, so 1 + 2^-8 rounds to even (1),
/// 1 + 1.5 * 2^-8 up.
// NARROW:      result #0: tensor<4xf16>
// NARROW-NEXT: 0.199951172 2000 inf 6
// NARROW-NEXT: result #1: tensor<4xf16>
// NARROW-NEXT: 0.00999450684 inf inf 9
// NARROW-NEXT: result #2: tensor<4xf16>
// NARROW-NEXT: 0.0333251953 333.25 21840 1
// NARROW-NEXT: result #3: tensor<4xbf16>
// NARROW-NEXT: 2 1 1.0078125 4.125
// NARROW-NEXT: result #4: tensor<4xf32>
// NARROW-NEXT: 0.0999755859 1000 65504 3
// NARROW-NOT:  result
func.func @narrow(%h: tensor<4xf16>, %f: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>) {
  %0 = dtensor.elementwise (%a = %h : tensor<4xf16>) -> tensor<4xf16> {
    %r = arith.addf %a, %a : f16
    dtensor.yield %r : f16
  }
  %1 = dtensor.elementwise (%a = %h : tensor<4xf16>) -> tensor<4xf16> {
    %r = arith.mulf %a, %a : f16
    dtensor.yield %r : f16
  }
  %2 = dtensor.elementwise (%a = %h : tensor<4xf16>) -> tensor<4xf16> {
    %c = arith.constant 3.0 : f16
    %r = arith.divf %a, %c : f16
    dtensor.yield %r : f16
  }
  %3 = dtensor.elementwise (%a = %f : tensor<4xf32>) -> tensor<4xbf16> {
    %b = arith.truncf %a : f32 to bf16
    %one = arith.constant 1.0 : bf16
    %r = arith.addf %b, %one : bf16
    dtensor.yield %r : bf16
  }
  %4 = dtensor.elementwise (%a = %h : tensor<4xf16>) -> tensor<4xf32> {
    %r = arith.extf %a : f16 to f32
    dtensor.yield %r : f32
  }
  return %0, %1, %2, %3, %4 : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>
}
