// REQUIRES: numpy
/// The layers family: whole decoder layers exported from PyTorch
/// (bench/layers/*.mlir, parameters as arguments). The dry run draws the
/// weights and RoPE tables, runs the small (mini) layer through our kernels
/// on the interpreter and through the GPU command on the fake device, and
/// checks both against NumPy's float64 layer, in FP32 and BF16; the
/// real-width layer is lowered.
// RUN: rm -rf %t.out %t.work
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases layers.mini.s8,layers.mini.s8.bf16,layers.tinyllama.s128 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=JSON < %t.out/bench.FAKE.json

//      CHECK: best of ours vs eager: geomean {{[0-9.]+}}× over 3 cases, 3 ≥ 1.0×, 0 wrong, 0 failed

//      JSON: "layers.tinyllama.s128": {
//      JSON:     "args": [
// JSON-NEXT:       {
// JSON-NEXT:         "name": "input_norm.weight",
//      JSON:         "role": "norm_weight"
//      JSON:         "name": "attn.cos",
//      JSON:         "role": "rope_cos"
//      JSON:         "role": "linear_weight"
//      JSON:         "name": "x",
//      JSON:   "lowering": {
//      JSON:     "status": "ok"
//      JSON: "layers.mini.s8": {
//      JSON:         "name": "attn.q_proj.bias",
// JSON-NEXT:         "shape": [
// JSON-NEXT:           32
// JSON-NEXT:         ],
// JSON-NEXT:         "role": "bias"
//      JSON:   "ours": {
//      JSON:     "check": {
// JSON-NEXT:       "ok": true,
//      JSON:     "fake_device": {
// JSON-NEXT:       "status": "ok",
//      JSON:       "check": {
// JSON-NEXT:         "ok": true,
//      JSON: "layers.mini.s8.bf16": {
//      JSON:   "ours": {
//      JSON:     "check": {
// JSON-NEXT:       "ok": true,
//      JSON:     "fake_device": {
// JSON-NEXT:       "status": "ok",

/// Every real-width layer (TinyLlama and Qwen2.5-7B widths, seq 128 and
/// 512, FP32 and BF16) lowers to CUDA.
// RUN: %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --families layers --jobs 2 | FileCheck %s --check-prefix=LOWER
//      LOWER: 8 of 8 cases lower to CUDA for sm_90

/// export.py names an unknown case before it starts PyTorch.
// RUN: not %python %deplodock_src_root/bench/layers/export.py --cases layers.mini.s9 2>&1 | FileCheck %s --check-prefix=EXPORT
// EXPORT: export.py: error: unknown layers case 'layers.mini.s9'
