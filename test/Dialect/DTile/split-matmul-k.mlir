// RUN: deplodock-opt %s --dtile-tileify --dtile-chunk-matmul-k --dtile-split-matmul-k=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s --dtile-tileify --dtile-chunk-matmul-k --dtile-split-matmul-k="knobs=residual:split_k=2" | FileCheck %s --check-prefix=SK2
// RUN: not deplodock-opt %s --dtile-tileify --dtile-chunk-matmul-k --dtile-split-matmul-k="knobs=residual:split_k=3" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-run --interp %S/Inputs/split-k.mlir --pipeline=lower-to-tensor --check-variants=300 --target=sm_90 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/split-k.mlir --pipeline=lower-to-tensor --check-variants=300 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS

/// A matmul whose output is scaled, divided and added to a residual: linear
/// in the sum, so its 16 chunks of K split over 2, 4 or 8 blocks. The
/// output (one 64 x 64 tile) would leave the GPU idle, so the default is the
/// most splits. Each split adds its scaled share; the residual counts in the
/// first split only; the output is zeroed first.
// CHECK-LABEL: func.func @run_residual
//       CHECK:   dtile.kernel @residual knobs<BK = 32, split_k = 8> zero_init [0] ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x512xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<512x64xf32>, %[[R:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       CHECK:     dtile.tile blocks(%[[S:.*]] : 8 "k_s", %[[M:.*]] : 16 "m", %[[N:.*]] : 64 "n") {
//       CHECK:       %[[SUM:.*]] = dloop.for %[[KO:.*]] = 0 to 2 reduce "k_o"
//       CHECK:           dloop.load %[[A]][%[[M]], %{{.*}} + %[[S]] * 64 + %[[KO]] * 32] : memref<16x512xf32>
//       CHECK:       %[[FIRST:.*]] = arith.cmpi eq, %[[S]], %{{.*}} : index
//       CHECK:       %[[RES:.*]] = dloop.load %[[R]][%[[M]], %[[N]]] : memref<16x64xf32>
//       CHECK:       %[[MUL:.*]] = arith.mulf %[[SUM]], %{{.*}} : f32
//       CHECK:       %[[SCALED:.*]] = arith.divf %[[MUL]], %{{.*}} : f32
//       CHECK:       %[[ONCE:.*]] = arith.select %[[FIRST]], %[[RES]], %{{.*}} : f32
//       CHECK:       %[[OUT:.*]] = arith.addf %[[SCALED]], %[[ONCE]] : f32
//       CHECK:       dloop.store add %[[OUT]], %[[C]][%[[M]], %[[N]]] : memref<16x64xf32>

/// knobs= picks a split; split_k = 3 does not divide the 16 chunks.
// SK2: dtile.kernel @residual knobs<BK = 32, split_k = 2> zero_init [0]
// SK2:   dtile.tile blocks(%{{.*}} : 2 "k_s"
// SK2:     dloop.for %{{.*}} = 0 to 8 reduce "k_o"
// ILLEGAL: error: 'dtile.kernel' op knobs split_k=3 are not a legal option of split_matmul_k: (split_k, split_workspace) in {8*, 1, 2, (2, true), 4, (4, true), (8, true)}

/// A seeded sample of the variants (split or not, with the later forks) of
/// a scaled matmul plus a residual (Inputs/split-k.mlir), at the Tile and
/// the Kernel level, computes the numbers of the tensor program.
// VARIANTS: variants of @split_k_0_reduce: 300 (seeded sample) checked, 0 failed
func.func @run_residual(%a: memref<16x512xf32>, %b: memref<512x64xf32>, %r: memref<16x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {8*, 1, 2, (2, true), 4, (4, true), (8, true)}}}
  dloop.kernel @residual ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x64xf32>, %in2 = %r : memref<16x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %half = arith.constant 5.000000e-01 : f32
    %three = arith.constant 3.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %5 = arith.mulf %0, %half : f32
        %6 = arith.divf %5, %three : f32
        %7 = dloop.load %in2[%i, %j] : memref<16x64xf32>
        %8 = arith.addf %6, %7 : f32
        dloop.store %8, %out0[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return %alloc : memref<16x64xf32>
}

// -----

/// A large output fills the GPU without splitting (512 tiles of 128 x 128,
/// at least two an SM): the default skips.
// CHECK-LABEL: func.func @wide
//       CHECK:   dtile.kernel @wide knobs<BK = 32, split_k = 1> ins(
//   CHECK-NOT:   zero_init
//       CHECK:     dtile.tile blocks(%{{.*}} : 2048 "m", %{{.*}} : 4096 "n")
func.func @wide(%a: memref<2048x256xf32>, %b: memref<256x4096xf32>) -> memref<2048x4096xf32> {
  %alloc = memref.alloc() : memref<2048x4096xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, 2, (2, true), 4, (4, true)}}}
  dloop.kernel @wide ins(%in0 = %a : memref<2048x256xf32>, %in1 = %b : memref<256x4096xf32>) outs(%out0 = %alloc : memref<2048x4096xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 2048 free "m" {
      dloop.for %j = 0 to 4096 free "n" {
        %0 = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<2048x256xf32>
          %2 = dloop.load %in1[%k, %j] : memref<256x4096xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<2048x4096xf32>
      }
    }
  }
  return %alloc : memref<2048x4096xf32>
}

// -----

/// 64 x 64 tiles would fill the GPU (256 of them), but the output holds
/// only 64 of blockify_launch's preferred 128 x 128 tiles, fewer than two
/// an SM: the default splits 8 ways, the most measured (faster on the
/// H200's FP32 GEMMs of that kind).
// CHECK-LABEL: func.func @moderate
//       CHECK:   dtile.kernel @moderate knobs<BK = 32, split_k = 8> zero_init [0] ins(
func.func @moderate(%a: memref<512x512xf32>, %b: memref<512x2048xf32>) -> memref<512x2048xf32> {
  %alloc = memref.alloc() : memref<512x2048xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {8*, 1, 2, (2, true), 4, (4, true), (8, true)}}}
  dloop.kernel @moderate ins(%in0 = %a : memref<512x512xf32>, %in1 = %b : memref<512x2048xf32>) outs(%out0 = %alloc : memref<512x2048xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 512 free "m" {
      dloop.for %j = 0 to 2048 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<512x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x2048xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<512x2048xf32>
      }
    }
  }
  return %alloc : memref<512x2048xf32>
}

// -----

/// SiLU of the sum is not linear in it: the sum of the splits' SiLUs is
/// not the SiLU of the sum. No atomic split: only through a workspace
/// (split-k-workspace.mlir), which is not the default.
// CHECK-LABEL: func.func @silu
//       CHECK:   dtile.kernel @silu knobs<BK = 32, split_k = 1> ins(
func.func @silu(%a: memref<16x512xf32>, %b: memref<512x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @silu ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
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
        dloop.store %s, %out0[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return %alloc : memref<16x64xf32>
}

// -----

/// The square of the sum is not linear either: the workspace only.
// CHECK-LABEL: func.func @square
//       CHECK:   dtile.kernel @square knobs<BK = 32, split_k = 1> ins(
func.func @square(%a: memref<16x512xf32>, %b: memref<512x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @square ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %sq = arith.mulf %0, %0 : f32
        dloop.store %sq, %out0[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return %alloc : memref<16x64xf32>
}

// -----

/// A kernel that reads its output (an accumulate-in-place) would read the
/// other splits' partial sums. Refused.
// CHECK-LABEL: func.func @accumulate
//       CHECK:   dtile.kernel @accumulate knobs<BK = 32> ins(
func.func @accumulate(%a: memref<16x512xf32>, %b: memref<512x64xf32>, %c: memref<16x64xf32>) {
  // expected-remark @+1 {{split_matmul_k: does not apply}}
  dloop.kernel @accumulate ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x64xf32>) outs(%out0 = %c : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %old = dloop.load %out0[%i, %j] : memref<16x64xf32>
        %new = arith.addf %old, %0 : f32
        dloop.store %new, %out0[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return
}

// -----

/// A sum kept in f16 with an f16 output: the splits' atomics would add their
/// partial sums in f16, and a workspace would change the IR's own f16
/// rounding. Refused, so the sum is rounded as the IR says.
// CHECK-LABEL: func.func @half_output
//       CHECK:   dtile.kernel @half_output knobs<BK = 32> ins(
//   CHECK-NOT:   zero_init
func.func @half_output(%a: memref<16x512xf16>, %b: memref<512x64xf16>) -> memref<16x64xf16> {
  %alloc = memref.alloc() : memref<16x64xf16>
  // expected-remark @+1 {{split_matmul_k: does not apply}}
  dloop.kernel @half_output ins(%in0 = %a : memref<16x512xf16>, %in1 = %b : memref<512x64xf16>) outs(%out0 = %alloc : memref<16x64xf16>) {
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

// -----

/// A bf16 output summed in f32 and rounded on the store: the rounding is not
/// linear, and the atomics would add in bf16. The workspace only.
// CHECK-LABEL: func.func @bf16_output
//       CHECK:   dtile.kernel @bf16_output knobs<BK = 32, split_k = 1> ins(
//   CHECK-NOT:   zero_init
func.func @bf16_output(%a: memref<16x512xbf16>, %b: memref<512x64xbf16>) -> memref<16x64xbf16> {
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
