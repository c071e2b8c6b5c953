// RUN: %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --cases 'rmsnorm.tinyllama.s32*' --cases sdpa.mini.s8 --json %t.json --markdown %t.md | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=MD < %t.md
// RUN: %if nvcc %{ %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --cases naive_attn.tinyllama.s32.bf16 --nvcc %nvcc --quiet | FileCheck %s --check-prefix=NVCC %}

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
