/// The interpreter runs every thread of a launch in turn, so a loop nest the
/// GPU finishes in a millisecond can keep the CPU for hours: work past
/// --work-limit (operations counted once per thread) is refused.

/// Loops whose trip counts the IR fixes are refused before anything runs:
/// 64 blocks of 256 threads each stepping 65536 x 32 times.
// RUN: not deplodock-run --interp %s --func=long_tile --print=none 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: work-limit.mlir:[[# @LINE + 7]]:3: error: 'dtile.kernel' op cannot be interpreted: would execute at least {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 34359738368 (deplodock-run --work-limit)
// TILE-NOT: result #
/// The same kernel on its Kernel-level form (a dkernel.func per block).
// RUN: not deplodock-run --interp %s --func=long_tile --pipeline=convert-dtile-to-dkernel --print=none 2>&1 | FileCheck %s --check-prefix=FUNC
// FUNC: error: 'dkernel.func' op cannot be interpreted: would execute at least {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 34359738368
func.func @long_tile(%x: memref<64x256xf32>) -> memref<64x256xf32> {
  %y = memref.alloc() : memref<64x256xf32>
  dtile.kernel @long knobs<> ins(%in = %x : memref<64x256xf32>) outs(%out = %y : memref<64x256xf32>) {
    %cst = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 64 "b") threads(%t : 256 "t") {
      %v = dloop.load %in[%b, %t] : memref<64x256xf32>
      %s = dloop.for %o = 0 to 65536 reduce "o" iter(%acc = %cst : f32) {
        %i = dloop.for %k = 0 to 32 reduce "k" iter(%a = %acc : f32) {
          %m = arith.mulf %v, %v : f32
          %n = arith.addf %a, %m : f32
          dloop.yield %n : f32
        }
        dloop.yield %i : f32
      }
      dloop.store %s, %out[%b, %t] : memref<64x256xf32>
    }
  }
  return %y : memref<64x256xf32>
}

/// A lower limit refuses smaller work; within it, the kernel runs. The loop
/// inside the branch counts with the branch's cheaper side (none), so the
/// launch passes the first check (64 threads x 100 steps) and the branch's
/// loop is refused when its one thread enters it.
// RUN: not deplodock-run --interp %s --func=short_tile --work-limit=5000 --print=none 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: work-limit.mlir:[[# @LINE + 8]]:3: error: 'dtile.kernel' op cannot be interpreted: would execute at least {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 5000 (deplodock-run --work-limit)
// RUN: not deplodock-run --interp %s --func=short_tile --work-limit=19000 --print=none 2>&1 | FileCheck %s --check-prefix=BRANCH
// BRANCH: work-limit.mlir:[[# @LINE + 17]]:14: error: 'dloop.for' op cannot be interpreted: would execute at least {{1[0-9][0-9][0-9][0-9][0-9]}} operations (counted per thread), more than the interpreter's work limit of 19000
// BRANCH-NOT: result #
// RUN: deplodock-run --interp %s --func=short_tile --work-limit=1000000 --print=summary 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: result #0: tensor<64xf32>
func.func @short_tile(%x: memref<64xf32>) -> memref<64xf32> {
  %y = memref.alloc() : memref<64xf32>
  dtile.kernel @short knobs<> ins(%in = %x : memref<64xf32>) outs(%out = %y : memref<64xf32>) {
    %cst = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 64 "t") {
      %v = dloop.load %in[%t] : memref<64xf32>
      %s = dloop.for %o = 0 to 100 reduce "o" iter(%acc = %cst : f32) {
        %n = arith.addf %acc, %v : f32
        dloop.yield %n : f32
      }
      %first = arith.cmpi eq, %t, %c0 : index
      %r = scf.if %first -> (f32) {
        %u = dloop.for %o = 0 to 100000 reduce "u" iter(%acc = %s : f32) {
          %n = arith.addf %acc, %v : f32
          dloop.yield %n : f32
        }
        scf.yield %u : f32
      } else {
        scf.yield %s : f32
      }
      dloop.store %r, %out[%t] : memref<64xf32>
    }
  }
  return %y : memref<64xf32>
}

/// Trip counts only the running values know are counted as the loop runs:
/// the launch stops once it has executed more than the limit.
// RUN: not deplodock-run --interp %s --func=varying_trips --work-limit=2000000 --print=none 2>&1 | FileCheck %s --check-prefix=VARYING
// VARYING: work-limit.mlir:[[# @LINE + 12]]:12: error: 'scf.for' op stopped: the launch has executed {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 2000000
// VARYING-NOT: result #
// RUN: deplodock-run --interp %s --func=varying_trips --print=summary 2>&1 | FileCheck %s --check-prefix=RUNS
func.func @varying_trips(%x: memref<64xf32>) -> memref<64xf32> {
  %y = memref.alloc() : memref<64xf32>
  dtile.kernel @varying knobs<> ins(%in = %x : memref<64xf32>) outs(%out = %y : memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 64 "t") {
      %v = dloop.load %in[%t] : memref<64xf32>
      %ub = arith.muli %t, %c4096 : index
      %s = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %v) -> (f32) {
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      }
      dloop.store %s, %out[%t] : memref<64xf32>
    }
  }
  return %y : memref<64xf32>
}

/// The sequential interpreter (host loops) keeps the same limit: a fixed
/// trip count is refused at once, one the running values set on entering
/// the loop that passes it.
// RUN: not deplodock-run --interp %s --func=host_loop --print=none 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: work-limit.mlir:[[# @LINE + 5]]:8: error: 'scf.for' op cannot be interpreted: would execute at least {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 34359738368
func.func @host_loop(%x: memref<1xf32>) -> memref<1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1099511627776 : index
  %r = scf.for %i = %c0 to %big step %c1 iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %c1 : index
    scf.yield %n : index
  }
  return %x : memref<1xf32>
}

// RUN: not deplodock-run --interp %s --func=host_growing --work-limit=100000 --print=none 2>&1 | FileCheck %s --check-prefix=HOST-LOW
// HOST-LOW: work-limit.mlir:[[# @LINE + 8]]:10: error: 'scf.for' op cannot be interpreted: would execute at least {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 100000
// RUN: deplodock-run --interp %s --func=host_growing --print=summary 2>&1 | FileCheck %s --check-prefix=HOST-RUNS
// HOST-RUNS: result #0: tensor<1xf32>
func.func @host_growing(%x: memref<1xf32>) -> memref<1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %r = scf.for %i = %c0 to %c1000 step %c1 iter_args(%acc = %c0) -> (index) {
    %m = scf.for %j = %c0 to %i step %c1 iter_args(%a = %acc) -> (index) {
      %q = arith.addi %a, %c1 : index
      scf.yield %q : index
    }
    scf.yield %m : index
  }
  return %x : memref<1xf32>
}

/// A branch's cheaper side sets the bound a loop is checked against on entry:
/// here the first iteration takes the branch with the inner loop (102
/// operations so far), which fits a limit of 110, and the host loop's later
/// iterations are stopped while running, once the count passes the limit.
// RUN: not deplodock-run --interp %s --func=host_branch --work-limit=110 --print=none 2>&1 | FileCheck %s --check-prefix=HOST-STOP
// HOST-STOP: work-limit.mlir:[[# @LINE + 8]]:8: error: 'scf.for' op stopped: the run has executed {{[0-9]+}} operations (counted per thread), more than the interpreter's work limit of 110 (deplodock-run --work-limit)
// RUN: deplodock-run --interp %s --func=host_branch --work-limit=120 --print=summary 2>&1 | FileCheck %s --check-prefix=HOST-FITS
// HOST-FITS: result #0: tensor<1xf32>
func.func @host_branch(%x: memref<1xf32>) -> memref<1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %c0) -> (index) {
    %first = arith.cmpi eq, %i, %c0 : index
    %m = scf.if %first -> (index) {
      %s = scf.for %j = %c0 to %c100 step %c1 iter_args(%a = %acc) -> (index) {
        %q = arith.addi %a, %c1 : index
        scf.yield %q : index
      }
      scf.yield %s : index
    } else {
      scf.yield %acc : index
    }
    scf.yield %m : index
  }
  return %x : memref<1xf32>
}
