// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 128 256 128 > %t.k256.mlir
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=1,wgmma_n=32" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=2,wgmma_n=64" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=1,wgmma_n=32,pipeline=false" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=UNPIPELINED
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=false" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SIMT
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=false,warp_specialize=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-WGMMA
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,pipeline=false,warp_specialize=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,warp_specialize=true,setmaxnreg=232" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,warp_specialize=true" | FileCheck %s --check-prefix=TILE

/// warp_specialize forks a TMA-pipelined warpgroup MMA kernel: skip (the
/// default: unmeasured), apply, and apply with setmaxnreg, whose consumer
/// register count is what the register file leaves beside a 40-register
/// producer warpgroup: 240 (the cap) for one consumer warpgroup, 232 for
/// two ((65536 - 128 * 40) / 256 rounded down to a multiple of 8).
// ONE: remark: @matmul_0_reduce: warp_specialize: (setmaxnreg, warp_specialize) in {false*, true, (240, true)}
// TWO: remark: @matmul_0_reduce: warp_specialize: (setmaxnreg, warp_specialize) in {false*, true, (232, true)}

/// Refusals say why; a request the kernel cannot meet is an error.
// UNPIPELINED: remark: @matmul_0_reduce: warp_specialize: does not apply: no chunk loop pipeline_k_outer pipelined
// SIMT: remark: @matmul_0_reduce: warp_specialize: does not apply: not a warpgroup MMA kernel (wgmma)
// NO-WGMMA: error: 'dtile.kernel' op knob warp_specialize=true needs wgmma=true
// NO-PIPELINE: error: 'dtile.kernel' op knob warp_specialize=true needs pipeline=true
// REGS: error: 'dtile.kernel' op knobs {{.*}}setmaxnreg=232{{.*}} are not a legal option of warp_specialize: (setmaxnreg, warp_specialize) in {false*, true, (240, true)}

/// The Tile IR is unchanged: the knob steers the Kernel lowering.
// TILE: dtile.kernel @matmul_0_reduce knobs<{{.*}}warp_specialize = true{{.*}}>
// TILE: dtile.stage {{.*}} transport tma
