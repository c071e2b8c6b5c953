// RUN: %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --cases 'rmsnorm.tinyllama.s32*' --cases sdpa.mini.s8 --json %t.json --markdown %t.md | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=MD < %t.md
// RUN: %if nvcc %{ %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --cases naive_attn.tinyllama.s32.bf16 --nvcc %nvcc --quiet | FileCheck %s --check-prefix=NVCC %}
/// ptxas's performance-loss notes of kernels that compile are reported
/// (here from an nvcc that prints one).
// RUN: rm -rf %t.fake && mkdir -p %t.fake
// RUN: printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = -o ]; then : > "$2"; fi; shift; done\necho "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline stage in the function '"'"'k'"'"'" >&2\n' > %t.fake/nvcc && chmod +x %t.fake/nvcc
// RUN: %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --cases sdpa.mini.s8 --nvcc %t.fake/nvcc --markdown %t.notes.md | FileCheck %s --check-prefix=NOTES
// RUN: FileCheck %s --check-prefix=NOTES-MD < %t.notes.md

/// Every selected case goes through deplodock-opt --deplodock-pipeline and
/// deplodock-translate --emit-cuda.
//      CHECK: ok    rmsnorm.tinyllama.s32 (1 kernels)
// CHECK-NEXT: ok    rmsnorm.tinyllama.s32.bf16 (1 kernels)
// CHECK-NEXT: ok    rmsnorm.tinyllama.s32.fp16 (1 kernels)
// CHECK-NEXT: ok    sdpa.mini.s8 (1 kernels)
//      CHECK: 4 of 4 cases lower to CUDA for sm_90

//      JSON: "rmsnorm.tinyllama.s32": {
//      JSON:   "kernels": 1,
//      JSON:   "status": "ok"
//      JSON: "nvcc": false,
//      JSON: "target": "sm_90"

//      MD: # Lowering check (sm_90)
//      MD: **4 of 4 cases lower.**
//      MD: | rmsnorm | fp32 | 1 | 1 | 0 |
//      MD: | rmsnorm | bf16 | 1 | 1 | 0 |
//  MD-NOT: ## Failures

//      NVCC: 1 of 1 cases lower to CUDA for sm_90 and compile with nvcc

// NOTES: ok    sdpa.mini.s8 (1 kernels; ptxas: C7514)
// NOTES: [ptxas] C7514: wgmma.mma_async instructions are serialized due to non wgmma instructions reading accumulator registers of a wgmma between start and end of the pipeline stage
// NOTES-NEXT: 1 cases: sdpa.mini.s8
// NOTES-MD: ## ptxas performance notes
// NOTES-MD: | C7514: wgmma.mma_async instructions are serialized {{.*}} | sdpa.mini.s8 |
