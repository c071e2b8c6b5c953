// The online-softmax attention kernel against the dtensor reference on the
// interpreter, over what varies in attention: a causal -inf mask (sdpa), an
// additive mask (naive_attn) or none (sdpa CAUSAL=0); grouped-query heads
// (NKV < NH, groups of 2 and 3); odd sequence lengths (37, 100, 333);
// decoding (1 or 3 queries, the last positions of the keys); and
// f32, f16 and bf16 storage, each within its dtype's tolerance (the
// runtime's: f16 rtol 1e-2 atol 1e-3, bf16 rtol 2e-2 atol 1e-2).
//
// DEFINE: %{loop} = lower-to-loop
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37 > %t.sdpa37.mlir
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --compare='%{loop}' --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %t.sdpa37.mlir --pass-pipeline='builtin.module(%{loop})' | FileCheck %s --check-prefix=ONE
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,CAUSAL=0 --dtype bf16 > %t.sdpa37u.mlir
// RUN: deplodock-run --interp %t.sdpa37u.mlir --pipeline=lower-to-tensor --compare='%{loop}' --rtol=2e-2 --atol=1e-2 --seed=1 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100,NH=6,NKV=2 --dtype f16 > %t.sdpa100.mlir
// RUN: deplodock-run --interp %t.sdpa100.mlir --pipeline=lower-to-tensor --compare='%{loop}' --rtol=1e-2 --atol=1e-3 --seed=2 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %t.sdpa100.mlir --pass-pipeline='builtin.module(%{loop})' | FileCheck %s --check-prefix=ONE
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=333,CAUSAL=0 > %t.sdpa333.mlir
// RUN: deplodock-run --interp %t.sdpa333.mlir --pipeline=lower-to-tensor --compare='%{loop}' --seed=3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=1,S=100 --dtype bf16 > %t.decode1.mlir
// RUN: deplodock-run --interp %t.decode1.mlir --pipeline=lower-to-tensor --compare='%{loop}' --rtol=2e-2 --atol=1e-2 --seed=7 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %t.decode1.mlir --pass-pipeline='builtin.module(%{loop})' | FileCheck %s --check-prefix=ONE
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=333 > %t.decode3.mlir
// RUN: deplodock-run --interp %t.decode3.mlir --pipeline=lower-to-tensor --compare='%{loop}' --seed=8 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=37 --dtype f16 > %t.naive37.mlir
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --compare='%{loop}' --rtol=1e-2 --atol=1e-3 --seed=4 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %t.naive37.mlir --pass-pipeline='builtin.module(%{loop})' | FileCheck %s --check-prefix=ONE
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=100 --dtype bf16 > %t.naive100.mlir
// RUN: deplodock-run --interp %t.naive100.mlir --pipeline=lower-to-tensor --compare='%{loop}' --rtol=2e-2 --atol=1e-2 --seed=5 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=333 > %t.naive333.mlir
// RUN: deplodock-run --interp %t.naive333.mlir --pipeline=lower-to-tensor --compare='%{loop}' --seed=6 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-opt %t.naive333.mlir --pass-pipeline='builtin.module(%{loop})' | FileCheck %s --check-prefix=ONE

/// Every Tile variant of the attention kernel (attention_blocks' query rows
/// and key steps, split_kv's threads sharing a row's keys, the staging of K
/// and V, causal_bound's skipped steps, ...) on the SIMT interpreter: masked
/// and unmasked, GQA, odd lengths, decoding (1, 3 and 16 queries against
/// 100 or 333 keys), half precision.
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --check-variants=100 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.sdpa100.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=2 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=333,NH=6,NKV=2 > %t.causal333.mlir
// RUN: deplodock-run --interp %t.causal333.mlir --pipeline=lower-to-tensor --check-variants=16 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=9 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.sdpa333.mlir --pipeline=lower-to-tensor --check-variants=20 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.decode1.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=2e-2 --atol=1e-2 --seed=7 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.decode3.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=8 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=16,S=333,CAUSAL=0,NH=6,NKV=2 --dtype f16 > %t.decode16.mlir
// RUN: deplodock-run --interp %t.decode16.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=10 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=4 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.naive100.mlir --pipeline=lower-to-tensor --check-variants=40 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=2e-2 --atol=1e-2 --seed=5 --print=none | FileCheck %s --check-prefix=VARIANTS
// VARIANTS: variants of @{{.*}} checked, 0 failed
// VARIANTS-NOT: {{[1-9][0-9]*}} failed

// NUM-NOT: FAIL
// NUM: : PASS

/// One kernel: the scores are computed once per (query, key) in the loop
/// over the keys, which carries the running maximum and sum and updates the
/// private accumulators over the head dimension.
// ONE-COUNT-1: dloop.kernel
// ONE-NOT:     dloop.kernel
// ONE:         memref.alloca
// ONE:         dloop.for {{.*}} reduce {{.*}} iter({{.*}} : f32, {{.*}} : f32) {
// ONE:           dloop.for {{.*}} reduce
// ONE:           math.exp
// ONE:           math.exp
// ONE:           dloop.for {{.*}} free
// ONE-NOT:         reduce
// ONE:             dloop.store
