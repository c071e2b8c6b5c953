// REQUIRES: numpy
/// --tune-total-minutes: every other backend first, then the tuner, its
/// minutes shared by the cases' factors above their roofline floors (the
/// largest share first), each within [1 s, --tune-seconds]; a dry run
/// plans the tuner's commands with those shares.
// RUN: rm -rf %t.out %t.work
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.out --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases rmsnorm.tinyllama.s32 --cases softmax.qwen.s128 --cases matmul.mini.kv_proj.s8 --dtypes fp32 --backends eager,ours,tuned --tune-total-minutes 0.5 --tune-seconds 20 > %t.log
// RUN: FileCheck %s < %t.log
// RUN: %numpy_python %s.check.py %t.out/bench.FAKE.json 30 20 %t.log | FileCheck %s --check-prefix=SHARES
/// A share must be a positive number of minutes.
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.err --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases rmsnorm.tinyllama.s32 --tune-total-minutes 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.err --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases rmsnorm.tinyllama.s32 --tune-total-minutes nan 2>&1 | FileCheck %s --check-prefix=ZERO
/// ... and shares only the tuner's time.
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.err --work-dir %t.work --bin-dir %deplodock_obj_root/bin --cases rmsnorm.tinyllama.s32 --backends eager,ours --tune-total-minutes 2 2>&1 | FileCheck %s --check-prefix=UNTUNED

//      CHECK: [  1/3] {{[a-z_.0-9]+}} {{ *}}eager {{[0-9.]+}}  ours {{[0-9.]+}}  ({{.*}} s) [FAKE]
//  CHECK-NOT: tuned
//      CHECK: tuning 3 cases in about 0.5 minutes (--tune-total-minutes 0.5)
// CHECK-NEXT: [  1/3] {{.*}} tuned {{[0-9.]+}}
// CHECK-NEXT: [  2/3] {{.*}} tuned {{[0-9.]+}}
// CHECK-NEXT: [  3/3] {{.*}} tuned {{[0-9.]+}}

// SHARES: 3 cases, shares sum to 30 s, each within [1, 20], largest first, --max-seconds as shared
// ZERO: error: --tune-total-minutes wants a positive number of minutes
// UNTUNED: error: --tune-total-minutes shares the tuner's time: add 'tuned' to --backends
