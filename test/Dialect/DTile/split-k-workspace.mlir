// RUN: deplodock-opt %s --dtile-tileify --dtile-chunk-matmul-k --dtile-split-matmul-k="list-forks=true knobs=silu_mul:split_k=4,split_workspace=true;f16_output:split_k=2,split_workspace=true;bf16_output:split_k=8,split_workspace=true" -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s --dtile-lower="knobs=silu_mul:split_k=4,split_workspace=true" > %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWER < %t.lowered.mlir
// RUN: deplodock-opt %s --dtile-lower="knobs=silu_mul:BK=32,BM=4,BN=8,FM=1,FN=1,async_copy=true,double_buffer=true,pad=true,pipeline=true,split_k=4,split_workspace=true,stage=[0,1],unroll=32" | diff %t.lowered.mlir -
// RUN: deplodock-opt %t.lowered.mlir --convert-dtile-to-dkernel > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.cubin %t.cu %}
// RUN: not deplodock-opt %s --dtile-lower="knobs=f16_sum:tensor_cores=false,split_k=2,split_workspace=true" 2>&1 | FileCheck %s --check-prefix=F16SUM

/// split_workspace: each split block stores its f32 partial sums to a
/// workspace [split_k, m, n]; a second kernel, already mapped to threads
/// over the output's last axis, sums the splits in order and applies the
/// epilogue (here SiLU of the sum times a residual, which the atomic split
/// cannot do: only the workspace options are offered, and the default
/// stays the unsplit kernel).
// CHECK-LABEL: func.func @run_silu_mul
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<16x64xf32>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<4x16x64xf32>
//       CHECK:   dtile.kernel @silu_mul knobs<BK = 32, split_k = 4, split_workspace = true> ins(%{{[^ ]+}} = %{{[^ ]+}} : memref<16x512xf32>, %{{[^ ]+}} = %{{[^ ]+}} : memref<512x64xf32>) outs(%[[W:[^ ]+]] = %[[WS]] : memref<4x16x64xf32>) {
//   CHECK-NOT:   zero_init
//       CHECK:     dtile.tile blocks(%[[S:.*]] : 4 "k_s", %[[M:.*]] : 16 "m", %[[N:.*]] : 64 "n") {
//       CHECK:       %[[SUM:.*]] = dloop.for %{{.*}} = 0 to 4 reduce "k_o"
//       CHECK:       dloop.store %[[SUM]], %[[W]][%[[S]], %[[M]], %[[N]]] : memref<4x16x64xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//       CHECK:   dtile.kernel @silu_mul_split_sum ins(%[[R:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>, %[[P:[^ ]+]] = %[[WS]] : memref<4x16x64xf32>) outs(%[[Y:[^ ]+]] = %[[OUT]] : memref<16x64xf32>) {
//       CHECK:     dtile.tile blocks(%[[MO:.*]] : 4 "m_o") threads(%[[MI:.*]] : 4 "m_i", %[[N2:.*]] : 64 "n") {
//       CHECK:       %[[TOTAL:.*]] = dloop.for %[[S2:.*]] = 0 to 4 reduce "k_s" iter(%[[ACC:.*]] = %{{.*}} : f32) {
//       CHECK:         %[[PART:.*]] = dloop.load %[[P]][%[[S2]], %[[MO]] * 4 + %[[MI]], %[[N2]]] : memref<4x16x64xf32>
//       CHECK:         %[[NEXT:.*]] = arith.addf %[[ACC]], %[[PART]] : f32
//       CHECK:         dloop.yield %[[NEXT]] : f32
//       CHECK:       arith.negf %[[TOTAL]] : f32
//       CHECK:       math.exp
//       CHECK:       %[[SILU:.*]] = arith.divf %[[TOTAL]], %{{.*}} : f32
//       CHECK:       %[[RES:.*]] = dloop.load %[[R]][%[[MO]] * 4 + %[[MI]], %[[N2]]] : memref<16x64xf32>
//       CHECK:       %[[PROD:.*]] = arith.mulf %[[SILU]], %[[RES]] : f32
//       CHECK:       dloop.store %[[PROD]], %[[Y]][%[[MO]] * 4 + %[[MI]], %[[N2]]] : memref<16x64xf32>
//       CHECK:   return %[[OUT]]

/// The whole lowering after the split: the rules map the split kernel as
/// any matmul (the split axis among its blocks) and leave the sum kernel as
/// it was born. Its knobs= reproduce the same IR (the diff above).
//       LOWER: memref.alloc() : memref<4x16x64xf32>
//       LOWER: dtile.kernel @silu_mul knobs<{{.*}}split_k = 4, split_workspace = true{{.*}}> ins(
//       LOWER:   dtile.tile blocks(%{{.*}} : 4 "k_s", %{{.*}} : 4 "m_o", %{{.*}} : 8 "n_o") threads(
//       LOWER: dtile.kernel @silu_mul_split_sum ins(
//       LOWER:   dtile.tile blocks(%{{.*}} : 4 "m_o") threads(%{{.*}} : 4 "m_i", %{{.*}} : 64 "n") {

/// At the Kernel level: two launches, the workspace an allocation of the
/// host function that it does not return (the runtime holds it).
//      KERNEL: dkernel.func @silu_mul(
//      KERNEL: dkernel.func @silu_mul_split_sum(
//      KERNEL: func.func @run_silu_mul
//      KERNEL:   memref.alloc() : memref<4x16x64xf32>
//      KERNEL:   dkernel.launch @silu_mul
//      KERNEL:   dkernel.launch @silu_mul_split_sum
func.func @run_silu_mul(%a: memref<16x512xf32>, %b: memref<512x64xf32>, %r: memref<16x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @silu_mul ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x64xf32>, %in2 = %r : memref<16x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %n = arith.negf %0 : f32
        %e = math.exp %n : f32
        %d = arith.addf %e, %one : f32
        %s = arith.divf %0, %d : f32
        %res = dloop.load %in2[%i, %j] : memref<16x64xf32>
        %y = arith.mulf %s, %res : f32
        dloop.store %y, %out0[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return %alloc : memref<16x64xf32>
}

/// An f16 output of an f32 sum: the atomic split would add the partial sums
/// in f16, the workspace keeps them in f32 and the sum kernel rounds once.
// CHECK-LABEL: func.func @run_f16_output
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<16x64xf16>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<2x16x64xf32>
//       CHECK:   dtile.kernel @f16_output knobs<BK = 32, split_k = 2, split_workspace = true> ins({{.*}}) outs(%[[W:[^ ]+]] = %[[WS]] : memref<2x16x64xf32>) {
//       CHECK:       dloop.store %{{.*}}, %[[W]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x16x64xf32>
//       CHECK:   dtile.kernel @f16_output_split_sum ins(%[[P:[^ ]+]] = %[[WS]] : memref<2x16x64xf32>) outs(%[[Y:[^ ]+]] = %[[OUT]] : memref<16x64xf16>) {
//       CHECK:       %[[TOTAL:.*]] = dloop.for %{{.*}} = 0 to 2 reduce "k_s" iter(%{{.*}} = %{{.*}} : f32) {
//       CHECK:       %[[ROUNDED:.*]] = arith.truncf %[[TOTAL]] : f32 to f16
//       CHECK:       dloop.store %[[ROUNDED]], %[[Y]]
func.func @run_f16_output(%a: memref<16x512xf16>, %b: memref<512x64xf16>) -> memref<16x64xf16> {
  %alloc = memref.alloc() : memref<16x64xf16>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @f16_output ins(%in0 = %a : memref<16x512xf16>, %in1 = %b : memref<512x64xf16>) outs(%out0 = %alloc : memref<16x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf16>
          %x = arith.extf %1 : f16 to f32
          %y = arith.extf %2 : f16 to f32
          %3 = arith.mulf %x, %y : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %r = arith.truncf %0 : f32 to f16
        dloop.store %r, %out0[%i, %j] : memref<16x64xf16>
      }
    }
  }
  return %alloc : memref<16x64xf16>
}

/// The same with a bf16 output, over 8 splits.
// CHECK-LABEL: func.func @run_bf16_output
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<16x64xbf16>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<8x16x64xf32>
//       CHECK:   dtile.kernel @bf16_output knobs<BK = 32, split_k = 8, split_workspace = true> ins({{.*}}) outs(%{{[^ ]+}} = %[[WS]] : memref<8x16x64xf32>) {
//       CHECK:   dtile.kernel @bf16_output_split_sum ins(%{{[^ ]+}} = %[[WS]] : memref<8x16x64xf32>) outs(%{{[^ ]+}} = %[[OUT]] : memref<16x64xbf16>) {
//       CHECK:       %[[TOTAL:.*]] = dloop.for %{{.*}} = 0 to 8 reduce "k_s" iter(%{{.*}} = %{{.*}} : f32) {
//       CHECK:       arith.truncf %[[TOTAL]] : f32 to bf16
func.func @run_bf16_output(%a: memref<16x512xbf16>, %b: memref<512x64xbf16>) -> memref<16x64xbf16> {
  %alloc = memref.alloc() : memref<16x64xbf16>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @bf16_output ins(%in0 = %a : memref<16x512xbf16>, %in1 = %b : memref<512x64xbf16>) outs(%out0 = %alloc : memref<16x64xbf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xbf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xbf16>
          %x = arith.extf %1 : bf16 to f32
          %y = arith.extf %2 : bf16 to f32
          %3 = arith.mulf %x, %y : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %r = arith.truncf %0 : f32 to bf16
        dloop.store %r, %out0[%i, %j] : memref<16x64xbf16>
      }
    }
  }
  return %alloc : memref<16x64xbf16>
}

/// A sum the IR keeps in f16 is its own rounding: neither split applies,
/// and asking for one is an error.
// F16SUM: error: 'dtile.kernel' op no rule took knob "split_k" for this kernel
func.func @run_f16_sum(%a: memref<16x512xf16>, %b: memref<512x64xf16>) -> memref<16x64xf16> {
  %alloc = memref.alloc() : memref<16x64xf16>
  // expected-remark @+1 {{split_matmul_k: does not apply}}
  dloop.kernel @f16_sum ins(%in0 = %a : memref<16x512xf16>, %in1 = %b : memref<512x64xf16>) outs(%out0 = %alloc : memref<16x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f16
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f16) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf16>
          %3 = arith.mulf %1, %2 : f16
          %4 = arith.addf %acc, %3 : f16
          dloop.yield %4 : f16
        }
        dloop.store %0, %out0[%i, %j] : memref<16x64xf16>
      }
    }
  }
  return %alloc : memref<16x64xf16>
}
