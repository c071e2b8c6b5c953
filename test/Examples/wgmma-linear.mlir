// RUN: %python %S/Inputs/half_linear_nk.py f16 128 128 64 > %t.f16.mlir
// RUN: %python %S/Inputs/half_linear_nk.py bf16 128 128 64 > %t.bf16.mlir
// RUN: %python %S/Inputs/half_linear_nk.py f16 100 136 72 > %t.f16.odd.mlir
// RUN: %python %S/Inputs/half_linear_nk.py bf16 100 136 72 > %t.bf16.odd.mlir
// RUN: %python %S/Inputs/half_linear_nk.py bf16 256 64 256 > %t.bf16.wide.mlir
// RUN: deplodock-opt %t.bf16.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.bf16.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=8e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.f16.odd.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.bf16.odd.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=8e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=32}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=64,double_buffer=false}" | FileCheck %s --check-prefix=EACH4
// RUN: deplodock-run --interp %t.bf16.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,double_buffer=false}" | FileCheck %s --check-prefix=EACH
// RUN: deplodock-run --interp %t.bf16.wide.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=4,wgmma_n=128}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=256}" | FileCheck %s --check-prefix=EACH

/// Half-precision linear layers whose weight is held N x K, so that both
/// operands are K-major: on sm_90a the default lowering runs them on
/// warpgroup MMA (wgmma_async), fed by TMA.
// DEFAULT: dkernel.func @linear_0_reduce
// DEFAULT-SAME: wgmma = true
// DEFAULT: dkernel.wgmma_mma_async

/// Every fork of the layer (a seeded sample: wgmma, mma_sync and SIMT
/// variants, option 0 on wgmma) at the Kernel level on the SIMT
/// interpreter, within the dtype's tolerance; at 128 x 128 x 64 and at
/// 100 x 136 x 72, which no tile divides (zero-filled slabs, guarded
/// stores).
// VARIANTS: variants of @linear_0_reduce: 150 (seeded sample) checked, 0 failed

/// And each wgmma option in turn (double-buffered by default, and not):
/// one or two warpgroups, N from 32 to 256, four warpgroups at 256 x 128
/// (at 256 x 256 their accumulators would not fit in registers).
// EACH4-COUNT-4: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS
// EACH-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS
