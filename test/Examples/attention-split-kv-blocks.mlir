// attention_blocks' split_kv_blocks (flash-decoding) against the dtensor
// reference on the interpreter: the key steps of each query row dealt to
// blocks, the partial softmaxes merged by a second kernel. Pinned with
// knobs= (the option is never the default): masked (causal -inf, where the
// early rows see no key of the later splits, and naive_attn's additive
// -1e9) and unmasked, grouped-query heads, odd key lengths (37, 100, 333),
// alone and with split_kv's threads, in f32, f16 and bf16, each within its
// dtype's tolerance (f16 rtol 1e-2 atol 1e-3, bf16 rtol 2e-2 atol 1e-2).
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=1,S=100 --dtype bf16 > %t.decode1.mlir
// RUN: deplodock-run --interp %t.decode1.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BQ=1,BKV=32,split_kv=32,split_kv_blocks=4}" --compare="lower-to-kernel{knobs=BQ=4,BKV=16,split_kv=8,split_kv_blocks=7}" --rtol=2e-2 --atol=1e-2 --seed=11 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=333 > %t.decode3.mlir
// RUN: deplodock-run --interp %t.decode3.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BQ=12,BKV=64,split_kv=1,split_kv_blocks=3}" --compare="lower-to-kernel{knobs=BQ=12,BKV=16,split_kv=16,split_kv_blocks=21}" --seed=12 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=4,S=333,CAUSAL=0,NH=6,NKV=2 --dtype f16 > %t.decode4u.mlir
// RUN: deplodock-run --interp %t.decode4u.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BQ=24,BKV=16,split_kv=4,split_kv_blocks=7}" --compare="lower-to-kernel{knobs=BQ=24,BKV=128,split_kv=1,split_kv_blocks=3}" --rtol=1e-2 --atol=1e-3 --seed=13 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=2,S=100,NH=6,NKV=3 --dtype bf16 > %t.decode2.mlir
// RUN: deplodock-run --interp %t.decode2.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BQ=12,BKV=64,split_kv=2,split_kv_blocks=2}" --rtol=2e-2 --atol=1e-2 --seed=14 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37 > %t.sdpa37.mlir
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BQ=4,BKV=16,split_kv=8,split_kv_blocks=3}" --compare="lower-to-kernel{knobs=BQ=32,BKV=32,split_kv=1,split_kv_blocks=2}" --seed=15 --print=none | FileCheck %s --check-prefix=NUM
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=37 --dtype f16 > %t.naive37.mlir
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BQ=32,BKV=16,split_kv=1,split_kv_blocks=3}" --compare="lower-to-kernel{knobs=BQ=8,BKV=32,split_kv=4,split_kv_blocks=2}" --rtol=1e-2 --atol=1e-3 --seed=16 --print=none | FileCheck %s --check-prefix=NUM

/// Every Tile variant, now with split_kv_blocks among the forks, on
/// decoding shapes (1 to 4 queries against 100 or 333 keys, GQA) and the
/// naive_attn example's short sequence.
// RUN: deplodock-run --interp %t.decode2.mlir --pipeline=lower-to-tensor --check-variants=40 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=2e-2 --atol=1e-2 --seed=14 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.decode4u.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=13 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=4,S=333,NH=6,NKV=2 > %t.decode4.mlir
// RUN: deplodock-run --interp %t.decode4.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --seed=17 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --check-variants=40 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=16 --print=none | FileCheck %s --check-prefix=VARIANTS

// NUM-NOT: FAIL
// NUM: : PASS
// NUM-NOT: FAIL

// VARIANTS: variants of @{{.*}} checked, 0 failed
// VARIANTS-NOT: {{[1-9][0-9]*}} failed
