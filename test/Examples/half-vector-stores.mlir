// RUN: %python %S/Inputs/half_matmul.py bf16 128 256 128 > %t.k256.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 200 256 128 > %t.m200.mlir
// RUN: %python %S/Inputs/half_linear_nk.py bf16 256 256 256 > %t.nk.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 200 256 136 > %t.odd.mlir
// RUN: deplodock-opt %t.m200.mlir --lower-to-tile="target=sm_90a list-forks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-run --interp %t.k256.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,vector_stores=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=2,wgmma_n=32,stages=4,wgmma_wait=1,warp_specialize=true,vector_stores=true}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.m200.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,vector_stores=true}" --compare="lower-to-kernel{target=sm_80 knobs=vector_stores=true}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.nk.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,vector_stores=true}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.odd.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,vector_stores=true}" --compare="lower-to-kernel{target=sm_80 knobs=vector_stores=true}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-opt %t.m200.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,vector_stores=true" -o %t.pairs.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.pairs.mlir
// RUN: deplodock-translate --emit-cuda %t.pairs.mlir -o %t.pairs.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.pairs.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.pairs.cubin %t.pairs.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.pairs.cu %}

/// vector_stores on tensor-core epilogues: a warpgroup MMA (or mma.sync)
/// fragment holds each row's columns in adjacent pairs, at an innermost
/// index `thread * 2 + block * N - (thread floordiv 4) * 8 + c` whose
/// non-linear term has a coefficient of 8: each pair becomes one 32-bit
/// store of two 16-bit values. Offered (never the default: not measured)
/// wherever a pair forms, also where every row is guarded (M = 200 is no
/// multiple of the 64-row tile): the two stores of a row's pair sit in
/// guards of one condition and share the second one.
// FORKS: @matmul_0_reduce: vector_stores: vector_stores in {false*, true}

/// On the SIMT interpreter against the tensor program within the dtype's
/// tolerance: whole tiles, guarded rows, a K-major weight, one and two
/// consumer warpgroups, warp-specialised, mma.sync (sm_80), and f16 where
/// N = 136 overhangs the 64-column tiles too (pairs whose columns are
/// guarded apart stay two stores).
// EACH1-COUNT-1: compare result #0 after 'lower-to-kernel{{.*}}vector_stores=true}': {{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{{.*}}vector_stores=true}': {{.*}}: PASS

/// Kernel IR: each guarded row of a 64 x 64 fragment stores its 16 pairs
/// (32 values a thread) as dkernel.vector_store of two bf16, under the
/// row's guard; no scalar store of the output is left.
// KERNEL-LABEL: dkernel.func @matmul_0_reduce
//       KERNEL: scf.if
//       KERNEL:   dkernel.vector_store(%{{.*}}, %{{.*}}), %arg2[%c0, %{{.*}}, %{{.*}}] : (bf16, bf16), memref<1x200x128xbf16>
//   KERNEL-NOT: memref.store %{{.*}}, %arg2
//       KERNEL: dkernel.return
// CUDA: alignas(4) const __nv_bfloat16 vs0[2] = {
// CUDA: *reinterpret_cast<unsigned *>(&out0[
