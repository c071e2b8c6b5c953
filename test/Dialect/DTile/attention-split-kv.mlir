// attention_blocks' split_kv: decoding (3 queries per head, 100 keys, 4
// heads sharing 2 KV heads) has 12 query rows in all, so one thread per row
// leaves a block nearly empty; split_kv threads share each row's keys and
// merge their partial softmaxes exactly.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=100 --dtype bf16 | deplodock-opt --lower-to-loop > %t.decode.mlir
// RUN: deplodock-opt %t.decode.mlir --dtile-tileify --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.decode.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=12,BKV=32,split_kv=8 | FileCheck %s --check-prefix=SPLIT
// RUN: deplodock-opt %t.decode.mlir --dtile-lower="target=sm_90 knobs=BQ=12,BKV=32,split_kv=8" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-opt %t.decode.mlir --dtile-lower=target=sm_90 | FileCheck %s --check-prefix=DEFAULT
/// Long query lengths (100 per head) split too while the rows (400) fill
/// fewer than four warps per SM: 32 threads per row, 8 rows per block. With
/// rows enough for that (128 heads of 256), one thread per row.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=LONG
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=256,NH=128,NKV=16 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FULL
// RUN: not deplodock-opt %t.decode.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=12,BKV=16,split_kv=32 --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL

/// All 12 rows in a block with 2 to 16 threads per row (12 x 16 = 192
/// threads, at most as many as the keys of a step), or blocks of 1 to 8
/// rows whose threads fill a warp or more; the default for decoding a warp
/// per row and a row per block (12 blocks). Then split_kv_blocks
/// (attention-split-kv-blocks.mlir) on the stepped options: the divisors of
/// the step count (16 keys: 7 steps; 32: 4; 64: 2).
// FORKS: remark: @sdpa_0_reduce: attention_blocks: (BKV, BQ, split_kv, split_kv_blocks) in {(32, 1, 32)*, (100, 12, 1), (100, 12, 2), (100, 12, 4), (100, 12, 8), (100, 12, 16), (16, 12, 1), (16, 12, 2), (16, 12, 4), (16, 12, 8), (16, 12, 16), (32, 12, 1), (32, 12, 2), (32, 12, 4), (32, 12, 8), (32, 12, 16), (64, 12, 1), (64, 12, 2), (64, 12, 4), (64, 12, 8), (64, 12, 16), (100, 1, 32), (64, 1, 32), (100, 2, 16), (100, 2, 32), (16, 2, 16), (32, 2, 16), (32, 2, 32), (64, 2, 16), (64, 2, 32), (100, 4, 8), (100, 4, 16), (100, 4, 32), (16, 4, 8), (16, 4, 16), (32, 4, 8), (32, 4, 16), (32, 4, 32), (64, 4, 8), (64, 4, 16), (64, 4, 32), (100, 8, 4), (100, 8, 8), (100, 8, 16), (100, 8, 32), (16, 8, 4), (16, 8, 8), (16, 8, 16), (32, 8, 4), (32, 8, 8), (32, 8, 16), (32, 8, 32), (64, 8, 4), (64, 8, 8), (64, 8, 16), (64, 8, 32), (16, 12, 1, 7), (16, 12, 2, 7), (16, 12, 4, 7), (16, 12, 8, 7), (16, 12, 16, 7), (32, 12, 1, 2), (32, 12, 1, 4), (32, 12, 2, 2), (32, 12, 2, 4), (32, 12, 4, 2), (32, 12, 4, 4), (32, 12, 8, 2), (32, 12, 8, 4), (32, 12, 16, 2), (32, 12, 16, 4), (64, 12, 1, 2), (64, 12, 2, 2), (64, 12, 4, 2), (64, 12, 8, 2), (64, 12, 16, 2), (32, 1, 32, 2), (32, 1, 32, 4), (64, 1, 32, 2), (16, 2, 16, 7), (32, 2, 16, 2), (32, 2, 16, 4), (32, 2, 32, 2), (32, 2, 32, 4), (64, 2, 16, 2), (64, 2, 32, 2), (16, 4, 8, 7), (16, 4, 16, 7), (32, 4, 8, 2), (32, 4, 8, 4), (32, 4, 16, 2), (32, 4, 16, 4), (32, 4, 32, 2), (32, 4, 32, 4), (64, 4, 8, 2), (64, 4, 16, 2), (64, 4, 32, 2), (16, 8, 4, 7), (16, 8, 8, 7), (16, 8, 16, 7), (32, 8, 4, 2), (32, 8, 4, 4), (32, 8, 8, 2), (32, 8, 8, 4), (32, 8, 16, 2), (32, 8, 16, 4), (32, 8, 32, 2), (32, 8, 32, 4), (64, 8, 4, 2), (64, 8, 8, 2), (64, 8, 16, 2), (64, 8, 32, 2)}

/// Thread kv of a row takes keys kv, kv + 8, ... of each step of 32, with
/// its own running maximum, sum and accumulators; after the key loop the
/// maximum is combined, each thread's share rescaled by exp(m - M) (0 for a
/// thread that saw only masked keys), sums and accumulators added, all in
/// f32 though the inputs are bf16; the row's first thread stores.
// SPLIT:      dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 12, split_kv = 8>
// SPLIT:        dtile.tile blocks(%{{.*}} : 1 "unit") threads(%{{.*}} : 4 "d0", %{{.*}} : 3 "d1", %[[KV:.*]] : 8 "kv") {
// SPLIT:          %[[ACC:.*]] = memref.alloca() : memref<8xf32>
// SPLIT:          %[[ROW:.*]]:2 = dloop.for %[[STEP:.*]] = 0 to 4 reduce "r0_o" iter(
// SPLIT-NEXT:       dtile.strided_for %[[KEY:.*]] = %[[KV]] to 32 step 8 reduce "r0_i" iter(
// SPLIT:              dloop.store %{{.*}}, %[[ACC]][%{{.*}}] : memref<8xf32>
// SPLIT:          %[[M:.*]] = dtile.combine max %[[ROW]]#0 over ["kv"] : f32
// SPLIT:          %[[D:.*]] = arith.subf %[[ROW]]#0, %[[M]] : f32
// SPLIT:          %[[E:.*]] = math.exp %[[D]] : f32
// SPLIT:          %[[EMPTY:.*]] = arith.cmpf oeq, %[[ROW]]#0, %cst_0 : f32
// SPLIT:          %[[C:.*]] = arith.select %[[EMPTY]], %cst, %[[E]] : f32
// SPLIT:          %[[LS:.*]] = arith.mulf %[[ROW]]#1, %[[C]] : f32
// SPLIT:          %[[L:.*]] = dtile.combine add %[[LS]] over ["kv"] : f32
// SPLIT:          %[[FIRST:.*]] = arith.cmpi eq, %[[KV]], %c0 : index
// SPLIT:          dloop.for %[[DD:.*]] = 0 to 8 free
// SPLIT:            %[[A:.*]] = dloop.load %[[ACC]][%[[DD]]] : memref<8xf32>
// SPLIT:            %[[AS:.*]] = arith.mulf %[[A]], %[[C]] : f32
// SPLIT:            %[[AA:.*]] = dtile.combine add %[[AS]] over ["kv"] : f32
// SPLIT:            arith.divf %[[AA]], %[[L]] : f32
// SPLIT:            scf.if %[[FIRST]] {
// SPLIT:              dloop.store %{{.*}}, %{{.*}}[0, %{{.*}}, %{{.*}}, %[[DD]]] : memref<1x4x3x8xbf16>

/// The 8 threads of a row are neighbouring lanes: warp reductions of width
/// 8 merge them, in f32.
// KERNEL: dkernel.warp_reduce max %{{.*}} width 8 : f32
// KERNEL: dkernel.warp_reduce add %{{.*}} width 8 : f32
// KERNEL: dkernel.warp_reduce add %{{.*}} width 8 : f32

/// By default a warp per row, a block per row; the K and V rows of each
/// step, which every lane of the row reads a share of, are staged.
// DEFAULT:      dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 1, {{.*}}split_kv = 32
// DEFAULT:        dtile.tile blocks(%{{.*}} : 4 "d0", %{{.*}} : 3 "d1") threads(%[[KV:.*]] : 32 "kv") {
// DEFAULT-DAG:      dtile.stage %in2[{{.*}}] box [1, 1, 32, 8]
// DEFAULT-DAG:      dtile.stage %in0[{{.*}}] box [1, 1, 32, 8]
// DEFAULT:          dtile.strided_for %{{.*}} = %[[KV]] to 32 step 32 reduce

// LONG: remark: @sdpa_0_reduce: attention_blocks: (BKV, BQ, split_kv) in {(32, 8, 32)*, (100, 32, 1), (100, 32, 2), (100, 32, 4), (100, 32, 8), (16, 32, 1), (16, 32, 2), (16, 32, 4), (16, 32, 8), (32, 32, 1), (32, 32, 2), (32, 32, 4), (32, 32, 8), (64, 32, 1), (64, 32, 2), (64, 32, 4), (64, 32, 8), (100, 64, 1), (100, 64, 2), (100, 64, 4), (16, 64, 1), (16, 64, 2), (16, 64, 4), (32, 64, 1), (32, 64, 2), (32, 64, 4), (64, 64, 1), (64, 64, 2), (64, 64, 4), (100, 128, 1), (100, 128, 2), (16, 128, 1), (16, 128, 2), (32, 128, 1), (32, 128, 2), (64, 128, 1), (64, 128, 2), (100, 256, 1), (16, 256, 1), (32, 256, 1), (64, 256, 1), (100, 1, 32), (32, 1, 32), (64, 1, 32), (100, 2, 16), (100, 2, 32), (16, 2, 16), (32, 2, 16), (32, 2, 32), (64, 2, 16), (64, 2, 32), (100, 4, 8), (100, 4, 16), (100, 4, 32), (16, 4, 8), (16, 4, 16), (32, 4, 8), (32, 4, 16), (32, 4, 32), (64, 4, 8), (64, 4, 16), (64, 4, 32), (100, 8, 4), (100, 8, 8), (100, 8, 16), (100, 8, 32), (16, 8, 4), (16, 8, 8), (16, 8, 16), (32, 8, 4), (32, 8, 8), (32, 8, 16), (64, 8, 4), (64, 8, 8), (64, 8, 16), (64, 8, 32), (100, 16, 2), (100, 16, 4), (100, 16, 8), (100, 16, 16), (16, 16, 2), (16, 16, 4), (16, 16, 8), (16, 16, 16), (32, 16, 2), (32, 16, 4), (32, 16, 8), (32, 16, 16), (64, 16, 2), (64, 16, 4), (64, 16, 8), (64, 16, 16)}
// FULL: remark: @sdpa_0_reduce: attention_blocks: (BKV, BQ, split_kv) in {(32, 64, 1)*, (256, 32, 1), (16, 32, 1), (32, 32, 1), (64, 32, 1), (128, 32, 1), (256, 64, 1), (16, 64, 1), (64, 64, 1), (128, 64, 1), (256, 128, 1), (16, 128, 1), (32, 128, 1), (64, 128, 1), (128, 128, 1), (256, 256, 1), (16, 256, 1), (32, 256, 1), (64, 256, 1), (128, 256, 1)}

// ILLEGAL: error: 'dtile.kernel' op knobs BKV=16,BQ=12,split_kv=32 are not a legal option of attention_blocks
