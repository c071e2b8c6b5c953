// REQUIRES: numpy
// RUN: rm -rf %t.a %t.b %t.c %t.m %t.w %t.k %t.k2
/// Out of time before the first case: every backend is 'not_run'.
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.a --work-dir %t.w --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8,softmax.mini.s8 --max-minutes 0 | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=NONEJSON < %t.a/bench.FAKE.json
/// Resuming measures what is missing, then nothing more.
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.a --work-dir %t.w --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8,softmax.mini.s8 --resume %t.a/bench.FAKE.json | FileCheck %s --check-prefix=RESUME
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.a --work-dir %t.w --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8,softmax.mini.s8 --resume %t.a/bench.FAKE.json | FileCheck %s --check-prefix=DONE
/// Partial results of separate runs merge case by case, in table order;
/// a later 'not_run' never replaces a measurement.
// RUN: env DEPLODOCK_COMMIT=bbb1234 %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.b --work-dir %t.w --bin-dir %deplodock_obj_root/bin --cases rmsnorm.mini.s8 --backends eager,ours > /dev/null
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.c --work-dir %t.w --bin-dir %deplodock_obj_root/bin --cases softmax.mini.s8 --max-minutes 0 > /dev/null
// RUN: %python %deplodock_src_root/bench/report.py %t.a/bench.FAKE.json %t.b/bench.FAKE.json %t.c/bench.FAKE.json --out %t.m | FileCheck %s --check-prefix=MERGE
// RUN: FileCheck %s --check-prefix=MERGEMD < %t.m/bench.FAKE.md
/// --compact leaves out the samples, commands and error output, and the
/// compact file still merges and renders the same table.
// RUN: grep -c "\"command\"" %t.m/bench.FAKE.json | FileCheck %s --check-prefix=BULKY
// RUN: %python %deplodock_src_root/bench/report.py %t.m/bench.FAKE.json --out %t.k --compact | FileCheck %s --check-prefix=MERGE
// RUN: not grep -E '"(samples_us|command|commands|stderr)"' %t.k/bench.FAKE.json
// RUN: FileCheck %s --check-prefix=COMPACT < %t.k/bench.FAKE.json
// RUN: %python %deplodock_src_root/bench/report.py %t.k/bench.FAKE.json --out %t.k2 | FileCheck %s --check-prefix=MERGE

/// (In table order: softmax comes before silu_mul.)
//      NONE: softmax.mini.s8 {{ *}}— {{ *}}— {{ *}}— {{ *}}— {{ *}}— {{ *}}—
// NONE-NEXT: silu_mul.mini.s8 {{ *}}— {{ *}}— {{ *}}— {{ *}}— {{ *}}— {{ *}}—
//      NONE: geomean — over 0 cases

//      NONEJSON: "eager": {
// NONEJSON-NEXT:   "status": "not_run",
// NONEJSON-NEXT:   "median_us": null,
// NONEJSON-NEXT:   "error": "time budget spent"

//      RESUME: [  1/2] softmax.mini.s8 {{.*}} [FAKE]
// RESUME-NEXT: [  2/2] silu_mul.mini.s8 {{.*}} [FAKE]
//      RESUME: best of ours vs eager: geomean {{[0-9.]+}}× over 2 cases

//     DONE: resume: 2 cases already measured
// DONE-NOT: [FAKE]
//     DONE: best of ours vs eager: geomean {{[0-9.]+}}× over 2 cases

//      MERGE: rmsnorm.mini.s8 {{ *}}{{[0-9.]+}} {{ *}}— {{ *}}{{[0-9.]+}} {{ *}}—
// MERGE-NEXT: softmax.mini.s8 {{ *}}{{[0-9.]+}} {{ *}}{{[0-9.]+}} {{ *}}{{[0-9.]+}} {{ *}}{{[0-9.]+}}
// MERGE-NEXT: silu_mul.mini.s8 {{ *}}{{[0-9.]+}}
//      MERGE: geomean {{[0-9.]+}}× over 3 cases

//      BULKY: {{[1-9][0-9]*}}
//      COMPACT: "median_us": {{[0-9.]+}}

//      MERGEMD: # FAKE — Deplodock vs PyTorch
/// (The second run names its commit by DEPLODOCK_COMMIT: the page names
/// both commits and says which run measured what.)
//      MERGEMD: * Date: {{.*}}, commits {{.*}}bbb1234{{.*}} (the runs below say which measured what)
//      MERGEMD: * Merged from runs {{.*}}, --target=sm_90, 2 cases; {{.*}}, commit bbb1234, --target=sm_90, 1 cases; {{.*}}, --target=sm_90, 0 cases
//      MERGEMD: | rmsnorm.mini.s8 |
// MERGEMD-NEXT: | softmax.mini.s8 |
// MERGEMD-NEXT: | silu_mul.mini.s8 |
