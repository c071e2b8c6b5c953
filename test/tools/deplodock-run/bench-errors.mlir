// Every error deplodock-run --bench reports, each with a non-zero exit code
// and, where the input is at fault, its location. Failed kernels still
// write the report and the --bench-json, with the status the tuner would
// record.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/x23.npy f4 2x3 1,2,3,4,5,6
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/x48.npy f4 4x8 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31

/// A wrong result: where the first mismatch is, and no timings.
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=wrong --bench-json=%t/wrong.json > %t/wrong.out 2> %t/wrong.err
// RUN: FileCheck %s --check-prefix=WRONG < %t/wrong.out
// RUN: FileCheck %s --check-prefix=WRONG-ERR < %t/wrong.err
// RUN: FileCheck %s --check-prefix=WRONG-JSON < %t/wrong.json
// WRONG:          reference: 1 output checked against the CPU interpreter (max abs error {{[0-9.]+}})
// WRONG-NOT:      median_us
// WRONG-ERR:      error: the kernels failed (wrong_result): output alloc0: 1 of 32 elements differ (max abs error {{[0-9.]+}}), element 0: expected {{.*}} got
// WRONG-JSON:     "detail": "output alloc0: 1 of 32 elements differ
// WRONG-JSON:     "status": "wrong_result"
// WRONG-JSON-NOT: "median_us"
// WRONG-JSON-NOT: "total_us"
// WRONG-JSON:     "verified": true

/// The worker's other failures: the compiler's log, the failed launch, a
/// sticky CUDA error, a hung kernel.
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=compile_fail --bench-json=%t/compile.json 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE:      reference: the CPU interpreter (not reached)
// COMPILE-NEXT: error: the kernels failed (compile_fail): NVRTC compilation failed:
// COMPILE-NEXT: kernels.cu(1): error: injected compile failure (fake device)
// RUN: FileCheck %s --check-prefix=COMPILE-JSON < %t/compile.json
// COMPILE-JSON: "status": "compile_fail"
// COMPILE-JSON: "verified": false
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=launch_fail 2>&1 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: error: the kernels failed (launch_fail): launching 'add_0_pointwise' failed: CUDA_ERROR_INVALID_VALUE
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=sticky 2>&1 | FileCheck %s --check-prefix=STICKY
// STICKY: error: the kernels failed (launch_fail): running the kernels failed: CUDA_ERROR_ILLEGAL_ADDRESS
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=kernel_hang --kernel-timeout=3 2>&1 | FileCheck %s --check-prefix=KHANG
// KHANG: error: the kernels failed (timeout): the GPU was still busy after 3 s (a hung kernel?; fake device)

/// The worker dying or not answering in time costs only the worker.
/// (The deadline leaves a busy machine ample time to reach verify.)
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=hang --bench-timeout=5 --bench-json=%t/hang.json 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: error: the kernels failed (timeout): no answer within 5 s (during verify); the worker was killed
// RUN: FileCheck %s --check-prefix=HANG-JSON < %t/hang.json
// HANG-JSON: "status": "timeout"
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=crash 2>&1 | FileCheck %s --check-prefix=CRASH
/// What the crashed worker said comes first, whatever follows it (LLVM's
/// stack dump, of a length that depends on the machine).
// CRASH: error: the kernels failed (launch_fail): the worker was killed by signal 6 (Aborted) during verify; it said: crashed during verify of request 1; the parent records the failure and starts a new worker; its stderr ends:
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=exit 2>&1 | FileCheck %s --check-prefix=EXIT
// EXIT: error: the kernels failed (launch_fail): the worker exited with code 7 during verify
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=garbage 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error: malformed message from the bench worker: malformed frame header 'this is not a frame' (expected 'DPLK1 <json bytes> <blob bytes>')
// RUN: not deplodock-run --bench %s --fake-device --fake-fault=melt 2>&1 | FileCheck %s --check-prefix=MELT
// MELT: error: the bench worker rejected the request: the fake device knows no fault 'melt'

/// No GPU, no worker, or a program that is not one.
// RUN: env DEPLODOCK_CUDA_DRIVER=/nonexistent/libcuda.so.1 not deplodock-run --bench %s 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: error: cannot run on the GPU: no CUDA driver: cannot load /nonexistent/libcuda.so.1
// RUN: not deplodock-run --bench %s --worker=%t/missing-worker 2>&1 | FileCheck %s --check-prefix=NOWORKER
// NOWORKER: error: cannot run on the GPU: cannot start the bench worker {{.*}}missing-worker: No such file or directory
// RUN: env DEPLODOCK_BENCH_WORKER=%t/missing-worker not deplodock-run --bench %s 2>&1 | FileCheck %s --check-prefix=NOWORKER
// RUN: not deplodock-run --bench %s --worker=%S/bench-errors.mlir 2>&1 | FileCheck %s --check-prefix=NOTWORKER
// NOTWORKER: error: cannot run on the GPU: cannot start the bench worker {{.*}}bench-errors.mlir: Permission denied
// RUN: not deplodock-run --bench %s --fake-device --worker-arg=--no-such-option 2>&1 | FileCheck %s --check-prefix=WORKERARG
// WORKERARG: error: cannot run on the GPU: the bench worker {{.*}}deplodock-bench-worker exited with code 1 before saying hello (it closed the connection); its stderr ends:
// WORKERARG: Unknown command line argument '--no-such-option'

/// Inputs that do not fit the function.
// RUN: not deplodock-run --bench %s --fake-device --input=%t/x48.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: @add takes 2 arguments, got 1 --input files
// RUN: not deplodock-run --bench %s --fake-device --input=%t/x48.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: {{.*}}x23.npy holds tensor<2x3xf32> but argument #1 of @add is memref<4x8xf32>
// RUN: not deplodock-run --bench %s --fake-device --input=%t/x48.npy --input=%t/none.npy 2>&1 | FileCheck %s --check-prefix=NONPY
// NONPY: error: cannot read {{.*}}none.npy:

/// Options out of range, and what this build cannot do yet.
// RUN: not deplodock-run --bench %s --fake-device --kernel-timeout=0 2>&1 | FileCheck %s --check-prefix=KTIME
// KTIME: error: --kernel-timeout must be a positive number of seconds
// RUN: not deplodock-run --bench %s --fake-device --bench-timeout=-1 2>&1 | FileCheck %s --check-prefix=BTIME
// BTIME: error: --bench-timeout must be a number of seconds up to 86400, or 0
// RUN: not deplodock-run --bench %s --fake-device --min-samples=0 2>&1 | FileCheck %s --check-prefix=SAMPLES
// SAMPLES: error: --min-samples must be from 1 to 1000000
// RUN: not deplodock-run --bench %s --fake-device --warmup-ms=-1 2>&1 | FileCheck %s --check-prefix=WARMUP
// WARMUP: error: --warmup-ms must be a number of milliseconds
// RUN: not deplodock-run --bench %s --fake-device --max-time-ms=inf 2>&1 | FileCheck %s --check-prefix=MAXTIME
// MAXTIME: error: --max-time-ms must be a number of milliseconds
/// A budget so large it would overflow the deadline (and be reported as a
/// timeout) is refused up front.
// RUN: not deplodock-run --bench %s --fake-device --warmup-ms=1e300 2>&1 | FileCheck %s --check-prefix=HUGEWARMUP
// RUN: not deplodock-run --bench %s --fake-device --kernel-timeout= 2>&1 | FileCheck %s --check-prefix=EMPTYTIMEOUT
// EMPTYTIMEOUT: for the --kernel-timeout option: needs a number; leave the flag out for its default
// HUGEWARMUP: error: --warmup-ms must be a number of milliseconds from 0 to 3600000
// RUN: not deplodock-run --bench %s --fake-device --kernel-timeout=1e9 2>&1 | FileCheck %s --check-prefix=HUGEKTIME
// HUGEKTIME: error: --kernel-timeout must be a positive number of seconds, at most 86400
// RUN: not deplodock-run --bench %s --fake-device --min-samples=2000000 2>&1 | FileCheck %s --check-prefix=MANYSAMPLES
// MANYSAMPLES: error: --min-samples must be from 1 to 1000000
// RUN: not deplodock-run --bench %s --fake-device --device=-1 2>&1 | FileCheck %s --check-prefix=ORDINAL
// ORDINAL: error: --device must be a GPU ordinal (0, 1, ...)

/// An empty value is refused, not read as "not given" (which would write
/// nothing, or somewhere else).
// RUN: not deplodock-run --bench %s --fake-device --bench-json= 2>&1 | FileCheck %s --check-prefix=EMPTYJSON
// EMPTYJSON: error: --bench-json needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --output-dir= 2>&1 | FileCheck %s --check-prefix=EMPTYOUT
// EMPTYOUT: error: --output-dir needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --tune-db= 2>&1 | FileCheck %s --check-prefix=EMPTYDB
// EMPTYDB: error: --tune-db needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --kernel-cache= 2>&1 | FileCheck %s --check-prefix=EMPTYCACHE
// EMPTYCACHE: error: --kernel-cache needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --knobs= 2>&1 | FileCheck %s --check-prefix=EMPTYKNOBS
// EMPTYKNOBS: error: --knobs needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --worker= 2>&1 | FileCheck %s --check-prefix=EMPTYWORKER
// EMPTYWORKER: error: --worker needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --fake-fault= 2>&1 | FileCheck %s --check-prefix=EMPTYFAULT
// EMPTYFAULT: error: --fake-fault needs a value; leave the flag out for its default
// RUN: not deplodock-run --bench %s --fake-device --input= 2>&1 | FileCheck %s --check-prefix=EMPTYINPUT
// EMPTYINPUT: error: --input needs a .npy file
// RUN: not deplodock-run --bench %s --fake-device --worker-arg=--cache-dir= 2>&1 | FileCheck %s --check-prefix=WORKERCACHE
// WORKERCACHE:      error: cannot run on the GPU: the bench worker {{.*}} exited with code 1 before saying hello (it closed the connection); its stderr ends:
// WORKERCACHE-NEXT: deplodock-bench-worker: error: --cache-dir needs a directory
// RUN: not deplodock-run --bench %s --fake-device --tune-db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=TUNEDB
// TUNEDB: error: tune database '{{.*}}tune.db': no such file
// RUN: not deplodock-run --bench --interp %s 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: choose a mode: --interp runs the CPU reference interpreter, --bench runs the kernels on the GPU

/// Outputs that cannot be written: the report still comes first.
// RUN: not deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --bench-json=%t/no/such/dir/b.json 2>&1 | FileCheck %s --check-prefix=JSONFILE
// JSONFILE: error: cannot open output file '{{.*}}b.json'
// RUN: not deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --output-dir=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: error: cannot write {{.*}}x23.npy/result0.npy

/// Errors in the layer are located: one the lowering rejects, fork choices
/// that are not legal, a function that is not there.
// RUN: not deplodock-run --bench %s --func=dynamic --fake-device 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: bench-errors.mlir:[[# @LINE + 14]]:1: error: 'func.func' op argument #0 has type 'tensor<?xf32>'; dynamic shapes are not supported by convert-to-dtensor
// RUN: not deplodock-run --bench %s --fake-device --knobs=block_threads=48 2>&1 | FileCheck %s --check-prefix=KNOBS
// KNOBS: bench-errors.mlir:[[# @LINE + 8]]:8: error: 'dtile.kernel' op knobs block_threads=48 are not a legal option of blockify_launch
// RUN: not deplodock-run --bench %s --fake-device --knobs=nonsense=3 2>&1 | FileCheck %s --check-prefix=BADKNOB
// BADKNOB: error: bad knobs option 'nonsense=3': unknown knob 'nonsense' (knobs: wgmma, warpgroups, wgmma_n, wgmma_split_k, tensor_cores, WM, {{.*}})
// RUN: not deplodock-run --bench %s --func=nope --fake-device 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: bench-errors.mlir:{{[0-9]+:[0-9]+}}: error: no function @nope

func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = math.exp %a : tensor<?xf32>
  return %r : tensor<?xf32>
}
