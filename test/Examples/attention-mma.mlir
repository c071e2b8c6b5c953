// The attention kernel on tensor cores (attention_mma) against the dtensor
// reference on the interpreter: f16 and bf16, sdpa (causal -inf mask, or
// none) and naive_attn (additive mask), grouped-query heads, odd lengths
// 37 and 100, decoding (3 queries), head dimensions 16, 32 and 64; each within
// its dtype's tolerance (the runtime's: f16 rtol 1e-2 atol 1e-3, bf16 rtol
// 2e-2 atol 1e-2). The examples' IR sums q.k^T, the softmax and p.v in f32,
// rounding the probabilities to the dtype before p.v, as the tensor cores do.
//
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=16 --dtype f16 > %t.sdpa37.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100,D=32,NH=6,NKV=2 --dtype bf16 > %t.sdpa100.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=37,D=16,CAUSAL=0 --dtype bf16 > %t.sdpa37u.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100,D=16,CAUSAL=0,NH=6,NKV=3 --dtype f16 > %t.sdpa100u.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims SQ=3,S=100,D=16 --dtype f16 > %t.decode3.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=37,D=16 --dtype f16 > %t.naive37.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=100,D=16 --dtype bf16 > %t.naive100.mlir

/// The default lowering (tensor cores) of each, at the Kernel level.
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --compare=lower-to-kernel --rtol=1e-2 --atol=1e-3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.sdpa100.mlir --pipeline=lower-to-tensor --compare=lower-to-kernel --rtol=2e-2 --atol=1e-2 --seed=1 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.sdpa37u.mlir --pipeline=lower-to-tensor --compare=lower-to-kernel --rtol=2e-2 --atol=1e-2 --seed=2 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --compare=lower-to-kernel --rtol=1e-2 --atol=1e-3 --seed=3 --print=none | FileCheck %s --check-prefix=NUM
/// Causal key steps skipped (causal_bound) on tensor cores: 2 warps of 16
/// rows and 16 keys per step, and 1 warp with 32 keys, odd lengths and GQA.
// RUN: deplodock-run --interp %t.sdpa100.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=16}" --rtol=2e-2 --atol=1e-2 --seed=7 --print=none | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=32}" --rtol=1e-2 --atol=1e-3 --seed=8 --print=none | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-opt %t.naive100.mlir --lower-to-kernel | FileCheck %s --check-prefix=MMA
/// Swizzled k and v slabs (attention_swizzle): a head of 64 halves (128-byte
/// rows, 128-byte swizzle) and of 32 (64-byte), each as exact as the plain
/// layout, whose Kernel IR differs.
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa --dims S=100,D=64,NH=4,NKV=2 --dtype f16 > %t.sdpa64.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small naive_attn --dims S=37,D=32 --dtype bf16 > %t.naive37d32.mlir
// RUN: deplodock-run --interp %t.sdpa64.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=32,attention_swizzle=true}" --rtol=1e-2 --atol=1e-3 --seed=9 --print=none | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-run --interp %t.naive37d32.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=attention_tensor_cores=true,attention_warps=1,attention_bkv=16,attention_swizzle=true}" --rtol=2e-2 --atol=1e-2 --seed=3 --print=none | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-opt %t.sdpa64.mlir --lower-to-kernel="knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=32,attention_swizzle=true" -o %t.swizzled.mlir
// RUN: deplodock-opt %t.sdpa64.mlir --lower-to-kernel="knobs=attention_tensor_cores=true,attention_warps=2,attention_bkv=32,attention_swizzle=false" -o %t.plain.mlir
// RUN: not diff -q %t.swizzled.mlir %t.plain.mlir

/// Every fork, tensor cores and SIMT (a seeded sample, mostly tensor-core
/// variants), at the Kernel level on the SIMT interpreter.
// RUN: deplodock-run --interp %t.sdpa37.mlir --pipeline=lower-to-tensor --check-variants=40 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.sdpa100.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=2e-2 --atol=1e-2 --seed=1 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.sdpa37u.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=2e-2 --atol=1e-2 --seed=2 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.sdpa100u.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=4 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.decode3.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=5 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.naive37.mlir --pipeline=lower-to-tensor --check-variants=40 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-2 --atol=1e-3 --seed=3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.naive100.mlir --pipeline=lower-to-tensor --check-variants=30 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=2e-2 --atol=1e-2 --seed=6 --print=none | FileCheck %s --check-prefix=VARIANTS

// NUM-NOT: FAIL
// NUM: compare result #0 after 'lower-to-kernel': {{.*}}: PASS
// KNOBS-NOT: FAIL
// KNOBS: compare result #0 after 'lower-to-kernel{knobs={{.*}}}': {{.*}}: PASS
// MMA: knobs = #dtile.knobs<{{.*}}attention_tensor_cores = true
// MMA: dkernel.mma_sync
// VARIANTS: variants of @{{.*}} checked, 0 failed
