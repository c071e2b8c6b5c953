// causal_bound: the key steps of an online-softmax block stop after the last
// key its last query row sees. The mask is read from the IR: sdpa's
// `select(j > i, -inf, s)`, naive_attn's added `select(j > i, -1e9, 0)`.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37 | deplodock-opt --lower-to-loop > %t.sdpa.mlir
// RUN: deplodock-opt %t.sdpa.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16 --dtile-causal-bound | FileCheck %s --check-prefix=BOUND
// RUN: deplodock-opt %t.sdpa.mlir --dtile-lower="target=sm_90 knobs=BQ=32,BKV=16" | FileCheck %s --check-prefix=STAGED
// RUN: deplodock-opt %t.sdpa.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16 --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=100 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16 --dtile-causal-bound | FileCheck %s --check-prefix=NAIVE
/// Where nothing can be skipped, the rule does not apply (a remark).
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,CAUSAL=0 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-attention-blocks=knobs=BQ=32,BKV=16 --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// RUN: deplodock-opt %t.sdpa.mlir --dtile-tileify --dtile-attention-blocks=knobs=BQ=256,BKV=16 --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=100 | deplodock-opt --lower-to-loop --dtile-tileify --dtile-attention-blocks=knobs=BQ=12,BKV=16 --dtile-causal-bound=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE

/// Block (h, qo) holds query rows qo * 32 + [0, 32): its last row sees keys
/// up to qo * 32 + 31, which end in step (qo * 32 + 31) / 16, so it runs
/// 2 * qo + 2 of the 3 steps. The last step it runs keeps its per-key mask
/// (keys past 36, and the keys above each row's diagonal).
// BOUND:      #[[COUNT:.*]] = affine_map<(d0) -> (d0 * 2 + 2)>
// BOUND:      dtile.kernel @sdpa_0_reduce knobs<BKV = 16, BQ = 32, causal_bound = true, split_kv = 1>
// BOUND:        dtile.tile blocks(%{{.*}} : 4 "d0", %[[QO:.*]] : 2 "d1_o") threads(%{{.*}} : 32 "d1_i") {
// BOUND:          %[[NEED:.*]] = affine.apply #[[COUNT]](%[[QO]])
// BOUND:          %[[N:.*]] = arith.minsi %[[NEED]], %c3 : index
// BOUND:          scf.for %[[STEP:.*]] = %c0 to %[[N]] step %c1 iter_args({{.*}}) -> (f32, f32) {
// BOUND-NEXT:       dloop.for %{{.*}} = 0 to 16 reduce "r0_i"
// BOUND:              arith.cmpi ult, %{{.*}}, %c37 : index
// BOUND:              arith.cmpi sge
// BOUND:              arith.select %{{.*}}, %cst_0, %{{.*}} : f32
// BOUND-NOT:      dloop.for {{.*}} "r0_o"

/// The K and V slabs are staged inside the bounded loop: a step never run
/// is never loaded.
// STAGED:     knobs<BKV = 16, BQ = 32, {{.*}}causal_bound = true
// STAGED:     scf.for %[[STEP:.*]] = %c0 to %{{.*}} step %c1
// STAGED:       dtile.stage %in2[0, %{{.*}} floordiv 2, %[[STEP]] * 16, 0] box [1, 1, 16, 8]
// STAGED:       dtile.stage %in0[0, %{{.*}} floordiv 2, %[[STEP]] * 16, 0] box [1, 1, 16, 8]

// FORKS: remark: @sdpa_0_reduce: causal_bound: causal_bound in {true*}

/// naive_attn's additive -1e9 mask keeps key 0 for every row, so the
/// skipped keys' exponentials are exactly 0 too: 7 steps of 16 keys.
// NAIVE: #[[COUNT:.*]] = affine_map<(d0) -> (d0 * 2 + 2)>
// NAIVE: affine.apply #[[COUNT]](%{{.*}})
// NAIVE: arith.minsi %{{.*}}, %c7 : index
// NAIVE: scf.for

/// Unmasked; blocks of 256 rows over several heads (the rows of a block are
/// no range of queries); decoding's 3 rows, which need every step.
// NONE: remark: @sdpa_0_reduce: causal_bound: does not apply
