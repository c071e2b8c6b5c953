// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower > %t.default.mlir
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.default.mlir
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS

/// The knobs a lowering stamps reproduce it exactly: here those of the
/// default lowering (checked just above), given for every kernel.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:BK=32,BM=4,BN=8,FM=1,FN=1,pad=true,split_k=2,stage=[0,1],unroll=32;rowsum_0_reduce:threads=64;scale_0_pointwise:block_threads=256;gemv_0_reduce:threads=256" > %t.again.mlir
// RUN: diff %t.default.mlir %t.again.mlir

/// A variant named by a few knobs (option 0 at the other forks) is
/// reproduced by the complete knobs it prints.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:BK=64,BM=16,BN=64;gemv_0_reduce:threads=1" > %t.variant.mlir
// RUN: FileCheck %s --check-prefix=VARIANT < %t.variant.mlir
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:BK=64,BM=16,BN=64,FM=2,FN=2,permute=false,stage=[0,1],unroll=4;gemv_0_reduce:block_threads=64,chunk=128,stage=[0],threads=1,unroll=4" > %t.variant-again.mlir
// RUN: diff %t.variant.mlir %t.variant-again.mlir

/// Knobs for every kernel go to every kernel that takes them; a kernel's
/// own knobs override them.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=threads=64" | FileCheck %s --check-prefix=GLOBAL
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=threads=64;gemv_0_reduce:threads=128" | FileCheck %s --check-prefix=OVERRIDE
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=stage=[]" | FileCheck %s --check-prefix=NO-STAGE

/// Errors.
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_70" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=BK" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=BM=4,list-forks=true" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=BK=thirty" 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=BK=16;BK=32" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=swizzle=128" 2>&1 | FileCheck %s --check-prefix=UNTAKEN
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=chunk=64" 2>&1 | FileCheck %s --check-prefix=UNTAKEN-CHUNK
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:BK=16,threads=64" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=UNTAKEN-KERNEL
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul:BK=16" 2>&1 | FileCheck %s --check-prefix=NO-KERNEL
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=threads=512" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL

/// Every rule in order on every kernel; the knobs record every decision.
// DEFAULT-LABEL: func.func @matmul
//       DEFAULT:   dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, reg_double = false, split_k = 2, stage = [0, 1], transpose_a = false, unroll = 32> zero_init [0]
//       DEFAULT:     dtile.tile blocks(%{{.*}} : 2 "r0_s", %{{.*}} : 4 "d0_o", %{{.*}} : 8 "d1_o") threads(%{{.*}} : 4 "d0_i", %{{.*}} : 8 "d1_i") {
//       DEFAULT:       dloop.for %{{.*}} = 0 to 2 reduce "r0_o"
//       DEFAULT:         dtile.stage
//       DEFAULT:         dtile.stage
//       DEFAULT:         dloop.for %{{.*}} = 0 to 32 reduce "r0_i" {{.*}} unroll 32 {
// DEFAULT-LABEL: func.func @rowsum
//       DEFAULT:   dtile.kernel @rowsum_0_reduce knobs<threads = 64>
//       DEFAULT:     dtile.tile blocks(%{{.*}} : 8 "d0") threads(%{{.*}} : 64 "t") {
// DEFAULT-LABEL: func.func @scale
//       DEFAULT:   dtile.kernel @scale_0_pointwise knobs<block_threads = 256>
//       DEFAULT:     dtile.tile blocks(%{{.*}} : 4 "d0") threads(%{{.*}} : 256 "d1") {
// DEFAULT-LABEL: func.func @gemv
//       DEFAULT:   dtile.kernel @gemv_0_reduce knobs<threads = 256>
//       DEFAULT:     dtile.tile blocks(%{{.*}} : 64 "d0") threads(%{{.*}} : 256 "t") {
//   DEFAULT-NOT:   dloop.kernel

/// Each rule's options, kernel after kernel (each named), in pipeline order.
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: chunk_matmul_k: BK in {32*, 16, 64}
// FORKS-NEXT: dloop.kernel @matmul_0_reduce
// FORKS-NEXT: ^
// FORKS-NEXT: kernels.mlir:6:5: remark: @matmul_0_reduce: split_matmul_k: (split_k, split_workspace) in {2*, 1, (2, true)}
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: cooperative_reduce: does not apply
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: blockify_launch: (BM, BN) in {(4, 8)*, (16, 64), (16, 32), (8, 64), (16, 16), (8, 32), (4, 64), (8, 16), (16, 8), (4, 32), (2, 64), (8, 8), (4, 16), (2, 32), (1, 64), (2, 16), (1, 32)}
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: chunk_reduce: does not apply
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: register_tile: (FM, FN) in {(1, 1)*}
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: stage_inputs: stage in {[0, 1]*, [1], [0], []}
// FORKS:      kernels.mlir:6:5: remark: @matmul_0_reduce: mark_unroll: unroll in {32*, 1, 2, 4, 8, 16}
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: chunk_matmul_k: does not apply
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: cooperative_reduce: (rows, threads) in {64*, 32, 128, 256, 512, 1, (2, 32), (4, 32), (8, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: blockify_launch: does not apply
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: chunk_reduce: does not apply
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: register_tile: does not apply
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: stage_inputs: does not apply
// FORKS:      kernels.mlir:25:5: remark: @rowsum_0_reduce: mark_unroll: does not apply
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: chunk_matmul_k: does not apply
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: cooperative_reduce: does not apply
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: blockify_launch: block_threads in {256*, 32, 64, 128, 512, 1024}
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: chunk_reduce: does not apply
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: register_tile: does not apply
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: stage_inputs: does not apply
// FORKS:      kernels.mlir:44:5: remark: @scale_0_pointwise: mark_unroll: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: chunk_matmul_k: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, 1, (2, 32), (4, 32), (8, 32), (16, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: blockify_launch: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: chunk_reduce: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: register_tile: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: stage_inputs: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: mark_unroll: does not apply
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: persistent_tiles: does not apply: no reduce loop at the top of the tile body: not a block-tiled reduction
// FORKS:      kernels.mlir:58:5: remark: @gemv_0_reduce: tile_order: does not apply: no reduce loop at the top of the tile body: not a block-tiled reduction
//  FORKS-NOT: remark

/// BK = 64 and a 16 x 64 tile; the later forks take option 0 for that
/// tile (2 x 2 outputs per thread, both operands staged and B's read as
/// 8-byte vectors, unroll 4 for the 64-long chunk loop). One thread per gemv column: blockify, chunk_reduce
/// and stage_inputs now apply.
// VARIANT: dtile.kernel @matmul_0_reduce knobs<BK = 64, BM = 16, BN = 64, FM = 2, FN = 2, async_copy = true, double_buffer = true, permute = false, pipeline = true, reg_double = true, stage = [0, 1], transpose_a = false, unroll = 4, vector_reads = true, vector_stores = false>
// VARIANT: dtile.kernel @rowsum_0_reduce knobs<threads = 64>
// VARIANT: dtile.kernel @scale_0_pointwise knobs<block_threads = 256>
// VARIANT: dtile.kernel @gemv_0_reduce knobs<async_copy = true, block_threads = 64, chunk = 128, double_buffer = true, pipeline = true, reg_double = false, stage = [0], threads = 1, unroll = 4>

// GLOBAL: dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, async_copy = true, double_buffer = true, pad = true, pipeline = true, reg_double = false, split_k = 2, stage = [0, 1], transpose_a = false, unroll = 32>
// GLOBAL: dtile.kernel @rowsum_0_reduce knobs<threads = 64>
// GLOBAL: dtile.kernel @scale_0_pointwise knobs<block_threads = 256>
// GLOBAL: dtile.kernel @gemv_0_reduce knobs<threads = 64>

// OVERRIDE: dtile.kernel @rowsum_0_reduce knobs<threads = 64>
// OVERRIDE: dtile.kernel @gemv_0_reduce knobs<threads = 128>

/// stage = [] is taken by the one kernel that stages.
// NO-STAGE: dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 4, BN = 8, FM = 1, FN = 1, split_k = 2, stage = [], unroll = 32>
//  NO-STAGE-NOT: dtile.stage

// TARGET: kernels.mlir:3:1: error: unknown target 'sm_70'; expected sm_80, sm_90 or sm_90a
// SYNTAX: error: bad knobs option 'BK': expected '='
// UNKNOWN: error: bad knobs option 'BM=4,list-forks=true': unknown knob 'list'
// KIND: error: bad knobs option 'BK=thirty': knob 'BK' expects an integer
// TWICE: error: bad knobs option 'BK=16;BK=32': knob 'BK' is set twice

/// A knob that no rule takes is an error, not silently ignored: swizzle's
/// rule does not exist yet, and no kernel here is chunked by chunk_reduce.
// UNTAKEN: error: no rule took knob "swizzle" for any kernel
// UNTAKEN-CHUNK: error: no rule took knob "chunk" for any kernel

/// A kernel's own knob that none of its rules takes is an error at it.
// UNTAKEN-KERNEL: kernels.mlir:6:5: error: 'dtile.kernel' op no rule took knob "threads" for this kernel

/// So are knobs for a kernel the module does not have (a misspelt name).
// NO-KERNEL: error: no kernel @matmul to take knobs BK=16

/// 512 threads suit the row sum, but the gemv's 256-long reduction has no
/// such option: knobs for every kernel must be legal for every kernel that
/// takes them.
// ILLEGAL: kernels.mlir:58:5: error: 'dtile.kernel' op knobs threads=512 are not a legal option of cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, 1, (2, 32), (4, 32), (8, 32), (16, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}
