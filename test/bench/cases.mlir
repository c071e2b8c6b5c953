// RUN: %python %deplodock_src_root/bench/generate.py --summary | FileCheck %s --check-prefix=SUMMARY
// RUN: %python %deplodock_src_root/bench/generate.py --list > %t.list
// RUN: FileCheck %s --check-prefix=LIST < %t.list
// RUN: FileCheck %s --check-prefix=ORDER < %t.list
// RUN: %python %deplodock_src_root/bench/generate.py --list --dtypes fp32 | count 88
// RUN: %python %deplodock_src_root/bench/generate.py --list --models mini | count 50
// RUN: %python %deplodock_src_root/bench/generate.py --list --cases 'matmul.qwen.*.s512' --dtype bf16 | FileCheck %s --check-prefix=PATTERN
// RUN: %python %deplodock_src_root/test/bench/Inputs/check_table.py %deplodock_src_root | FileCheck %s --check-prefix=TABLE
// RUN: rm -rf %t.out && %python %deplodock_src_root/bench/generate.py --out %t.out --families rmsnorm --models tinyllama --dtypes fp32,bf16
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.out/cases.json

/// The suite: the 84 FP32 cases of the original (code study 5.1) in its
/// order, and each again in BF16 and FP16; the projections again in FP8
/// (scaled_mm, its only dtype).
//      SUMMARY: family            fp32  bf16  fp16   fp8   all
// SUMMARY-NEXT: matmul              36    36    36     0   108
// SUMMARY-NEXT: rmsnorm              6     6     6     0    18
// SUMMARY-NEXT: softmax              6     6     6     0    18
// SUMMARY-NEXT: silu_mul             6     6     6     0    18
// SUMMARY-NEXT: sdpa                 6     6     6     0    18
// SUMMARY-NEXT: naive_attn           6     6     6     0    18
// SUMMARY-NEXT: matmul_add          12    12    12     0    36
// SUMMARY-NEXT: silu_mul_matmul      6     6     6     0    18
// SUMMARY-NEXT: layers               4     4     0     0     8
// SUMMARY-NEXT: scaled_mm            0     0     0    36    36
// SUMMARY-NEXT: all                 88    88    84    36   296

/// FP32 cases keep the original names; the test model is not listed.
//      LIST: matmul.tinyllama.q_proj.s32{{$}}
// LIST-NEXT: matmul.tinyllama.kv_proj.s32{{$}}
// LIST-NEXT: matmul.tinyllama.o_proj.s32{{$}}
// LIST-NEXT: matmul.tinyllama.gate_proj.s32{{$}}
// LIST-NEXT: matmul.tinyllama.up_proj.s32{{$}}
// LIST-NEXT: matmul.tinyllama.down_proj.s32{{$}}
// LIST-NEXT: matmul.tinyllama.q_proj.s128{{$}}
//      LIST: matmul.qwen.down_proj.s512{{$}}
// LIST-NEXT: rmsnorm.tinyllama.s32{{$}}
//      LIST: sdpa.qwen.s512{{$}}
// LIST-NEXT: naive_attn.tinyllama.s32{{$}}
//      LIST: matmul_add.tinyllama.o_proj.s32{{$}}
// LIST-NEXT: matmul_add.tinyllama.down_proj.s32{{$}}
// LIST-NEXT: matmul_add.tinyllama.o_proj.s128{{$}}
//      LIST: silu_mul_matmul.qwen.s512{{$}}
// LIST-NEXT: layers.tinyllama.s128{{$}}
// LIST-NEXT: layers.tinyllama.s512{{$}}
// LIST-NEXT: layers.qwen.s128{{$}}
// LIST-NEXT: layers.qwen.s512{{$}}
// LIST-NEXT: matmul.tinyllama.q_proj.s32.bf16{{$}}
//      LIST: silu_mul_matmul.qwen.s512.bf16{{$}}
// LIST-NEXT: layers.tinyllama.s128.bf16{{$}}
//      LIST: layers.qwen.s512.bf16{{$}}
// LIST-NEXT: matmul.tinyllama.q_proj.s32.fp16{{$}}
//      LIST: silu_mul_matmul.qwen.s512.fp16{{$}}
// LIST-NEXT: scaled_mm.tinyllama.q_proj.s32.fp8{{$}}
//      LIST: scaled_mm.qwen.down_proj.s512.fp8{{$}}
//  LIST-NOT: mini

/// The 84 original FP32 cases, then the FP32 layers, come before the BF16
/// ones.
// ORDER-COUNT-88: {{^[a-z_]+\.(tinyllama|qwen)\.([a-z_]+\.)?s[0-9]+$}}
//     ORDER-NEXT: matmul.tinyllama.q_proj.s32.bf16

//      PATTERN: matmul.qwen.q_proj.s512.bf16
// PATTERN-NEXT: matmul.qwen.kv_proj.s512.bf16
// PATTERN-NEXT: matmul.qwen.o_proj.s512.bf16
// PATTERN-NEXT: matmul.qwen.gate_proj.s512.bf16
// PATTERN-NEXT: matmul.qwen.up_proj.s512.bf16
// PATTERN-NEXT: matmul.qwen.down_proj.s512.bf16
//  PATTERN-NOT: {{.}}

/// The shape table is consistent, and every case's MLIR has the signature
/// its table entry promises.
//   TABLE-NOT: FAIL
//       TABLE: PASS: 84 original cases
//       TABLE: PASS: every case's MLIR signature matches its arguments, result and dtype
//       TABLE: 346 cases checked

//      FILES: cases.json
// FILES-NEXT: rmsnorm.tinyllama.s128.bf16.mlir
// FILES-NEXT: rmsnorm.tinyllama.s128.mlir
// FILES-NEXT: rmsnorm.tinyllama.s32.bf16.mlir
// FILES-NEXT: rmsnorm.tinyllama.s32.mlir
// FILES-NEXT: rmsnorm.tinyllama.s512.bf16.mlir
// FILES-NEXT: rmsnorm.tinyllama.s512.mlir
//  FILES-NOT: {{.}}

//      MANIFEST: "name": "rmsnorm.tinyllama.s32"
//      MANIFEST: "dtype": "fp32"
//      MANIFEST: "original": true
//      MANIFEST: "shape": [
// MANIFEST-NEXT:    1,
// MANIFEST-NEXT:    32,
// MANIFEST-NEXT:    2048
//      MANIFEST: "role": "norm_weight"
//      MANIFEST: "flops": 262240
//      MANIFEST: "min_bytes": 532480
//      MANIFEST: "name": "rmsnorm.tinyllama.s32.bf16"
//      MANIFEST: "original": false
//      MANIFEST: "min_bytes": 266240
