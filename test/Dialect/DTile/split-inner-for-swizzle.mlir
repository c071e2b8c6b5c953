// RUN: deplodock-opt %s --dtile-split-inner-for-swizzle=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s --dtile-split-inner-for-swizzle="knobs=swizzle=128 list-forks=true" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=WIDEST
// RUN: not deplodock-opt %s --dtile-split-inner-for-swizzle="target=sm_80 knobs=swizzle=64" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not deplodock-opt %s --dtile-split-inner-for-swizzle="knobs=column:swizzle=16" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
/// Where the rule has run (the knob is stamped) it does not run again.
// RUN: deplodock-opt %s --dtile-split-inner-for-swizzle=list-forks=true -split-input-file -verify-diagnostics > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-split-inner-for-swizzle -split-input-file | diff %t.once.mlir -
/// In the whole pipeline it follows tma_copy, and only where that applied:
/// the example matmul's 4-row A slab is too short to swizzle, and B's
/// 8-column rows span 32 bytes.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 list-forks=true knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ORDER
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 list-forks=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-TMA

/// Lanes reading down a column of 128-byte rows all hit one bank (32-way);
/// the 128-byte swizzle spreads them over 8 chunks (4-way), the narrower
/// widths over 2 and 4: the heuristic takes 128.
// CHECK-LABEL: func.func @column
//       CHECK:   knobs<swizzle = 128>
//       CHECK:   dtile.stage {{.*}} box [32, 32] transport tma swizzle 128 :
// WIDEST-LABEL: func.func @column
//       WIDEST:   dtile.stage {{.*}} transport tma swizzle 128 :
// SM80: error: 'dtile.kernel' op knob swizzle=64 lays out TMA copies, which need the 'tma' feature; target sm_80 lacks it
// ILLEGAL: error: 'dtile.kernel' op knobs swizzle=16 are not a legal option of split_inner_for_swizzle: swizzle in {128*, 0, 32, 64}
func.func @column(%arg0: memref<64x128xf32>, %arg1: memref<64xf32>) {
  // expected-remark @+1 {{split_inner_for_swizzle: swizzle in {128*, 0, 32, 64}}}
  dtile.kernel @column ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 2 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%b * 32, %ko * 32] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<32x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%b * 32 + %t] : memref<64xf32>
    }
  }
  return
}

// -----

/// Lanes reading along a row are conflict-free with or without a swizzle
/// (it permutes chunks within 128-byte lines): no swizzle is the heuristic.
// CHECK-LABEL: func.func @row
//       CHECK:   knobs<swizzle = 0>
//   CHECK-NOT:   swizzle 
func.func @row(%arg0: memref<128x32xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{split_inner_for_swizzle: swizzle in {0*, 32, 64, 128}}}
  dtile.kernel @row ins(%x = %arg0 : memref<128x32xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%ko * 32, 0] box [32, 32] transport tma : memref<128x32xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%ki, %t] : memref<32x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// Two slabs: rows of 64 bytes take at most a 64-byte swizzle, rows of 256
/// bytes any width (two 128-byte segments at 128). The knob is the widest
/// width: swizzle=128 gives each slab the widest its rows allow.
// CHECK-LABEL: func.func @mixed
//       CHECK:   knobs<swizzle = 128>
//       CHECK:   box [16, 64] transport tma swizzle 128 :
//       CHECK:   box [64, 16] transport tma swizzle 64 :
// WIDEST-LABEL: func.func @mixed
//       WIDEST:   box [16, 64] transport tma swizzle 128 :
//       WIDEST:   box [64, 16] transport tma swizzle 64 :
func.func @mixed(%arg0: memref<16x128xf32>, %arg1: memref<128x16xf32>, %arg2: memref<16x16xf32>) {
  // expected-remark @+1 {{split_inner_for_swizzle: swizzle in {128*, 0, 32, 64}}}
  dtile.kernel @mixed ins(%a = %arg0 : memref<16x128xf32>, %bm = %arg1 : memref<128x16xf32>) outs(%c = %arg2 : memref<16x16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%i : 16 "i", %j : 16 "j") {
      %r = dloop.for %ko = 0 to 2 reduce "k_o" iter(%acc = %zero : f32) {
        %as = dtile.stage %a[0, %ko * 64] box [16, 64] transport tma : memref<16x128xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
        %bs = dtile.stage %bm[%ko * 64, 0] box [64, 16] transport tma : memref<128x16xf32> -> memref<64x16xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 64 reduce "k_i" iter(%s = %acc : f32) {
          %av = dloop.load %as[%i, %ki] : memref<16x64xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %j] : memref<64x16xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %av, %bv : f32
          %n = arith.addf %s, %m : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %c[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

/// Four rows are half a pattern repeat: no width applies.
// CHECK-LABEL: func.func @few_rows
//   CHECK-NOT:   swizzle
func.func @few_rows(%arg0: memref<4x128xf32>, %arg1: memref<32xf32>) {
  // expected-remark @+1 {{split_inner_for_swizzle: does not apply}}
  dtile.kernel @few_rows ins(%x = %arg0 : memref<4x128xf32>) outs(%y = %arg1 : memref<32xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko * 32] box [4, 32] transport tma : memref<4x128xf32> -> memref<4x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 4 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%ki, %t] : memref<4x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<32xf32>
    }
  }
  return
}

// -----

/// Only TMA copies swizzle: a stage copied by the threads (or cp.async) is
/// padded by pad_smem instead.
// CHECK-LABEL: func.func @not_tma
//   CHECK-NOT:   swizzle
func.func @not_tma(%arg0: memref<64x128xf32>, %arg1: memref<64xf32>) {
  // expected-remark @+1 {{split_inner_for_swizzle: does not apply}}
  dtile.kernel @not_tma ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 2 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%b * 32, %ko * 32] box [32, 32] : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<32x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%b * 32 + %t] : memref<64xf32>
    }
  }
  return
}

//      ORDER: kernels.mlir:6:5: remark: @matmul_0_reduce: tma_copy: tma in {false*, true}
//      ORDER: kernels.mlir:6:5: remark: @matmul_0_reduce: split_inner_for_swizzle: swizzle in {0*, 32}
//      ORDER: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer
// NO-TMA-NOT: split_inner_for_swizzle: swizzle
