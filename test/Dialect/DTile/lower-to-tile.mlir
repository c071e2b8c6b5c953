/// The lower-to-tile pipeline on the examples (TinyLlama shapes): the knobs
/// option 0 picks at every fork, per kernel and target. They are heuristics;
/// these checks document them, so a change to a heuristic shows here.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile > %t.matmul.mlir
// RUN: FileCheck %s --check-prefix=MATMUL < %t.matmul.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=target=sm_80 > %t.matmul80.mlir
// RUN: FileCheck %s --check-prefix=MATMUL80 < %t.matmul80.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-tile > %t.rmsnorm.mlir
// RUN: FileCheck %s --check-prefix=RMSNORM < %t.rmsnorm.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/softmax.mlir --lower-to-tile > %t.softmax.mlir
// RUN: FileCheck %s --check-prefix=SOFTMAX < %t.softmax.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul.mlir --lower-to-tile > %t.silu_mul.mlir
// RUN: FileCheck %s --check-prefix=SILU < %t.silu_mul.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --lower-to-tile > %t.sdpa.mlir
// RUN: FileCheck %s --check-prefix=SDPA < %t.sdpa.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --lower-to-tile=target=sm_80 > %t.sdpa80.mlir
// RUN: FileCheck %s --check-prefix=SDPA80 < %t.sdpa80.mlir

/// The printed knobs reproduce each lowering exactly.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="knobs=matmul_0_reduce:BK=32,BM=32,BN=128,FM=4,FN=4,permute=false,reg_double=true,split_k=8,stage=[0,1],unroll=32,vector_reads=true" | diff %t.matmul.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="target=sm_80 knobs=matmul_0_reduce:BK=32,BM=32,BN=256,FM=4,FN=8,permute=false,reg_double=true,split_k=8,stage=[0,1],unroll=32,vector_reads=true" | diff %t.matmul80.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-tile="knobs=rmsnorm_0_reduce:threads=256" | diff %t.rmsnorm.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/softmax.mlir --lower-to-tile="knobs=softmax_0_reduce:threads=32" | diff %t.softmax.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/silu_mul.mlir --lower-to-tile="knobs=silu_mul_0_pointwise:block_threads=256" | diff %t.silu_mul.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --lower-to-tile="knobs=sdpa_0_reduce:BKV=32,BQ=16,split_kv=16,unroll=1" | diff %t.sdpa.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --lower-to-tile="target=sm_80 knobs=sdpa_0_reduce:BKV=32,BQ=16,split_kv=16,unroll=1" | diff %t.sdpa80.mlir -

/// So do they for a variant named by a few knobs.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="knobs=BK=64,split_k=1,BM=32,BN=64" > %t.variant.mlir
// RUN: FileCheck %s --check-prefix=VARIANT < %t.variant.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="knobs=BK=64,split_k=1,BM=32,BN=64,FM=2,FN=4,pad=true,permute=false,reg_double=true,stage=[0,1],unroll=4,vector_reads=true" | diff %t.variant.mlir -
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-tile="knobs=threads=1" > %t.rows.mlir
// RUN: FileCheck %s --check-prefix=ROWS < %t.rows.mlir
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-tile="knobs=threads=1,block_threads=32,unroll=4" | diff %t.rows.mlir -

/// The forks of each kernel, through the pipeline's list-forks option.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=MATMUL-FORKS
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=RMSNORM-FORKS
// RUN: deplodock-opt %deplodock_src_root/examples/sdpa.mlir --lower-to-tile=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SDPA-FORKS

/// The pipeline passes its options on, errors included.
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="knobs=BK=48" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="target=sm_100" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not deplodock-opt %deplodock_src_root/examples/softmax.mlir --lower-to-tile="knobs=BK=32" 2>&1 | FileCheck %s --check-prefix=UNTAKEN

/// x(1,32,2048) . W(2048,2048) on an H100: 32 rows leave 64 x 64 tiles
/// too few to fill 132 SMs, so K splits over 8 blocks (each 8 chunks of
/// 32); then 32 x 128 tiles (128 blocks), 256 threads of 4 x 4 outputs,
/// both operands staged per K chunk; the leading 1 of x stays a unit slab
/// dimension.
// MATMUL: dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 32, BN = 128, FM = 4, FN = 4, async_copy = true, double_buffer = true, permute = false, pipeline = true, reg_double = true, split_k = 8, stage = [0, 1], transpose_a = false, unroll = 32, vector_reads = true> zero_init [0]
// MATMUL:   dtile.tile blocks(%[[S:.*]] : 8 "r0_s", %[[MO:.*]] : 1 "d0_o", %[[NO:.*]] : 16 "d1_o") threads(%{{.*}} : 8 "d0_i", %{{.*}} : 32 "d1_i") {
// MATMUL:     dtile.stage %{{.*}}[0, %[[MO]] * 32, %[[S]] * 256] box [1, 32, 32] buffers 2 slot %{{.*}} transport cp_async : memref<1x32x2048xf32> -> memref<1x32x32xf32, #gpu.address_space<workgroup>>
// MATMUL:     dtile.stage %{{.*}}[%[[S]] * 256, %[[NO]] * 128] box [32, 128] buffers 2 slot %{{.*}} transport cp_async : memref<2048x2048xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
// MATMUL:     dloop.for %[[KO:.*]] = 0 to 8 reduce "r0_o"
// MATMUL:       dtile.async_wait keep 0
// MATMUL:       dtile.stage %{{.*}}[0, %[[MO]] * 32, %[[S]] * 256 + %[[KO]] * 32 + 32] box [1, 32, 32] buffers 2 slot %{{.*}} transport cp_async
// MATMUL:       dtile.stage %{{.*}}[%[[S]] * 256 + %[[KO]] * 32 + 32, %[[NO]] * 128] box [32, 128] buffers 2 slot %{{.*}} transport cp_async
// MATMUL:       dloop.for %{{.*}} = 0 to 32 reduce "r0_i" {{.*}} unroll 32 {

/// On an A100 (108 SMs) K splits over 8 blocks too (the output holds far
/// fewer than two 128 x 128 tiles an SM), and blockify_launch, counting
/// the splits, takes 32 x 256 tiles (64 blocks, over half the SMs).
// MATMUL80: dtile.kernel @matmul_0_reduce knobs<BK = 32, BM = 32, BN = 256, FM = 4, FN = 8, async_copy = true, double_buffer = true, permute = false, pipeline = true, reg_double = true, split_k = 8, stage = [0, 1], transpose_a = false, unroll = 32, vector_reads = true> zero_init [0]
// MATMUL80:   dtile.tile blocks(%{{.*}} : 8 "r0_s", %{{.*}} : 1 "d0_o", %{{.*}} : 8 "d1_o") threads(%{{.*}} : 8 "d0_i", %{{.*}} : 32 "d1_i") {

/// One row of 2048 per block, 256 threads sharing it: the sum of squares
/// ends in a combine; the normalised row is written by all threads.
// RMSNORM: dtile.kernel @rmsnorm_0_reduce knobs<threads = 256>
// RMSNORM:   dtile.tile blocks(%{{.*}} : 32 "d0") threads(%[[T:.*]] : 256 "t") {
// RMSNORM:     %[[PART:.*]] = dtile.strided_for %{{.*}} = %[[T]] to 2048 step 256 reduce
// RMSNORM:     dtile.combine add %[[PART]] over ["t"] : f32
// RMSNORM:     dtile.strided_for %{{.*}} = %[[T]] to 2048 step 256 free
// RMSNORM-NOT: dtile.kernel

/// Attention-score rows of 32: one warp per row, one element per thread,
/// a max and a sum combined across it.
// SOFTMAX: dtile.kernel @softmax_0_reduce knobs<threads = 32>
// SOFTMAX:   dtile.tile blocks(%{{.*}} : 32 "d0", %{{.*}} : 32 "d1") threads(%[[T:.*]] : 32 "t") {
// SOFTMAX:     dtile.combine maxnum %{{.*}} over ["t"] : f32
// SOFTMAX:     dtile.combine add %{{.*}} over ["t"] : f32

/// 32 x 5632 elements, 256 threads per block from the inner axis.
// SILU: dtile.kernel @silu_mul_0_pointwise knobs<block_threads = 256>
// SILU:   dtile.tile blocks(%{{.*}} : 32 "d0", %{{.*}} : 22 "d1_o") threads(%{{.*}} : 256 "d1_i") {

/// Attention in one online-softmax kernel: 1,024 query rows fill a thread
/// each on too few warps per SM, so 16 threads share each row's keys (16
/// rows per block of 256 threads), the 32 keys in one step.
// SDPA: dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 16, split_kv = 16, unroll = 1>
// SDPA:   dtile.tile blocks(%{{.*}} : 32 "d0", %{{.*}} : 2 "d1_o") threads(%{{.*}} : 16 "d1_i", %{{.*}} : 16 "kv") {
// SDPA-NOT: dtile.kernel

// SDPA80: dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 16, split_kv = 16, unroll = 1>
// SDPA80-NOT: dtile.kernel

// VARIANT: dtile.kernel @matmul_0_reduce knobs<BK = 64, BM = 32, BN = 64, FM = 2, FN = 4, async_copy = true, double_buffer = true, pad = true, permute = false, pipeline = true, reg_double = true, split_k = 1, stage = [0, 1], transpose_a = false, unroll = 4, vector_reads = true, vector_stores = false>
// VARIANT:   dtile.tile blocks(%{{.*}} : 1 "d0_o", %{{.*}} : 32 "d1_o") threads(%{{.*}} : 16 "d0_i", %{{.*}} : 16 "d1_i") {

/// One row per thread: the 32 rows fill one warp in one block.
// ROWS: dtile.kernel @rmsnorm_0_reduce knobs<block_threads = 32, threads = 1, unroll = 4>
// ROWS:   dtile.tile blocks(%{{.*}} : 1 "unit") threads(%{{.*}} : 32 "d0") {

// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: chunk_matmul_k: BK in {32*, 16, 64, 128}
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: split_matmul_k: (split_k, split_workspace) in {8*, 1, 2, (2, true), 4, (4, true), (8, true), 16, (16, true), 32, (32, true)}
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: cooperative_reduce: does not apply
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: blockify_launch: (BM, BN) in {(32, 128)*, (32, 256), (16, 256), (32, 64), (16, 128), (8, 256), (32, 32), (16, 64), (8, 128), (4, 256), (16, 32), (32, 16), (8, 64), (4, 128), (2, 256), (16, 16), (8, 32), (32, 8), (4, 64), (2, 128), (1, 256), (8, 16), (16, 8), (4, 32), (2, 64), (1, 128), (8, 8), (4, 16), (2, 32), (1, 64), (4, 8), (2, 16), (1, 32)}
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: chunk_reduce: does not apply
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: register_tile: (FM, FN) in {(4, 4)*, (2, 8), (8, 2), (1, 16), (16, 1), (2, 4), (4, 8), (4, 2), (8, 4), (1, 8), (2, 16), (8, 1), (16, 2), (2, 2), (8, 8), (1, 4), (4, 16), (4, 1), (16, 4)}
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: stage_inputs: stage in {[0, 1]*, [1], [0], []}
// MATMUL-FORKS: matmul.mlir:10:11: remark: @matmul_0_reduce: mark_unroll: unroll in {32*, 1, 2, 4, 8, 16}

// RMSNORM-FORKS: rmsnorm.mlir:24:13: remark: @rmsnorm_0_reduce: cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, 512, 1024, 1, (2, 32), (4, 32), (8, 32), (16, 32), (2, 64), (4, 64), (8, 64), (2, 128), (4, 128), (2, 256)}

// SDPA-FORKS: sdpa.mlir:41:11: remark: @sdpa_0_reduce: attention_blocks: (BKV, BQ, split_kv, split_kv_blocks) in {(32, 16, 16)*, (32, 32, 1), (32, 32, 2), (32, 32, 4), (32, 32, 8), (16, 32, 1), (16, 32, 2), (16, 32, 4), (16, 32, 8), (32, 64, 1), (32, 64, 2), (32, 64, 4), (16, 64, 1), (16, 64, 2), (16, 64, 4), (32, 128, 1), (32, 128, 2), (16, 128, 1), (16, 128, 2), (32, 256, 1), (16, 256, 1), (32, 1, 32), (32, 2, 16), (32, 2, 32), (16, 2, 16), (32, 4, 8), (32, 4, 16), (32, 4, 32), (16, 4, 8), (16, 4, 16), (32, 8, 4), (32, 8, 8), (32, 8, 16), (32, 8, 32), (16, 8, 4), (16, 8, 8), (16, 8, 16), (32, 16, 2), (32, 16, 4), (32, 16, 8), (16, 16, 2), (16, 16, 4), (16, 16, 8), (16, 16, 16), (16, 32, 1, 2), (16, 32, 2, 2), (16, 32, 4, 2), (16, 32, 8, 2), (16, 64, 1, 2), (16, 64, 2, 2), (16, 64, 4, 2), (16, 128, 1, 2), (16, 128, 2, 2), (16, 256, 1, 2), (16, 2, 16, 2), (16, 4, 8, 2), (16, 4, 16, 2), (16, 8, 4, 2), (16, 8, 8, 2), (16, 8, 16, 2), (16, 16, 2, 2), (16, 16, 4, 2), (16, 16, 8, 2), (16, 16, 16, 2)}
// SDPA-FORKS: sdpa.mlir:41:11: remark: @sdpa_0_reduce: mark_unroll: unroll in {1*}

// ILLEGAL: matmul.mlir:10:11: error: 'dtile.kernel' op knobs BK=48 are not a legal option of chunk_matmul_k: BK in {32*, 16, 64, 128}
// TARGET: error: unknown target 'sm_100'; expected sm_80, sm_90 or sm_90a
// UNTAKEN: error: no rule took knob "BK" for any kernel
