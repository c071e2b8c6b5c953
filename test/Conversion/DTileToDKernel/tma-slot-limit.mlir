// RUN: %python %S/Inputs/many_tma_stages.py 64 > %t.64.mlir
// RUN: %python %S/Inputs/many_tma_stages.py 65 > %t.65.mlir
// RUN: deplodock-opt %t.64.mlir -convert-dtile-to-dkernel=target=sm_90 | FileCheck %s --check-prefix=FITS
// RUN: not deplodock-opt %t.65.mlir -convert-dtile-to-dkernel=target=sm_90 2>&1 | FileCheck %s --check-prefix=TOO-MANY

/// Each thread tracks the phases of a kernel's TMA mbarriers (one per slot)
/// in 64-bit masks: 64 one-slot stages lower, 65 are refused where the tile
/// is.
// FITS: memref.alloca() : memref<i64>
// FITS-COUNT-64: dkernel.mbarrier_init
// TOO-MANY: 65.mlir:3:5: error: 'dtile.tile' op has 65 TMA slots; their mbarriers' phases are tracked in 64-bit masks
