// RUN: deplodock-opt %S/Inputs/long-k-matmuls.mlir --dtile-tileify --dtile-wgmma-async="knobs=lin_0_reduce:wgmma=true,warpgroups=1,wgmma_n=64,wgmma_split_k=4;thin_0_reduce:wgmma=false" --dtile-mma-sync="knobs=thin_0_reduce:tensor_cores=true,WM=32,WN=32,warps=1,mma_k=32,mma_swizzle=true,mma_split_k=4" | FileCheck %s
// RUN: deplodock-opt %S/Inputs/long-k-matmuls.mlir --dtile-tileify --dtile-wgmma-async="list-forks=true knobs=thin_0_reduce:wgmma=false" --dtile-mma-sync=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/long-k-matmuls.mlir --dtile-tileify --dtile-mma-sync | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/long-k-matmuls.mlir --dtile-tileify --dtile-mma-sync="knobs=thin_0_reduce:tensor_cores=true,WM=16,WN=8,warps=4,mma_k=32,mma_pad=false,mma_swizzle=true" | FileCheck %s --check-prefix=UNSPLIT
// RUN: not deplodock-opt %S/Inputs/long-k-matmuls.mlir --dtile-lower="knobs=thin_0_reduce:wgmma=false,tensor_cores=true,WM=32,WN=32,warps=1,mma_k=32,mma_swizzle=true,mma_split_k=3" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not deplodock-opt %S/Inputs/long-k-matmuls.mlir --dtile-lower="knobs=halfsum_0_reduce:tensor_cores=true,WM=16,WN=8,warps=1,mma_k=32,mma_swizzle=true,mma_split_k=2" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=HALFSUM
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 512 2048 5632 > %t.filled.mlir
// RUN: deplodock-opt %t.filled.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=FILLED
// RUN: deplodock-opt %t.filled.mlir --lower-to-tile="target=sm_90a list-forks" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FILLED-FORKS
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 512 2048 2048 > %t.most.mlir
// RUN: deplodock-opt %t.most.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=MOST
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 128 2048 2048 > %t.few.mlir
// RUN: deplodock-opt %t.few.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=FEW
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 128 18944 3584 | deplodock-opt --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=LONG-K
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 512 2048 256 | deplodock-opt --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=NARROW-N

/// wgmma_split_k = 4: the K chunks (16 of 64) are dealt to 4 blocks along
/// the new outermost block axis r0_s, each staging chunks 4 s + [0, 4) by
/// TMA; the accumulators go to the f32 workspace [4, M, N] at the split's
/// index, and @lin_0_reduce_split_sum, born mapped, sums the 4 splits in
/// order and rounds to bf16 once, 4 adjacent columns a thread: a float4
/// read of the workspace per split, one 8-byte store of the 4 outputs.
// CHECK-LABEL: func.func @lin
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<64x128xbf16>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<4x64x128xf32>
//       CHECK:   dtile.kernel @lin_0_reduce knobs<swizzle = 128, warpgroups = 1, wgmma = true, wgmma_n = 64, wgmma_split_k = 4> ins({{.*}}) outs(%[[W:[^ ]+]] = %[[WS]] : memref<4x64x128xf32>) {
//       CHECK:     dtile.tile blocks(%[[S:.*]] : 4 "r0_s", %[[MO:.*]] : 1 "d0_o", %[[NO:.*]] : 2 "d1_o") threads(%{{.*}} : 1 "warpgroup", %[[T:.*]] : 128 "thread") {
//       CHECK:       %[[ACC:.*]]:32 = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o"
//  CHECK-NEXT:         dtile.stage %{{.*}}[%[[MO]] * 64, (%[[KO]] + %[[S]] * 4) * 64] box [64, 64] transport tma swizzle 128
//  CHECK-NEXT:         dtile.stage %{{.*}}[%[[NO]] * 64, (%[[KO]] + %[[S]] * 4) * 64] box [64, 64] transport tma swizzle 128
//       CHECK:         dkernel.wgmma_mma_async
//       CHECK:       dloop.store %[[ACC]]#0, %[[W]][%[[S]], %{{.*}}, %{{.*}}] : memref<4x64x128xf32>
//   CHECK-NOT:       arith.truncf
//       CHECK:   dtile.kernel @lin_0_reduce_split_sum ins(%[[P:[^ ]+]] = %[[WS]] : memref<4x64x128xf32>) outs(%[[Y:[^ ]+]] = %[[OUT]] : memref<64x128xbf16>) {
//       CHECK:     dtile.tile blocks(%{{.*}} : 8 "d0_o") threads(%{{.*}} : 8 "d0_i", %{{.*}} : 32 "d1_v") {
//       CHECK:       %[[SUM:.*]]:4 = dloop.for %[[S2:.*]] = 0 to 4 reduce "r0_s" iter(%[[A:[^ ]+]] = %{{.*}} : f32, {{.*}}) unroll 4 {
//       CHECK:         %[[PART:.*]]:4 = dkernel.vector_load %[[P]][%[[S2]], {{.*}}] : memref<4x64x128xf32> -> f32, f32, f32, f32
//  CHECK-NEXT:         arith.addf %[[A]], %[[PART]]#0 : f32
//       CHECK:       arith.truncf %[[SUM]]#0 : f32 to bf16
//       CHECK:       dkernel.vector_store({{.*}}), %[[Y]][{{.*}}] : (bf16, bf16, bf16, bf16), memref<64x128xbf16>

/// mma_split_k = 4: 32 K steps of 32, 8 per split, staged at step
/// 8 s + ko; the same workspace and sum kernel.
// CHECK-LABEL: func.func @thin
//       CHECK:   %[[WS2:.*]] = memref.alloc() : memref<4x32x256xf32>
//       CHECK:   dtile.kernel @thin_0_reduce knobs<{{.*}}mma_split_k = 4{{.*}}> ins({{.*}}) outs(%[[W2:[^ ]+]] = %[[WS2]] : memref<4x32x256xf32>) {
//       CHECK:     dtile.tile blocks(%[[S3:.*]] : 4 "r0_s", %{{.*}} : 1 "d0_o", %{{.*}} : 8 "d1_o") threads(%{{.*}} : 1 "warp", %{{.*}} : 32 "lane") {
//       CHECK:       %[[ACC2:.*]]:32 = dloop.for %[[KO2:.*]] = 0 to 8 reduce "r0_o"
//  CHECK-NEXT:         dtile.stage %{{.*}}[%{{.*}} * 32, (%[[KO2]] + %[[S3]] * 8) * 32] box [32, 32]
//  CHECK-NEXT:         dtile.stage %{{.*}}[(%[[KO2]] + %[[S3]] * 8) * 32, %{{.*}} * 32] box [32, 32]
//       CHECK:       dloop.store %[[ACC2]]#0, %[[W2]][%[[S3]], %{{.*}}, %{{.*}}] : memref<4x32x256xf32>
//       CHECK:   dtile.kernel @thin_0_reduce_split_sum ins(%{{[^ ]+}} = %[[WS2]] : memref<4x32x256xf32>)
//       CHECK:       dloop.for %{{.*}} = 0 to 4 reduce "r0_s"

/// The forks: each block tile whose blocks leave the SMs short of blocks
/// or warps is followed by its splits, powers of two dividing the chunks
/// and leaving each split 4 or more (16 chunks of 64: 2 and 4; 32 steps of
/// 32: up to 8); the default splits the largest tile into the fewest
/// blocks giving every SM one and 4 warps, else the most. A sum kept in
/// bf16 is not lifted to f32 by a split: none is listed.
// FORKS: @lin_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n, wgmma_split_k) in {(1, true, 32, 4)*, (1, true, 32), (1, true, 32, 2), (1, true, 64), (1, true, 64, 2), (1, true, 64, 4), (1, true, 128), (1, true, 128, 2), (1, true, 128, 4), false}
// FORKS: @thin_0_reduce: mma_sync: (WM, WN, mma_k, mma_pad, mma_split_k, mma_swizzle, tensor_cores, warps) in {(16, 8, 32, false, 8, true, true, 4)*, (16, 8, 16, false, true, true, 1), (16, 8, 16, false, 2, true, true, 1), (16, 8, 16, false, 4, true, true, 1), (16, 8, 16, false, 8, true, true, 1), (16, 8, 16, false, 16, true, true, 1), (16, 8, 16, true, false, true, 1),
// FORKS: @halfsum_0_reduce: mma_sync: (WM, WN, mma_k, mma_pad, mma_swizzle, tensor_cores, warps) in {(16, 8, 32, false, true, true, 1)*,
// FORKS-NOT: mma_split_k

/// By default the thin matmul's 32 x 16 tiles of 4 warps (16 blocks) split
/// 8 ways; the same knobs without mma_split_k, as a recorded unsplit
/// variant names them, pick the unsplit option.
// DEFAULT-LABEL: func.func @thin
//       DEFAULT:   dtile.kernel @thin_0_reduce knobs<WM = 16, WN = 8, mma_k = 32, mma_pad = false, mma_split_k = 8, mma_swizzle = true, tensor_cores = true, warps = 4>
//       DEFAULT:     dtile.tile blocks(%{{.*}} : 8 "r0_s", %{{.*}} : 1 "d0_o", %{{.*}} : 16 "d1_o")
// UNSPLIT-LABEL: func.func @thin
//       UNSPLIT:   dtile.kernel @thin_0_reduce knobs<WM = 16, WN = 8, mma_k = 32, mma_pad = false, mma_swizzle = true, tensor_cores = true, warps = 4>
//       UNSPLIT:     dtile.tile blocks(%{{.*}} : 1 "d0_o", %{{.*}} : 16 "d1_o")
//   UNSPLIT-NOT:   _split_sum

/// A split that does not divide the steps is not an option; a kernel
/// summing in bf16 has no split to take.
// ODD: error: 'dtile.kernel' op knobs WM=32,WN=32,mma_k=32,mma_split_k=3,mma_swizzle=true,tensor_cores=true,warps=1 are not a legal option of mma_sync
// HALFSUM: long-k-matmuls.mlir:52:5: error: 'dtile.kernel' op no rule took knob "mma_split_k" for this kernel

/// A tile that already gives half the SMs a block and every SM 4 warps is
/// not split by default (TinyLlama gate_proj s512 in BF16: the split
/// measured 63 us against 50 unsplit on an H200), though the splits stay
/// forks for the tuner. Its 88 blocks of 128 x 256 leave a third of the
/// SMs idle, so the default narrows them to 128 x 192 (120 blocks; 1.18x
/// on the H200).
//      FILLED: dkernel.func @matmul_0_reduce
//  FILLED-SAME: grid [30, 4, 1]
//  FILLED-NOT: wgmma_split_k
//  FILLED-NOT: dkernel.func
//      FILLED-FORKS: wgmma_async: {{.*}}(2, true, 192)*{{.*}}(2, true, 256),{{.*}}(2, true, 256, 2)

/// 512 x 2048 x 2048 has tiles of 8192 accumulators giving half the SMs a
/// block unsplit (128 x 64 and 64 x 128, 128 blocks each): the 128 x 64
/// tile of two warpgroups runs without the split's second kernel (on the
/// H200 18.5 us against 30.1 for 128 x 256 split 4 ways).
//      MOST: dkernel.func @matmul_0_reduce
// MOST-SAME: grid [32, 4, 1]
// MOST-SAME: warpgroups = 2, wgmma = true, wgmma_n = 64>
//  MOST-NOT: dkernel.func

/// 128 x 2048 x 2048 has no such tile (64 x 128 makes 32 blocks): the
/// largest tile filling half the SMs with the split it takes would be
/// 128 x 128 in 16 blocks split 8 ways, 4 of the 32 K chunks a split; the
/// 64 x 256 tile split 4 ways (64 blocks of 8 chunks) is taken instead.
//      FEW: dkernel.func @matmul_0_reduce
// FEW-SAME: grid [8, 2, 4]
// FEW-SAME: warpgroups = 1, wgmma = true, wgmma_n = 256, wgmma_split_k = 4

/// But splits of 37 chunks (K = 18944) keep the 128 x 256 tile 8 ways, and
/// where the 64 x 256 tile split 4 ways would make fewer than 64 blocks
/// (N = 256: 32) the 128-row tile keeps its 8 splits of 4 chunks.
//      LONG-K: dkernel.func @matmul_0_reduce
// LONG-K-SAME: grid [14, 1, 8]
// LONG-K-SAME: warpgroups = 2, wgmma = true, wgmma_n = 256, wgmma_split_k = 8
//      NARROW-N: dkernel.func @matmul_0_reduce
// NARROW-N-SAME: grid [4, 4, 8]
// NARROW-N-SAME: warpgroups = 2, wgmma = true, wgmma_n = 64, wgmma_split_k = 8
//      FEW: dkernel.func @matmul_0_reduce_split_sum
