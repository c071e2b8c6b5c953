// REQUIRES: numpy
// RUN: rm -rf %t.out %t.work
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases sdpa.mini.s8 --cases matmul.mini.kv_proj.s8.fp16 --cases rmsnorm.tinyllama.s32 --cases softmax.qwen.s128 --dtypes fp32,fp16 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=MD < %t.out/bench.FAKE.md
// RUN: FileCheck %s --check-prefix=JSON < %t.out/bench.FAKE.json
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
/// Our kernels were really lowered; the large .npy files are gone.
// RUN: ls %t.work/sdpa.mini.s8 | FileCheck %s --check-prefix=WORK
// RUN: find %t.work -name '*.npy' | count 0

/// The dry run goes through every step without a GPU: the cases in table
/// order, FAKE timings (deterministic: invented from the roofline floor),
/// and the short table last.
//      CHECK: [  1/4] rmsnorm.tinyllama.s32 {{ *}}eager 6.4  compile 6.2  ours 4.7  tuned 1.5  ({{.*}} s) [FAKE]
// CHECK-NEXT: [  2/4] softmax.qwen.s128 {{ *}}eager 13.1  compile 7.6  ours 9.8  tuned 5.4  ({{.*}} s) [FAKE]
// CHECK-NEXT: [  3/4] sdpa.mini.s8
// CHECK-NEXT: [  4/4] matmul.mini.kv_proj.s8.fp16
//      CHECK: FAKE TIMINGS (dry run): nothing below was measured
// CHECK-NEXT: case {{ *}}eager   compile        ours       tuned  e/best  c/best
// CHECK-NEXT: rmsnorm.tinyllama.s32 {{ *}}6.4       6.2         4.7         1.5   4.26×   4.14×
//      CHECK: best of ours vs eager: geomean 3.071× over 4 cases, 4 ≥ 1.0×, 0 wrong, 0 failed

/// The Markdown says FAKE at the top, in the title and at the bottom.
//      MD: # FAKE — Deplodock vs PyTorch: kernel benchmark
//      MD: > **FAKE TIMINGS: dry run without a GPU.
//      MD: * Device: FAKE (NVIDIA H100 80GB HBM3 profile, no GPU)
//      MD: * Roofline floor (h100): {{.*}}bandwidth 3.0 TB/s, FP32 67 TFLOP/s, BF16 matrix 798 TFLOP/s
//      MD: | ours (heuristic) vs eager | 4 | 4 | 1.994× | 4 | 0 | 0 |
//      MD: | best of ours vs torch.compile | 4 | 4 | 2.052× | 4 | 0 | 0 |
//      MD: | torch.compile vs eager | 4 | 4 | 1.496× | 4 |  |  |
//      MD: | rmsnorm | fp32 | 1 | 4.255× | 1 | 4.141× | 1 | 11.8% |
//      MD: | case | eager µs | compile µs | ours µs | tuned µs | eager/ours | compile/ours | eager/tuned | compile/tuned | floor µs | % of floor |
//      MD: | rmsnorm.tinyllama.s32 | 6.4 | 6.2 | 4.7 | 1.5 | 1.37× | 1.34× | 4.26× | 4.14× | 0.18 | 11.8% |
// MD-NEXT: | softmax.qwen.s128 | 13.1 | 7.6 | 9.8 | 5.4 | 1.33× | 0.78× | 2.42× | 1.42× | 1.22 | 22.7% |
// MD-NEXT: | sdpa.mini.s8 |
// MD-NEXT: | matmul.mini.kv_proj.s8.fp16 |
//  MD-NOT: ## Problems
//      MD: > **FAKE TIMINGS: dry run without a GPU.

/// The JSON holds the raw numbers, the FAKE mark on every timing, the
/// interpreter's check of the small cases, the commands a GPU run would
/// use, and the roofline numbers with their sources.
//      JSON: "schema": 1,
// JSON-NEXT: "fake": true,
//      JSON: "rmsnorm.tinyllama.s32": {
//      JSON:   "floor": {
// JSON-NEXT:    "us": 0.177493
// JSON-NEXT:    "bound": "memory",
//      JSON:   "lowering": {
// JSON-NEXT:    "status": "ok",
//      JSON:   "eager": {
// JSON-NEXT:    "status": "ok",
// JSON-NEXT:    "median_us": 6.4
// JSON-NEXT:    "fake": true
//      JSON:   "ours": {
//      JSON:     "how": "deplodock-run --interp (SIMT) vs NumPy float64"
//      JSON:   "planned": [
//      JSON:     "--bench",
// JSON-NEXT:     "--target=sm_90",
//      JSON:     "--output-dir={{.*}}rmsnorm.tinyllama.s32/ours",
//      JSON: "softmax.qwen.s128": {
//      JSON:   "ours": {
//      JSON:     "reason": "not checked (too large for the interpreter)"
//      JSON:   "tuned": {
//      JSON:     "{{.*}}/deplodock-tune",
//      JSON:     "--backend=cuda",
//      JSON:     "--db={{.*}}tune.db",
//      JSON:     "--max-variants=64",
//      JSON:     "--max-seconds=60",
//      JSON:     "--json"
//      JSON:     "--tune-db={{.*}}tune.db",
//      JSON: "sdpa.mini.s8": {
//      JSON:   "ours": {
//      JSON:    "check": {
// JSON-NEXT:     "ok": true,
//      JSON: "matmul.mini.kv_proj.s8.fp16": {
//      JSON:    "check": {
// JSON-NEXT:     "ok": true,
//      JSON:     "tolerance": {
// JSON-NEXT:      "rel_l2": 0.005,
//      JSON: "roofline": {
// JSON-NEXT:   "key": "h100",
//      JSON:     "source": "measured on the project's lent H100

//      FILES: bench.FAKE.json
// FILES-NEXT: bench.FAKE.md

//      WORK: interp
//      WORK: sdpa.mini.s8.cu
// WORK-NEXT: sdpa.mini.s8.kernel.mlir
// WORK-NEXT: sdpa.mini.s8.mlir
