// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: not %python %deplodock_src_root/bench/check.py --bin-dir %t.empty --cases sdpa.mini.s8 2>&1 | FileCheck %s --check-prefix=TOOLS
// RUN: not %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --cases no.such.case 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %python %deplodock_src_root/bench/check.py --bin-dir %deplodock_obj_root/bin --families conv2d 2>&1 | FileCheck %s --check-prefix=FAMILY
/// A case that fails to lower is reported with its stage and first error,
/// and the exit status says so: a deplodock-opt that rejects everything.
// RUN: rm -rf %t.bin && mkdir -p %t.bin
// RUN: ln -s %deplodock_obj_root/bin/deplodock-translate %t.bin/deplodock-translate
// RUN: cp %S/Inputs/failing-opt.sh %t.bin/deplodock-opt && chmod +x %t.bin/deplodock-opt
// RUN: not %python %deplodock_src_root/bench/check.py --bin-dir %t.bin --cases softmax.mini.s8 --cases silu_mul.mini.s8 --markdown %t.md | FileCheck %s --check-prefix=FAIL
// RUN: FileCheck %s --check-prefix=FAILMD < %t.md

// TOOLS: error: missing tools in {{.*}}empty: deplodock-opt, deplodock-translate (build them, or point --bin-dir or DEPLODOCK_BIN at the bin folder of a build)
// UNKNOWN: error: unknown case 'no.such.case' (see bench/generate.py --list)
// FAMILY: error: unknown family 'conv2d' (known: matmul, rmsnorm, softmax, silu_mul, sdpa, naive_attn, matmul_add, silu_mul_matmul, layers, scaled_mm)

//      FAIL: FAIL  softmax.mini.s8: opt_fail: softmax.mini.s8.mlir:4:1: error: 'linalg.softmax' op is not supported (test stub)
// FAIL-NEXT: FAIL  silu_mul.mini.s8: opt_fail: silu_mul.mini.s8.mlir:4:1: error: 'linalg.softmax' op is not supported (test stub)
//      FAIL: 0 of 2 cases lower to CUDA for sm_90
// FAIL-NEXT:   opt_fail: 2
// FAIL-NEXT:   [opt_fail] CASE.mlir:4:1: error: 'linalg.softmax' op is not supported (test stub)
// FAIL-NEXT:       2 cases: softmax.mini.s8, silu_mul.mini.s8

//      FAILMD: **0 of 2 cases lower.**
//      FAILMD: ## Failures
//      FAILMD: | opt_fail | `CASE.mlir:4:1: error: 'linalg.softmax' op is not supported (test stub)` | softmax.mini.s8, silu_mul.mini.s8 |
