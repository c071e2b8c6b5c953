// RUN: %python %S/Inputs/half_matmul.py f32 37 100 72 > %t.mlir
// RUN: %python %S/Inputs/tf32_inputs.py exact %t.exact 37 100 72
// RUN: %python %S/Inputs/tf32_inputs.py rounding %t.round 37 100 72
// RUN: deplodock-run --interp %t.mlir --input=%t.exact/x.npy --input=%t.exact/w.npy --pipeline=lower-to-tensor --check-variants=200 --target=sm_80 --precision=tf32 --variant-pipeline=convert-dtile-to-dkernel --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=EXACT
// RUN: deplodock-run --interp %t.mlir --input=%t.exact/x.npy --input=%t.exact/w.npy --pipeline=lower-to-tensor --check-variants=200 --target=sm_90 --precision=tf32 --variant-pipeline=convert-dtile-to-dkernel --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=EXACT
// RUN: deplodock-run --interp %t.mlir --pipeline=lower-to-tensor --check-variants=200 --target=sm_80 --precision=tf32 --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --atol=0.1 --print=none | FileCheck %s --check-prefix=EXACT
// RUN: deplodock-run --interp %t.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_80 precision=tf32}" --rtol=1e-3 --atol=0.1 --print=none | FileCheck %s --check-prefix=TF32
// RUN: deplodock-run --interp %t.mlir --input=%t.round/x.npy --input=%t.round/w.npy --expect=%t.round/expected.npy --pipeline="lower-to-kernel{target=sm_80 precision=tf32}" --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=ROUND
// RUN: not deplodock-run --interp %t.mlir --input=%t.round/x.npy --input=%t.round/w.npy --expect=%t.round/expected.npy --pipeline="lower-to-kernel{target=sm_80}" --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=IEEE
// RUN: deplodock-opt %t.mlir --lower-to-tensor --lower-to-kernel=target=sm_80 | FileCheck %s --check-prefix=F32
// RUN: deplodock-opt %t.mlir --lower-to-tensor --lower-to-kernel="target=sm_80 precision=ieee" | FileCheck %s --check-prefix=F32
// RUN: deplodock-opt %t.mlir --lower-to-tensor --lower-to-tile="target=sm_80 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFORK
// RUN: not deplodock-opt %t.mlir --lower-to-tensor --lower-to-tile="target=sm_80 knobs=tensor_cores=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: deplodock-opt %t.mlir --lower-to-tensor --lower-to-kernel="target=sm_80 precision=tf32" | FileCheck %s --check-prefix=TF32IR
// RUN: not deplodock-opt %t.mlir --lower-to-tensor --lower-to-tile="precision=fp16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPREC
// RUN: not deplodock-run --interp %t.mlir --pipeline=lower-to-tensor --check-variants=1 --precision=fp16 --print=none 2>&1 | FileCheck %s --check-prefix=BADPREC

/// An f32 matmul at odd sizes (37 x 100 x 72) with precision=tf32: the mma_sync
/// rule may run it on tf32 m16n8k8 tensor cores. Inputs in multiples of 1/8
/// are exact in tf32 and sum exactly, so every variant (tensor cores or SIMT,
/// each warp tile, K step, slab layout and copy) must match the f32 result bit
/// for bit: any misplaced fragment element shows.
// EXACT: variants of @matmul_0_reduce: 200 (seeded sample) checked, 0 failed

/// Random inputs in [-1, 1): tf32 keeps 10 of f32's 23 mantissa bits, so a
/// product is off by at most 2 * 2^-11 of |x w| and an output element by
/// about 1e-3 of its K-accumulated magnitude sum_k |x_k w_k|, at most K = 100
/// here: rtol 1e-3 with atol 1e-3 * K = 0.1 (chosen from that bound before
/// any run; the exact test above checks the data movement bit for bit).
// TF32: compare result #0 after 'lower-to-kernel{target=sm_80 precision=tf32}': {{.*}}: PASS

/// Operands are rounded as cvt.rna.tf32.f32 does, ties away from zero (see
/// Inputs/tf32_inputs.py): 1 + 2^-11 becomes 1 + 2^-10, where round-to-even
/// would give 1. Without precision=tf32 the same matmul stays f32 and keeps
/// the bits tf32 drops.
// ROUND: max abs error 0, max rel error 0: PASS
// IEEE: expected 1.00097656 got 1.00048828: FAIL

/// By default (and with precision=ieee) f32 contractions never take the
/// mma_sync rule: the suite stays true FP32, and asking for tensor cores
/// says why not.
// F32-NOT: dtile.tf32
// F32-NOT: tensor_cores
// F32-NOT: dkernel.mma_sync
// NOFORK: remark: @matmul_0_reduce: mma_sync: does not apply
// REFUSED: error: 'dtile.kernel' op knob tensor_cores=true: mma_sync cannot take @matmul_0_reduce: the operands are f32, and the module does not allow tf32 (precision=tf32)

/// With it, the module says so and the Kernel IR reads each fragment element
/// with a scalar load of the (swizzled) slab: A four per m16n8k8, B two.
// TF32IR: module attributes {{{.*}}dtile.tf32
// TF32IR: dkernel.func @matmul_0_reduce
// TF32IR-SAME: tensor_cores = true
// TF32IR: %[[A0:.*]] = memref.load %smem[%{{.*}}] : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// TF32IR: dkernel.mma_sync [%[[A0]], %{{.*}}, %{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : f32

// BADPREC: precision must be ieee or tf32, got 'fp16'
