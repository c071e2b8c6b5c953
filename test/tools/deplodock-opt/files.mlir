// Files deplodock-opt cannot read or write are errors, and a write that
// fails is never an exit 0 (nor an abort): the output is whole or absent.

// RUN: not deplodock-opt %s -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: error: cannot write '/dev/full': {{.+}}
// FULL-NOT: LLVM ERROR
/// The failed write leaves the device itself in place (a tool run as root
/// could unlink it).
// RUN: test -c /dev/full

// RUN: rm -rf %t && mkdir -p %t
// RUN: not deplodock-opt %s -o %t/no/such/dir/out.mlir 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: cannot open output file '{{.*}}out.mlir': {{.+}}
// RUN: not deplodock-opt %s -o "" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: cannot open an output file without a name
// RUN: not deplodock-opt %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=IN
// IN: error: cannot open input file '{{.*}}missing.mlir': {{.+}}
// RUN: not deplodock-opt %t 2>&1 | FileCheck %s --check-prefix=INDIR
// INDIR: error: cannot open input file '{{.*}}': {{.+}}

/// Input with errors leaves no output file behind.
// RUN: not deplodock-opt %S/Inputs/bad.mlir -o %t/bad.out 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t/bad.out
// BAD: error: custom op 'func.bogus' is unknown

// RUN: deplodock-opt %s -o %t/out.mlir
// RUN: FileCheck %s --check-prefix=OUT < %t/out.mlir
// OUT: func.func @id
func.func @id(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
