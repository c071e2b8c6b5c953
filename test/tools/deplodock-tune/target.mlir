// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 128 128 128 > %t.mlir
/// Every variant is lowered for --target: on sm_90a the warpgroup MMA
/// variants lower and are estimated (they used to be checked against the
/// default sm_90 and all fail: "needs a target with wgmma").
// RUN: deplodock-tune %t.mlir --backend=model --target=sm_90a --max-variants=6 --no-db -v 2>&1 | FileCheck %s --check-prefix=SM90A
/// A module that names its own target contradicting --target is refused.
// RUN: (echo 'module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {'; cat %t.mlir; echo '}') > %t.sm80.mlir
// RUN: not deplodock-tune %t.sm80.mlir --backend=model --target=sm_90a --max-variants=2 --no-db 2>&1 | FileCheck %s --check-prefix=CONTRA
/// The module's own target, named again, is fine.
// RUN: deplodock-tune %t.sm80.mlir --backend=model --target=sm_80 --max-variants=2 --no-db 2>&1 | FileCheck %s --check-prefix=SAME

//  SM90A-NOT: compile_fail
//      SM90A: [matmul_0_reduce] 1/6 {{.*}}wgmma=true{{.*}}: {{[0-9.]+}} us (estimated)
//  SM90A-NOT: compile_fail
//      SM90A: 6 variants, best {{[0-9.]+}} us
//      SM90A: context model-sm_90a-v12

//      CONTRA: error: target option 'sm_90a' contradicts the module's target 'sm_80'
//      CONTRA: error: --target sm_90a contradicts '{{.*}}sm80.mlir'

//      SAME: context model-sm_80-v12
//      SAME: matmul_0_reduce {{.*}}tensor_cores=true
