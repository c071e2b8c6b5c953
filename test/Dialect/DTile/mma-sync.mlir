// RUN: deplodock-opt %S/Inputs/half-matmuls.mlir --dtile-tileify --dtile-mma-sync | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/half-matmuls.mlir --dtile-tileify --dtile-mma-sync=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/half-matmuls.mlir --dtile-tileify --dtile-mma-sync="knobs=mm_0_reduce:tensor_cores=true,WM=32,WN=32,warps=4,mma_k=64,mma_pad=false,mma_swizzle=false;ragged_0_reduce:tensor_cores=false" | FileCheck %s --check-prefix=WIDE
// RUN: deplodock-opt %S/Inputs/half-matmuls.mlir --dtile-lower | FileCheck %s --check-prefix=LOWER
// RUN: not deplodock-opt %S/Inputs/half-matmuls.mlir --dtile-lower="knobs=single_0_reduce:tensor_cores=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTHALF
// RUN: not deplodock-opt %s --dtile-lower="knobs=tensor_cores=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTC
// RUN: deplodock-opt %s --dtile-lower=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTCFORKS

/// A 64 x 128 x 64 f16 matmul: one warp per block by default (4 x 8 blocks
/// of 16 x 8 leave most SMs idle either way), two m16n8k16 steps per 32-deep
/// chunk, A by ldmatrix x4, B (k x n) by ldmatrix x2 transposed; each lane
/// stores its four accumulators, rounded once. The slabs are swizzled where
/// their rows allow it: A's 64-byte rows in 64-byte segments, while B's
/// 16-byte rows (eight of them fill the banks once) stay plain.
// DEFAULT-LABEL: func.func @mm
//       DEFAULT:   knobs<WM = 16, WN = 8, mma_k = 32, mma_pad = false, mma_swizzle = true, tensor_cores = true, warps = 1>
//       DEFAULT:   dtile.tile blocks(%[[MO:.*]] : 4 "d0_o", %[[NO:.*]] : 8 "d1_o") threads(%[[W:.*]] : 1 "warp", %[[L:.*]] : 32 "lane")
//       DEFAULT:     %[[ACC:.*]]:4 = dloop.for %[[KO:.*]] = 0 to 4 reduce "r0_o" iter(%{{.*}} = %[[Z:.*]] : f32, %{{.*}} = %[[Z]] : f32, %{{.*}} = %[[Z]] : f32, %{{.*}} = %[[Z]] : f32)
//  DEFAULT-NEXT:       %[[AS:.*]] = dtile.stage %{{.*}}[%[[MO]] * 16, %[[KO]] * 32] box [16, 32] swizzle 64 : memref<64x128xf16> -> memref<16x32xf16, #gpu.address_space<workgroup>>
//  DEFAULT-NEXT:       %[[BS:.*]] = dtile.stage %{{.*}}[%[[KO]] * 32, %[[NO]] * 8] box [32, 8] : memref<128x64xf16> -> memref<32x8xf16, #gpu.address_space<workgroup>>
//       DEFAULT:       %[[A0:.*]]:8 = dkernel.ldmatrix %[[AS]][%{{.*}}, %{{.*}}] : memref<16x32xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16, f16, f16
//       DEFAULT:       %[[B0:.*]]:4 = dkernel.ldmatrix trans %[[BS]][%{{.*}}, %{{.*}}] : memref<32x8xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16
//       DEFAULT:       dkernel.mma_sync [%[[A0]]#0, {{.*}}], [%[[B0]]#0, {{.*}}] : f16
//       DEFAULT:       dkernel.ldmatrix %[[AS]]
//       DEFAULT:       dkernel.ldmatrix trans %[[BS]]
//       DEFAULT:       %[[D:.*]], %{{.*}}, %{{.*}}, %{{.*}} = dkernel.mma_sync
//       DEFAULT:       dloop.yield %[[D]],
//       DEFAULT:     %[[R0:.*]] = arith.truncf %[[ACC]]#0 : f32 to f16
//  DEFAULT-NEXT:     dloop.store %[[R0]], %{{.*}}[%[[MO]] * 16 + %[[W]] * 16 + %[[L]] floordiv 4, %[[L]] * 2 + %[[NO]] * 8 - (%[[L]] floordiv 4) * 8]
//       DEFAULT:     arith.truncf %[[ACC]]#3 : f32 to f16
//  DEFAULT-NEXT:     dloop.store %{{.*}}[%[[MO]] * 16 + %[[W]] * 16 + %[[L]] floordiv 4 + 8, %[[L]] * 2 + %[[NO]] * 8 - (%[[L]] floordiv 4) * 8 + 1]

/// A stored K x M and B stored N x K, at ragged sizes (37 x 40 x 20):
/// both slabs zero-filled past the sources and swizzled (A's 32-byte rows
/// in 32-byte segments, B's 64-byte ones in 64), A read transposed and B not,
/// and each accumulator's epilogue (a residual add) guarded by its row and
/// column.
// DEFAULT-LABEL: func.func @ragged
//       DEFAULT:   dtile.tile blocks(%{{.*}} : 3 "d0_o", %{{.*}} : 3 "d1_o") threads(%{{.*}} : 1 "warp", %{{.*}} : 32 "lane")
//       DEFAULT:     dloop.for %{{.*}} = 0 to 2 reduce "r0_o"
//       DEFAULT:       dtile.stage %{{.*}} box [32, 16] zero_fill swizzle 32 : memref<40x37xbf16>
//       DEFAULT:       dtile.stage %{{.*}} box [8, 32] zero_fill swizzle 64 : memref<20x40xbf16>
//       DEFAULT:       dkernel.ldmatrix trans {{.*}} -> bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16
//       DEFAULT:       dkernel.ldmatrix %{{.*}} -> bf16, bf16, bf16, bf16
//       DEFAULT:       dkernel.mma_sync {{.*}} : bf16
//       DEFAULT:     %[[IN:.*]] = arith.andi
//  DEFAULT-NEXT:     scf.if %[[IN]] {
//  DEFAULT-NEXT:       dloop.load %{{.*}} : memref<37x20xf32>
//  DEFAULT-NEXT:       arith.addf
//  DEFAULT-NEXT:       dloop.store {{.*}} : memref<37x20xf32>

/// A sum the IR keeps in f16 runs in f32 and is rounded once, at the store.
// DEFAULT-LABEL: func.func @halfsum
//       DEFAULT:     %[[H:.*]]:4 = dloop.for {{.*}} iter(%{{.*}} = %{{.*}} : f32,
//       DEFAULT:     arith.truncf %[[H]]#0 : f32 to f16

/// Batch axes stay block axes, indexing both slabs.
// DEFAULT-LABEL: func.func @batched
//       DEFAULT:   dtile.tile blocks(%[[B:.*]] : 3 "b", %{{.*}} : 1 "d0_o", %{{.*}} : 2 "d1_o")
//       DEFAULT:       dtile.stage %{{.*}}[%[[B]], {{.*}}] box [1, 16, 32]
//       DEFAULT:       dtile.stage %{{.*}}[%[[B]], {{.*}}] box [1, 32, 8]

/// f32 operands are left to the SIMT rules.
// DEFAULT-LABEL: func.func @single
//   DEFAULT-NOT:   tensor_cores
//       DEFAULT:   dtile.tile blocks(%{{.*}} : 16 "d0", %{{.*}} : 8 "d1") {

/// Each tile is listed swizzled (first: conflict-free at no cost in shared
/// memory), padded, then plain, each followed by its K splits where its
/// blocks leave the SMs short (here 8 steps of 16 split 2 ways).
// FORKS: half-matmuls.mlir:7:5: remark: @mm_0_reduce: mma_sync: (WM, WN, mma_k, mma_pad, mma_split_k, mma_swizzle, tensor_cores, warps) in {(16, 8, 32, false, true, true, 1)*, (16, 8, 16, false, true, true, 1), (16, 8, 16, false, 2, true, true, 1), (16, 8, 16, true, false, true, 1), (16, 8, 16, true, 2, false, true, 1), {{.*}}, (64, 32, 64, true, false, true, 1), (64, 32, 64, false, false, true, 1), false}
// FORKS: half-matmuls.mlir:52:5: remark: @halfsum_0_reduce: mma_sync: (WM, WN, mma_k, mma_pad, mma_swizzle, tensor_cores, warps) in {(16, 8, 32, false, true, true, 1)*, (16, 8, 16, false, true, true, 1), (16, 8, 16, true, false, true, 1), (16, 8, 16, false, false, true, 1), (16, 8, 32, true, false, true, 1), (16, 8, 32, false, false, true, 1), false}
// FORKS: half-matmuls.mlir:94:5: remark: @single_0_reduce: mma_sync: does not apply

/// Four warps of 32 x 32 (2 x 2 warps, one 64 x 64 block) and 64-deep
/// chunks: per 16-deep step two A loads, four B loads and eight mma.sync.
/// tensor_cores=false leaves the kernel as it was for the SIMT rules.
// WIDE-LABEL: func.func @mm
//       WIDE:   knobs<WM = 32, WN = 32, mma_k = 64, mma_pad = false, mma_swizzle = false, tensor_cores = true, warps = 4>
//       WIDE:   dtile.tile blocks(%{{.*}} : 1 "d0_o", %{{.*}} : 1 "d1_o") threads(%{{.*}} : 4 "warp", %{{.*}} : 32 "lane")
//       WIDE:     dloop.for %{{.*}} = 0 to 2 reduce "r0_o" iter({{.*}}) {
//       WIDE:       dtile.stage {{.*}} box [64, 64] : memref<64x128xf16>
//       WIDE:       dtile.stage {{.*}} box [64, 64] : memref<128x64xf16>
// WIDE-COUNT-2:     dkernel.ldmatrix %
// WIDE-COUNT-4:     dkernel.ldmatrix trans
// WIDE-COUNT-8:     dkernel.mma_sync
//       WIDE:       dkernel.ldmatrix %
// WIDE-LABEL: func.func @ragged
//       WIDE:   knobs<tensor_cores = false>
//       WIDE:   dtile.tile blocks(%{{.*}} : 37 "d0", %{{.*}} : 20 "d1") {

/// In the whole lowering the later rules rework the mma kernel's stages
/// (cp.async, two slots, the next chunk issued first); pad_smem and the
/// SIMT matmul rules leave it alone.
// LOWER-LABEL: func.func @mm
//       LOWER:   knobs<WM = 16, WN = 8, async_copy = true, double_buffer = true, mma_k = 32, mma_pad = false, mma_swizzle = true, pipeline = true, tensor_cores = true, unroll = 4, vector_stores = false, warps = 1>
//       LOWER:   dtile.stage {{.*}} buffers 2 slot %{{.*}} transport cp_async swizzle 64
//       LOWER:   dkernel.mma_sync
// LOWER-LABEL: func.func @single
//       LOWER:   knobs<BK = 16, {{.*}}>

// NOTHALF: half-matmuls.mlir:94:5: error: 'dtile.kernel' op knob tensor_cores=true: mma_sync cannot take @single_0_reduce: the operands are f32, and the module does not allow tf32 (precision=tf32)

/// A part without tensor cores refuses the request, and the rule does not
/// apply there.
// NOTC: error: 'dtile.kernel' op knob tensor_cores=true: mma_sync cannot take @mm_0_reduce: target small has no tensor cores (the 'mma_sync' feature)
// NOTCFORKS: remark: @mm_0_reduce: mma_sync: does not apply
// NOTCFORKS: remark: @mm_0_reduce: chunk_matmul_k: BK in
module attributes {dkernel.target = #dkernel.target<"small", capability = 75, sm_count = 40, smem_per_block = 49152, smem_per_sm = 65536, threads_per_block = 1024, threads_per_sm = 1024, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = [cp_async]>} {
  func.func @mm(%arg0: memref<16x32xf16>, %arg1: memref<32x8xf16>) -> memref<16x8xf16> {
    %alloc = memref.alloc() : memref<16x8xf16>
    dloop.kernel @mm_0_reduce ins(%in0 = %arg0 : memref<16x32xf16>, %in1 = %arg1 : memref<32x8xf16>) outs(%out0 = %alloc : memref<16x8xf16>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 16 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %0 = dloop.for %r0 = 0 to 32 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<16x32xf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<32x8xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          %7 = arith.truncf %0 : f32 to f16
          dloop.store %7, %out0[%d0, %d1] : memref<16x8xf16>
        }
      }
    }
    return %alloc : memref<16x8xf16>
  }
}
