// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy f4 2x3 1,2,3,4,5,6
// RUN: %python %S/Inputs/npy.py write %t/v.npy f4 3 10,20,30
// RUN: %python %S/Inputs/npy.py write %t/i.npy i4 2x3 7,-7,100,-100,2147483647,3
// RUN: %python %S/Inputs/npy.py write %t/h.npy f2 2x3 0.1,1000,65504,3,-2,0.5

/// Index maps are computed when read and elementwise ops with one in-order
/// user are fused into it (Tensors.h); every way of reading them gives what
/// the Loop lowering computes, exactly. A contraction whose product space
/// (128 x 128 x 512 f32, 32 MiB) is far over the limit runs in a few
/// hundred KiB, and so does its fused Loop lowering.
// RUN: deplodock-run --interp %s --func=contraction --memory-limit=2M --compare=lower-to-loop --rtol=0 --atol=0 --print=summary | FileCheck %s --check-prefix=FITS
// FITS: result #0: tensor<128x128xf32>
// FITS: compare result #0 after 'lower-to-loop': max abs error 0, max rel error 0: PASS
// RUN: deplodock-run --interp %s --func=reads --input=%t/x.npy --input=%t/v.npy | FileCheck %s --check-prefix=READS
// RUN: deplodock-run --interp %s --func=reads --input=%t/x.npy --input=%t/v.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME
// RUN: deplodock-run --interp %s --func=reductions --input=%t/x.npy --input=%t/v.npy | FileCheck %s --check-prefix=REDUCE
// RUN: deplodock-run --interp %s --func=reductions --input=%t/x.npy --input=%t/v.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME
// RUN: deplodock-run --interp %s --func=narrow --input=%t/i.npy --input=%t/h.npy | FileCheck %s --check-prefix=NARROW
// RUN: deplodock-run --interp %s --func=narrow --input=%t/i.npy --input=%t/h.npy --compare=convert-dtensor-to-dloop --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=SAME
// SAME-NOT: FAIL
// SAME: PASS
// SAME-NOT: FAIL

func.func @contraction(%a: tensor<128x512xf32>, %b: tensor<512x128xf32>) -> tensor<128x128xf32> {
  %0 = dtensor.index_map %a[(d0, d1, d2) -> (d0, d2)] : (tensor<128x512xf32>) -> tensor<128x128x512xf32>
  %1 = dtensor.index_map %b[(d0, d1, d2) -> (d2, d1)] : (tensor<512x128xf32>) -> tensor<128x128x512xf32>
  %2 = dtensor.elementwise (%x = %0 : tensor<128x128x512xf32>, %y = %1 : tensor<128x128x512xf32>) -> tensor<128x128x512xf32> {
    %p = arith.mulf %x, %y : f32
    dtensor.yield %p : f32
  }
  %3 = dtensor.reduce add %2 axes [2] : tensor<128x128x512xf32> -> tensor<128x128xf32>
  return %3 : tensor<128x128xf32>
}

/// x is [1 2 3; 4 5 6], v is [10 20 30]. Reads of a splat constant (and a
/// concat with it, predicated on the innermost axis), of an index map of an
/// index map, a map not linear along the row (d1 floordiv 2: tabulated per
/// row), a concat predicated on an outer axis, and a reversed broadcast.
// READS:      result #0: tensor<2x5xf32>
// READS-NEXT: 1 2 3 7 7
// READS-NEXT: 4 5 6 7 7
// READS-NEXT: result #1: tensor<3x2xf32>
// READS-NEXT: 12 15
// READS-NEXT: 13 16
// READS-NEXT: 14 17
// READS-NEXT: result #2: tensor<2x6xf32>
// READS-NEXT: 1 1 2 2 3 3
// READS-NEXT: 4 4 5 5 6 6
// READS-NEXT: result #3: tensor<3x3xf32>
// READS-NEXT: 1 2 3
// READS-NEXT: 4 5 6
// READS-NEXT: 30 20 10
// READS-NEXT: result #4: tensor<2x3xf32>
// READS-NEXT: 31 22 13
// READS-NEXT: 34 25 16
// READS-NOT:  result
func.func @reads(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<2x5xf32>, tensor<3x2xf32>, tensor<2x6xf32>, tensor<3x3xf32>, tensor<2x3xf32>) {
  %seven = arith.constant dense<7.0> : tensor<2x2xf32>
  %0 = dtensor.index_map %x[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 2 >= 0)], %seven[(d0, d1) -> (d0, d1 - 3)] : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %t = dtensor.index_map %x[(d0, d1) -> (d1, d0)] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %ones = arith.constant dense<10.0> : tensor<3x2xf32>
  %tt = dtensor.index_map %t[(d0, d1) -> (d0, d1)] : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = dtensor.elementwise (%a = %tt : tensor<3x2xf32>, %b = %ones : tensor<3x2xf32>) -> tensor<3x2xf32> {
    %s = arith.addf %a, %b : f32
    %one = arith.constant 1.0 : f32
    %r = arith.addf %s, %one : f32
    %d = arith.subf %r, %b : f32
    %e = arith.addf %d, %b : f32
    %f = arith.subf %e, %one : f32
    %g = arith.addf %f, %one : f32
    %h = arith.subf %g, %one : f32
    %k = arith.subf %h, %b : f32
    %l = arith.addf %k, %b : f32
    %m = arith.addf %l, %one : f32
    dtensor.yield %m : f32
  }
  %2 = dtensor.index_map %x[(d0, d1) -> (d0, d1 floordiv 2)] : (tensor<2x3xf32>) -> tensor<2x6xf32>
  %3 = dtensor.index_map %x[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d0 + 1 >= 0)], %v[(d0, d1) -> (-d1 + 2)] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %b = dtensor.index_map %v[(d0, d1) -> (-d1 + 2)] : (tensor<3xf32>) -> tensor<2x3xf32>
  %4 = dtensor.elementwise (%p = %x : tensor<2x3xf32>, %q = %b : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %s = arith.addf %p, %q : f32
    dtensor.yield %s : f32
  }
  return %0, %1, %2, %3, %4 : tensor<2x5xf32>, tensor<3x2xf32>, tensor<2x6xf32>, tensor<3x3xf32>, tensor<2x3xf32>
}

/// Reductions of fused inputs over every kind of axis set: the innermost
/// (runs), the outermost and a middle one (element by element), two axes,
/// with keepdim, and a max of an elementwise op with two users (held).
// REDUCE:      result #0: tensor<2xf32>
// REDUCE-NEXT: 66 75
// REDUCE-NEXT: result #1: tensor<3xf32>
// REDUCE-NEXT: 25 47 69
// REDUCE-NEXT: result #2: tensor<2x1x3xf32>
// REDUCE-NEXT: 30 60 90
// REDUCE-NEXT: 30 60 90
// REDUCE-NEXT: result #3: tensor<f32>
// REDUCE-NEXT: 1320
// REDUCE-NEXT: result #4: tensor<2xf32>
// REDUCE-NEXT: 63 66
// REDUCE-NEXT: result #5: tensor<2x3xf32>
// REDUCE-NEXT: 42 84 126
// REDUCE-NEXT: 48 90 132
// REDUCE-NOT:  result
func.func @reductions(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>, tensor<2x1x3xf32>, tensor<f32>, tensor<2xf32>, tensor<2x3xf32>) {
  %bv = dtensor.index_map %v[(d0, d1) -> (d1)] : (tensor<3xf32>) -> tensor<2x3xf32>
  %sum = dtensor.elementwise (%a = %x : tensor<2x3xf32>, %b = %bv : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %s = arith.addf %a, %b : f32
    dtensor.yield %s : f32
  }
  %0 = dtensor.reduce add %sum axes [1] : tensor<2x3xf32> -> tensor<2xf32>
  %sum2 = dtensor.elementwise (%a = %x : tensor<2x3xf32>, %b = %bv : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %s = arith.addf %a, %b : f32
    dtensor.yield %s : f32
  }
  %1 = dtensor.reduce add %sum2 axes [0] : tensor<2x3xf32> -> tensor<3xf32>
  %cube = dtensor.index_map %v[(d0, d1, d2) -> (d2)] : (tensor<3xf32>) -> tensor<2x3x3xf32>
  %2 = dtensor.reduce add %cube axes [1] keepdim : tensor<2x3x3xf32> -> tensor<2x1x3xf32>
  %cube2 = dtensor.index_map %v[(d0, d1, d2) -> (d2)] : (tensor<3xf32>) -> tensor<2x11x3xf32>
  %scaled = dtensor.elementwise (%a = %cube2 : tensor<2x11x3xf32>) -> tensor<2x11x3xf32> {
    %c = arith.constant 1.0 : f32
    %s = arith.mulf %a, %c : f32
    dtensor.yield %s : f32
  }
  %3 = dtensor.reduce add %scaled axes [0, 1, 2] : tensor<2x11x3xf32> -> tensor<f32>
  %held = dtensor.elementwise (%a = %x : tensor<2x3xf32>, %b = %bv : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %b : f32
    dtensor.yield %t : f32
  }
  %4 = dtensor.reduce max %held axes [1] : tensor<2x3xf32> -> tensor<2xf32>
  %5 = dtensor.elementwise (%a = %held : tensor<2x3xf32>, %b = %held : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %s = arith.addf %a, %b : f32
    dtensor.yield %s : f32
  }
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<3xf32>, tensor<2x1x3xf32>, tensor<f32>, tensor<2xf32>, tensor<2x3xf32>
}

/// Narrow types fused into reductions: i32 squares that wrap ((2^31 - 1)^2
/// is 1 modulo 2^32), a signed max of i1 (true is -1, so any false wins),
/// and f16 sums rounded at every step (1000 + 0.1 is 1000 in f16, and
/// 1000 + 65504 overflows).
// NARROW:      result #0: tensor<2xi32>
// NARROW-NEXT: 10098 10010
// NARROW-NEXT: result #1: tensor<2xi1>
// NARROW-NEXT: 0 0
// NARROW-NEXT: result #2: tensor<2xf16>
// NARROW-NEXT: inf 1.5
// NARROW-NOT:  result
func.func @narrow(%i: tensor<2x3xi32>, %h: tensor<2x3xf16>) -> (tensor<2xi32>, tensor<2xi1>, tensor<2xf16>) {
  %sq = dtensor.elementwise (%a = %i : tensor<2x3xi32>) -> tensor<2x3xi32> {
    %s = arith.muli %a, %a : i32
    dtensor.yield %s : i32
  }
  %0 = dtensor.reduce add %sq axes [1] : tensor<2x3xi32> -> tensor<2xi32>
  %pos = dtensor.elementwise (%a = %i : tensor<2x3xi32>) -> tensor<2x3xi1> {
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %a, %z : i32
    dtensor.yield %c : i1
  }
  %1 = dtensor.reduce max %pos axes [1] : tensor<2x3xi1> -> tensor<2xi1>
  %2 = dtensor.reduce add %h axes [1] : tensor<2x3xf16> -> tensor<2xf16>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xi1>, tensor<2xf16>
}
