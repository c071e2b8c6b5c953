// Every error deplodock-run reports, each with a non-zero exit code.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/x23.npy f4 2x3 1,2,3,4,5,6
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/x32.npy f4 3x2 1,2,3,4,5,6
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/d23.npy f8 2x3 1,2,3,4,5,6
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py write %t/i2.npy i8 2 1,7
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py raw %t/text.npy "not numpy at all"
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py raw %t/short.npy "\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }          \nabcd"
// RUN: %python %deplodock_src_root/test/Interpreter/Inputs/npy.py raw %t/u16.npy "\x93NUMPY\x01\x00\x46\x00{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }          \nabcdefghijkl"
// RUN: echo "func.func @broken(" > %t/broken.mlir
// RUN: echo "func.func private @declared(%%x: tensor<4xf32>)" > %t/declared.mlir
// RUN: touch %t/file

/// No mode.
// RUN: not deplodock-run %s 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: choose a mode: --interp runs the CPU reference interpreter

/// Files that cannot be read or parsed.
// RUN: not deplodock-run --interp %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: could not open input file {{.*}}missing.mlir
// RUN: not deplodock-run --interp %t/broken.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: broken.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

/// No function to run.
// RUN: not deplodock-run --interp %t/declared.mlir 2>&1 | FileCheck %s --check-prefix=NOBODY
// NOBODY: error: no function with a body in {{.*}}declared.mlir
// RUN: not deplodock-run --interp %s --func=nope 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: error: no function @nope in {{.*}}errors.mlir

/// Pass pipelines that do not parse, or fail.
// RUN: not deplodock-run --interp %s --pipeline=no-such-pass 2>&1 | FileCheck %s --check-prefix=BADPIPE
// BADPIPE: error: bad pass pipeline 'no-such-pass': {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// RUN: not deplodock-run --interp %s --compare='canonicalize,no-such-pass' 2>&1 | FileCheck %s --check-prefix=BADCMP
// BADCMP: error: bad pass pipeline 'canonicalize,no-such-pass'
// RUN: not deplodock-run --interp %s --pipeline=convert-dtensor-to-dloop 2>&1 | FileCheck %s --check-prefix=PASSFAIL
// PASSFAIL: error: 'linalg.matmul' op is not supported by convert-dtensor-to-dloop; import it into dtensor first

/// Input files: missing, not .npy, truncated, of a type .npy readers do not
/// know, too few or too many, of the wrong shape or element type.
// RUN: not deplodock-run --interp %s --func=add --input=%t/none.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=NONPY
// NONPY: error: cannot read {{.*}}none.npy: No such file or directory
// RUN: not deplodock-run --interp %s --func=add --input=%t/text.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: error: cannot read {{.*}}text.npy: not a .npy file
// RUN: not deplodock-run --interp %s --func=add --input=%t/short.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: cannot read {{.*}}short.npy: truncated .npy data
// RUN: not deplodock-run --interp %s --func=add --input=%t/u16.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=U16
// U16: error: {{.*}}u16.npy holds tensor<2x3xi16> but argument #0 of @add is tensor<2x3xf32> (an argument of f32 is read from float32 .npy)
// RUN: not deplodock-run --interp %s --func=add --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: @add takes 2 arguments, got 1 --input files
// RUN: not deplodock-run --interp %s --func=add --input=%t/x23.npy --input=%t/x32.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: {{.*}}x32.npy holds tensor<3x2xf32> but argument #1 of @add is tensor<2x3xf32>{{$}}
// RUN: not deplodock-run --interp %s --func=add --input=%t/x23.npy --input=%t/d23.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: {{.*}}d23.npy holds tensor<2x3xf64> but argument #1 of @add is tensor<2x3xf32> (an argument of f32 is read from float32 .npy)
/// Tolerances that would let every comparison pass, and empty values.
// RUN: not deplodock-run --interp %s --func=add --compare=canonicalize --rtol=nan 2>&1 | FileCheck %s --check-prefix=RTOL
// RTOL: error: --rtol must be a finite number, not negative
// RUN: not deplodock-run --interp %s --func=add --compare=canonicalize --atol=-1 2>&1 | FileCheck %s --check-prefix=ATOL
// ATOL: error: --atol must be a finite number, not negative
// RUN: not deplodock-run --interp %s --func=add --compare=canonicalize --atol=inf 2>&1 | FileCheck %s --check-prefix=ATOL
// An empty number is not 0 (LLVM's parser of doubles would read it so).
// RUN: not deplodock-run --interp %s --func=add --compare=canonicalize --rtol= 2>&1 | FileCheck %s --check-prefix=EMPTYRTOL
// EMPTYRTOL: for the --rtol option: needs a number; leave the flag out for its default
// RUN: not deplodock-run --interp %s --func=add --output-dir= 2>&1 | FileCheck %s --check-prefix=EMPTYOUT
// EMPTYOUT: error: --output-dir needs a value; leave the flag out for its default
// RUN: not deplodock-run --interp %s --func= 2>&1 | FileCheck %s --check-prefix=EMPTYFUNC
// EMPTYFUNC: error: --func needs a value; leave the flag out for its default
// RUN: not deplodock-run --interp %s --func=add --compare= 2>&1 | FileCheck %s --check-prefix=EMPTYCMP
// EMPTYCMP: error: --compare needs a value; leave the flag out for its default
// RUN: not deplodock-run --interp %s --func=add --save-inputs= 2>&1 | FileCheck %s --check-prefix=EMPTYSAVE
// EMPTYSAVE: error: --save-inputs needs a value; leave the flag out for its default
func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = dtensor.elementwise (%a = %x : tensor<2x3xf32>, %b = %y : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %r = arith.addf %a, %b : f32
    dtensor.yield %r : f32
  }
  return %s : tensor<2x3xf32>
}

/// An op the interpreter cannot run (linalg must be imported first), with
/// its location.
// RUN: not deplodock-run --interp %s --func=linalg 2>&1 | FileCheck %s --check-prefix=LINALG
// LINALG: errors.mlir:[[@LINE+2]]:8: error: 'linalg.matmul' op cannot be interpreted
func.func @linalg(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

/// Seeded inputs need static shapes.
// RUN: not deplodock-run --interp %s --func=dynamic 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: 'func.func' op argument #0 has type 'tensor<?xf32>', which cannot be interpreted
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

/// A load out of bounds at run time, where the index comes from the data.
// RUN: not deplodock-run --interp %s --func=gather --input=%t/x23.npy --input=%t/i2.npy 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: errors.mlir:[[@LINE+6]]:12: error: 'dloop.load' op accesses index 7 of dimension 1 of size 3
func.func @gather(%x: memref<2x3xf32>, %i: memref<2xindex>) -> memref<2xf32> {
  %out = memref.alloc() : memref<2xf32>
  dloop.kernel @gather ins(%src = %x : memref<2x3xf32>, %idx = %i : memref<2xindex>) outs(%y = %out : memref<2xf32>) {
    dloop.for %k = 0 to 2 free "k" {
      %j = dloop.load %idx[%k] : memref<2xindex>
      %v = dloop.load %src[%k, %j] : memref<2x3xf32>
      dloop.store %v, %y[%k] : memref<2xf32>
    }
  }
  return %out : memref<2xf32>
}

/// Outputs that cannot be written: a directory that is a file, and a type
/// .npy has no code for.
// RUN: not deplodock-run --interp %s --func=add --output-dir=%t/file 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: error: cannot write {{.*}}file{{/|\\}}result0.npy: Not a directory
// RUN: not deplodock-run --interp %s --func=i4 --save-inputs=%t/i4 2>&1 | FileCheck %s --check-prefix=I4
// I4: error: cannot write {{.*}}input0.npy: cannot write elements of type i4 to .npy
func.func @i4(%x: tensor<4xi4>) -> tensor<4xi4> {
  return %x : tensor<4xi4>
}
