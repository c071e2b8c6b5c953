// RUN: %python %deplodock_src_root/examples/generate.py --small matmul_add --dims S=37 --dtype f16 > %t.add.f16.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul_add --dims S=37 --dtype bf16 > %t.add.bf16.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul --dims S=37 --dtype f16 > %t.silu.f16.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul --dims S=37 --dtype bf16 > %t.silu.bf16.mlir
// RUN: deplodock-opt %t.add.f16.mlir --lower-to-tile=target=sm_80 | FileCheck %s --check-prefix=ADD
// RUN: deplodock-run --interp %t.add.f16.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --print=none | FileCheck %s --check-prefix=ADDV
// RUN: deplodock-run --interp %t.add.bf16.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=8e-3 --print=none | FileCheck %s --check-prefix=ADDV
// RUN: deplodock-run --interp %t.silu.f16.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --print=none | FileCheck %s --check-prefix=SILUV
// RUN: deplodock-run --interp %t.silu.bf16.mlir --pipeline=lower-to-tensor --check-variants=60 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --rtol=8e-3 --print=none | FileCheck %s --check-prefix=SILUV

/// The half-precision layers whose matmul kernel carries a pointwise
/// epilogue, at 37 rows (no block tile divides them): on tensor cores the
/// residual add runs on each accumulator before its guarded store, and the
/// variants of both the mma and the SIMT forks match the tensor program
/// within the dtype's last place.
// ADD: knobs<{{.*}}tensor_cores = true
// ADD: dkernel.mma_sync
// ADD: scf.if
// ADD-NEXT: dloop.load
// ADD-NEXT: arith.extf
// ADD: arith.addf
// ADD: arith.truncf
// ADD-NEXT: dloop.store
// ADDV: variants of @matmul_add_0_reduce: 60 (seeded sample) checked, 0 failed
// SILUV: variants of @silu_mul_matmul_1_reduce: 60 (seeded sample) checked, 0 failed
