// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" | FileCheck %s
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" | FileCheck %s --check-prefix=KEEP
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs="knobs=stage=[0]" --dtile-permute-register-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ONLYA
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-permute-register-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FN1
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:FN=1,permute=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOT-TAKEN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-permute-register-tile="knobs=permute=yes" 2>&1 | FileCheck %s --check-prefix=BAD-VALUE
// RUN: deplodock-opt %S/Inputs/wide-matmul.mlir --lower-to-tile="knobs=BM=16,BN=128,FM=2,FN=4,permute=true" | FileCheck %s --check-prefix=WIDE
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline=lower-to-tensor --check-variants=300 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=4,permute=true}" --print=none | FileCheck %s --check-prefix=NUM
/// The permuted (and, in kernels.mlir's default, padded) kernels compile.
// RUN: deplodock-opt %S/Inputs/wide-matmul.mlir --lower-to-kernel="target=sm_80 knobs=BM=16,BN=128,FM=2,FN=4,permute=true" | deplodock-translate --emit-cuda -o %t.wide80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.wide80.cubin %t.wide80.cu %}
// RUN: deplodock-opt %S/Inputs/wide-matmul.mlir --lower-to-kernel="target=sm_90 knobs=BM=16,BN=128,FM=2,FN=4,permute=true" | deplodock-translate --emit-cuda -o %t.wide90.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.wide90.cubin %t.wide90.cu %}
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:pad=true" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.pad80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.pad80.cubin %t.pad80.cu %}
/// Outputs that 16 or more K splits add atomically stay interleaved.
// RUN: deplodock-opt %S/Inputs/narrow-long-k.mlir --lower-to-tile="list-forks knobs=BM=32,BN=64,FM=2,FN=4,split_k=16" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ATOMIC16
// RUN: deplodock-opt %S/Inputs/narrow-long-k.mlir --lower-to-tile="list-forks knobs=BM=32,BN=64,FM=2,FN=4,split_k=8" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ATOMIC8
// RUN: deplodock-opt %S/Inputs/narrow-long-k.mlir --lower-to-tile="list-forks knobs=BM=32,BN=64,FM=2,FN=4,split_k=32,split_workspace=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ATOMIC8
// RUN: deplodock-opt %S/Inputs/narrow-long-k.mlir --lower-to-tile | FileCheck %s --check-prefix=NARROW
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-permute-register-tile | diff %t.once.mlir -

/// 16 column threads holding 4 adjacent columns each read B's slab 4 words
/// apart (2-way conflicts across the half warp). Interleaved, thread n holds
/// columns n, n + 16, n + 32, n + 48: the lanes read adjacent words, and
/// the stores follow.
// CHECK-LABEL: func.func @matmul
//       CHECK:   knobs<BK = 32, BM = 16, BN = 64, FM = 2, FN = 4, permute = true, stage = [0, 1]>
//       CHECK:     threads(%[[MI:.*]] : 8 "d0_i", %[[NI:.*]] : 16 "d1_i")
//       CHECK:         %[[BS:.*]] = dtile.stage %{{.*}} box [32, 64]
//       CHECK:           dloop.load %{{.*}}[%[[MI]] * 2, %[[KI:[a-z0-9_]+]]]
//       CHECK:           dloop.load %[[BS]][%[[KI]], %[[NI]]]
//  CHECK-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] + 16]
//  CHECK-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] + 32]
//  CHECK-NEXT:           dloop.load %[[BS]][%[[KI]], %[[NI]] + 48]
//       CHECK:       dloop.store %{{.*}}#0, %{{.*}}[%{{.*}} * 16 + %[[MI]] * 2, %{{.*}} * 64 + %[[NI]]]
//  CHECK-NEXT:       dloop.store %{{.*}}#1, %{{.*}}[%{{.*}} * 16 + %[[MI]] * 2, %{{.*}} * 64 + %[[NI]] + 16]

/// Kept by default: vector_reads can deal the columns in runs of 4 instead.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: permute_register_tile: permute in {false*, true}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: permute_register_tile: does not apply

/// permute=false keeps the adjacent columns, the choice recorded.
// KEEP: knobs<BK = 32, BM = 16, BN = 64, FM = 2, FN = 4, permute = false, stage = [0, 1]>
// KEEP: dloop.load %{{.*}}[%{{.*}}, %{{.*}} * 4 + 1]

/// Skipped where the analysis sees no gain: B read from global memory (no
/// slab read changes), or one column per thread.
// ONLYA: kernels.mlir:6:5: remark: @matmul_0_reduce: permute_register_tile: does not apply
// FN1: kernels.mlir:6:5: remark: @matmul_0_reduce: permute_register_tile: does not apply

// NOT-TAKEN: kernels.mlir:6:5: error: 'dtile.kernel' op no rule took knob "permute" for this kernel
// BAD-VALUE: kernels.mlir:3:1: error: bad knobs option 'permute=yes': knob 'permute' expects a boolean

/// 100 columns in tiles of 128: the bias read and the stores move with the
/// columns; only the last quarter of each thread's columns can pass 100.
// WIDE: knobs<BK = 32, BM = 16, BN = 128, FM = 2, FN = 4, async_copy = true, double_buffer = true, permute = true, pipeline = true, reg_double = false, stage = [0, 1], transpose_a = false, unroll = 32>
// WIDE: dloop.load %in2[%[[NO:.*]] * 128 + %[[NI:[a-z0-9_]+]]]
// WIDE: dloop.load %in2[%[[NO]] * 128 + %[[NI]] + 32]
// WIDE: dloop.load %in2[%[[NO]] * 128 + %[[NI]] + 64]
// WIDE: scf.if
// WIDE: dloop.load %in2[%[[NO]] * 128 + %[[NI]] + 96]

/// Every variant (a sample) at the Kernel level, and the permuted one.
// VARIANTS: variants of @wide_0_reduce: 300 (seeded sample) checked, 0 failed
// NUM: PASS

/// Interleaved, a warp's atomic adds land on adjacent words; with 8 splits,
/// or a workspace the splits store to, the columns stay for vector reads.
// ATOMIC16: remark: @narrow_0_reduce: permute_register_tile: permute in {true*, false}
// ATOMIC8: remark: @narrow_0_reduce: permute_register_tile: permute in {false*, true}
/// By default the narrow projection splits 32 ways and interleaves.
// NARROW: dtile.kernel @narrow_0_reduce knobs<{{.*}}permute = true{{.*}}split_k = 32
