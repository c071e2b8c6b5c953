// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-pad-smem | FileCheck %s
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-pad-smem=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-pad-smem="knobs=pad=false" | FileCheck %s --check-prefix=OFF
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-pad-smem | FileCheck %s --check-prefix=FM2FN4
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs="knobs=stage=[1]" --dtile-pad-smem=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ONLYB
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-pad-smem=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-THREADS
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-pad-smem="knobs=pad=1" 2>&1 | FileCheck %s --check-prefix=BAD-VALUE
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=gemv_0_reduce:pad=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOT-TAKEN
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs --dtile-pad-smem --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-pad-smem > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-pad-smem | diff %t.once.mlir -

/// 4 x 8 threads (one warp) read A's slab down its 32-word rows: the four
/// rows hit one bank, a 4-way conflict. A pad of one word per row clears it.
/// B's rows are read along, conflict-free: left alone.
// CHECK-LABEL: func.func @matmul
//       CHECK:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, pad = true, stage = [0, 1]>
//       CHECK:     dtile.stage %{{.*}} box [4, 32] pad [0, 1] : memref<16x128xf32> -> memref<4x32xf32, #gpu.address_space<workgroup>>
//       CHECK:     dtile.stage %{{.*}} box [32, 8] : memref<128x64xf32> -> memref<32x8xf32, #gpu.address_space<workgroup>>
/// A one-dimensional slab (the gemv's vector, read by every thread at once)
/// has no rows to stagger.
// CHECK-LABEL: func.func @gemv
//   CHECK-NOT:   pad
//       CHECK:     dtile.stage %{{.*}} box [128] :

/// The fork: pad (the heuristic) or not, only where padding helps.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: pad_smem: pad in {true*, false}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: pad_smem: does not apply
// FORKS: kernels.mlir:44:5: remark: @scale_0_pointwise: pad_smem: does not apply
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: pad_smem: does not apply

/// pad=false keeps the dense slabs, the choice recorded.
// OFF-LABEL: func.func @matmul
//       OFF:   knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, pad = false, stage = [0, 1]>
//   OFF-NOT:   pad [

/// With a 2 x 4 register tile a warp reads two rows of A (2-way, padded) and
/// 16 columns four words apart of B (2-way, but every pad keeps it so).
// FM2FN4-LABEL: func.func @matmul
//       FM2FN4:   knobs<BK = 32, BM = 16, BN = 64, FM = 2, FN = 4, pad = true, stage = [0, 1]>
//       FM2FN4:     dtile.stage %{{.*}} box [16, 32] pad [0, 1] :
//       FM2FN4:     dtile.stage %{{.*}} box [32, 64] :

/// Only B staged: nothing to gain. Without threads nothing is staged.
// ONLYB: kernels.mlir:6:5: remark: @matmul_0_reduce: pad_smem: does not apply
// NO-THREADS: kernels.mlir:6:5: remark: @matmul_0_reduce: pad_smem: does not apply

/// A value of the wrong kind, and a knob no rule takes for a kernel.
// BAD-VALUE: kernels.mlir:3:1: error: bad knobs option 'pad=1': knob 'pad' expects a boolean
// NOT-TAKEN: kernels.mlir:58:5: error: 'dtile.kernel' op no rule took knob "pad" for this kernel

/// The Kernel IR allocates the padded slab (4 x 33) and indexes it as such.
// KERNEL-LABEL: dkernel.func @matmul_0_reduce
//       KERNEL:   dkernel.alloc_shared {{.*}}4x33xf32
