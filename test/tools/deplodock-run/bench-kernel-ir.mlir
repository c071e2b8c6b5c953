// deplodock-run --bench on a module in Kernel IR: its host function's
// launches run as they are, in order, each timed alone and all together;
// the CPU reference runs the Kernel IR itself. Host functions the runtime
// cannot run are located errors.
// RUN: deplodock-run --bench %s --func=host --fake-device --warmup-ms=0.1 --max-time-ms=1 | FileCheck %s --check-prefix=HOST
// RUN: deplodock-run --bench %s --func=host --fake-device --warmup-ms=0.1 --max-time-ms=1 --cpu-reference-limit=0 | FileCheck %s --check-prefix=LIMIT
// LIMIT: reference: skipped: the CPU interpreter would hold {{[0-9]+}} elements, more than --cpu-reference-limit=0; the input is Kernel IR already; the GPU results are not checked
// HOST:      @host on Deplodock fake GPU
// HOST:      reference: 1 output checked against the CPU interpreter (max abs error 0)
// HOST-NEXT: #   kernel          median_us   share     min_us     max_us samples  grid           block             smem  regs
// HOST-NEXT: 0   copy                10.00   50.0%       9.96      10.04      23  [1,1,1]        [4,1,1]              0    32
// HOST-NEXT: 1   twice               10.00   50.0%       9.96      10.04      23  [2,1,1]        [2,1,1]              0    32
// HOST-NEXT:     sum of kernels      20.00
// HOST-NEXT:     function            20.00              19.92      20.08      19

// RUN: not deplodock-run --bench %s --func=other_op --fake-device 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: bench-kernel-ir.mlir:[[# @LINE + 50]]:8: error: 'arith.constant' op cannot run on the GPU runtime: a host function may only allocate buffers, read constant globals, launch dkernel.funcs and return buffers
// A host function that launches nothing is valid: nothing to time, and its
// result (its argument) matches the CPU interpreter's.
// RUN: rm -rf %t.nolaunch && mkdir -p %t.nolaunch
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t.nolaunch/a.npy f4 4 1,2,3,4
// RUN: deplodock-run --bench %s --func=no_launch --fake-device --input=%t.nolaunch/a.npy --output-dir=%t.nolaunch/out --bench-json=%t.nolaunch/bench.json | FileCheck %s --check-prefix=NOLAUNCH
// NOLAUNCH:      @no_launch launches no kernels: nothing to run or time on the GPU
// NOLAUNCH-NEXT: reference: 1 output checked against the CPU interpreter (max abs error 0)
// NOLAUNCH-NOT:  kernel
// RUN: FileCheck %s --check-prefix=NOLAUNCH-JSON < %t.nolaunch/bench.json
// NOLAUNCH-JSON:      "kernels": [],
// NOLAUNCH-JSON:      "status": "ok",
// NOLAUNCH-JSON:      "total_us": {
// NOLAUNCH-JSON-NEXT:   "max": 0,
// NOLAUNCH-JSON:        "samples": 0
// NOLAUNCH-JSON:      "verified": true
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py read %t.nolaunch/out/result0.npy | FileCheck %s --check-prefix=NOLAUNCH-NPY
// NOLAUNCH-NPY:      descr <f4 shape (4,)
// NOLAUNCH-NPY-NEXT: 1.0 2.0 3.0 4.0
// RUN: not deplodock-run --bench %s --func=strided --fake-device 2>&1 | FileCheck %s --check-prefix=STRIDED
// STRIDED: bench-kernel-ir.mlir:[[# @LINE + 39]]:1: error: cannot hold argument #0 of type 'memref<4xf32, strided<[2]>>' on the GPU: only statically shaped memrefs with the identity layout

dkernel.func @copy(%arg0: memref<4xf32>, %arg1: memref<4xf32>) outputs [1] grid [1, 1, 1] block [4, 1, 1] smem 0 {
  %t = gpu.thread_id x
  %v = memref.load %arg0[%t] : memref<4xf32>
  memref.store %v, %arg1[%t] : memref<4xf32>
  dkernel.return
}

dkernel.func @twice(%arg0: memref<4xf32>) outputs [0] grid [2, 1, 1] block [2, 1, 1] smem 0 {
  %c2 = arith.constant 2 : index
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %i0 = arith.muli %b, %c2 : index
  %i = arith.addi %i0, %t : index
  %v = memref.load %arg0[%i] : memref<4xf32>
  %w = arith.addf %v, %v : f32
  memref.store %w, %arg0[%i] : memref<4xf32>
  dkernel.return
}

func.func @host(%a: memref<4xf32>) -> memref<4xf32> {
  %o = memref.alloc() : memref<4xf32>
  dkernel.launch @copy(%a, %o) : memref<4xf32>, memref<4xf32>
  dkernel.launch @twice(%o) : memref<4xf32>
  return %o : memref<4xf32>
}

func.func @other_op(%a: memref<4xf32>) -> memref<4xf32> {
  %o = memref.alloc() : memref<4xf32>
  %c = arith.constant 0 : index
  dkernel.launch @copy(%a, %o) : memref<4xf32>, memref<4xf32>
  return %o : memref<4xf32>
}

func.func @no_launch(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

func.func @strided(%a: memref<4xf32, strided<[2]>>) -> memref<4xf32> {
  %o = memref.alloc() : memref<4xf32>
  return %o : memref<4xf32>
}
