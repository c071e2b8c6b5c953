// REQUIRES: numpy
/// bench/model_check.py: the model's estimate of each measured case's
/// default variant beside the measurement, per case and per family.
// RUN: rm -rf %t.d %t.w && %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.d --work-dir %t.w --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8,rmsnorm.mini.s8 --backends eager,ours > /dev/null
/// A dry run's timings are invented: refused.
// RUN: not %python %deplodock_src_root/bench/model_check.py %t.d/bench.FAKE.json --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=FAKE
/// The same results marked measured (the numbers are still the dry run's,
/// which is all this test needs: the ratio is measured / estimated).
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); d['fake']=False; json.dump(d, open(sys.argv[2],'w'))" %t.d/bench.FAKE.json %t.real.json
// RUN: %python %deplodock_src_root/bench/model_check.py %t.real.json --bin-dir %deplodock_obj_root/bin | FileCheck %s
// RUN: %python %deplodock_src_root/bench/model_check.py %t.real.json --bin-dir %deplodock_obj_root/bin --cases silu_mul.mini.s8 --target sm_80 | FileCheck %s --check-prefix=ONE
/// Nothing selected that ran: exit 1 with a reason.
// RUN: not %python %deplodock_src_root/bench/model_check.py %t.real.json --bin-dir %deplodock_obj_root/bin --cases softmax.mini.s8 2>&1 | FileCheck %s --check-prefix=NONE

// FAKE: error: {{.*}}bench.FAKE.json: FAKE timings (a dry run)

//      CHECK: rmsnorm.mini.s8 {{ *}}[[GPU:[0-9.]+]] {{ *}}{{[0-9.]+}} {{ *}}{{[0-9.]+}}
//      CHECK: silu_mul.mini.s8 {{ *}}{{[0-9.]+}} {{ *}}{{[0-9.]+}} {{ *}}{{[0-9.]+}}
//      CHECK: | rmsnorm | fp32 | 1 | {{[0-9.]+}} |
//      CHECK: | silu_mul | fp32 | 1 | {{[0-9.]+}} |

//  ONE-NOT: rmsnorm
//      ONE: | silu_mul | fp32 | 1 |

// NONE: no case of the selection ran correctly in these results
