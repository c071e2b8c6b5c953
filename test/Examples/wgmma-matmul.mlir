// RUN: %python %S/Inputs/half_matmul.py f16 128 128 128 > %t.f16.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 128 128 > %t.bf16.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 100 136 72 > %t.f16.odd.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 100 136 72 > %t.bf16.odd.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 256 64 256 > %t.bf16.wide.mlir
// RUN: deplodock-opt %t.bf16.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %t.bf16.mlir --lower-to-kernel="target=sm_90a knobs=refill_late=true" | FileCheck %s --check-prefix=LATE
// RUN: deplodock-run --interp %t.bf16.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,refill_late=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=3,refill_late=true}" | FileCheck %s --check-prefix=EACH
// RUN: %python %S/Inputs/half_matmul.py bf16 128 256 384 > %t.bf16.n384.mlir
// RUN: deplodock-run --interp %t.bf16.n384.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=192}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=192,refill_late=true}" | FileCheck %s --check-prefix=EACH
// RUN: %python %S/Inputs/half_matmul.py bf16 32 512 128 > %t.bf16.m32.mlir
// RUN: deplodock-opt %t.bf16.m32.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=M32
// RUN: deplodock-run --interp %t.bf16.m32.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1}" | FileCheck %s --check-prefix=M32-EACH
// RUN: deplodock-opt %t.f16.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.bf16.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=8e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.f16.odd.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=1e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.bf16.odd.mlir --pipeline=lower-to-tensor --check-variants=150 --target=sm_90a --variant-pipeline=convert-dtile-to-dkernel --rtol=8e-3 --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=128}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,double_buffer=false}" | FileCheck %s --check-prefix=EACH4
// RUN: deplodock-run --interp %t.bf16.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,double_buffer=false}" | FileCheck %s --check-prefix=EACH
// RUN: deplodock-run --interp %t.bf16.wide.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=4,wgmma_n=128}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=256}" | FileCheck %s --check-prefix=EACH

/// examples/generate.py's matmul layer in f16 and bf16, x(1,S,K) . W(K,N):
/// the weight is held K x N, so B is MN-major. On sm_90a the default
/// lowering runs it on warpgroup MMA (wgmma_async) all the same, B's slab
/// TMA-copied as K rows by N and read transposed.
// DEFAULT: dkernel.func @matmul_0_reduce
// DEFAULT-SAME: wgmma = true
// DEFAULT: dkernel.wgmma_mma_async {{.*}} major_b mn

/// refill_late: a step waits for its chunk's mbarriers and issues its
/// wgmmas with no block barrier between (each thread waited itself); the
/// refill of the slot the previous step read follows the commit, behind the
/// one barrier of the step, then the step retires its group.
// LATE: scf.for
// LATE: dkernel.mbarrier_wait
// LATE-NOT: gpu.barrier
// LATE: dkernel.wgmma_fence
// LATE-NOT: gpu.barrier
// LATE: dkernel.wgmma_mma_async {{.*}} major_b mn
// LATE-NOT: gpu.barrier
// LATE: dkernel.wgmma_commit_group
// LATE-NEXT: scf.if
// LATE: gpu.barrier
// LATE: dkernel.tma_load
// LATE: dkernel.wgmma_wait_group 0

/// Every fork of the layer (a seeded sample of wgmma, mma_sync and SIMT
/// variants) at the Kernel level on the SIMT interpreter, within the
/// dtype's tolerance; at 128 x 128 x 128 and at 100 x 136 x 72, which no
/// tile divides (zero-filled slabs, guarded stores).
// VARIANTS: variants of @matmul_0_reduce: 150 (seeded sample) checked, 0 failed

/// And wgmma options in turn: N from 32 (a 64-byte swizzle) to 256 (four
/// 128-byte atoms of N, LBO 8192 bytes apart), one to four warpgroups,
/// double-buffered and not (4 warpgroups by 256 would need more registers
/// than a thread of 512 has: not an option).
// EACH4-COUNT-4: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS
// EACH-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS

/// Fewer rows than a warpgroup's 64 (a 32-token activation): the A box
/// reaches past M, TMA fills those rows with zeros and the epilogue's
/// stores are guarded, so the weight still streams through wgmma (on the
/// H200 1.28x faster than mma_sync over the suite's 32-token BF16 GEMMs).
// M32: dkernel.func @matmul_0_reduce
// M32-SAME: wgmma = true
// M32: dkernel.tma_descriptor %{{.*}} describes %{{.*}} : !dkernel.tma_descriptor<1x64x64xbf16, swizzle = 128>, memref<1x32x512xbf16>
// M32-EACH: compare result #0 after 'lower-to-kernel{target=sm_90a}': {{.*}}: PASS
// M32-EACH: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS
