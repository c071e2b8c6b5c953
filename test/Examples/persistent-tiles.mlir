// RUN: %python %S/Inputs/half_matmul.py bf16 256 512 256 | %python %S/Inputs/few_sms.py 3 > %t.bf16.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 256 64 256 | %python %S/Inputs/few_sms.py 2 > %t.even.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 100 136 72 | %python %S/Inputs/few_sms.py 4 > %t.f16.mlir
// RUN: %python %S/Inputs/half_matmul.py f32 100 72 136 | %python %S/Inputs/few_sms.py 4 > %t.f32.mlir
// RUN: %python %S/Inputs/half_matmul.py f32 256 72 136 | %python %S/Inputs/few_sms.py 4 > %t.f32g.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 1024 64 128 | %python %S/Inputs/few_sms.py 3 > %t.bf16g.mlir
// RUN: %python %S/Inputs/few_sms.py 2 < %deplodock_src_root/examples/softmax.mlir > %t.softmax.mlir
// RUN: %python %S/Inputs/few_sms.py 2 < %deplodock_src_root/examples/sdpa.mlir > %t.sdpa.mlir
// RUN: %python %S/Inputs/few_sms.py 2 < %deplodock_src_root/examples/matmul.mlir > %t.matmul.mlir

/// The Tile, Kernel and CUDA forms of a persistent wgmma kernel, which nvcc
/// and NVRTC compile for sm_90a.
// RUN: deplodock-opt %t.bf16.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=1" | FileCheck %s --check-prefix=TILE
// RUN: deplodock-opt %t.bf16.mlir --lower-to-kernel="knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=1" > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cu %}

/// The fork, its default (off: the plain grid) and its refusals.
// RUN: deplodock-opt %t.f32.mlir --lower-to-tile="knobs=BM=16,BN=32 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.f32g.mlir --lower-to-tile="knobs=BM=16,BN=32 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKSG
// RUN: deplodock-opt %t.f32g.mlir --lower-to-tile="knobs=BM=16,BN=32,persistent=true,persistent_per_sm=1,persistent_group=8" | FileCheck %s --check-prefix=GROUP
// RUN: deplodock-opt %t.bf16.mlir --lower-to-kernel="knobs=wgmma=true,warpgroups=1,wgmma_n=64" | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %t.softmax.mlir --lower-to-tile="list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SOFTMAX
// RUN: deplodock-opt %t.sdpa.mlir --lower-to-tile="list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SDPA
// RUN: deplodock-opt %t.matmul.mlir --lower-to-tile="knobs=split_k=2 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLITK
// RUN: not deplodock-opt %t.bf16.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=2,wgmma_n=256,persistent=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONEWAVE

/// On the SIMT interpreter, against the reference lowering at the dtype's
/// tolerance: wgmma (pipelined 2, 3 and 4 deep, wgmma_wait 1, single
/// buffered), mma.sync and SIMT f32 (cp.async, synchronous and no stages;
/// A transposed), with grids that do (16 tiles on 2 or 4 blocks) and do not
/// (16 on 3 or 6, 63 on 4 or 8, 35 on 4 or 8) divide the tiles, at shapes no
/// tile divides (100 x 72 and 100 x 136); and dealt in groups of 8 tile
/// rows (16 x 5 SIMT tiles on 4 or 8 blocks, 16 x 2 wgmma tiles on 3 or 6).
// RUN: deplodock-run --interp %t.bf16.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=1}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=3,wgmma_wait=1,persistent=true,persistent_per_sm=2}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,persistent=true,persistent_per_sm=1}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,double_buffer=false,persistent=true,persistent_per_sm=2}" | FileCheck %s --check-prefix=EACH4
// RUN: deplodock-run --interp %t.even.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=1}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{knobs=wgmma=false,WM=16,WN=8,mma_k=16,mma_pad=false,mma_swizzle=true,tensor_cores=true,warps=1,persistent=true,persistent_per_sm=1}" --compare="lower-to-kernel{knobs=wgmma=false,WM=16,WN=8,mma_k=32,mma_pad=true,mma_swizzle=false,tensor_cores=true,warps=1,persistent=true,persistent_per_sm=2}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.f32g.mlir --pipeline=lower-to-tensor --rtol=1e-5 --print=none --compare="lower-to-kernel{knobs=BM=16,BN=32,persistent=true,persistent_per_sm=1,persistent_group=8}" --compare="lower-to-kernel{knobs=BM=16,BN=32,persistent=true,persistent_per_sm=2,persistent_group=8}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.bf16g.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=1,persistent_group=8}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=2,persistent_group=8}" | FileCheck %s --check-prefix=EACH2
// RUN: deplodock-run --interp %t.f32.mlir --pipeline=lower-to-tensor --rtol=1e-5 --print=none --compare="lower-to-kernel{knobs=BM=16,BN=32,persistent=true,persistent_per_sm=1}" --compare="lower-to-kernel{knobs=BM=16,BN=32,async_copy=false,persistent=true,persistent_per_sm=2}" --compare="lower-to-kernel{knobs=BM=16,BN=32,stage=[],persistent=true,persistent_per_sm=1}" --compare="lower-to-kernel{knobs=BM=32,BN=64,transpose_a=true,persistent=true,persistent_per_sm=1}" | FileCheck %s --check-prefix=EACH4

/// 3 blocks loop over the 16 tiles of 64 x 64 (4 x 4), the last axis
/// fastest as a plain grid orders them; the body is the plain kernel's.
// TILE-DAG: #[[ROW:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// TILE-DAG: #[[COL:.*]] = affine_map<(d0) -> (d0 mod 4)>
// TILE: dtile.kernel @matmul_0_reduce knobs<{{.*}}persistent = true, persistent_per_sm = 1,
// TILE: dtile.tile blocks(%[[B:.*]] : 3 "persistent") threads(%{{.*}} : 1 "warpgroup", %{{.*}} : 128 "thread") {
// TILE-NEXT: scf.for %[[T:.*]] = %[[B]] to %c16 step %c3 {
// TILE-NEXT: %[[M:.*]] = affine.apply #[[ROW]](%[[T]])
// TILE-NEXT: %[[N:.*]] = affine.apply #[[COL]](%[[T]])
// TILE-NEXT: dtile.stage %in0[0, %[[M]] * 64, 0]
// TILE-NEXT: dtile.stage %in1[0, %[[N]] * 64]

/// The mbarriers are initialised once, before the tile loop; each tile
/// starts with a block barrier before its first TMA refills the slabs the
/// previous tile read, and its K loop starts the accumulators from zero.
// KERNEL: dkernel.func @matmul_0_reduce({{.*}} grid [3, 1, 1] block [128, 1, 1]
// KERNEL: %[[BID:.*]] = gpu.block_id x
// KERNEL: dkernel.mbarrier_init
// KERNEL: gpu.barrier
// KERNEL: scf.for %{{.*}} = %[[BID]] to %c16 step %c3 {
// KERNEL-NOT: {{mbarrier_init|tma_load}}
// KERNEL: gpu.barrier
// KERNEL-NOT: mbarrier_init
// KERNEL: dkernel.tma_load
// KERNEL: scf.for {{.*}} iter_args(%{{[^ ]*}} = %cst,
// KERNEL-NOT: mbarrier_init
// KERNEL: dkernel.return

// CUDA: mbarrier.init
// CUDA: for (int [[I:i[0-9]+]] = v0; [[I]] < 16; [[I]] += 3) {
// CUDA-NOT: mbarrier.init
// CUDA: __syncthreads();
// CUDA-NOT: mbarrier.init
// CUDA: cp.async.bulk.tensor

// FORKS: remark: @matmul_0_reduce: persistent_tiles: (persistent, persistent_per_sm) in {false*, (true, 1), (true, 2)}

/// Groups of 8 tile rows are offered where the tile rows (16 here) allow.
// FORKSG: remark: @matmul_0_reduce: persistent_tiles: (persistent, persistent_group, persistent_per_sm) in {false*, (true, 1), (true, 8, 1), (true, 2), (true, 8, 2)}
/// 16 x 5 tiles, 8 rows of 5 columns (40 tiles) a group, down each column
/// of the group first: row (t / 40) * 8 + t mod 8, column (t mod 40) / 8.
// GROUP-DAG: #[[ROW:.*]] = affine_map<(d0) -> (d0 + (d0 floordiv 40) * 8 - (d0 floordiv 8) * 8)>
// GROUP-DAG: #[[COL:.*]] = affine_map<(d0) -> ((d0 mod 40) floordiv 8)>
// GROUP: dtile.tile blocks(%[[B:.*]] : 4 "persistent")
// GROUP-NEXT: scf.for %[[T:.*]] = %[[B]] to %c80 step %c4 {
// GROUP-NEXT: affine.apply #[[ROW]](%[[T]])
// GROUP-NEXT: affine.apply #[[COL]](%[[T]])

// DEFAULT: dkernel.func @matmul_0_reduce({{.*}} grid [4, 4, 1] block [128, 1, 1]{{.*}}persistent = false
// DEFAULT-NOT: scf.for %{{.*}} = %block_id

// SOFTMAX: remark: @softmax_0_reduce: persistent_tiles: does not apply: no reduce loop at the top of the tile body: not a block-tiled reduction
// SDPA: remark: @sdpa_0_reduce: persistent_tiles: does not apply: online-softmax kernels are not offered
// SPLITK: remark: @matmul_0_reduce: persistent_tiles: does not apply: its blocks fold split-K partial sums into zeroed outputs by atomics; the split already multiplies the blocks

/// A 128 x 256 wgmma tile leaves 2 tiles for 3 multiprocessors.
// ONEWAVE: error: 'dtile.kernel' op knob persistent=true: persistent_tiles cannot take @matmul_0_reduce: 2 tiles fit one wave of 3 multiprocessors

// EACH4-COUNT-4: compare result #0 after 'lower-to-kernel{knobs={{.*}}persistent=true{{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{knobs={{.*}}persistent=true{{.*}}: PASS
