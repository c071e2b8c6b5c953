// attention_split_d: the threads of a query row share its head dimension,
// each lane keeping every split_d-th element of the query row and of the
// accumulators, q.k combined over the lanes. Offered after attention_blocks
// with one thread a row's keys, where a thread's rows would not fit its
// registers (head dimension 128 in f32: 256 floats); 8 lanes by default
// where attention_blocks leaves 128 query rows a head or more.
//
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=128,NH=2,NKV=1 > %t.sdpa37.mlir
// RUN: deplodock-opt %t.sdpa37.mlir --lower-to-loop > %t.loop.mlir
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 list-forks knobs=BQ=32,BKV=16,split_kv=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 list-forks knobs=BQ=128,BKV=16,split_kv=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS128
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 list-forks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS-KV
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16,split_kv=1 --dtile-attention-split-d=knobs=split_d=8 | FileCheck %s --check-prefix=SPLIT
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=8" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-opt %t.loop.mlir --dtile-lower=target=sm_90 | FileCheck %s --check-prefix=DEFAULT
/// Heads of 128 query rows: the default splits each row 8 ways (32 rows a
/// block, 32 keys a step), and computes what the tensor program does.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=128,D=128,NH=2,NKV=1 > %t.sdpa128.mlir
// RUN: deplodock-opt %t.sdpa128.mlir --lower-to-tile=target=sm_90 | FileCheck %s --check-prefix=LONG-HEADS
// RUN: deplodock-run --interp %t.sdpa128.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90}" | FileCheck %s --check-prefix=NUM1
/// Such rows also list 16-row blocks with one thread a row's keys (8 lanes
/// a row make them 4 warps; twice the blocks of 32 rows), which head
/// dimension 64 does not.
// RUN: deplodock-opt %t.sdpa128.mlir --lower-to-loop | deplodock-opt --dtile-tileify --dtile-attention-blocks=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BLOCKS16
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=128,D=64,NH=2,NKV=1 | deplodock-opt --lower-to-loop | deplodock-opt --dtile-tileify --dtile-attention-blocks=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-BLOCKS16
// RUN: deplodock-run --interp %t.sdpa128.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=16,BKV=32,split_kv=1,split_d=8}" --compare="lower-to-kernel{target=sm_90 knobs=BQ=16,BKV=16,split_kv=1,split_d=4}" | FileCheck %s --check-prefix=NUM2
// RUN: not deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=16,BKV=16,split_kv=2,split_d=4" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=WITH-KV
// RUN: not deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=128,BKV=16,split_kv=1,split_d=16" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=TOO-MANY
/// Head dimension 120 has no 16 lanes of whole elements; a matmul has no
/// private rows.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=120,NH=2,NKV=1 | not deplodock-opt --lower-to-tile="target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=16" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="target=sm_90 knobs=split_d=4" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-ROWS
/// Head dimension 64 (128 floats a row) fits a thread: nothing to split.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=64 | deplodock-opt --lower-to-loop | not deplodock-opt --dtile-lower="target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=4" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FITS

/// Numbers on the SIMT interpreter against the tensor program: causal and
/// not, grouped-query heads, odd lengths (37, 100), decoding (one query),
/// an additive mask (naive attention), with staged, copied (cp.async, TMA)
/// and register double-buffered key blocks. (Half-precision rows, a query
/// of 16-bit values, fit a thread: 192 words at head dimension 128.)
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=4}" --compare="lower-to-kernel{target=sm_90 knobs=BQ=64,BKV=37,split_kv=1,split_d=8}" --compare="lower-to-kernel{target=sm_90 knobs=BQ=32,BKV=32,split_kv=1,split_d=16,reg_double=true}" | FileCheck %s --check-prefix=NUM3
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100,NH=3,NKV=1,D=128,CAUSAL=0 > %t.gqa.mlir
// RUN: deplodock-run --interp %t.gqa.mlir --pipeline=lower-to-tensor --seed=1 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=32,BKV=32,split_kv=1,split_d=8}" --compare="lower-to-kernel{target=sm_80 knobs=BQ=128,BKV=100,split_kv=1,split_d=4}" | FileCheck %s --check-prefix=NUM2
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=37,D=128,NH=2,NKV=1 > %t.naive37.mlir
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --seed=4 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=4}" | FileCheck %s --check-prefix=NUM1
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=1,S=100,D=128 > %t.decode.mlir
// RUN: deplodock-run --interp %t.decode.mlir --pipeline=lower-to-tensor --seed=7 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=4,BKV=32,split_kv=1,split_d=8}" --compare="lower-to-kernel{target=sm_90 knobs=BQ=4,BKV=100,split_kv=1,split_d=16}" | FileCheck %s --check-prefix=NUM2
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=100,D=128,NH=2,NKV=1 > %t.naive.mlir
// RUN: deplodock-run --interp %t.naive.mlir --pipeline=lower-to-tensor --seed=5 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=32,BKV=64,split_kv=1,split_d=8,async_copy=false,tma=true}" | FileCheck %s --check-prefix=NUM1

/// The CUDA holds 16 + 16 floats a lane instead of 128 + 128, and nvcc keeps
/// them in registers.
// RUN: deplodock-opt %t.sdpa37.mlir --lower-to-kernel="target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=8" | deplodock-translate --emit-cuda -o %t.d128.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.d128.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -Xptxas -v -o %t.d128.cubin %t.d128.cu 2>&1 | FileCheck %s --check-prefix=PTXAS %}

/// 1, then 4, 8 and 16 lanes a row within the block's 1024 threads; with
/// 128 rows a block, not 16. Not with split_kv's threads a row (the default
/// for these 74 rows): their merge after the key loop combines each head
/// element over threads.
// FORKS: remark: @sdpa_0_reduce: attention_split_d: split_d in {8*, 1, 4, 16}
// FORKS128: remark: @sdpa_0_reduce: attention_split_d: split_d in {8*, 1, 4}
// FORKS-KV: remark: @sdpa_0_reduce: attention_split_d: does not apply: a loop over a private buffer combines across threads (split_kv's merge)

/// 32 rows by 8 lanes; each lane's query row and accumulators are 128 / 8
/// elements, lane h's element j being j * 8 + h; q.k is summed over the
/// lanes.
// SPLIT:      dtile.kernel @sdpa_0_reduce knobs<BKV = 16, BQ = 32, split_d = 8, split_kv = 1>
// SPLIT:        dtile.tile blocks({{.*}}) threads(%{{.*}} : 32 "d1_i", %[[HD:.*]] : 8 "hd") {
// SPLIT:          %[[ACC:.*]] = memref.alloca() : memref<16xf32>
// SPLIT:          %[[Q:.*]] = memref.alloca() : memref<16xf32>
// SPLIT:          dloop.for %[[QJ:[a-z0-9_]+]] = 0 to 16 free "r1_row"
// SPLIT:            dloop.load %in1[0, {{.*}}, %[[QJ]] * 8 + %[[HD]]]
// SPLIT:          dloop.for %[[J:[a-z0-9_]+]] = 0 to 16 reduce "r1"
// SPLIT:            dloop.load %[[Q]][%[[J]]] : memref<16xf32>
// SPLIT:            dloop.load %in2[0, {{.*}}, %[[J]] * 8 + %[[HD]]]
// SPLIT:          dtile.combine add %{{.*}} over ["hd"] : f32
// SPLIT:          dloop.for %[[VJ:[a-z0-9_]+]] = 0 to 16 free "d3"
// SPLIT:            dloop.load %[[ACC]][%[[VJ]]] : memref<16xf32>
// SPLIT:            dloop.load %in0[0, {{.*}}, %[[VJ]] * 8 + %[[HD]]]
// SPLIT:        dloop.for %[[OJ:[a-z0-9_]+]] = 0 to 16 free "d4"
// SPLIT:          dloop.store %{{.*}}, %out0[0, {{.*}}, %[[OJ]] * 8 + %[[HD]]]
// SPLIT-NOT:  dtile.combine

// KERNEL: dkernel.func @sdpa_0_reduce({{.*}} block [256, 1, 1]
// KERNEL: dkernel.warp_reduce add %{{.*}} width 8 : f32

// DEFAULT-NOT: split_d
// LONG-HEADS: knobs<BKV = 32, BQ = 32, {{.*}}split_d = 8, split_kv = 1,
// BLOCKS16: attention_blocks: (BKV, BQ, split_kv) in {{.*}}(32, 16, 1)
// NO-BLOCKS16: attention_blocks: (BKV, BQ, split_kv) in {
// NO-BLOCKS16-NOT: , 16, 1)

// WITH-KV: error: 'dtile.kernel' op knob split_d=4: attention_split_d cannot split the rows of @sdpa_0_reduce: a loop over a private buffer combines across threads (split_kv's merge)
// TOO-MANY: error: 'dtile.kernel' op knob split_d=16: attention_split_d cannot split the rows of @sdpa_0_reduce: 2048 threads a block (128 x 16) are not whole warps within 1024
// LANES: error: 'dtile.kernel' op knob split_d=16: attention_split_d cannot split the rows of @sdpa_0_reduce: a private buffer is no row of at least two elements a lane for 16 lanes
// NO-ROWS: error: 'dtile.kernel' op knob split_d=4: attention_split_d cannot split the rows of @matmul_0_reduce: it has no private head-dimension buffer
// FITS: error: 'dtile.kernel' op knob split_d=4: attention_split_d cannot split the rows of @sdpa_0_reduce: a thread's rows (128 words) fit its 255 registers

// NUM1-NOT: FAIL
// NUM1-COUNT-1: : PASS
// NUM2-NOT: FAIL
// NUM2-COUNT-2: : PASS
// NUM3-NOT: FAIL
// NUM3-COUNT-3: : PASS

// CUDA: float local{{[0-9]+}}[16];
// CUDA: float local{{[0-9]+}}[16];
// CUDA-NOT: [128];
// CUDA: __shfl_xor_sync(0xffffffffu, {{.*}}, 8)
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
