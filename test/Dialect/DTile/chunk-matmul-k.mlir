// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k | FileCheck %s --check-prefix=BK32
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k=knobs=BK=64 | FileCheck %s --check-prefix=BK64
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k="knobs=matmul_0_reduce:BK=16" | FileCheck %s --check-prefix=BK16
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k=knobs=BK=48 --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-tileify --dtile-chunk-matmul-k=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-chunk-matmul-k | diff %t.once.mlir -

/// The K loop of the matmul becomes 128 / 32 chunks around a loop over one
/// chunk; both carry the accumulator and the loads index K as
/// chunk * 32 + offset. BK = 32 is stamped on the kernel.
// BK32-LABEL: func.func @matmul
//       BK32:   dtile.kernel @matmul_0_reduce knobs<BK = 32> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<16x128xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<128x64xf32>) outs(%[[C:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>) {
//       BK32:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       BK32:     dtile.tile blocks(%[[M:.*]] : 16 "d0", %[[N:.*]] : 64 "d1") {
//  BK32-NEXT:       %[[SUM:.*]] = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o" iter(%[[ACC:.*]] = %[[ZERO]] : f32) {
//  BK32-NEXT:         %[[PART:.*]] = dloop.for %[[KI:.*]] = 0 to 32 reduce "r0_i" iter(%[[ACC2:.*]] = %[[ACC]] : f32) {
//  BK32-NEXT:           %[[X:.*]] = dloop.load %[[A]][%[[M]], %[[KO]] * 32 + %[[KI]]] : memref<16x128xf32>
//  BK32-NEXT:           %[[Y:.*]] = dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[N]]] : memref<128x64xf32>
//  BK32-NEXT:           %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
//  BK32-NEXT:           %[[S:.*]] = arith.addf %[[ACC2]], %[[P]] : f32
//  BK32-NEXT:           dloop.yield %[[S]] : f32
//  BK32-NEXT:         }
//  BK32-NEXT:         dloop.yield %[[PART]] : f32
//  BK32-NEXT:       }
//  BK32-NEXT:       dloop.store %[[SUM]], %[[C]][%[[M]], %[[N]]] : memref<16x64xf32>
/// The other kernels are no matmuls: untouched, no knobs.
// BK32-LABEL: func.func @rowsum
//       BK32:   dtile.kernel @rowsum_0_reduce ins(
//       BK32:     dloop.for %{{.*}} = 0 to 512 reduce "r0"
// BK32-LABEL: func.func @scale
//       BK32:   dtile.kernel @scale_0_pointwise ins(
// BK32-LABEL: func.func @gemv
//       BK32:   dtile.kernel @gemv_0_reduce ins(
//       BK32:     dloop.for %{{.*}} = 0 to 256 reduce "r0"

/// knobs= picks another chunk.
// BK64-LABEL: func.func @matmul
//       BK64:   dtile.kernel @matmul_0_reduce knobs<BK = 64>
//       BK64:     dloop.for %[[KO:.*]] = 0 to 2 reduce "r0_o"
//       BK64:       dloop.for %[[KI:.*]] = 0 to 64 reduce "r0_i"
//       BK64:         dloop.load %{{.*}}[%{{.*}}, %[[KO]] * 64 + %[[KI]]] : memref<16x128xf32>

/// Per-kernel knobs name the kernel; the others get nothing from them.
// BK16-LABEL: func.func @matmul
//       BK16:   dtile.kernel @matmul_0_reduce knobs<BK = 16>
//       BK16:     dloop.for %{{.*}} = 0 to 8 reduce "r0_o"
//       BK16:       dloop.for %{{.*}} = 0 to 16 reduce "r0_i"
//   BK16-NOT:   knobs<

/// The chunks are the divisors of K = 128 in [16, 128] that leave at least
/// two chunks; 32 is the default. One remark per kernel.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: chunk_matmul_k: BK in {32*, 16, 64}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: chunk_matmul_k: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: chunk_matmul_k: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: chunk_matmul_k: does not apply

/// A chunk that is not an option is an error at the kernel listing the
/// options.
// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op knobs BK=48 are not a legal option of chunk_matmul_k: BK in {32*, 16, 64}

// -----

/// K = 256 allows BK = 128 (two chunks).
// CHECK-LABEL: func.func @k256
//       CHECK:   dtile.kernel @k256 knobs<BK = 32>
//       CHECK:     dloop.for %{{.*}} = 0 to 8 reduce "k_o"
//       CHECK:       dloop.for %{{.*}} = 0 to 32 reduce "k_i"
func.func @k256(%a: memref<8x256xf32>, %b: memref<256x16xf32>) -> memref<8x16xf32> {
  %alloc = memref.alloc() : memref<8x16xf32>
  // expected-remark @+1 {{chunk_matmul_k: BK in {32*, 16, 64, 128}}}
  dloop.kernel @k256 ins(%in0 = %a : memref<8x256xf32>, %in1 = %b : memref<256x16xf32>) outs(%out0 = %alloc : memref<8x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "m" {
      dloop.for %j = 0 to 16 free "n" {
        %0 = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<8x256xf32>
          %2 = dloop.load %in1[%k, %j] : memref<256x16xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return %alloc : memref<8x16xf32>
}

// -----

/// No power of two is required: K = 48 chunks by its divisors 16 and 24,
/// or by 32 with a masked last chunk. The default is an exact chunk of a
/// multiple of 8 floats nearest 32 (24).
// CHECK-LABEL: func.func @k48
//       CHECK:   dtile.kernel @k48 knobs<BK = 24>
//       CHECK:     dloop.for %{{.*}} = 0 to 2 reduce "k_o"
//       CHECK:       dloop.for %{{.*}} = 0 to 24 reduce "k_i"
func.func @k48(%a: memref<8x48xf32>, %b: memref<48x16xf32>) -> memref<8x16xf32> {
  %alloc = memref.alloc() : memref<8x16xf32>
  // expected-remark @+1 {{chunk_matmul_k: BK in {24*, 16, 32}}}
  dloop.kernel @k48 ins(%in0 = %a : memref<8x48xf32>, %in1 = %b : memref<48x16xf32>) outs(%out0 = %alloc : memref<8x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "m" {
      dloop.for %j = 0 to 16 free "n" {
        %0 = dloop.for %k = 0 to 48 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<8x48xf32>
          %2 = dloop.load %in1[%k, %j] : memref<48x16xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return %alloc : memref<8x16xf32>
}

// -----

/// Every matmul loop of the kernel is chunked by the same BK, so BK must
/// divide both K = 64 and K = 96.
// CHECK-LABEL: func.func @two_matmuls
//       CHECK:   dtile.kernel @two_matmuls knobs<BK = 32>
//       CHECK:     %[[S0:.*]] = dloop.for %{{.*}} = 0 to 2 reduce "k_o"
//       CHECK:       dloop.for %{{.*}} = 0 to 32 reduce "k_i"
//       CHECK:     %[[S1:.*]] = dloop.for %{{.*}} = 0 to 3 reduce "l_o"
//       CHECK:       dloop.for %{{.*}} = 0 to 32 reduce "l_i"
//       CHECK:     arith.addf %[[S0]], %[[S1]] : f32
func.func @two_matmuls(%a: memref<8x64xf32>, %b: memref<64x16xf32>, %c: memref<8x96xf32>, %d: memref<96x16xf32>) -> memref<8x16xf32> {
  %alloc = memref.alloc() : memref<8x16xf32>
  // expected-remark @+1 {{chunk_matmul_k: BK in {32*, 16}}}
  dloop.kernel @two_matmuls ins(%in0 = %a : memref<8x64xf32>, %in1 = %b : memref<64x16xf32>, %in2 = %c : memref<8x96xf32>, %in3 = %d : memref<96x16xf32>) outs(%out0 = %alloc : memref<8x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "m" {
      dloop.for %j = 0 to 16 free "n" {
        %0 = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<8x64xf32>
          %2 = dloop.load %in1[%k, %j] : memref<64x16xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %5 = dloop.for %l = 0 to 96 reduce "l" iter(%acc = %cst : f32) {
          %1 = dloop.load %in2[%i, %l] : memref<8x96xf32>
          %2 = dloop.load %in3[%l, %j] : memref<96x16xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %6 = arith.addf %0, %5 : f32
        dloop.store %6, %out0[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return %alloc : memref<8x16xf32>
}

// -----

/// K = 16 would be a single chunk.
// CHECK-LABEL: func.func @negative_k16
//       CHECK:   dtile.kernel @negative_k16 ins(
//       CHECK:     dloop.for %{{.*}} = 0 to 16 reduce "k"
//   CHECK-NOT:     reduce "k_o"
func.func @negative_k16(%a: memref<8x16xf32>, %b: memref<16x16xf32>) -> memref<8x16xf32> {
  %alloc = memref.alloc() : memref<8x16xf32>
  // expected-remark @+1 {{chunk_matmul_k: does not apply}}
  dloop.kernel @negative_k16 ins(%in0 = %a : memref<8x16xf32>, %in1 = %b : memref<16x16xf32>) outs(%out0 = %alloc : memref<8x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "m" {
      dloop.for %j = 0 to 16 free "n" {
        %0 = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<8x16xf32>
          %2 = dloop.load %in1[%k, %j] : memref<16x16xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return %alloc : memref<8x16xf32>
}

// -----

/// K = 143 = 11 * 13 has no divisor in [16, 128]: powers of two chunk it,
/// the last of 5 chunks of 32 skipping the iterations past 143 (the
/// accumulator passes through).
// CHECK-LABEL: func.func @k143_masked
//       CHECK:   dtile.kernel @k143_masked knobs<BK = 32> ins(%[[A:[^ ]+]] = %{{[^ ]+}} : memref<8x143xf32>, %[[B:[^ ]+]] = %{{[^ ]+}} : memref<143x16xf32>)
//       CHECK:     %[[K:.*]] = arith.constant 143 : index
//       CHECK:     dtile.tile blocks(%[[M:.*]] : 8 "m", %[[N:.*]] : 16 "n") {
//  CHECK-NEXT:       dloop.for %[[KO:.*]] = 0 to 5 reduce "k_o" iter(%[[ACC:.*]] = %{{.*}} : f32) {
//  CHECK-NEXT:         dloop.for %[[KI:.*]] = 0 to 32 reduce "k_i" iter(%[[ACC2:.*]] = %[[ACC]] : f32) {
//  CHECK-NEXT:           %[[IDX:.*]] = affine.apply #{{.*}}(%[[KO]], %[[KI]])
//  CHECK-NEXT:           %[[IN:.*]] = arith.cmpi ult, %[[IDX]], %[[K]] : index
//  CHECK-NEXT:           %[[NEXT:.*]] = scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:             dloop.load %[[A]][%[[M]], %[[KO]] * 32 + %[[KI]]] : memref<8x143xf32>
//  CHECK-NEXT:             dloop.load %[[B]][%[[KO]] * 32 + %[[KI]], %[[N]]] : memref<143x16xf32>
//       CHECK:           } else {
//  CHECK-NEXT:             scf.yield %[[ACC2]] : f32
//  CHECK-NEXT:           }
//  CHECK-NEXT:           dloop.yield %[[NEXT]] : f32
func.func @k143_masked(%a: memref<8x143xf32>, %b: memref<143x16xf32>) -> memref<8x16xf32> {
  %alloc = memref.alloc() : memref<8x16xf32>
  // expected-remark @+1 {{chunk_matmul_k: BK in {32*, 16, 64, 128}}}
  dloop.kernel @k143_masked ins(%in0 = %a : memref<8x143xf32>, %in1 = %b : memref<143x16xf32>) outs(%out0 = %alloc : memref<8x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "m" {
      dloop.for %j = 0 to 16 free "n" {
        %0 = dloop.for %k = 0 to 143 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<8x143xf32>
          %2 = dloop.load %in1[%k, %j] : memref<143x16xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return %alloc : memref<8x16xf32>
}

// -----

/// One output axis: a dot product per element (the gemv of the inputs), not
/// a matmul with operands to reuse.
// CHECK-LABEL: func.func @negative_one_output_axis
//       CHECK:   dtile.kernel @negative_one_output_axis ins(
//       CHECK:     dloop.for %{{.*}} = 0 to 64 reduce "k"
func.func @negative_one_output_axis(%a: memref<16x64xf32>, %b: memref<64x16xf32>) -> memref<16xf32> {
  %alloc = memref.alloc() : memref<16xf32>
  // expected-remark @+1 {{chunk_matmul_k: does not apply}}
  dloop.kernel @negative_one_output_axis ins(%in0 = %a : memref<16x64xf32>, %in1 = %b : memref<64x16xf32>) outs(%out0 = %alloc : memref<16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      %0 = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%i, %k] : memref<16x64xf32>
        %2 = dloop.load %in1[%k, %i] : memref<64x16xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        dloop.yield %4 : f32
      }
      dloop.store %0, %out0[%i] : memref<16xf32>
    }
  }
  return %alloc : memref<16xf32>
}

// -----

/// A reduction over one input only (a row sum broadcast to two axes) is no
/// matmul.
// CHECK-LABEL: func.func @negative_one_operand
//       CHECK:   dtile.kernel @negative_one_operand ins(
//       CHECK:     dloop.for %{{.*}} = 0 to 64 reduce "k"
func.func @negative_one_operand(%a: memref<8x64xf32>) -> memref<8x16xf32> {
  %alloc = memref.alloc() : memref<8x16xf32>
  // expected-remark @+1 {{chunk_matmul_k: does not apply}}
  dloop.kernel @negative_one_operand ins(%in0 = %a : memref<8x64xf32>) outs(%out0 = %alloc : memref<8x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 8 free "m" {
      dloop.for %j = 0 to 16 free "n" {
        %0 = dloop.for %k = 0 to 64 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<8x64xf32>
          %2 = arith.addf %acc, %1 : f32
          dloop.yield %2 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return %alloc : memref<8x16xf32>
}
