// REQUIRES: numpy
/// A result that does not match the reference is 'wrong': reported, never
/// timed, never a win. Here deplodock-run spoils one element of 256.
// RUN: rm -rf %t.bin %t.out %t.work && mkdir -p %t.bin
// RUN: ln -s %deplodock_obj_root/bin/deplodock-opt %t.bin/deplodock-opt
// RUN: ln -s %deplodock_obj_root/bin/deplodock-translate %t.bin/deplodock-translate
// RUN: cp %S/Inputs/corrupting-run.sh %t.bin/deplodock-run && chmod +x %t.bin/deplodock-run
// RUN: env REAL_DEPLODOCK_RUN=%deplodock_obj_root/bin/deplodock-run TEST_PYTHON=%numpy_python %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out --work-dir %t.work --bin-dir %t.bin --cases sdpa.mini.s8,rmsnorm.mini.s8 --models mini --dtypes fp32 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=MD < %t.out/bench.FAKE.md
/// The same cases with the real deplodock-run are right.
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out2 --work-dir %t.work2 --bin-dir %deplodock_obj_root/bin --cases sdpa.mini.s8,rmsnorm.mini.s8 | FileCheck %s --check-prefix=RIGHT

//      CHECK: rmsnorm.mini.s8 {{ *}}eager {{[0-9.]+}}  compile {{[0-9.]+}}  ours wrong  tuned wrong
//      CHECK: sdpa.mini.s8 {{ *}}eager {{[0-9.]+}}  compile {{[0-9.]+}}  ours wrong  tuned wrong
//      CHECK: best of ours vs eager: geomean — over 0 cases, 0 ≥ 1.0×, 2 wrong, 0 failed

//      MD: | ours (heuristic) vs eager | 2 | 0 | — | 0 | 2 | 0 |
//      MD: | torch.compile vs eager | 2 | 2 |
//      MD: | rmsnorm.mini.s8 | {{[0-9.]+}} | {{[0-9.]+}} | wrong | wrong | — | — | — | — |
//      MD: ## Problems
//      MD: * rmsnorm.mini.s8 / ours: wrong: {{rel_l2 [0-9.e-]+ > 0.0001|max_err [0-9.e-]+ > 0.001}}
//      MD: * sdpa.mini.s8 / tuned: wrong:

//  RIGHT: best of ours vs eager: geomean {{[0-9.]+}}× over 2 cases, {{[0-9]}} ≥ 1.0×, 0 wrong, 0 failed
