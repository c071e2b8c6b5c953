// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_80 %t.cu %}

/// Structured control flow. scf.if results are locals declared before the
/// if and assigned at the end of each branch. scf.for carried values are
/// mutable locals `acc<N>`; the loop's results name the same locals, which
/// stay in scope after the loop.

/// Several results, one from a value defined outside the branch, one a
/// constant; the results are used after the if.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(32)
//  CHECK-NEXT: if_results(const float* __restrict__ in0, float* __restrict__ out0, int* __restrict__ out1) {
//  CHECK-NEXT:   const int v0 = (int)threadIdx.x;
//  CHECK-NEXT:   const float v1 = in0[v0];
//  CHECK-NEXT:   const bool v2 = v1 > 0.00000000e+00f;
//  CHECK-NEXT:   float v3;
//  CHECK-NEXT:   int v4;
//  CHECK-NEXT:   if (v2) {
//  CHECK-NEXT:     const float v5 = v1 * 2.00000000e+00f;
//  CHECK-NEXT:     v3 = v5;
//  CHECK-NEXT:     v4 = 1;
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     v3 = v1;
//  CHECK-NEXT:     v4 = -1;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[v0] = v3;
//  CHECK-NEXT:   out1[v0] = v4;
//  CHECK-NEXT: }
dkernel.func @if_results(%x: memref<32xf32>, %y: memref<32xf32>, %s: memref<32xi32>) outputs [1, 2] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<32xf32>
  %pos = arith.cmpf ogt, %v, %zero : f32
  %r:2 = scf.if %pos -> (f32, i32) {
    %d = arith.mulf %v, %two : f32
    scf.yield %d, %one : f32, i32
  } else {
    scf.yield %v, %minus : f32, i32
  }
  memref.store %r#0, %y[%t] : memref<32xf32>
  memref.store %r#1, %s[%t] : memref<32xi32>
  dkernel.return
}

/// Nested ifs with results: the inner result feeds the outer yield.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(32)
//  CHECK-NEXT: nested_if(float* __restrict__ out0) {
//  CHECK-NEXT:   const int v0 = (int)threadIdx.x;
//  CHECK-NEXT:   const bool v1 = v0 < 16;
//  CHECK-NEXT:   const bool v2 = v0 < 8;
//  CHECK-NEXT:   float v3;
//  CHECK-NEXT:   if (v1) {
//  CHECK-NEXT:     float v4;
//  CHECK-NEXT:     if (v2) {
//  CHECK-NEXT:       v4 = 1.00000000e+00f;
//  CHECK-NEXT:     } else {
//  CHECK-NEXT:       v4 = 2.00000000e+00f;
//  CHECK-NEXT:     }
//  CHECK-NEXT:     v3 = v4;
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     v3 = 3.00000000e+00f;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[v0] = v3;
//  CHECK-NEXT: }
dkernel.func @nested_if(%y: memref<32xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %f1 = arith.constant 1.000000e+00 : f32
  %f2 = arith.constant 2.000000e+00 : f32
  %f3 = arith.constant 3.000000e+00 : f32
  %t = gpu.thread_id x
  %lo = arith.cmpi slt, %t, %c16 : index
  %lower = arith.cmpi slt, %t, %c8 : index
  %r = scf.if %lo -> (f32) {
    %i = scf.if %lower -> (f32) {
      scf.yield %f1 : f32
    } else {
      scf.yield %f2 : f32
    }
    scf.yield %i : f32
  } else {
    scf.yield %f3 : f32
  }
  memref.store %r, %y[%t] : memref<32xf32>
  dkernel.return
}

/// Several iteration arguments, one of them swapped: `scf.yield %b, %a`
/// must read both before assigning either, so the iteration arguments it
/// moves go through `_next` temporaries. Values that stay in place or are
/// computed in the body are assigned directly. All three results are used
/// after the loop.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(1)
//  CHECK-NEXT: swap(float* __restrict__ out0) {
//  CHECK-NEXT:   float acc0 = 1.00000000e+00f;
//  CHECK-NEXT:   float acc1 = 2.00000000e+00f;
//  CHECK-NEXT:   int acc2 = 0;
//  CHECK-NEXT:   for (int i0 = 0; i0 < 5; i0 += 1) {
//  CHECK-NEXT:     const int v0 = acc2 + 1;
//  CHECK-NEXT:     const float acc0_next = acc1;
//  CHECK-NEXT:     const float acc1_next = acc0;
//  CHECK-NEXT:     acc0 = acc0_next;
//  CHECK-NEXT:     acc1 = acc1_next;
//  CHECK-NEXT:     acc2 = v0;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[0] = acc0;
//  CHECK-NEXT:   out0[1] = acc1;
//  CHECK-NEXT:   const float v1 = (float)acc2;
//  CHECK-NEXT:   out0[2] = v1;
//  CHECK-NEXT: }
dkernel.func @swap(%y: memref<3xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %f1 = arith.constant 1.000000e+00 : f32
  %f2 = arith.constant 2.000000e+00 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %r:3 = scf.for %k = %c0 to %c5 step %c1 iter_args(%a = %f1, %b = %f2, %n = %i0) -> (f32, f32, i32) {
    %n1 = arith.addi %n, %i1 : i32
    scf.yield %b, %a, %n1 : f32, f32, i32
  }
  memref.store %r#0, %y[%c0] : memref<3xf32>
  memref.store %r#1, %y[%c1] : memref<3xf32>
  %nf = arith.sitofp %r#2 : i32 to f32
  memref.store %nf, %y[%c2] : memref<3xf32>
  dkernel.return
}

/// Fibonacci (a, b) -> (b, a + b) and a rotation (x, y, z) -> (y, z, x): only
/// moved iteration arguments get temporaries; one staying in place (w) is
/// not reassigned at all.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(1)
//  CHECK-NEXT: fib_rotate(int* __restrict__ out0) {
//  CHECK-NEXT:   int acc0 = 0;
//  CHECK-NEXT:   int acc1 = 1;
//  CHECK-NEXT:   int acc2 = 1;
//  CHECK-NEXT:   int acc3 = 2;
//  CHECK-NEXT:   int acc4 = 3;
//  CHECK-NEXT:   int acc5 = 4;
//  CHECK-NEXT:   for (int i0 = 0; i0 < 10; i0 += 1) {
//  CHECK-NEXT:     const int v0 = acc0 + acc1;
//  CHECK-NEXT:     const int acc0_next = acc1;
//  CHECK-NEXT:     const int acc2_next = acc3;
//  CHECK-NEXT:     const int acc3_next = acc4;
//  CHECK-NEXT:     const int acc4_next = acc2;
//  CHECK-NEXT:     acc0 = acc0_next;
//  CHECK-NEXT:     acc1 = v0;
//  CHECK-NEXT:     acc2 = acc2_next;
//  CHECK-NEXT:     acc3 = acc3_next;
//  CHECK-NEXT:     acc4 = acc4_next;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[0] = acc1;
//  CHECK-NEXT:   out0[1] = acc2;
//  CHECK-NEXT:   out0[2] = acc5;
//  CHECK-NEXT: }
dkernel.func @fib_rotate(%y: memref<3xi32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %i3 = arith.constant 3 : i32
  %i4 = arith.constant 4 : i32
  %r:6 = scf.for %k = %c0 to %c10 step %c1 iter_args(%a = %i0, %b = %i1, %x = %i1, %yy = %i2, %z = %i3, %w = %i4) -> (i32, i32, i32, i32, i32, i32) {
    %s = arith.addi %a, %b : i32
    scf.yield %b, %s, %yy, %z, %x, %w : i32, i32, i32, i32, i32, i32
  }
  memref.store %r#1, %y[%c0] : memref<3xi32>
  memref.store %r#2, %y[%c1] : memref<3xi32>
  memref.store %r#5, %y[%c2] : memref<3xi32>
  dkernel.return
}

/// Nested loops: the inner loop starts from the outer carried value and its
/// result, used after the inner loop, is what the outer loop yields. An
/// inner yield of an outer iteration argument needs no temporary: the
/// outer value does not change inside the inner loop.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(1)
//  CHECK-NEXT: nested_loops(const float* __restrict__ in0, float* __restrict__ out0) {
//  CHECK-NEXT:   float acc0 = 0.00000000e+00f;
//  CHECK-NEXT:   for (int i0 = 0; i0 < 4; i0 += 1) {
//  CHECK-NEXT:     float acc1 = acc0;
//  CHECK-NEXT:     float acc2 = acc0;
//  CHECK-NEXT:     #pragma unroll 8
//  CHECK-NEXT:     for (int i1 = 0; i1 < 8; i1 += 1) {
//  CHECK-NEXT:       const float v0 = in0[i0 * 8 + i1];
//  CHECK-NEXT:       const float v1 = acc1 + v0;
//  CHECK-NEXT:       acc1 = v1;
//  CHECK-NEXT:       acc2 = acc0;
//  CHECK-NEXT:     }
//  CHECK-NEXT:     const float v2 = acc1 + acc2;
//  CHECK-NEXT:     acc0 = v2;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[0] = acc0;
//  CHECK-NEXT: }
dkernel.func @nested_loops(%x: memref<4x8xf32>, %y: memref<1xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.000000e+00 : f32
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%outer = %zero) -> (f32) {
    %inner:2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %outer, %keep = %outer) -> (f32, f32) {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a, %outer : f32, f32
    } {dkernel.unroll = 8 : i64}
    %both = arith.addf %inner#0, %inner#1 : f32
    scf.yield %both : f32
  }
  memref.store %sum, %y[%c0] : memref<1xf32>
  dkernel.return
}

/// Loops over i32 and i64 induction variables, an unsigned loop (compared
/// as unsigned) and a loop that yields its induction variable; constant
/// bounds print inline.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(1)
//  CHECK-NEXT: loop_kinds(long long* __restrict__ out0) {
//  CHECK-NEXT:   long long acc0 = 0LL;
//  CHECK-NEXT:   for (int i0 = 0; i0 < 16; i0 += 4) {
//  CHECK-NEXT:     const long long v0 = (long long)i0;
//  CHECK-NEXT:     const long long v1 = acc0 + v0;
//  CHECK-NEXT:     acc0 = v1;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   long long acc1 = acc0;
//  CHECK-NEXT:   for (long long i1 = 1LL; i1 < 9LL; i1 += 2LL) {
//  CHECK-NEXT:     acc1 = i1;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   long long acc2 = acc1;
//  CHECK-NEXT:   for (int i2 = 0; (unsigned)i2 < (unsigned)-2; i2 += 1) {
//  CHECK-NEXT:     const long long v2 = acc2 + 1LL;
//  CHECK-NEXT:     acc2 = v2;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   out0[0] = acc2;
//  CHECK-NEXT: }
dkernel.func @loop_kinds(%y: memref<1xi64>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %z32 = arith.constant 0 : i32
  %s32 = arith.constant 4 : i32
  %e32 = arith.constant 16 : i32
  %m2 = arith.constant -2 : i32
  %one32 = arith.constant 1 : i32
  %l1 = arith.constant 1 : i64
  %l2 = arith.constant 2 : i64
  %l9 = arith.constant 9 : i64
  %z64 = arith.constant 0 : i64
  %a = scf.for %i = %z32 to %e32 step %s32 iter_args(%acc = %z64) -> (i64) : i32 {
    %w = arith.extsi %i : i32 to i64
    %s = arith.addi %acc, %w : i64
    scf.yield %s : i64
  }
  %b = scf.for %i = %l1 to %l9 step %l2 iter_args(%last = %a) -> (i64) : i64 {
    scf.yield %i : i64
  }
  %c = scf.for unsigned %i = %z32 to %m2 step %one32 iter_args(%acc = %b) -> (i64) : i32 {
    %s = arith.addi %acc, %l1 : i64
    scf.yield %s : i64
  }
  memref.store %c, %y[%c0] : memref<1xi64>
  dkernel.return
}
