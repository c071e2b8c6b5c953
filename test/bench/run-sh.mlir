// REQUIRES: numpy
/// bench/gpu/run.sh end to end, on stand-ins for nvidia-smi and PyTorch (no
/// GPU here): the environment checks pass, the arguments reach the harness
/// (a dry run), and the log and results land in the output folder.
// RUN: rm -rf %t.stub %t.out %t.work && mkdir -p %t.stub
// RUN: cp %S/Inputs/stub-nvidia-smi.sh %t.stub/nvidia-smi && chmod +x %t.stub/nvidia-smi
// RUN: env PATH=%t.stub:/usr/bin:/bin PYTHON=%numpy_python PYTHONPATH=%S/Inputs/stub-torch bash %deplodock_src_root/bench/gpu/run.sh --bin %deplodock_obj_root/bin --out %t.out --work %t.work --dry-run --cases silu_mul.mini.s8 --backends eager,ours > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s < %t.out/run.log
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
// RUN: env PATH=%t.stub:/usr/bin:/bin PYTHON=%numpy_python PYTHONPATH=%S/Inputs/stub-torch bash %deplodock_src_root/bench/gpu/run.sh --bin %deplodock_obj_root/bin --out %t.out2 --env-only | FileCheck %s --check-prefix=ENV
/// The archive scripts/build-portable.sh packs is unpacked into the work
/// folder and its tools used.
// RUN: rm -rf %t.carry %t.work3 && mkdir -p %t.carry
// RUN: tar -C %deplodock_obj_root/bin -cJf %t.carry/deplodock-tools.tar.xz .
// RUN: env PATH=%t.stub:/usr/bin:/bin PYTHON=%numpy_python PYTHONPATH=%S/Inputs/stub-torch bash %deplodock_src_root/bench/gpu/run.sh --bin %t.carry --out %t.out3 --work %t.work3 --env-only | FileCheck %s --check-prefix=ENV
// RUN: ls %t.work3/bin | FileCheck %s --check-prefix=UNPACKED
/// Without the bench worker nothing can run on the GPU: refused up front.
// RUN: rm -rf %t.noworker && mkdir -p %t.noworker && cp %deplodock_obj_root/bin/* %t.noworker/ && rm %t.noworker/deplodock-bench-worker
// RUN: not env PATH=%t.stub:/usr/bin:/bin PYTHON=%numpy_python PYTHONPATH=%S/Inputs/stub-torch bash %deplodock_src_root/bench/gpu/run.sh --bin %t.noworker --out %t.out4 --env-only 2>&1 | FileCheck %s --check-prefix=NO-WORKER

//      CHECK: == environment
//      CHECK: Stub GPU (test), 0.0
//      CHECK: torch 0.0-stub (CUDA 0.0)
//      CHECK: device Stub GPU (test), sm_90, 0 SMs
//      CHECK: deplodock-opt: ok
// CHECK-NEXT: deplodock-translate: ok
// CHECK-NEXT: deplodock-run: ok
//      CHECK: == benchmark
//      CHECK: [  1/1] silu_mul.mini.s8 {{ *}}eager {{[0-9.]+}}  ours {{[0-9.]+}}  ({{.*}}) [FAKE]
//      CHECK: FAKE TIMINGS (dry run): nothing below was measured

//      FILES: bench.FAKE.json
// FILES-NEXT: bench.FAKE.md
// FILES-NEXT: run.log

// NO-WORKER: error: missing {{.*}}noworker/deplodock-bench-worker (deplodock-run --bench and deplodock-tune --backend=cuda run kernels through it)

// UNPACKED: deplodock-opt
// UNPACKED: deplodock-run

//     ENV: deplodock-run: ok
//     ENV: deplodock-bench-worker: ok
// ENV-NOT: == benchmark
