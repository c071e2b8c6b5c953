// RUN: %python %S/Inputs/half_matmul.py bf16 256 512 256 | %python %S/Inputs/few_sms.py 3 262144 > %t.bf16.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 256 512 256 | %python %S/Inputs/few_sms.py 3 > %t.bigl2.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 256 512 256 | %python %S/Inputs/few_sms.py 8 262144 > %t.wide.mlir
// RUN: sed 's/features = \[/features = [clusters, /' %t.bf16.mlir > %t.clusters.mlir
// RUN: %python %S/Inputs/half_matmul.py f32 256 72 136 | %python %S/Inputs/few_sms.py 4 32768 > %t.f32.mlir
// RUN: %python %S/Inputs/half_matmul.py f32 100 72 136 | %python %S/Inputs/few_sms.py 4 32768 > %t.f32m.mlir
// RUN: %python %S/Inputs/half_matmul.py f32 64 512 64 | %python %S/Inputs/few_sms.py 4 32768 > %t.f32k.mlir
// RUN: %python %S/Inputs/few_sms.py 2 32768 < %deplodock_src_root/examples/softmax.mlir > %t.softmax.mlir
// RUN: %python %S/Inputs/few_sms.py 2 32768 < %deplodock_src_root/examples/sdpa.mlir > %t.sdpa.mlir
// RUN: %python %S/Inputs/few_sms.py 2 32768 < %deplodock_src_root/examples/matmul.mlir > %t.matmul.mlir

/// tile_order on a grid of 4 x 4 wgmma tiles of 64 x 64 (3 multiprocessors,
/// a 256 KB L2): B (256 KB) exceeds half the L2 and two of A's 64 KB row
/// tiles fit in it, so the default deals the tiles two rows at a time.
// RUN: deplodock-opt %t.bf16.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=1,wgmma_n=64 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// FORKS: remark: @matmul_0_reduce: tile_order: tile_group in {2*, 1, 4}

/// One axis of 16 tiles: row (t / 8) * 2 + t mod 2, column (t mod 8) / 2,
/// which the stages of A and B read from.
// RUN: deplodock-opt %t.bf16.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=1,wgmma_n=64" | FileCheck %s --check-prefix=TILE
// TILE-DAG: #[[ROW:.*]] = affine_map<(d0) -> (d0 + (d0 floordiv 8) * 2 - (d0 floordiv 2) * 2)>
// TILE-DAG: #[[COL:.*]] = affine_map<(d0) -> ((d0 mod 8) floordiv 2)>
// TILE: dtile.kernel @matmul_0_reduce knobs<{{.*}}tile_group = 2,
// TILE: dtile.tile blocks(%[[T:.*]] : 16 "tiles") threads(
// TILE-NEXT: %[[M:.*]] = affine.apply #[[ROW]](%[[T]])
// TILE-NEXT: %[[N:.*]] = affine.apply #[[COL]](%[[T]])
// TILE-NEXT: dtile.stage %in0[0, %[[M]] * 64, 0]
// TILE-NEXT: dtile.stage %in1[0, %[[N]] * 64]

/// The kernel launches one grid axis of 16 blocks; nvcc and NVRTC compile it.
// RUN: deplodock-opt %t.bf16.mlir --lower-to-kernel="knobs=wgmma=true,warpgroups=1,wgmma_n=64" > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cu %}
// KERNEL: dkernel.func @matmul_0_reduce({{.*}} grid [16, 1, 1] block [128, 1, 1]

/// With the H100's 50 MB of L2 the same B fits: row by row, the plain grid.
// RUN: deplodock-opt %t.bigl2.mlir --lower-to-kernel="knobs=wgmma=true,warpgroups=1,wgmma_n=64" | FileCheck %s --check-prefix=BIGL2
// BIGL2: dkernel.func @matmul_0_reduce({{.*}} grid [4, 4, 1] block [128, 1, 1]{{.*}}tile_group = 1

/// 16 x 5 SIMT tiles of 16 x 32 with a 32 KB L2: B (39 KB) exceeds half of
/// it, and of the groups A's 4.6 KB row tiles fit in 16 KB the largest
/// offered is 2 (4 would take 18 KB).
// RUN: deplodock-opt %t.f32.mlir --lower-to-tile="knobs=BM=16,BN=32 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKSF32
// FORKSF32: remark: @matmul_0_reduce: tile_order: tile_group in {2*, 1, 4, 8, 16}
/// 7 tile rows (100 rows, the last tile masked): 1 or all 7.
// RUN: deplodock-opt %t.f32m.mlir --lower-to-tile="knobs=BM=16,BN=32 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKSODD
// FORKSODD: remark: @matmul_0_reduce: tile_order: tile_group in {1*, 7}

/// On the SIMT interpreter, against the reference lowering at the dtype's
/// tolerance: wgmma dealt 1, 2 and 4 rows at a time; SIMT f32 by 2, 4 and
/// 16 (column by column), by 7 over masked rows; split-K's partial sums
/// (an outer axis of 4 splits of 4 x 2 tiles) by 2 and 4, folded by
/// atomics and through a workspace.
// RUN: deplodock-run --interp %t.bf16.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,tile_group=1}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,tile_group=2}" --compare="lower-to-kernel{knobs=wgmma=true,warpgroups=1,wgmma_n=64,tile_group=4,stages=3,wgmma_wait=1}" | FileCheck %s --check-prefix=EACH3
// RUN: deplodock-run --interp %t.f32.mlir --pipeline=lower-to-tensor --rtol=1e-5 --print=none --compare="lower-to-kernel{knobs=BM=16,BN=32,tile_group=2}" --compare="lower-to-kernel{knobs=BM=16,BN=32,tile_group=4}" --compare="lower-to-kernel{knobs=BM=16,BN=32,tile_group=16}" | FileCheck %s --check-prefix=EACH3
// RUN: deplodock-run --interp %t.f32m.mlir --pipeline=lower-to-tensor --rtol=1e-5 --print=none --compare="lower-to-kernel{knobs=BM=16,BN=32,tile_group=7}" | FileCheck %s --check-prefix=EACH1
// RUN: deplodock-run --interp %t.f32k.mlir --pipeline=lower-to-tensor --rtol=1e-5 --print=none --compare="lower-to-kernel{knobs=BM=16,BN=32,split_k=4,tile_group=2}" --compare="lower-to-kernel{knobs=BM=16,BN=32,split_k=4,split_workspace=true,tile_group=4}" | FileCheck %s --check-prefix=EACH2
// EACH3-COUNT-3: compare result #0 after 'lower-to-kernel{knobs={{.*}}tile_group={{.*}}: PASS
// EACH2-COUNT-2: compare result #0 after 'lower-to-kernel{knobs={{.*}}tile_group={{.*}}: PASS
// EACH1: compare result #0 after 'lower-to-kernel{knobs={{.*}}tile_group=7}': {{.*}}PASS

/// Where it does not apply, and a request it cannot take.
// RUN: deplodock-opt %t.bf16.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=1,wgmma_n=64,persistent=true,persistent_per_sm=1 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// RUN: deplodock-opt %t.clusters.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,refill_late=true,cluster_m=2 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: deplodock-opt %t.wide.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=2,wgmma_n=128 list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONEWAVE
// RUN: deplodock-opt %t.matmul.mlir --lower-to-tile="list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONEROW
// RUN: deplodock-opt %t.softmax.mlir --lower-to-tile="list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SOFTMAX
// RUN: deplodock-opt %t.sdpa.mlir --lower-to-tile="list-forks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SDPA
// RUN: not deplodock-opt %t.wide.mlir --lower-to-tile="knobs=wgmma=true,warpgroups=2,wgmma_n=128,tile_group=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REQUEST
// PERSISTENT: remark: @matmul_0_reduce: tile_order: does not apply: its persistent grid deals the tiles itself (persistent_group)
// CLUSTER: remark: @matmul_0_reduce: tile_order: does not apply: its blocks run in clusters that pair neighbouring tiles
// ONEWAVE: remark: @matmul_0_reduce: tile_order: does not apply: 4 tiles fit one wave of 8 multiprocessors
// ONEROW: remark: @matmul_0_reduce: tile_order: does not apply: fewer than two rows and two columns of tiles
// SOFTMAX: remark: @softmax_0_reduce: tile_order: does not apply: no reduce loop at the top of the tile body: not a block-tiled reduction
// SDPA: remark: @sdpa_0_reduce: tile_order: does not apply: online-softmax kernels are not offered
// REQUEST: error: 'dtile.kernel' op knob tile_group=2: tile_order cannot take @matmul_0_reduce: 4 tiles fit one wave of 8 multiprocessors
