// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 128 256 128 > %t.k256.mlir
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 192 256 128 > %t.m192.mlir
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=1,wgmma_n=64,refill_late=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=1,wgmma_n=64,refill_late=true,cluster_m=2" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=PERSISTENT
// RUN: deplodock-opt %t.m192.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=1,wgmma_n=64,refill_late=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ODD
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=1,wgmma_n=64,warp_specialize=true" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=WS
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=false" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SIMT
// RUN: not deplodock-opt %t.m192.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,refill_late=true,cluster_m=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ODD-ERROR
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,pipeline=true,stages=4,warp_specialize=true,cluster_m=2" | FileCheck %s --check-prefix=WS-TILE
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=false,cluster_m=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SIMT-ERROR
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,stages=4,wgmma_wait=1,cluster_m=2" | FileCheck %s --check-prefix=TILE
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64" | FileCheck %s --check-prefix=DEFAULT
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,pipeline=true,stages=4,cluster_m=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=EARLY-ERROR

/// cluster_multicast forks a TMA-pipelined warpgroup MMA kernel whose M
/// tiles pair up: skip (the default: unmeasured) or clusters of 2.
// FORKS: remark: @matmul_0_reduce: cluster_multicast: cluster_m in {1*, 2}

/// A clustered tile is not made persistent: a grid of sm_count blocks
/// would break the pairs.
// PERSISTENT: remark: @matmul_0_reduce: persistent_tiles: does not apply: its blocks run in clusters sharing multicast slabs

/// Refusals say why; a request the kernel cannot meet is an error.
// ODD: remark: @matmul_0_reduce: cluster_multicast: does not apply: an odd number of M tiles (3 blocks along "d0_o"): they do not pair into clusters of 2
// SIMT: remark: @matmul_0_reduce: cluster_multicast: does not apply: not a warpgroup MMA kernel (wgmma)
// ODD-ERROR: error: 'dtile.kernel' op knob cluster_m=2: cluster_multicast cannot take @matmul_0_reduce: an odd number of M tiles (3 blocks along "d0_o"): they do not pair into clusters of 2
// SIMT-ERROR: error: 'dtile.kernel' op knob cluster_m=2: cluster_multicast cannot take @matmul_0_reduce: not a warpgroup MMA kernel (wgmma)
/// A multicast refill waits for the other block to release its slot: at
/// the top of the step (without refill_late) that wait stalled the step's
/// wgmmas, so the refill must follow their commit.
// EARLY-ERROR: error: 'dtile.kernel' op knob cluster_m=2: cluster_multicast cannot take @matmul_0_reduce: B's refill precedes the step's wgmmas, where a multicast refill's wait for the other block would stall them: it needs refill_late=true or wgmma_wait=1

/// Warp-specialised, the producer warpgroup waits for the peer instead of
/// the consumers, so clusters are offered wherever the refill is (here at
/// the top of the step, which the lock-step kernel refuses above).
// WS: remark: @matmul_0_reduce: cluster_multicast: cluster_m in {1*, 2}
// WS-TILE: dtile.kernel @matmul_0_reduce knobs<cluster_m = 2,{{.*}} warp_specialize = true
// WS-TILE: dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 2 "d1_o") cluster [2, 1] threads(
// WS-TILE: dtile.stage %in1[{{.*}}] box [64, 64] buffers 4 slot %{{.*}} transport tma swizzle 128 multicast :

/// Applied, the tile pairs the blocks along the M tiles (d0_o) and every
/// stage of B (the prologue's and the loop's refill) is multicast; A's
/// are not.
// TILE: dtile.kernel @matmul_0_reduce knobs<cluster_m = 2,
// TILE: dtile.tile blocks(%d0_o : 2 "d0_o", %d1_o : 2 "d1_o") cluster [2, 1] threads(
// TILE-COUNT-3: dtile.stage %in1[{{.*}}] box [64, 64] buffers 4 slot %{{.*}} transport tma swizzle 128 multicast :
// TILE: dtile.stage %in0[{{.*}}] box [1, 64, 64] buffers 4 slot %{{.*}} transport tma swizzle 128 :
// TILE: dtile.stage %in1[{{.*}}] box [64, 64] buffers 4 slot %{{.*}} transport tma swizzle 128 multicast :

/// The default refills late, so clusters are offered, but skipped (they
/// measured slower on the H200).
// DEFAULT: dtile.kernel @matmul_0_reduce knobs<cluster_m = 1,{{.*}} refill_late = true
// DEFAULT-NOT: cluster [
// DEFAULT-NOT: multicast
