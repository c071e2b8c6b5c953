// attention_blocks' split_kv_blocks (flash-decoding): decoding (3 queries per
// head, 100 keys, 4 heads sharing 2 KV heads) in steps of 32 keys has 4
// steps, which split_kv_blocks = 2 deals to 2 blocks of 2 steps each. Each
// block stores its partial softmax (m, l, a[d]) to f32 workspaces and a
// second kernel merges them in order, then runs the epilogue.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=100 --dtype bf16 | deplodock-opt --lower-to-loop > %t.decode.mlir
// RUN: deplodock-opt %t.decode.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=12,BKV=32,split_kv=1,split_kv_blocks=2 | FileCheck %s --check-prefix=SPLIT
// RUN: deplodock-opt %t.decode.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=12,BKV=32,split_kv=8,split_kv_blocks=2 | FileCheck %s --check-prefix=BOTH
// RUN: deplodock-opt %t.decode.mlir --dtile-lower="target=sm_90 knobs=BQ=12,BKV=32,split_kv=8,split_kv_blocks=2" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL
/// Option 0 (the default) does not split over blocks.
// RUN: deplodock-opt %t.decode.mlir --dtile-lower=target=sm_90 | FileCheck %s --check-prefix=DEFAULT
/// Refusals: a split that does not divide the steps (16 keys a step: 7),
/// a head of 100 query rows, attention_mma's tensor-core kernel, and key
/// loops that are not an online softmax.
// RUN: not deplodock-opt %t.decode.mlir --dtile-lower="target=sm_90 knobs=BQ=12,BKV=16,split_kv=1,split_kv_blocks=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100 | deplodock-opt --lower-to-loop > %t.long.mlir
// RUN: not deplodock-opt %t.long.mlir --dtile-lower="target=sm_90 knobs=split_kv_blocks=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=100,D=16 --dtype f16 | deplodock-opt --lower-to-loop > %t.mma.mlir
// RUN: not deplodock-opt %t.mma.mlir --dtile-lower="target=sm_90 knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16,split_kv_blocks=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: rm -rf %t.fuzz && split-file %deplodock_src_root/test/Fuzz/regressions/split-kv-not-online-softmax.mlir %t.fuzz
// RUN: not deplodock-opt %t.fuzz/init.mlir --dtile-lower="target=sm_90 knobs=split_kv_blocks=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOT-ONLINE

/// The split kernel: a new outermost block axis r0_s; split s runs steps
/// 2 s and 2 s + 1 (keys 64 s + 32 o + i, the last ones masked at 100) and
/// stores its running maximum, sum and accumulators at [s, head, query].
// SPLIT:      %[[M:.*]] = memref.alloc() : memref<2x4x3xf32>
// SPLIT-NEXT: %[[L:.*]] = memref.alloc() : memref<2x4x3xf32>
// SPLIT-NEXT: %[[A:.*]] = memref.alloc() : memref<2x4x3x8xf32>
// SPLIT:      dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 12, split_kv = 1, split_kv_blocks = 2> {{.*}} outs(%[[OM:.*]] = %[[M]] : memref<2x4x3xf32>, %[[OL:.*]] = %[[L]] : memref<2x4x3xf32>, %[[OA:.*]] = %[[A]] : memref<2x4x3x8xf32>) {
// SPLIT:        dtile.tile blocks(%[[S:.*]] : 2 "r0_s") threads(%[[H:.*]] : 4 "d0", %[[Q:.*]] : 3 "d1") {
// SPLIT:          %[[ACC:.*]] = memref.alloca() : memref<8xf32>
// SPLIT:          %[[ROW:.*]]:2 = dloop.for %{{.*}} = 0 to 2 reduce "r0_o"
// SPLIT:            arith.cmpi ult, %{{.*}}, %c100 : index
// SPLIT:          dloop.store %[[ROW]]#0, %[[OM]][%[[S]], %[[H]], %[[Q]]] : memref<2x4x3xf32>
// SPLIT-NEXT:     dloop.store %[[ROW]]#1, %[[OL]][%[[S]], %[[H]], %[[Q]]] : memref<2x4x3xf32>
// SPLIT-NEXT:     dloop.for %[[D:.*]] = 0 to 8 free "kv_d" {
// SPLIT-NEXT:       %[[V:.*]] = dloop.load %[[ACC]][%[[D]]] : memref<8xf32>
// SPLIT-NEXT:       dloop.store %[[V]], %[[OA]][%[[S]], %[[H]], %[[Q]], %[[D]]] : memref<2x4x3x8xf32>
// SPLIT-NOT:      memref<1x4x3x8xbf16>
/// The merge kernel, born mapped (a thread per query row): M = max m_s over
/// the splits in order, then c_s = exp(m_s - M) (0 where m_s = -inf),
/// L = sum l_s c_s and A[d] = sum a_s[d] c_s in f32; then the kernel's own
/// epilogue A[d] / L, rounded to bf16.
// SPLIT:      dtile.kernel @sdpa_0_reduce_kv_merge ins(%[[IM:.*]] = %[[M]] : memref<2x4x3xf32>, %[[IL:.*]] = %[[L]] : memref<2x4x3xf32>, %[[IA:.*]] = %[[A]] : memref<2x4x3x8xf32>) outs(%{{.*}} : memref<1x4x3x8xbf16>) {
// SPLIT-NOT:    knobs
// SPLIT:        dtile.tile blocks(%{{.*}} : 1 "unit") threads(%[[MH:.*]] : 4 "d0", %[[MQ:.*]] : 3 "d1") {
// SPLIT:          %[[MACC:.*]] = memref.alloca() : memref<8xf32>
// SPLIT:          %[[MAX:.*]] = dloop.for %[[S0:.*]] = 0 to 2 reduce "r0_s" iter(%[[RM:.*]] = %[[NINF:.*]] : f32) {
// SPLIT-NEXT:       %[[MS:.*]] = dloop.load %[[IM]][%[[S0]], %[[MH]], %[[MQ]]] : memref<2x4x3xf32>
// SPLIT-NEXT:       %[[NM:.*]] = arith.maximumf %[[RM]], %[[MS]] : f32
// SPLIT-NEXT:       dloop.yield %[[NM]] : f32
// SPLIT:          %[[SUM:.*]] = dloop.for %[[S1:.*]] = 0 to 2 reduce "r0_s" iter(%[[RL:.*]] = %{{.*}} : f32) {
// SPLIT-NEXT:       %[[MS1:.*]] = dloop.load %[[IM]][%[[S1]], %[[MH]], %[[MQ]]] : memref<2x4x3xf32>
// SPLIT-NEXT:       %[[DIFF:.*]] = arith.subf %[[MS1]], %[[MAX]] : f32
// SPLIT-NEXT:       %[[E:.*]] = math.exp %[[DIFF]] : f32
// SPLIT-NEXT:       %[[EMPTY:.*]] = arith.cmpf oeq, %[[MS1]], %[[NINF]] : f32
// SPLIT-NEXT:       %[[C:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[E]] : f32
// SPLIT-NEXT:       %[[LS:.*]] = dloop.load %[[IL]][%[[S1]], %[[MH]], %[[MQ]]] : memref<2x4x3xf32>
// SPLIT-NEXT:       dloop.for %[[MD:.*]] = 0 to 8 free "kv_d" {
// SPLIT-NEXT:         %[[OLD:.*]] = dloop.load %[[MACC]][%[[MD]]] : memref<8xf32>
// SPLIT-NEXT:         %[[AS:.*]] = dloop.load %[[IA]][%[[S1]], %[[MH]], %[[MQ]], %[[MD]]] : memref<2x4x3x8xf32>
// SPLIT-NEXT:         %[[SC:.*]] = arith.mulf %[[AS]], %[[C]] : f32
// SPLIT-NEXT:         %[[NEW:.*]] = arith.addf %[[OLD]], %[[SC]] : f32
// SPLIT-NEXT:         dloop.store %[[NEW]], %[[MACC]][%[[MD]]] : memref<8xf32>
// SPLIT:            %[[LC:.*]] = arith.mulf %[[LS]], %[[C]] : f32
// SPLIT-NEXT:       %[[NL:.*]] = arith.addf %[[RL]], %[[LC]] : f32
// SPLIT-NEXT:       dloop.yield %[[NL]] : f32
// SPLIT:          dloop.for %[[ED:.*]] = 0 to 8 free
// SPLIT-NEXT:       %[[FA:.*]] = dloop.load %[[MACC]][%[[ED]]] : memref<8xf32>
// SPLIT-NEXT:       %[[O:.*]] = arith.divf %[[FA]], %[[SUM]] : f32
// SPLIT-NEXT:       %[[R:.*]] = arith.truncf %[[O]] : f32 to bf16
// SPLIT-NEXT:       dloop.store %[[R]], %{{.*}}[0, %[[MH]], %[[MQ]], %[[ED]]] : memref<1x4x3x8xbf16>

/// With split_kv = 8 too, the 8 threads of a row merge first (dtile.combine
/// over "kv"), and the row's first thread stores the block's partial
/// softmax.
// BOTH:      dtile.tile blocks(%{{.*}} : 2 "r0_s") threads(%{{.*}} : 4 "d0", %{{.*}} : 3 "d1", %[[KV:.*]] : 8 "kv") {
// BOTH:        dtile.strided_for %{{.*}} = %[[KV]] to 32 step 8 reduce "r0_i"
// BOTH:        %[[RM:.*]] = dtile.combine max %{{.*}} over ["kv"] : f32
// BOTH:        %[[RL:.*]] = dtile.combine add %{{.*}} over ["kv"] : f32
// BOTH:        %[[FIRST:.*]] = arith.cmpi eq, %[[KV]], %c0 : index
// BOTH:        scf.if %[[FIRST]] {
// BOTH-NEXT:     dloop.store %[[RM]], %{{.*}} : memref<2x4x3xf32>
// BOTH-NEXT:     dloop.store %[[RL]], %{{.*}} : memref<2x4x3xf32>
// BOTH:        dloop.for
// BOTH:          dtile.combine add %{{.*}} over ["kv"] : f32
// BOTH:          scf.if %[[FIRST]] {
// BOTH-NEXT:       dloop.store %{{.*}} : memref<2x4x3x8xf32>
// BOTH:      dtile.kernel @sdpa_0_reduce_kv_merge

/// Two launches: the split kernel over 2 blocks, then the merge kernel.
// KERNEL:      dkernel.func @sdpa_0_reduce({{.*}}) outputs [3, 4, 5] grid [2, 1, 1] block [96, 1, 1]
// KERNEL:      dkernel.warp_reduce max %{{.*}} width 8 : f32
// KERNEL:      dkernel.func @sdpa_0_reduce_kv_merge({{.*}}) outputs [3] grid [1, 1, 1] block [12, 1, 1]
// KERNEL:      dkernel.launch @sdpa_0_reduce(
// KERNEL-NEXT: dkernel.launch @sdpa_0_reduce_kv_merge(

// DEFAULT:     dtile.kernel @sdpa_0_reduce knobs<BKV = 32, BQ = 1, {{.*}}split_kv = 32
// DEFAULT-NOT: split_kv_blocks
// DEFAULT-NOT: _kv_merge

// STEPS: error: 'dtile.kernel' op knobs BKV=16,BQ=12,split_kv=1,split_kv_blocks=2 are not a legal option of attention_blocks
// LONG: error: 'dtile.kernel' op knob split_kv_blocks=2: attention_blocks cannot split the keys of @sdpa_0_reduce over blocks: a head has more than 64 query rows
// MMA: error: 'dtile.kernel' op knob split_kv_blocks=2: attention_blocks cannot split the keys of @sdpa_0_reduce over blocks: it runs on tensor cores (attention_mma), which does not split keys over blocks
// NOT-ONLINE: error: 'dtile.kernel' op knob split_kv_blocks=2: attention_blocks cannot split the keys of @sdpa_0_reduce over blocks: its key loop does not carry just an online softmax's running maximum and sum
