// REQUIRES: numpy
/// The opt-in TF32 section (--tf32): FP32 cases also run every backend with
/// TF32 contractions (ours: --precision=tf32, through the same GPU path on
/// the fake device, and on the SIMT interpreter, which rounds the operands
/// to TF32); half cases do not. The TF32 times have a section of their own,
/// and the FP32 summary is the same as without --tf32.
// RUN: rm -rf %t.out %t.work %t.plain %t.plainwork
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8 --cases matmul.mini.kv_proj.s8.fp16 --dtypes fp32,fp16 --tf32 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=MD < %t.out/bench.FAKE.md
// RUN: FileCheck %s --check-prefix=JSON < %t.out/bench.FAKE.json
/// Without --tf32: the same FP32 summary, and no TF32 section.
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.plain --work-dir %t.plainwork --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8 --cases matmul.mini.kv_proj.s8.fp16 --dtypes fp32,fp16 > /dev/null
// RUN: sed -n '/^## Summary/,/^## Cases/p' %t.out/bench.FAKE.md > %t.tf32-summary
// RUN: sed -n '/^## Summary/,/^## Cases/p' %t.plain/bench.FAKE.md > %t.plain-summary
// RUN: diff %t.tf32-summary %t.plain-summary
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain/bench.FAKE.md
/// The TF32 backends are opt-in.
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.bad --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8 --backends ours,ours_tf32 2>&1 | FileCheck %s --check-prefix=OPT-IN

//      CHECK: [  1/2] matmul.mini.kv_proj.s8 {{ *}}eager {{[0-9.]+}}  compile {{[0-9.]+}}  ours {{[0-9.]+}}  tuned {{[0-9.]+}}  eager_tf32 {{[0-9.]+}}  compile_tf32 {{[0-9.]+}}  ours_tf32 {{[0-9.]+}}  tuned_tf32 {{[0-9.]+}}  ({{.*}}) [FAKE]
// CHECK-NEXT: [  2/2] matmul.mini.kv_proj.s8.fp16 {{ *}}eager {{[0-9.]+}}  compile {{[0-9.]+}}  ours {{[0-9.]+}}  tuned {{[0-9.]+}}  ({{.*}}) [FAKE]
//      CHECK: TF32: best of ours vs eager TF32: geomean {{[0-9.]+}}× over 1 cases, {{[01]}} ≥ 1.0×, 0 wrong, 0 failed

//      MD: * TF32 section (opt-in, FP32 cases only)
//      MD: ## TF32 (opt-in)
//      MD: | best of ours TF32 vs eager TF32 | 1 | 1 |
//      MD: | case | eager TF32 µs | compile TF32 µs | ours TF32 µs | tuned TF32 µs | eager/best | compile/best |
//      MD: | matmul.mini.kv_proj.s8 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}}× | {{[0-9.]+}}× |
//  MD-NOT: fp16
//  MD-NOT: ## Problems

//      JSON: "matmul.mini.kv_proj.s8": {
//      JSON:   "ours_tf32": {
// JSON-NEXT:    "status": "ok",
//      JSON:    "check": {
// JSON-NEXT:     "ok": true,
//      JSON:     "tolerance": {
// JSON-NEXT:      "rel_l2": 0.005,
//      JSON:     "how": "deplodock-run --interp (SIMT) vs NumPy float64"
//      JSON:   "fake_device": {
// JSON-NEXT:     "status": "ok",
//      JSON:       "--precision=tf32",
//      JSON:   "tuned_tf32": {
//      JSON:     "--backend=cuda",
//      JSON:     "--precision=tf32"
//      JSON:     "--precision=tf32",
//      JSON:     "--tune-db={{.*}}tune.db",
//      JSON:   "ratios": {
//      JSON:     "eager_tf32/best_tf32": {{[0-9.]+}},
//      JSON: "matmul.mini.kv_proj.s8.fp16": {
//  JSON-NOT: _tf32
//      JSON:   "ratios": {
//  JSON-NOT: _tf32
//      JSON:   }
//      JSON: "tf32": false,
// JSON-NEXT: "tf32_section": true,

//  PLAIN-NOT: TF32 section
//  PLAIN-NOT: ## TF32

// OPT-IN: error: the TF32 backends are opt-in: pass --tf32 with them
