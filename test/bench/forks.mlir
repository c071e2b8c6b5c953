/// bench/forks.py: chosen fork options of suite cases measured side by
/// side, here on the bench worker's fake device (FAKE timings, no GPU).
// RUN: rm -rf %t.out %t.work
// RUN: %python %deplodock_src_root/bench/forks.py --fake-device --out %t.out --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8,silu_mul.mini.s8 --variant default= --variant ta=transpose_a=true --variant bad=no_such_knob=3 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=MD < %t.out/forks.md
// RUN: FileCheck %s --check-prefix=JSON < %t.out/forks.json
/// A --variant without a label, or two with one label: refused.
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant transpose_a 2>&1 | FileCheck %s --check-prefix=NOLABEL
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --variant a=unroll=2 2>&1 | FileCheck %s --check-prefix=TWICE
/// --variant-bin runs one variant with another folder's tools (here the
/// same build's, through a link to its folder).
// RUN: rm -rf %t.other %t.out2 && ln -s %deplodock_obj_root/bin %t.other
// RUN: %python %deplodock_src_root/bench/forks.py --fake-device --out %t.out2 --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant old= --variant new= --variant-bin old=%t.other > %t.log2
// RUN: FileCheck %s --check-prefix=OTHER < %t.log2
// RUN: FileCheck %s --check-prefix=OTHER-MD < %t.out2/forks.md
// RUN: FileCheck %s --check-prefix=OTHER-JSON < %t.out2/forks.json
/// ... and refuses a malformed one, two for one label, a label no variant
/// has, or a folder without deplodock-run.
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --variant-bin a 2>&1 | FileCheck %s --check-prefix=BAD-BIN
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --variant-bin b=%t.other 2>&1 | FileCheck %s --check-prefix=NOLABEL-BIN
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --half-prologues b 2>&1 | FileCheck %s --check-prefix=NOLABEL-HALF
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --plain-launch b 2>&1 | FileCheck %s --check-prefix=NOLABEL-PLAIN
/// --plain-launch runs a variant without programmatic dependent launch
/// (the fake device launches nothing early either way); the report names it.
// RUN: rm -rf %t.out3
// RUN: %python %deplodock_src_root/bench/forks.py --fake-device --out %t.out3 --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases matmul.mini.kv_proj.s8 --variant early= --variant plain= --plain-launch plain > %t.log3
// RUN: FileCheck %s --check-prefix=PLAIN < %t.log3
// RUN: FileCheck %s --check-prefix=PLAIN-JSON < %t.out3/forks.json
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --variant-bin a=%t.other --variant-bin a=%deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=TWICE-BIN
// RUN: rm -rf %t.empty2 && mkdir -p %t.empty2
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --variant a= --variant-bin a=%t.empty2 2>&1 | FileCheck %s --check-prefix=NOTOOLS-BIN
/// Without deplodock-run nothing can be measured: refused up front.
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: not %python %deplodock_src_root/bench/forks.py --out %t.err --bin-dir %t.empty --cases silu_mul.mini.s8 --variant a= 2>&1 | FileCheck %s --check-prefix=NOTOOLS

/// Each case runs every variant in order; a knob no rule declares fails
/// that run with deplodock-run's reason, and the others still run.
//      CHECK: matmul.mini.kv_proj.s8 [default] {{[0-9.]+}} us
// CHECK-NEXT: matmul.mini.kv_proj.s8 [ta] {{[0-9.]+}} us
// CHECK-NEXT: matmul.mini.kv_proj.s8 [bad] run_fail: {{.*}}no_such_knob
// CHECK-NEXT: silu_mul.mini.s8 [default] {{[0-9.]+}} us
//      CHECK: | case | default | ta | bad |

//      MD: FAKE TIMINGS (fake device): nothing here was measured
//      MD: * ta: `transpose_a=true`
//      MD: | matmul.mini.kv_proj.s8 | {{[0-9.]+}} | {{[0-9.]+}} ({{[0-9.]+}}×) | run_fail |
//      MD: | geomean vs default | — | {{[0-9.]+}}× (1) | — |

//   JSON: "fake": true
//   JSON: "ta": "transpose_a=true"

// NOLABEL: error: argument --variant: --variant wants LABEL=KNOBS
// TWICE: error: two --variant options share a label
// NOTOOLS: error: missing tools in {{.*}}: deplodock-run

//      OTHER: silu_mul.mini.s8 [old] {{[0-9.]+}} us
// OTHER-NEXT: silu_mul.mini.s8 [new] {{[0-9.]+}} us
//   OTHER-MD: * old: `(heuristic)` (tools in {{.*}}other)
//   OTHER-MD: * new: `(heuristic)`{{$}}
// OTHER-JSON: "variant_bins": {
// OTHER-JSON-NEXT: "old": "{{.*}}other"
// BAD-BIN: error: argument --variant-bin: --variant-bin wants LABEL=DIR, not 'a'
// NOLABEL-BIN: error: --variant-bin names 'b', which no --variant labels
// NOLABEL-HALF: error: --half-prologues names 'b', which no --variant labels
// NOLABEL-PLAIN: error: --plain-launch names 'b', which no --variant labels
//      PLAIN: matmul.mini.kv_proj.s8 [early] {{[0-9.]+}} us
// PLAIN-NEXT: matmul.mini.kv_proj.s8 [plain] {{[0-9.]+}} us
// PLAIN-JSON: "plain_launch": [
// PLAIN-JSON-NEXT: "plain"
// TWICE-BIN: error: two --variant-bin options share a label
// NOTOOLS-BIN: error: missing tools in {{.*}}empty2: deplodock-run
