// attention_rows: several query rows a thread, the tile body unrolled and
// jammed over them, so that one read of a key or value element feeds every
// row's multiply-add. Offered where a thread owns whole rows' keys and R
// rows' private buffers fit its registers (here after attention_split_d:
// head dimension 128 in f32); never the default.
//
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=128,NH=2,NKV=1 > %t.sdpa37.mlir
// RUN: deplodock-opt %t.sdpa37.mlir --lower-to-loop > %t.loop.mlir
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 list-forks knobs=BQ=64,BKV=16,split_kv=1,split_d=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 list-forks knobs=BQ=64,BKV=16,split_kv=1,split_d=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS4
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 list-forks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS-KV
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=64,BKV=16,split_kv=1 --dtile-attention-split-d=knobs=split_d=8 --dtile-attention-rows=knobs=rows_per_thread=2 | FileCheck %s --check-prefix=JAM
// RUN: deplodock-opt %t.loop.mlir --dtile-lower=target=sm_90 | FileCheck %s --check-prefix=DEFAULT
// RUN: not deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=64,BKV=16,split_kv=2,rows_per_thread=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=WITH-KV
// RUN: not deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=128,BKV=16,split_kv=1,split_d=4,rows_per_thread=4" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REGISTERS
// RUN: not deplodock-opt %t.loop.mlir --dtile-lower="target=sm_90 knobs=BQ=32,BKV=16,split_kv=1,split_d=1,rows_per_thread=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=WARPS
/// Three query rows (a block of them) are no pairs; a matmul is no online
/// softmax.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=40,D=128,NH=1,NKV=1 | not deplodock-opt --lower-to-tile="target=sm_90 knobs=BQ=3,BKV=40,split_kv=1,rows_per_thread=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="target=sm_90 knobs=rows_per_thread=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-SOFTMAX

/// Numbers on the SIMT interpreter against the tensor program: causal and
/// not, grouped-query heads, odd lengths (37 and 100: masked rows in a
/// thread's later rows), decoding (one query), an additive mask (naive
/// attention), with staged, copied (cp.async, TMA) and register
/// double-buffered key blocks.
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=64,BKV=16,split_kv=1,split_d=8,rows_per_thread=2}" --compare="lower-to-kernel{target=sm_90 knobs=BQ=128,BKV=32,split_kv=1,split_d=8,rows_per_thread=4}" --compare="lower-to-kernel{target=sm_90 knobs=BQ=64,BKV=16,split_kv=1,split_d=4,rows_per_thread=2,async_copy=false,tma=true}" | FileCheck %s --check-prefix=NUM3
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100,NH=3,NKV=1,D=128,CAUSAL=0 > %t.gqa.mlir
// RUN: deplodock-run --interp %t.gqa.mlir --pipeline=lower-to-tensor --seed=1 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=128,BKV=64,split_kv=1,split_d=8,rows_per_thread=2,reg_double=true}" --compare="lower-to-kernel{target=sm_80 knobs=BQ=128,BKV=100,split_kv=1,split_d=4,rows_per_thread=2}" | FileCheck %s --check-prefix=NUM2
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=1,S=100,D=128,NH=8,NKV=2 > %t.decode.mlir
// RUN: deplodock-run --interp %t.decode.mlir --pipeline=lower-to-tensor --seed=7 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=8,BKV=32,split_kv=1,split_d=8,rows_per_thread=2}" | FileCheck %s --check-prefix=NUM1
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=100,D=128,NH=2,NKV=1 > %t.naive.mlir
// RUN: deplodock-run --interp %t.naive.mlir --pipeline=lower-to-tensor --seed=5 --print=none --compare="lower-to-kernel{target=sm_90 knobs=BQ=64,BKV=32,split_kv=1,split_d=8,rows_per_thread=2}" | FileCheck %s --check-prefix=NUM1

/// A seeded sample of the whole fork tree (36,500 variants, estimated):
/// with seed 21, 18 of the 120 split rows by the head dimension and 16 of
/// those deal two or four rows a thread, among every other fork's options.
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --check-variants=120 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=21 --print=none | FileCheck %s --check-prefix=VARIANTS
// VARIANTS: variants of @sdpa_0_reduce: 120 (seeded sample) checked, 0 failed

/// The CUDA reads each staged key and value element once for both rows and
/// keeps 2 x (16 + 16) floats a lane in registers.
// RUN: deplodock-opt %t.sdpa37.mlir --lower-to-kernel="target=sm_90 knobs=BQ=64,BKV=16,split_kv=1,split_d=8,rows_per_thread=2" | deplodock-translate --emit-cuda -o %t.rows.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.rows.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -Xptxas -v -o %t.rows.cubin %t.rows.cu 2>&1 | FileCheck %s --check-prefix=PTXAS %}

/// 64 rows of 8 lanes each (32 words a row): 1, 2 and 4 rows a thread; with
/// split_d = 4 (64-word rows), 4 rows pass the registers. Not with
/// split_kv's threads a row (the default here).
// FORKS: remark: @sdpa_0_reduce: attention_rows: rows_per_thread in {1*, 2, 4}
// FORKS4: remark: @sdpa_0_reduce: attention_rows: rows_per_thread in {1*, 2}
// FORKS-KV: remark: @sdpa_0_reduce: attention_rows: does not apply: its rows' keys are split over threads (split_kv)

/// 32 threads of 8 lanes, each with rows t and t + 32 (each masked past the
/// 74 rows): one q.k loop carrying both rows' partial sums, reading each key
/// element once; both rows' softmax values; one p.v loop reading each value
/// element once.
// JAM:      dtile.kernel @sdpa_0_reduce knobs<BKV = 16, BQ = 64, rows_per_thread = 2, split_d = 8, split_kv = 1>
// JAM:        dtile.tile blocks({{.*}}) threads(%[[T:.*]] : 32 "{{.*}}", %[[HD:.*]] : 8 "hd") {
// JAM-DAG:      %[[ROW0:.*]] = arith.cmpi ult, %{{.*}}, %c74 : index
// JAM-DAG:      %[[ROW1:.*]] = arith.cmpi ult, %{{.*}}, %c74 : index
// JAM:          %[[ACC0:.*]] = memref.alloca() : memref<16xf32>
// JAM:          %[[ACC1:.*]] = memref.alloca() : memref<16xf32>
// JAM:          dloop.for %[[I:[a-z0-9_]+]] = 0 to 16 reduce "r0_i" iter(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// JAM:            dloop.for %[[J:[a-z0-9_]+]] = 0 to 16 reduce "r1" iter(%{{.*}} = %cst : f32, %{{.*}} = %cst : f32)
// JAM:              %[[K:.*]] = dloop.load %in2[0, {{.*}}, %[[J]] * 8 + %[[HD]]]
// JAM-NOT:          dloop.load %in2
// JAM:              arith.mulf %{{.*}}, %[[K]] : f32
// JAM:              arith.mulf %{{.*}}, %[[K]] : f32
// JAM-COUNT-2:    dtile.combine add %{{.*}} over ["hd"] : f32
// JAM:            dloop.for %[[VJ:[a-z0-9_]+]] = 0 to 16 free "d3"
// JAM:              %[[V:.*]] = dloop.load %in0[0, {{.*}}, %[[VJ]] * 8 + %[[HD]]]
// JAM-NOT:          dloop.load %in0
// JAM:              arith.mulf %{{.*}}, %[[V]] : f32
// JAM:              arith.mulf %{{.*}}, %[[V]] : f32
// JAM:              scf.if %[[ROW0]] {
// JAM-NEXT:           dloop.store %{{.*}}, %[[ACC0]][%[[VJ]]]
// JAM:              scf.if %[[ROW1]] {
// JAM-NEXT:           dloop.store %{{.*}}, %[[ACC1]][%[[VJ]]]

// DEFAULT-NOT: rows_per_thread

// WITH-KV: error: 'dtile.kernel' op knob rows_per_thread=2: attention_rows cannot deal rows of @sdpa_0_reduce: its rows' keys are split over threads (split_kv)
// REGISTERS: error: 'dtile.kernel' op knob rows_per_thread=4: attention_rows cannot deal rows of @sdpa_0_reduce: 4 rows of 64 words pass a thread's 255 registers
// ODD: error: 'dtile.kernel' op knob rows_per_thread=2: attention_rows cannot deal rows of @sdpa_0_reduce: 3 rows a block are no multiple of 2
// NO-SOFTMAX: error: 'dtile.kernel' op knob rows_per_thread=2: attention_rows cannot deal rows of @matmul_0_reduce: it is no online softmax dealt to threads
// WARPS: error: 'dtile.kernel' op knob rows_per_thread=2: attention_rows cannot deal rows of @sdpa_0_reduce: 16 threads a block are no whole number of warps

// NUM1-NOT: FAIL
// NUM1-COUNT-1: : PASS
// NUM2-NOT: FAIL
// NUM2-COUNT-2: : PASS
// NUM3-NOT: FAIL
// NUM3-COUNT-3: : PASS

// CUDA-COUNT-4: float local{{[0-9]+}}[16];
// CUDA-NOT: [128];
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
