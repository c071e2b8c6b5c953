// attention_mma on the online-softmax kernel of sdpa in f16 (37 queries and
// keys, 4 heads sharing 2 KV heads, head dimension 16), as lower-to-loop
// leaves it.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=16 --dtype f16 | deplodock-opt --lower-to-loop > %t.loop.mlir
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma=list-forks=true --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16" | FileCheck %s --check-prefix=TILE
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=false" | FileCheck %s --check-prefix=SIMT
// RUN: deplodock-opt %t.loop.mlir --dtile-lower | FileCheck %s --check-prefix=DEFAULT
/// attention_swizzle: the k and v slabs (32-byte rows) in 32-byte swizzle
/// segments; q, read once, as it is.
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16,attention_swizzle=true" | FileCheck %s --check-prefix=SWIZZLE
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16,attention_swizzle=false" | FileCheck %s --check-prefix=PLAIN
// RUN: not deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=48" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
/// causal_bound on the tensor-core kernel: key steps above every row's
/// diagonal are not run.
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16" --dtile-causal-bound | FileCheck %s --check-prefix=BOUND
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16" --dtile-causal-bound | FileCheck %s --check-prefix=BOUND2
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_80 knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16" | FileCheck %s --check-prefix=STAGED
/// naive_attn's finite mask (an added select(j > i, -1e9, 0)) on tensor
/// cores: key 0 stays unmasked for every row (the lanes t, over which a row's
/// maximum is combined, hold its keys), so the steps above the diagonal are
/// skipped as for sdpa's -inf; its results stay the reference's. Shifted to
/// mask from key i - 4 on, rows 0-4 keep no key: nothing is skipped; shifted
/// to keep keys up to i + 4, the bound moves with it.
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=100,D=16 --dtype f16 | deplodock-opt --lower-to-loop > %t.naive.mlir
// RUN: deplodock-opt %t.naive.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16" --dtile-causal-bound | FileCheck %s --check-prefix=NAIVE
// RUN: deplodock-run --interp %t.naive.mlir --compare="dtile-lower{knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16},convert-dtile-to-dkernel" --rtol=1e-2 --atol=1e-3 --seed=4 --print=none | FileCheck %s --check-prefix=NAIVE-NUM
// RUN: sed 's/(-d0 + d1 - 1)/(-d0 + d1 + 4)/' %t.naive.mlir | deplodock-opt --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16" --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NAIVE-NONE
// RUN: sed 's/(-d0 + d1 - 1)/(-d0 + d1 + 4)/' %t.naive.mlir | deplodock-opt --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16 --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NAIVE-NONE
// RUN: sed 's/(-d0 + d1 - 1)/(-d0 + d1 - 5)/' %t.naive.mlir > %t.naive5.mlir
// RUN: deplodock-opt %t.naive5.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16" --dtile-causal-bound | FileCheck %s --check-prefix=NAIVE5
// RUN: deplodock-run --interp %t.naive5.mlir --compare="dtile-lower{knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16},convert-dtile-to-dkernel" --rtol=1e-2 --atol=1e-3 --seed=4 --print=none | FileCheck %s --check-prefix=NAIVE-NUM
/// Nothing to skip: no mask, or one step of 64 keys holding all 37.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=16,CAUSAL=0 --dtype f16 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16" --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NOBOUND
// RUN: deplodock-opt %t.loop.mlir --dtile-tileify --dtile-attention-mma="knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=64" --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NOBOUND
/// Where it does not fit: a head dimension of 8, f32 operands, a part
/// without tensor cores.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37 --dtype f16 | deplodock-opt --lower-to-loop > %t.d8.mlir
// RUN: not deplodock-opt %t.d8.mlir --dtile-lower="knobs=attention_tensor_cores=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=HEAD
// RUN: deplodock-opt %t.d8.mlir --dtile-tileify --dtile-attention-mma=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOFORKS
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=37,D=16 | deplodock-opt --lower-to-loop > %t.f32.mlir
// RUN: not deplodock-opt %t.f32.mlir --dtile-lower="knobs=attention_tensor_cores=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=F32
// RUN: sed 's/^module {/module attributes {dkernel.target = #dkernel.target<"small", capability = 75, sm_count = 40, smem_per_block = 49152, smem_per_sm = 65536, threads_per_block = 1024, threads_per_sm = 1024, blocks_per_sm = 16, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 4194304, features = [cp_async]>} {/' %t.loop.mlir > %t.sm75.mlir
// RUN: not deplodock-opt %t.sm75.mlir --dtile-lower="knobs=attention_tensor_cores=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTC
// RUN: deplodock-opt %t.sm75.mlir --dtile-tileify --dtile-attention-mma=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOFORKS
/// The Kernel IR and its CUDA, which nvcc compiles for sm_80 and sm_90.
// RUN: deplodock-opt %t.loop.mlir --dtile-lower="target=sm_80 knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=32" --convert-dtile-to-dkernel > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// 1, 2 or 4 warps of 16 rows (no more than twice the 37 rows rounded up
/// to 48) and 16, 32 or 64 keys per step, each swizzled then plain; SIMT
/// last; the default the most warps and keys, swizzled.
// FORKS: remark: @sdpa_0_reduce: attention_mma: (attention_bkv, attention_swizzle, attention_tensor_cores, attention_warps) in {(64, true, true, 4)*, (16, true, true, 1), (16, false, true, 1), (32, true, true, 1), (32, false, true, 1), (64, true, true, 1), (64, false, true, 1), (16, true, true, 2), (16, false, true, 2), (32, true, true, 2), (32, false, true, 2), (64, true, true, 2), (64, false, true, 2), (16, true, true, 4), (16, false, true, 4), (32, true, true, 4), (32, false, true, 4), (64, false, true, 4), false}

// SWIZZLE:     knobs<attention_bkv = 16, attention_swizzle = true,
// SWIZZLE:     dtile.stage %in1[{{.*}}] box [1, 1, 16, 16] zero_fill :
// SWIZZLE:     dtile.stage %in2[{{.*}}] box [1, 1, 16, 16] zero_fill swizzle 32 :
// SWIZZLE:     dtile.stage %in0[{{.*}}] box [1, 1, 16, 16] zero_fill swizzle 32 :
// PLAIN:       knobs<attention_bkv = 16, attention_swizzle = false,
// PLAIN-NOT:   swizzle 32

/// One warp of 16 query rows per block (3 blocks per head: 37 = 16 + 16 +
/// 5), lanes as g x t. q is staged and loaded as A fragments once; each of
/// the 3 steps of 16 keys stages k and v (zero-filled past key 37),
/// computes S with two m16n8k16 mma.sync (8 keys each) whose B fragments
/// come from one ldmatrix x4 of k, runs the score
/// code (scale, causal mask) on every accumulator with -inf past the rows
/// and keys, folds both rows' maxima over the 4 lanes of a row, rescales
/// the sums and the output fragments, and multiplies the probabilities,
/// rounded to f16, by v loaded transposed (one ldmatrix x4 for both
/// 8-column halves of the head).
// TILE:      dtile.kernel @sdpa_0_reduce knobs<attention_bkv = 16, attention_swizzle = true, attention_tensor_cores = true, attention_warps = 1>
// TILE:        dtile.tile blocks(%[[H:.*]] : 4 "d0", %[[QO:.*]] : 3 "d1_o") threads(%{{.*}} : 1 "warp", %[[G:.*]] : 8 "g", %[[T:.*]] : 4 "t") {
// TILE:          %[[QS:.*]] = dtile.stage %in1[0, %[[H]], %[[QO]] * 16, 0] box [1, 1, 16, 16] zero_fill
// TILE:          %[[Q:.*]]:8 = dkernel.ldmatrix %[[QS]]
// TILE:          %[[LOOP:.*]]:12 = dloop.for %[[KB:.*]] = 0 to 3 reduce "r0_o" iter(
// TILE-DAG:        %[[KS:.*]] = dtile.stage %in2[0, %[[H]] floordiv 2, %[[KB]] * 16, 0] box [1, 1, 16, 16] zero_fill
// TILE-DAG:        %[[VS:.*]] = dtile.stage %in0[0, %[[H]] floordiv 2, %[[KB]] * 16, 0] box [1, 1, 16, 16] zero_fill
// TILE:            %[[K0:.*]]:8 = dkernel.ldmatrix %[[KS]]
// TILE:            %[[S0:.*]], %[[S1:.*]], %{{.*}}, %{{.*}} = dkernel.mma_sync [%[[Q]]#0, {{.*}}, %[[Q]]#7], [%[[K0]]#0, %[[K0]]#1, %[[K0]]#2, %[[K0]]#3]
// TILE-NOT:        dkernel.ldmatrix
// TILE:            dkernel.mma_sync [%[[Q]]#0, {{.*}}, %[[Q]]#7], [%[[K0]]#4, %[[K0]]#5, %[[K0]]#6, %[[K0]]#7]
// TILE:            arith.mulf %[[S0]], %{{.*}} : f32
// TILE:            arith.select %{{.*}}, %cst{{.*}}, %{{.*}} : f32
// TILE:            arith.maxnumf
// TILE:            %[[M0:.*]] = dtile.combine max %{{.*}} over ["t"] : f32
// TILE:            dtile.combine max %{{.*}} over ["t"] : f32
// TILE:            math.exp
// TILE:            %[[P0:.*]] = arith.truncf %{{.*}} : f32 to f16
// TILE:            %[[V0:.*]]:8 = dkernel.ldmatrix trans %[[VS]]
// TILE:            dkernel.mma_sync [%[[P0]], {{.*}}], [%[[V0]]#0, %[[V0]]#1, %[[V0]]#2, %[[V0]]#3]
// TILE-NOT:        dkernel.ldmatrix
// TILE:            dkernel.mma_sync [%[[P0]], {{.*}}], [%[[V0]]#4, %[[V0]]#5, %[[V0]]#6, %[[V0]]#7]
// TILE-NOT:        dkernel.ldmatrix
// TILE:            dloop.yield %[[M0]],
// TILE:          %[[L0:.*]] = dtile.combine add %[[LOOP]]#2 over ["t"] : f32
// TILE:          %[[L1:.*]] = dtile.combine add %[[LOOP]]#3 over ["t"] : f32
// TILE:          scf.if
// TILE:            arith.divf %[[LOOP]]#4, %[[L0]] : f32
// TILE:            dloop.store %{{.*}}, %out0[0, %[[H]], %[[QO]] * 16 + %{{.*}} * 16 + %[[G]], %[[T]] * 2] : memref<1x4x37x16xf16>
// TILE:          scf.if
// TILE:            arith.divf %[[LOOP]]#7, %[[L1]] : f32
// TILE:            dloop.store %{{.*}}, %out0[0, %[[H]], %[[QO]] * 16 + %{{.*}} * 16 + %[[G]] + 8, %[[T]] * 2 + 1]
// TILE-NOT:      memref.alloca

/// causal_bound: block (h, qo) holds query rows qo * 16 + [0, 16), whose
/// last row sees keys up to qo * 16 + 15: it runs qo + 1 of the 3 steps of
/// 16 keys (2 qo + 2 of them with 2 warps, 32 rows). Each element keeps its
/// own mask (the causal select, -inf past the keys) for the last step.
// BOUND:      #[[COUNT:.*]] = affine_map<(d0) -> (d0 + 1)>
// BOUND:      dtile.kernel @sdpa_0_reduce knobs<attention_bkv = 16, attention_swizzle = true, attention_tensor_cores = true, attention_warps = 1, causal_bound = true>
// BOUND:        dtile.tile blocks(%{{.*}} : 4 "d0", %[[QO:.*]] : 3 "d1_o") threads(
// BOUND:          %[[NEED:.*]] = affine.apply #[[COUNT]](%[[QO]])
// BOUND:          %[[N:.*]] = arith.minsi %[[NEED]], %c3 : index
// BOUND:          scf.for %[[STEP:.*]] = %c0 to %[[N]] step %c1 iter_args(
// BOUND-DAG:        dtile.stage %in2[0, %{{.*}} floordiv 2, %[[STEP]] * 16, 0]
// BOUND-DAG:        dtile.stage %in0[0, %{{.*}} floordiv 2, %[[STEP]] * 16, 0]
// BOUND:            dkernel.mma_sync
// BOUND:            arith.cmpi sge
// BOUND:            arith.select %{{.*}}, %cst{{.*}}, %{{.*}} : f32
// BOUND:            arith.maxnumf
// BOUND:            dtile.combine max
// BOUND:            scf.yield
// BOUND-NOT:      dloop.for {{.*}} "r0_o"
// BOUND2:     #[[COUNT2:.*]] = affine_map<(d0) -> (d0 * 2 + 2)>
// BOUND2:     dtile.tile blocks(%{{.*}} : 4 "d0", %[[QO2:.*]] : 2 "d1_o") threads(%{{.*}} : 2 "warp"
// BOUND2:       %[[NEED2:.*]] = affine.apply #[[COUNT2]](%[[QO2]])
// BOUND2:       arith.minsi %[[NEED2]], %c3 : index
/// Through the whole pipeline the k and v slabs are staged (cp.async) in the
/// bounded loop: a step never run is never loaded.
// STAGED:     dtile.kernel @sdpa_0_reduce knobs<{{.*}}causal_bound = true
// STAGED:       scf.for %[[S:.*]] = %c0 to %{{.*}} step %c1
// STAGED-DAG:     dtile.stage %in2[0, %{{.*}} floordiv 2, %[[S]] * 16, 0] {{.*}} transport cp_async
// STAGED-DAG:     dtile.stage %in0[0, %{{.*}} floordiv 2, %[[S]] * 16, 0] {{.*}} transport cp_async
// STAGED:         dkernel.mma_sync
// NOBOUND: remark: @sdpa_0_reduce: causal_bound: does not apply

/// Without tensor cores the kernel is left to attention_blocks.
// SIMT:      dtile.kernel @sdpa_0_reduce knobs<attention_tensor_cores = false>
// SIMT:        dtile.tile blocks(%{{.*}} : 4 "d0", %{{.*}} : 37 "d1") {
// SIMT-NOT:    dkernel.mma_sync

/// The whole rule pipeline takes tensor cores by default.
// DEFAULT: dtile.kernel @sdpa_0_reduce knobs<{{.*}}attention_bkv = 64, attention_swizzle = true, attention_tensor_cores = true, attention_warps = 4
// DEFAULT: dkernel.mma_sync

// ILLEGAL: error: 'dtile.kernel' op knobs attention_bkv=48,attention_tensor_cores=true,attention_warps=1 are not a legal option of attention_mma

// HEAD: error: 'dtile.kernel' op knob attention_tensor_cores=true: attention_mma cannot take @sdpa_0_reduce: the head dimension (8) is not a multiple of 16
// F32: error: 'dtile.kernel' op knob attention_tensor_cores=true: attention_mma cannot take @naive_attn_0_reduce: q, k and v are not all f16 or all bf16
// NOTC: error: 'dtile.kernel' op knob attention_tensor_cores=true: attention_mma cannot take @sdpa_0_reduce: target small has no tensor cores (the 'mma_sync' feature)
// NOFORKS: remark: @sdpa_0_reduce: attention_mma: does not apply

/// Kernel IR: 64 threads (2 warps), the row folds as 4-lane xor shuffles.
// KERNEL: dkernel.func @sdpa_0_reduce({{.*}}) outputs [3] grid [{{.*}}] block [64, 1, 1]
// KERNEL: dkernel.ldmatrix
// KERNEL: dkernel.mma_sync
// KERNEL: dkernel.warp_reduce max %{{.*}} width 4 : f32
// KERNEL: dkernel.ldmatrix trans
// KERNEL: dkernel.mma_sync
// KERNEL: dkernel.warp_reduce add %{{.*}} width 4 : f32
// CUDA: ldmatrix.sync.aligned
// CUDA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CUDA: __shfl_xor_sync

/// Block (h, qo) holds rows qo * 32 + [0, 32): 2 qo + 2 of the 7 steps of
/// 16 keys; the last one run keeps its per-key mask (-1e9 added where the key
/// is past the row) and the -inf guard past the 100 keys.
// NAIVE:      #[[COUNT:.*]] = affine_map<(d0) -> (d0 * 2 + 2)>
// NAIVE:      dtile.kernel @naive_attn_0_reduce knobs<{{.*}}causal_bound = true
// NAIVE:        dtile.tile blocks(%{{.*}} : 4 "d0", %[[QO:.*]] : 4 "d1_o") threads(%{{.*}} : 2 "warp", %{{.*}} : 8 "g", %{{.*}} : 4 "t") {
// NAIVE:          %[[NEED:.*]] = affine.apply #[[COUNT]](%[[QO]])
// NAIVE:          %[[N:.*]] = arith.minsi %[[NEED]], %c7 : index
// NAIVE:          scf.for %{{.*}} = %c0 to %[[N]] step %c1 iter_args(
// NAIVE:            dkernel.mma_sync
// NAIVE:            arith.select %{{.*}}, %cst{{.*}}, %cst{{.*}} : f32
// NAIVE:            arith.addf
// NAIVE-NOT:      dloop.for {{.*}} "r0_o"

// NAIVE-NUM: compare result #0 after {{.*}}: PASS

// NAIVE-NONE: remark: @naive_attn_0_reduce: causal_bound: does not apply

/// Keys up to row + 4: the last row of block qo, qo * 32 + 31, needs
/// (qo * 32 + 36) / 16 steps rounded up, 2 qo + 3.
// NAIVE5:      #[[COUNT:.*]] = affine_map<(d0) -> ((d0 * 8 + 9) ceildiv 4)>
// NAIVE5:      affine.apply #[[COUNT]](
// NAIVE5:      arith.minsi %{{.*}}, %c7 : index
