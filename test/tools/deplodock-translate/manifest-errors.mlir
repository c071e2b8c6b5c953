// Every error of --cuda-manifest, located, with a non-zero exit and no
// files left behind.
// RUN: rm -rf %t && mkdir -p %t

/// Two host functions: which one?
// RUN: not deplodock-translate --emit-cuda --cuda-manifest=%t/m.json %s -o %t/out.cu 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: manifest-errors.mlir:[[# @LINE + 22]]:1: error: --cuda-manifest: 2 host functions (@first, @second); choose one with --cuda-manifest-func
// RUN: not ls %t/m.json %t/out.cu

/// A name that is neither.
// RUN: not deplodock-translate --emit-cuda --cuda-manifest=%t/m.json --cuda-manifest-func=nope %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: error: --cuda-manifest-func: no function @nope with a body and no dkernel.func of that name; host functions: (@first, @second)

/// The function without the manifest.
// RUN: not deplodock-translate --emit-cuda --cuda-manifest-func=first %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: {{^}}error: --cuda-manifest-func needs --cuda-manifest=FILE

/// A file that cannot be written.
// RUN: not deplodock-translate --emit-cuda --cuda-manifest=%t/no/such/dir/m.json --cuda-manifest-func=first %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: {{^}}error: --cuda-manifest: cannot open output file '{{.*}}m.json'

/// A host function the runtime cannot run.
// RUN: not deplodock-translate --emit-cuda --cuda-manifest=%t/m.json --cuda-manifest-func=second %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: manifest-errors.mlir:[[# @LINE + 9]]:1: error: cannot hold argument #0 of type 'f32' on the GPU: only statically shaped memrefs

dkernel.func @k(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [4, 1, 1] smem 0 {
  dkernel.return
}
func.func @first(%y: memref<4xf32>) -> memref<4xf32> {
  dkernel.launch @k(%y) : memref<4xf32>
  return %y : memref<4xf32>
}
func.func @second(%s: f32) {
  return
}

/// No host function and two kernels.
// RUN: echo 'dkernel.func @a(%%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [4, 1, 1] smem 0 { dkernel.return }' > %t/kernels.mlir
// RUN: echo 'dkernel.func @b(%%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [4, 1, 1] smem 0 { dkernel.return }' >> %t/kernels.mlir
// RUN: not deplodock-translate --emit-cuda --cuda-manifest=%t/m.json %t/kernels.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS
// KERNELS: kernels.mlir:1:1: error: --cuda-manifest: no host function to describe, and 2 kernels (@a, @b); choose one with --cuda-manifest-func
