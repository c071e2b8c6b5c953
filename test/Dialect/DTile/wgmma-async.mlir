// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-tileify --dtile-wgmma-async | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-tileify --dtile-wgmma-async=list-forks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-tileify --dtile-wgmma-async="knobs=linear_0_reduce:wgmma=true,warpgroups=2,wgmma_n=128;ragged_0_reduce:wgmma=false;kn_0_reduce:wgmma=true,warpgroups=2,wgmma_n=256" | FileCheck %s --check-prefix=WIDE
// RUN: not deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=strided_0_reduce:wgmma=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTKMAJOR
// RUN: not deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=short_0_reduce:wgmma=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTMA
// RUN: not deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=linear_0_reduce:wgmma=true,swizzle=64" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not deplodock-opt %S/Inputs/half-matmuls.mlir --dtile-lower="knobs=mm_0_reduce:wgmma=true" -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOWGMMA
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=linear_0_reduce:wgmma=true,warpgroups=2,wgmma_n=64,double_buffer=false" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: deplodock-run --interp %S/Inputs/wgmma-matmuls.mlir --func=tm --rtol=1e-3 --print=none --compare="dtile-lower{knobs=tm_0_reduce:wgmma=true,warpgroups=2,wgmma_n=64},convert-dtile-to-dkernel" --compare="dtile-lower{knobs=tm_0_reduce:wgmma=true,warpgroups=1,wgmma_n=32},convert-dtile-to-dkernel" | FileCheck %s --check-prefix=NUMBERS
// RUN: deplodock-run --interp %S/Inputs/wgmma-matmuls.mlir --func=kn --rtol=1e-3 --print=none --compare="dtile-lower{knobs=kn_0_reduce:wgmma=true,warpgroups=2,wgmma_n=256},convert-dtile-to-dkernel" --compare="dtile-lower{knobs=kn_0_reduce:wgmma=true,warpgroups=1,wgmma_n=128,double_buffer=false},convert-dtile-to-dkernel" | FileCheck %s --check-prefix=NUMBERS
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=kn_0_reduce:wgmma=true,warpgroups=1,wgmma_n=128,double_buffer=false" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNELMN
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=kn_0_reduce:wgmma=true,warpgroups=1,wgmma_n=128" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.mn.cu
// RUN: FileCheck %s --check-prefix=CUDAMN < %t.mn.cu
// RUN: deplodock-opt %S/Inputs/wgmma-matmuls.mlir --dtile-lower="knobs=tm_0_reduce:wgmma=true,warpgroups=2,wgmma_n=64" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.tm.cu
// RUN: FileCheck %s --check-prefix=CUDATM < %t.tm.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.tm.sm90a.cubin %t.tm.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.mn.sm90a.cubin %t.mn.cu %}

/// A 128 x 128 x 128 bf16 linear layer on sm_90a (both operands K-major):
/// by default one warpgroup per block and N = 32 (the block tile giving
/// the most blocks, as none fills half the SMs). Per 64-deep K chunk both
/// slabs travel by TMA in the 128-byte swizzle; after their wait the
/// warpgroup issues four m64n32k16 through descriptors 16 elements of K
/// apart (rows 128 bytes, 8-row groups 1024 bytes), commits and waits.
/// Each thread stores its 16 accumulators, rounded once, where the
/// warpgroup layout puts them. split_inner_for_swizzle is decided with it.
// DEFAULT-LABEL: func.func @linear
//       DEFAULT:   knobs<swizzle = 128, warpgroups = 1, wgmma = true, wgmma_n = 32>
//       DEFAULT:   dtile.tile blocks(%[[MO:.*]] : 2 "d0_o", %[[NO:.*]] : 4 "d1_o") threads(%[[WG:.*]] : 1 "warpgroup", %[[T:.*]] : 128 "thread")
//       DEFAULT:     %[[ACC:.*]]:16 = dloop.for %[[KO:.*]] = 0 to 2 reduce "r0_o" iter(%[[C0:[^ ]*]] = %[[Z:.*]] : f32, %{{.*}} = %[[Z]] : f32,
//  DEFAULT-NEXT:       %[[AS:.*]] = dtile.stage %{{.*}}[%[[MO]] * 64, %[[KO]] * 64] box [64, 64] transport tma swizzle 128 : memref<128x128xbf16> -> memref<64x64xbf16, #gpu.address_space<workgroup>>
//  DEFAULT-NEXT:       %[[BS:.*]] = dtile.stage %{{.*}}[%[[NO]] * 32, %[[KO]] * 64] box [32, 64] transport tma swizzle 128 : memref<128x128xbf16> -> memref<32x64xbf16, #gpu.address_space<workgroup>>
//  DEFAULT-NEXT:       dtile.async_wait keep 0
//  DEFAULT-NEXT:       %[[ROW:.*]] = affine.apply #{{.*}}(%[[WG]])
//  DEFAULT-NEXT:       dkernel.wgmma_fence
//  DEFAULT-NEXT:       %[[DA:.*]] = dkernel.wgmma_desc %[[AS]][%[[ROW]], %{{.*}}] swizzle 128 lbo 16 sbo 1024
//  DEFAULT-NEXT:       %[[DB:.*]] = dkernel.wgmma_desc %[[BS]][%{{.*}}, %{{.*}}] swizzle 128 lbo 16 sbo 1024
//  DEFAULT-NEXT:       %[[D0:.*]]:16 = dkernel.wgmma_mma_async %[[DA]], %[[DB]], [%[[C0]], {{.*}}] n 32 : bf16
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[AS]][%[[ROW]], %c16]
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[BS]][%c0, %c16]
//  DEFAULT-NEXT:       %[[D1:.*]]:16 = dkernel.wgmma_mma_async {{.*}}, [%[[D0]]#0,
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[AS]][%[[ROW]], %c32]
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[BS]][%c0, %c32]
//  DEFAULT-NEXT:       %[[D2:.*]]:16 = dkernel.wgmma_mma_async {{.*}}, [%[[D1]]#0,
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[AS]][%[[ROW]], %c48]
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[BS]][%c0, %c48]
//  DEFAULT-NEXT:       %[[D3:.*]]:16 = dkernel.wgmma_mma_async {{.*}}, [%[[D2]]#0,
//  DEFAULT-NEXT:       dkernel.wgmma_commit_group
//  DEFAULT-NEXT:       %[[W:.*]]:16 = dkernel.wgmma_wait_group 0 [%[[D3]]#0,
//  DEFAULT-NEXT:       dloop.yield %[[W]]#0,
//       DEFAULT:     %[[R0:.*]] = arith.truncf %[[ACC]]#0 : f32 to bf16
//  DEFAULT-NEXT:     dloop.store %[[R0]], %{{.*}}[%[[MO]] * 64 + %[[WG]] * 64 + (%[[T]] floordiv 32) * 16 + (%[[T]] mod 32) floordiv 4, %[[T]] * 2 + %[[NO]] * 32 - (%[[T]] floordiv 4) * 8]
//       DEFAULT:     arith.truncf %[[ACC]]#3 : f32 to bf16
//  DEFAULT-NEXT:     dloop.store %{{.*}}[%[[MO]] * 64 + %[[WG]] * 64 + (%[[T]] floordiv 32) * 16 + (%[[T]] mod 32) floordiv 4 + 8, %[[T]] * 2 + %[[NO]] * 32 - (%[[T]] floordiv 4) * 8 + 1]
//       DEFAULT:     arith.truncf %[[ACC]]#15 : f32 to bf16
//  DEFAULT-NEXT:     dloop.store %{{.*}}[%[[MO]] * 64 + %[[WG]] * 64 + (%[[T]] floordiv 32) * 16 + (%[[T]] mod 32) floordiv 4 + 8, %[[T]] * 2 + %[[NO]] * 32 - (%[[T]] floordiv 4) * 8 + 25]

/// 100 x 72 x 136 in f16, which no tile divides: the slabs are zero-filled
/// past M, N and K (TMA's out-of-bounds zeros) and the stores are guarded
/// by row and, from the second group of 8 columns on, by column (the first
/// group of the last block, columns 64 to 71, is inside N).
// DEFAULT-LABEL: func.func @ragged
//       DEFAULT:   dtile.tile blocks(%{{.*}} : 2 "d0_o", %{{.*}} : 3 "d1_o") threads(%{{.*}} : 1 "warpgroup", %{{.*}} : 128 "thread")
//       DEFAULT:     dloop.for %{{.*}} = 0 to 3 reduce "r0_o"
//  DEFAULT-NEXT:       dtile.stage %{{.*}} box [64, 64] zero_fill transport tma swizzle 128 : memref<100x136xf16>
//  DEFAULT-NEXT:       dtile.stage %{{.*}} box [32, 64] zero_fill transport tma swizzle 128 : memref<72x136xf16>
//       DEFAULT:       dkernel.wgmma_mma_async {{.*}} n 32 : f16
//       DEFAULT:     %[[INM:.*]] = arith.cmpi ult, %{{.*}}, %c100 : index
//  DEFAULT-NEXT:     scf.if %[[INM]] {
//  DEFAULT-NEXT:       arith.truncf %{{.*}}#0 : f32 to f16
//       DEFAULT:     %[[INN:.*]] = arith.cmpi ult, %{{.*}}, %c72 : index
//  DEFAULT-NEXT:     %[[IN:.*]] = arith.andi %[[INM]], %[[INN]] : i1
//  DEFAULT-NEXT:     scf.if %[[IN]] {
//  DEFAULT-NEXT:       arith.truncf %{{.*}}#4 : f32 to f16

/// B held K x N (as `x @ W` reads a weight) is MN-major: its slab is 64
/// rows of K by the block's 32 of N, in the 64-byte swizzle that 32 halves
/// fill; its descriptors step 16 rows of K (1024 bytes) per wgmma, 8-row
/// groups 512 bytes apart, and the wgmma reads it transposed (major_b mn).
// DEFAULT-LABEL: func.func @kn
//       DEFAULT:   knobs<swizzle = 128, warpgroups = 1, wgmma = true, wgmma_n = 32>
//       DEFAULT:   dtile.tile blocks(%{{.*}} : 2 "d0_o", %[[NO:.*]] : 8 "d1_o") threads(%{{.*}} : 1 "warpgroup", %{{.*}} : 128 "thread")
//       DEFAULT:       %[[AS:.*]] = dtile.stage %{{.*}} box [64, 64] transport tma swizzle 128 : memref<128x128xf16>
//  DEFAULT-NEXT:       %[[BS:.*]] = dtile.stage %{{.*}}[%[[KO:.*]] * 64, %[[NO]] * 32] box [64, 32] transport tma swizzle 64 : memref<128x256xf16> -> memref<64x32xf16, #gpu.address_space<workgroup>>
//       DEFAULT:       %[[DB:.*]] = dkernel.wgmma_desc %[[BS]][%c0, %c0] swizzle 64 lbo 4096 sbo 512
//  DEFAULT-NEXT:       %{{.*}}:16 = dkernel.wgmma_mma_async %{{.*}}, %[[DB]], [{{.*}}] n 32 major_b mn : f16
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[AS]][%{{.*}}, %c16] swizzle 128 lbo 16 sbo 1024
//  DEFAULT-NEXT:       dkernel.wgmma_desc %[[BS]][%c16, %c0] swizzle 64 lbo 4096 sbo 512
//  DEFAULT-NEXT:       dkernel.wgmma_mma_async {{.*}} n 32 major_b mn : f16

/// A held K x M (a transposed activation) is MN-major too: its slab is 64
/// rows of K by the block's 64 of M, each warpgroup's descriptors starting
/// at its own 64 columns, K row 16 s for step s; the wgmma reads both
/// operands transposed.
// DEFAULT-LABEL: func.func @tm
//       DEFAULT:       %[[AS:.*]] = dtile.stage %{{.*}}[%[[KO:.*]] * 64, %[[MO:.*]] * 64] box [64, 64] transport tma swizzle 128 : memref<128x128xf16>
//       DEFAULT:       dkernel.wgmma_desc %[[AS]][%c0, %{{.*}}] swizzle 128 lbo 8192 sbo 1024
//       DEFAULT:       dkernel.wgmma_mma_async {{.*}} n 32 major_a mn major_b mn : f16
//       DEFAULT:       dkernel.wgmma_desc %[[AS]][%c16, %{{.*}}] swizzle 128 lbo 8192 sbo 1024

/// B indexed [K, 1, N] has no N beside K, and a K of 32 is shorter than a
/// TMA box of one 64-deep chunk: both are left to mma_sync and SIMT.
// DEFAULT-LABEL: func.func @strided
//   DEFAULT-NOT:   wgmma
//       DEFAULT:   dtile.kernel @strided_0_reduce ins
// DEFAULT-LABEL: func.func @short
//   DEFAULT-NOT:   wgmma
//       DEFAULT:   dtile.kernel @short_0_reduce ins

/// The fork: each warpgroup count and N whose slabs TMA can copy, then
/// wgmma=false; where the rule does not apply, list-forks says why.
// FORKS: @linear_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (1, true, 128), (2, true, 32), (2, true, 64), (2, true, 128), false}
// FORKS: @ragged_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (2, true, 32), (2, true, 64), false}
// FORKS: @kn_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (1, true, 128), (1, true, 192), (1, true, 256), (2, true, 32), (2, true, 64), (2, true, 128), (2, true, 192), (2, true, 256), false}
// FORKS: @tm_0_reduce: wgmma_async: (warpgroups, wgmma, wgmma_n) in {(1, true, 32)*, (1, true, 64), (2, true, 32), (2, true, 64), false}
// FORKS: @strided_0_reduce: wgmma_async: does not apply: the operands are not indexed [..., M, K] or [..., K, M] for A and [..., N, K] or [..., K, N] for B, the layouts wgmma reads
// FORKS: @short_0_reduce: wgmma_async: does not apply: TMA cannot copy the slabs of any block tile (M 64, N 64, K 32): the boxes must lie inside the operands (but for M rows short of the last warpgroup's 64), whose rows must span multiples of 16 bytes

/// Two warpgroups of 64 rows share one 128 x 128 block: A's slab holds
/// both, each warpgroup's descriptors start at its own 64 rows, and each
/// thread carries 64 accumulators. wgmma=false leaves the kernel untouched.
// WIDE-LABEL: func.func @linear
//       WIDE:   knobs<swizzle = 128, warpgroups = 2, wgmma = true, wgmma_n = 128>
//       WIDE:   dtile.tile blocks(%{{.*}} : 1 "d0_o", %{{.*}} : 1 "d1_o") threads(%[[WG:.*]] : 2 "warpgroup", %{{.*}} : 128 "thread")
//       WIDE:     %{{.*}}:64 = dloop.for
//       WIDE:       %[[AS:.*]] = dtile.stage {{.*}} box [128, 64] transport tma swizzle 128
//       WIDE:       dtile.stage {{.*}} box [128, 64] transport tma swizzle 128
//       WIDE:       %[[ROW:.*]] = affine.apply #{{.*}}(%[[WG]])
//       WIDE:       dkernel.wgmma_desc %[[AS]][%[[ROW]], %c0]
//       WIDE:       %{{.*}}:64 = dkernel.wgmma_mma_async {{.*}} n 128 : bf16
//       WIDE:       %{{.*}}:64 = dkernel.wgmma_wait_group 0
// WIDE-LABEL: func.func @ragged
//       WIDE:   dtile.kernel @ragged_0_reduce knobs<wgmma = false>
//   WIDE-NOT:   dtile.tile {{.*}}threads

/// An MN-major B 256 wide is four 64-wide atoms of N, each a segment of 64
/// K rows of 128 bytes: LBO steps 8192 bytes from one to the next.
// WIDE-LABEL: func.func @kn
//       WIDE:   knobs<swizzle = 128, warpgroups = 2, wgmma = true, wgmma_n = 256>
//       WIDE:       %[[BS:.*]] = dtile.stage {{.*}} box [64, 256] transport tma swizzle 128
//       WIDE:       dkernel.wgmma_desc %[[BS]][%c0, %c0] swizzle 128 lbo 8192 sbo 1024
//       WIDE:       %{{.*}}:128 = dkernel.wgmma_mma_async {{.*}} n 256 major_b mn : f16

/// Asking for wgmma where it cannot run is an error saying why.
// NOTKMAJOR: error: 'dtile.kernel' op knob wgmma=true: wgmma_async cannot take @strided_0_reduce: the operands are not indexed [..., M, K] or [..., K, M] for A and [..., N, K] or [..., K, N] for B
// NOTMA: error: 'dtile.kernel' op knob wgmma=true: wgmma_async cannot take @short_0_reduce: TMA cannot copy the slabs of any block tile (M 64, N 64, K 32)
// NOWGMMA: error: 'dtile.kernel' op knob wgmma=true: wgmma_async cannot take @mm_0_reduce: target sm_80 has no warpgroup MMA (the 'wgmma' feature)

// SWIZZLE: error: 'dtile.kernel' op knob wgmma=true: its descriptors read slabs in the 128-byte swizzle, but swizzle=64 is asked for

/// In Kernel IR a descriptor addresses the slab's flat swizzled slice
/// (1024-byte aligned for the TMA's pattern) at the slab read's index; two
/// warpgroups make blocks of 256 threads.
// KERNEL-LABEL: dkernel.func @linear_0_reduce
//  KERNEL-SAME:   block [256, 1, 1]
//       KERNEL:   %[[A:.*]] = dkernel.alloc_shared offset 0 : memref<8192xbf16, #gpu.address_space<workgroup>>
//       KERNEL:   %[[B:.*]] = dkernel.alloc_shared offset 16384 : memref<4096xbf16, #gpu.address_space<workgroup>>
//       KERNEL:   dkernel.tma_load
//       KERNEL:   dkernel.mbarrier_wait
//       KERNEL:   dkernel.wgmma_fence
//       KERNEL:   dkernel.wgmma_desc %[[A]][%{{.*}}] swizzle 128 lbo 16 sbo 1024 : memref<8192xbf16, #gpu.address_space<workgroup>>
//       KERNEL:   dkernel.wgmma_desc %[[B]][%{{.*}}] swizzle 128 lbo 16 sbo 1024 : memref<4096xbf16, #gpu.address_space<workgroup>>
//       KERNEL:   dkernel.wgmma_mma_async {{.*}} n 64 : bf16
//       KERNEL:   dkernel.wgmma_commit_group
//       KERNEL:   dkernel.wgmma_wait_group 0

/// The default lowering emits CUDA nvcc compiles for sm_90a.
// CUDA: wgmma.fence.sync.aligned
// CUDA: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// CUDA: wgmma.commit_group.sync.aligned
// CUDA: wgmma.wait_group.sync.aligned 0

/// In Kernel IR an MN-major B of 128 columns is two TMA boxes of 64 K rows
/// by 64 halves (one per 128-byte segment), 8192 bytes apart: the
/// descriptor's LBO.
// KERNELMN-LABEL: dkernel.func @kn_0_reduce
//  KERNELMN-SAME:   !dkernel.tma_descriptor<64x64xf16, swizzle = 128>
//       KERNELMN:   %[[B:.*]] = dkernel.alloc_shared offset 8192 : memref<8192xf16, #gpu.address_space<workgroup>>
//       KERNELMN:   dkernel.alloc_shared offset 8192 : memref<64x64xf16
//       KERNELMN:   dkernel.alloc_shared offset 16384 : memref<64x64xf16
//       KERNELMN:   dkernel.wgmma_desc %[[B]][%{{.*}}] swizzle 128 lbo 8192 sbo 1024 : memref<8192xf16, #gpu.address_space<workgroup>>
//       KERNELMN:   dkernel.wgmma_mma_async {{.*}} n 128 major_b mn : f16

/// The emitted wgmma reads B transposed: imm-trans-b 1; with A held K x M
/// as well, imm-trans-a 1 too.
// CUDAMN: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// CUDATM-LABEL: tm_0_reduce(
//       CUDATM: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;

/// MN-major operands give the Loop kernel's numbers on the SIMT interpreter
/// (within f16's tolerance): A held K x M with one and two warpgroups, B
/// held K x N four and two 64-wide atoms of N wide.
// NUMBERS-COUNT-2: compare result #0 after 'dtile-lower{knobs={{.*}}wgmma=true{{.*}}: PASS
