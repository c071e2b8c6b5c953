// RUN: %python %S/Inputs/half_matmul.py bf16 64 192 32 > %t.k192.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 64 256 32 > %t.k256.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 64 320 32 > %t.k320.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 64 384 32 > %t.k384.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 64 200 32 > %t.f16.k200.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 100 520 136 > %t.odd.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 512 128 > %t.k512.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --scaled matmul > %t.scaled.mlir
// RUN: deplodock-run --interp %t.k192.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.k256.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.k320.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.k384.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.f16.k200.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=4}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.odd.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,stages=3}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-opt %t.k512.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32" | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-run --interp %t.k512.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=64,split_k=1,stages=3}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=64,split_k=1,stages=4}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=32,split_k=1,stages=3}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=32,split_k=1,stages=4,swizzle=32}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=32,split_k=2,stages=3}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=32,split_k=2,stages=4}" | FileCheck %s --check-prefix=EACH6
// RUN: %python %S/Inputs/half_matmul.py bf16 128 384 64 > %t.m128.mlir
// RUN: deplodock-run --interp %t.k256.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=5}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=5,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.k512.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=8}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=6,wgmma_wait=1}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=7,refill_late=true}" | FileCheck %s --check-prefix=EACH3
// RUN: deplodock-run --interp %t.m128.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=6,warp_specialize=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=7,cluster_m=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=7,cluster_m=2,warp_specialize=true}" | FileCheck %s --check-prefix=EACH3
// RUN: deplodock-run --interp %t.scaled.mlir --pipeline=lower-to-tensor --print=none --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=64,split_k=1,stages=5}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=32,split_k=1,stages=8}" --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=32,split_k=2,stages=5}" | FileCheck %s --check-prefix=EACH3-SIMT
// RUN: %python %S/Inputs/half_matmul.py bf16 256 256 256 | %python %S/Inputs/few_sms.py 3 > %t.persistent.mlir
// RUN: deplodock-run --interp %t.persistent.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=5,persistent=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=5,wgmma_wait=1,persistent=true}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=5,persistent=true,warp_specialize=true}" | FileCheck %s --check-prefix=EACH3
// RUN: deplodock-opt %t.k256.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=5" | FileCheck %s --check-prefix=ALL-AHEAD
// RUN: deplodock-opt %t.k512.mlir --lower-to-kernel="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=8" | deplodock-translate --emit-cuda > %t.deep.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.deep.cubin %t.deep.cu %}

/// pipeline_k_outer 3 to 8 deep, at the Kernel level on the SIMT
/// interpreter against the reference within the dtype's tolerance. On
/// warpgroup MMA (64-deep K chunks): K of 192, 256, 320 and 384 (3 to 6
/// chunks: multiples of the depth and not), 200 (a zero-filled last chunk)
/// and 520 with M and N no tile divides. A 512-deep bf16 matmul whose K is
/// not split (eight chunks; wgmma_split_k would leave each split four)
/// takes the deepest depth that fits, four, by default. On
/// the SIMT TMA matmul (K = 256): 4 and 8 chunks, split in two or not, one
/// variant's slabs in 32-byte swizzle segments.
// DEFAULT: dkernel.func @matmul_0_reduce
// DEFAULT-SAME: pipeline = true, refill_late = true, stages = 4
// DEFAULT-SAME: wgmma = true
// EACH1-COUNT-1: compare result #0 after 'lower-to-kernel{target=sm_90a{{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS
// EACH3-COUNT-3: compare result #0 after 'lower-to-kernel{target=sm_90a knobs=wgmma=true,{{.*}}: PASS
// EACH3-SIMT-COUNT-3: compare result #0 after 'lower-to-kernel{target=sm_90 knobs=tma=true,{{.*}}: PASS
// EACH6-COUNT-6: compare result #0 after 'lower-to-kernel{target=sm_90 knobs=tma=true,{{.*}}: PASS

/// Deeper than 4 (unmeasured, offered to the tuner): K = 256 is four chunks, so
/// stages=5 stages all four before the loop (slots 0 to 3 of five) and the loop
/// refills nothing: it waits for each chunk's slabs and computes (eight copies,
/// A and B of each chunk, before the loop). Eight chunks eight deep, 6 deep
/// leaving a group in flight, 7 deep refilling late; with warp specialisation
/// and clusters of two (M of 128); all four chunks ahead in a persistent grid
/// on 3 SMs (a block's tiles one after another), plain, leaving a group in
/// flight and warp-specialised; on the SIMT TMA matmul 5 deep over four chunks
/// and 8 over eight. The 8-deep wgmma kernel compiles with nvcc for sm_90a.
// ALL-AHEAD: dkernel.func @matmul_0_reduce
// ALL-AHEAD-SAME: stages = 5
// ALL-AHEAD-COUNT-8: dkernel.tma_load
// ALL-AHEAD: scf.for
// ALL-AHEAD-NOT: dkernel.tma_load
// ALL-AHEAD: dkernel.wgmma_commit_group
// ALL-AHEAD-NOT: dkernel.tma_load
// ALL-AHEAD: dkernel.wgmma_wait_group 0
// ALL-AHEAD-NOT: dkernel.tma_load
// ALL-AHEAD: dkernel.return
