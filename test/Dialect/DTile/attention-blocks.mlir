// The online-softmax kernel of sdpa (37 queries and keys, 4 heads sharing 2
// KV heads, head dimension 8), as lower-to-loop leaves it.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37 | deplodock-opt --lower-to-loop > %t.loop.mlir
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-cooperative-reduce --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16 | FileCheck %s --check-prefix=STEPS
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=64,BKV=37 | FileCheck %s --check-prefix=WHOLE
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-blocks | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=32,BKV=16" | FileCheck %s --check-prefix=STAGED
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=32,BKV=16,reg_double=false" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
/// Rows of 128 f32 accumulators (head dim 128) in heads of 128 queries: 32
/// rows a block and 32 keys a step, each row shared by 8 threads
/// (attention_split_d); where that split cannot follow (on a GPU with
/// registers for the whole row) 64 keys a step over 8 threads a row; neither
/// at head dim 64, nor for 64 queries a head.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=128,D=128 | deplodock-opt --lower-to-tile | FileCheck %s --check-prefix=WIDE-ROWS
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=128,D=128 | sed -e '1i module attributes {dkernel.target = #dkernel.target<"regs1024", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 1048576, registers_per_thread = 1024, warp_size = 32, l2_bytes = 4194304, features = [cp_async]>} {' -e '$a }' | deplodock-opt --lower-to-tile | FileCheck %s --check-prefix=WIDE-UNSPLIT
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=128,D=64 | deplodock-opt --lower-to-tile | FileCheck %s --check-prefix=NARROW-ROWS
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=64,D=128 | deplodock-opt --lower-to-tile | FileCheck %s --check-prefix=NARROW-ROWS
// RUN: not deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=48,BKV=16 --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
/// A single query per head (decoding) leaves only the heads' axis: 32 rows in
/// all, each a warp's keys and a block of its own, not a thread per row.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=1,S=100,NH=32,NKV=4 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-cooperative-reduce --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=DECODE1
// DECODE1: remark: @sdpa_0_reduce: attention_blocks: (BKV, BQ, split_kv, split_kv_blocks) in {(32, 1, 32)*,
/// Kernels that are no online softmax are left exactly as they were, and
/// the rules for reductions leave the online softmax to this one.
// RUN: %python %deplodock_src_root/examples/generate.py --small softmax | deplodock-opt --lower-to-loop --dtile-tileify > %t.softmax.mlir
// RUN: deplodock-opt %t.softmax.mlir --dtile-attention-blocks | diff %t.softmax.mlir -
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-cooperative-reduce=list-forks=true --dtile-chunk-matmul-k=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=OTHERS

/// Query blocks of a warp up to 256 rows (4 x 37 = 148 rows in all), key
/// steps of every key or 16 and 32; with 37 queries per head (at most 64),
/// 2 to 32 threads per row within 256 per block, and blocks of 1 to 16 rows
/// whose threads fill a warp. 37 queries are no decoding, but 148 rows are
/// far fewer than four warps per SM: the default 32 threads per row (the
/// most), 8 rows per block (256 threads) and 32 keys per step.
// FORKS: remark: @sdpa_0_reduce: attention_blocks: (BKV, BQ, split_kv, split_kv_blocks) in {(32, 8, 32)*, (37, 32, 1), (37, 32, 2), (37, 32, 4), (37, 32, 8), (16, 32, 1), (16, 32, 2), (16, 32, 4), (16, 32, 8), (32, 32, 1), (32, 32, 2), (32, 32, 4), (32, 32, 8), (37, 64, 1), (37, 64, 2), (37, 64, 4), (16, 64, 1), (16, 64, 2), (16, 64, 4), (32, 64, 1), (32, 64, 2), (32, 64, 4), (37, 128, 1), (37, 128, 2), (16, 128, 1), (16, 128, 2), (32, 128, 1), (32, 128, 2), (37, 256, 1), (16, 256, 1), (32, 256, 1), (37, 1, 32), (32, 1, 32), (37, 2, 16), (37, 2, 32), (16, 2, 16), (32, 2, 16), (32, 2, 32), (37, 4, 8), (37, 4, 16), (37, 4, 32), (16, 4, 8), (16, 4, 16), (32, 4, 8), (32, 4, 16), (32, 4, 32), (37, 8, 4), (37, 8, 8), (37, 8, 16), (37, 8, 32), (16, 8, 4), (16, 8, 8), (16, 8, 16), (32, 8, 4), (32, 8, 8), (32, 8, 16), (37, 16, 2), (37, 16, 4), (37, 16, 8), (37, 16, 16), (16, 16, 2), (16, 16, 4), (16, 16, 8), (16, 16, 16), (32, 16, 2), (32, 16, 4), (32, 16, 8), (32, 16, 16), (16, 32, 1, 3), (16, 32, 2, 3), (16, 32, 4, 3), (16, 32, 8, 3), (32, 32, 1, 2), (32, 32, 2, 2), (32, 32, 4, 2), (32, 32, 8, 2), (16, 64, 1, 3), (16, 64, 2, 3), (16, 64, 4, 3), (32, 64, 1, 2), (32, 64, 2, 2), (32, 64, 4, 2), (16, 128, 1, 3), (16, 128, 2, 3), (32, 128, 1, 2), (32, 128, 2, 2), (32, 1, 32, 2), (16, 2, 16, 3), (32, 2, 16, 2), (32, 2, 32, 2), (16, 4, 8, 3), (16, 4, 16, 3), (32, 4, 8, 2), (32, 4, 16, 2), (32, 4, 32, 2), (16, 8, 4, 3), (16, 8, 8, 3), (16, 8, 16, 3), (32, 8, 4, 2), (32, 8, 8, 2), (32, 8, 16, 2), (32, 8, 32, 2), (16, 16, 2, 3), (16, 16, 4, 3), (16, 16, 8, 3), (16, 16, 16, 3), (32, 16, 2, 2), (32, 16, 4, 2), (32, 16, 8, 2), (32, 16, 16, 2)}

/// 32 query rows per block, one per thread (the last block of each head
/// masked: 37 = 32 + 5); the keys in 3 steps of 16, the last one masked,
/// each step rescaling the private accumulators. The thread's query row is
/// read once, under the row mask, into a private buffer that q.k reads.
// STEPS:      dtile.kernel @sdpa_0_reduce knobs<BKV = 16, BQ = 32, split_kv = 1>
// STEPS:        dtile.tile blocks(%[[H:.*]] : 4 "d0", %[[QO:.*]] : 2 "d1_o") threads(%[[QI:.*]] : 32 "d1_i") {
// STEPS:          %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %c37 : index
// STEPS:          %[[ACC:.*]] = memref.alloca() : memref<8xf32>
// STEPS:          %[[Q:.*]] = memref.alloca() : memref<8xf32>
// STEPS-NEXT:     dloop.for %[[DQ:.*]] = 0 to 8 free "r1_row" {
// STEPS-NEXT:       %[[QV:.*]] = scf.if %[[VALID]] -> (f32) {
// STEPS-NEXT:         dloop.load %in1[0, %[[H]], %[[QO]] * 32 + %[[QI]], %[[DQ]]] : memref<1x4x37x8xf32>
// STEPS:            dloop.store %[[QV]], %[[Q]][%[[DQ]]] : memref<8xf32>
// STEPS:          %[[ROW:.*]]:2 = dloop.for %[[JO:.*]] = 0 to 3 reduce "r0_o" iter({{.*}} : f32, {{.*}} : f32) {
// STEPS-NEXT:       dloop.for %[[JI:.*]] = 0 to 16 reduce "r0_i" iter({{.*}} : f32, {{.*}} : f32) {
// STEPS:              %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %c37 : index
// STEPS:              scf.if %[[INSIDE]] -> (f32, f32) {
// STEPS-NEXT:           dloop.for %[[D1:.*]] = 0 to 8 reduce "r1" iter(%{{.*}} : f32) {
// STEPS-NEXT:             dloop.load %[[Q]][%[[D1]]] : memref<8xf32>
// STEPS-NOT:              %in1
// STEPS:                dloop.load %{{.*}}[0, %[[H]] floordiv 2, %[[JO]] * 16 + %[[JI]], %{{.*}}] : memref<1x2x37x8xf32>
// STEPS:                math.exp
// STEPS:                math.exp
// STEPS:                dloop.for %[[D:.*]] = 0 to 8 free
// STEPS:                  dloop.store %{{.*}}, %[[ACC]][%[[D]]] : memref<8xf32>
// STEPS:          dloop.for %[[D2:.*]] = 0 to 8 free
// STEPS:            arith.divf %{{.*}}, %[[ROW]]#1
// STEPS:            dloop.store %{{.*}}, %{{.*}}[0, %[[H]], %[[QO]] * 32 + %[[QI]], %[[D2]]] : memref<1x4x37x8xf32>

/// Every key in one step: the key loop is kept whole.
// WHOLE:      dtile.kernel @sdpa_0_reduce knobs<BKV = 37, BQ = 64, split_kv = 1>
// WHOLE:        threads(%{{.*}} : 64
// WHOLE:        dloop.for %{{.*}} = 0 to 37 reduce "r0" iter(
// WHOLE-NOT:    "r0_o"

// DEFAULT: dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 8, split_kv = 32>

/// The block's threads share each step's K and V rows: stage_inputs stages
/// both, a step (16 keys x 8) at a time.
// STAGED:     dtile.kernel @sdpa_0_reduce knobs<BKV = 16, BQ = 32, {{.*}}stage = [0, 2]
// STAGED-DAG: dtile.stage %in0[{{.*}}] box [1, 1, 16, 8]
// STAGED-DAG: dtile.stage %in2[{{.*}}] box [1, 1, 16, 8]

/// In the CUDA, the query row is read from global memory once, before the
/// key loop, into an array that every loop indexing it unrolls fully (so it
/// stays in registers); q.k reads it, not in1.
// CUDA:      float local0[8];
// CUDA:      float local1[8];
// CUDA-NEXT: #pragma unroll 8
// CUDA-NEXT: for (int [[F:i[0-9]+]] = 0; [[F]] < 8; [[F]] += 1) {
// CUDA:        in1[{{.*}} + [[F]]];
// CUDA:        local1{{\[}}[[F]]{{\]}} =
// CUDA:      for (int {{i[0-9]+}} = 0; {{.*}}) {
// CUDA-NOT:  in1[
// CUDA:      #pragma unroll 8
// CUDA-NEXT: for (int [[D:i[0-9]+]] = 0; [[D]] < 8; [[D]] += 1) {
// CUDA-NEXT:   const float {{v[0-9]+}} = local1{{\[}}[[D]]{{\]}};
// CUDA-NOT:  in1[
// CUDA:      #pragma unroll 8
// CUDA-NEXT: for (int [[A:i[0-9]+]] = 0; [[A]] < 8; [[A]] += 1) {
// CUDA-NEXT:   const float {{v[0-9]+}} = local0{{\[}}[[A]]{{\]}};
// CUDA-NOT:  in1[

// ILLEGAL: error: 'dtile.kernel' op knobs BKV=16,BQ=48 are not a legal option of attention_blocks

// OTHERS: remark: @sdpa_0_reduce: cooperative_reduce: does not apply
// OTHERS: remark: @sdpa_0_reduce: chunk_matmul_k: does not apply

// WIDE-ROWS: knobs<BKV = 32, BQ = 32, {{.*}}split_d = 8, split_kv = 1,
// WIDE-UNSPLIT: knobs<BKV = 64, BQ = 32, {{.*}}reg_double = false, split_kv = 8,
// NARROW-ROWS-NOT: BKV = 64, BQ = 32,
// NARROW-ROWS: knobs<BKV = 32,
