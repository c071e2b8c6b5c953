// REQUIRES: numpy
/// The dry run goes through the GPU path as well: the small cases run the
/// exact deplodock-run --bench command of a GPU run (its .npy inputs, its
/// result0.npy and --bench-json) on the fake device. BF16 in both .npy
/// encodings, FP16 and FP8 (e4m3 bits, f32 scales, a bf16 result) run, and
/// match NumPy.
// RUN: rm -rf %t.out %t.work %t.out32 %t.work32 %t.bin %t.outbad %t.workbad
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8.bf16,matmul.mini.kv_proj.s8.fp16,rmsnorm.mini.s8.bf16,scaled_mm.mini.down_proj.s8.fp8 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=JSON < %t.out/bench.FAKE.json
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out32 --work-dir %t.work32 --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8.bf16 --bf16-npy f32 | FileCheck %s --check-prefix=F32
// RUN: FileCheck %s --check-prefix=JSON32 < %t.out32/bench.FAKE.json

//      CHECK: best of ours vs eager: geomean {{[0-9.]+}}× over 4 cases, 4 ≥ 1.0×, 0 wrong, 0 failed

//      JSON: "matmul.mini.kv_proj.s8.bf16": {
//      JSON:   "ours": {
//      JSON:     "fake_device": {
// JSON-NEXT:       "status": "ok",
// JSON-NEXT:       "command": [
//      JSON:         "--bench",
//      JSON:         "--input={{.*}}input0.npy",
//      JSON:         "--fake-device"
// JSON-NEXT:       ],
// JSON-NEXT:       "check": {
// JSON-NEXT:         "ok": true,
//      JSON: "rmsnorm.mini.s8.bf16": {
//      JSON:     "fake_device": {
// JSON-NEXT:       "status": "ok",
//      JSON: "matmul.mini.kv_proj.s8.fp16": {
//      JSON:     "fake_device": {
// JSON-NEXT:       "status": "ok",
//      JSON: "scaled_mm.mini.down_proj.s8.fp8": {
//      JSON:     "fake_device": {
// JSON-NEXT:       "status": "ok",
//      JSON:         "--input={{.*}}input3.npy",
//      JSON:       "check": {
// JSON-NEXT:         "ok": true,

//      F32: 1 cases, 1 ≥ 1.0×, 0 wrong, 0 failed
//      JSON32: "fake_device": {
// JSON32-NEXT:   "status": "ok"
//      JSON32: "bf16_npy": "f32",

/// A GPU path that fails where the interpreter passes (as --bench once
/// refused bf16 inputs) fails the dry run too.
// RUN: mkdir -p %t.bin
// RUN: ln -s %deplodock_obj_root/bin/deplodock-opt %t.bin/deplodock-opt
// RUN: ln -s %deplodock_obj_root/bin/deplodock-translate %t.bin/deplodock-translate
// RUN: cp %S/Inputs/failing-bench-run.sh %t.bin/deplodock-run && chmod +x %t.bin/deplodock-run
// RUN: env REAL_DEPLODOCK_RUN=%deplodock_obj_root/bin/deplodock-run %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.outbad --work-dir %t.workbad --bin-dir %t.bin --cases matmul.mini.kv_proj.s8.bf16 | FileCheck %s --check-prefix=BAD
// RUN: FileCheck %s --check-prefix=BAD-MD < %t.outbad/bench.FAKE.md
// BAD: matmul.mini.kv_proj.s8.bf16 {{ *}}eager {{[0-9.]+}}  compile {{[0-9.]+}}  ours run_fail  tuned run_fail
// BAD: 0 wrong, 1 failed
// BAD-MD: * matmul.mini.kv_proj.s8.bf16 / ours: run_fail: --fake-device: error: input0.npy holds tensor<1x8x32xi16> but argument #0 of @matmul is memref<1x8x32xbf16>
