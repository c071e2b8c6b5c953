/// cooperative_reduce's rows: several reduction rows per block, each reduced
/// by its own `threads` threads (a thread axis for the rows before `t`).
// RUN: deplodock-opt %S/Inputs/softmax-rows.mlir --lower-to-tile="target=sm_90 knobs=threads=64,rows=4" | FileCheck %s --check-prefix=SPLIT
// RUN: deplodock-opt %S/Inputs/softmax-rows.mlir --lower-to-tile="target=sm_90 knobs=threads=32,rows=8" | FileCheck %s --check-prefix=WHOLE
// RUN: deplodock-opt %S/Inputs/softmax-rows.mlir --lower-to-kernel="target=sm_90 knobs=threads=32,rows=8" | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %S/Inputs/softmax-rows.mlir --lower-to-loop | deplodock-opt --dtile-tileify --dtile-cooperative-reduce=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: not deplodock-opt %S/Inputs/softmax-rows.mlir --lower-to-tile="target=sm_90 knobs=threads=32,rows=16" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
/// The numbers: softmax and rmsnorm with rows, against the tensor-level
/// interpreter, and every option of the tree (sampled) on both.
// RUN: deplodock-run --interp %S/Inputs/softmax-rows.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=threads=64,rows=4}" --compare="lower-to-kernel{target=sm_90 knobs=threads=32,rows=8}" --compare="lower-to-kernel{target=sm_90 knobs=threads=256,rows=2}" | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %S/Inputs/rmsnorm-rows.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=threads=64,rows=4}" --compare="lower-to-kernel{target=sm_90 knobs=threads=32,rows=8}" | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %S/Inputs/softmax-rows.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %S/Inputs/rmsnorm-rows.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS

/// Rows 8 of 2 x 8 x 256 in blocks of 4: the row axis splits.
//      SPLIT: dtile.kernel @softmax_0_reduce knobs<rows = 4, threads = 64>
//      SPLIT: dtile.tile blocks(%[[D0:.*]] : 2 "d0", %[[O:.*]] : 2 "d1_o") threads(%[[I:.*]] : 4 "d1_i", %[[T:.*]] : 64 "t")
//      SPLIT: dtile.strided_for %{{.*}} = %[[T]] to 256 step 64 reduce
//      SPLIT: dtile.combine maxnum %{{.*}} over ["t"]
//      SPLIT: dtile.combine add %{{.*}} over ["t"]

/// Eight rows in a block of eight: no block axis is left for them.
//      WHOLE: dtile.tile blocks(%{{.*}} : 2 "d0") threads(%{{.*}} : 8 "d1_i", %{{.*}} : 32 "t")

/// A warp per row: shuffles only, no shared memory and no barrier.
//      CUDA: __launch_bounds__(256)
//  CUDA-NOT: __syncthreads
//      CUDA: __shfl_xor_sync(0xffffffffu, {{.*}}, 32)
//  CUDA-NOT: __syncthreads
//      CUDA: }

//      FORKS: remark: @softmax_0_reduce: cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, 1, (2, 32), (4, 32), (8, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}

//    ILLEGAL: error: 'dtile.kernel' op knobs rows=16,threads=32 are not a legal option of cooperative_reduce

//     NUM-NOT: FAIL
// NUM-COUNT-2: PASS

//      VARIANTS: 0 failed
