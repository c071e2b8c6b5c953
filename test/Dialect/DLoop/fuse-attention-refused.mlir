// RUN: deplodock-opt %s -split-input-file --dloop-fuse-attention -verify-diagnostics
// RUN: deplodock-opt %s -split-input-file --dloop-fuse-attention 2>/dev/null | FileCheck %s

// Every kernel here is left as it was: no online loop, no private buffer.
// CHECK-NOT: memref.alloca

/// The contraction takes exp(2x - max x): the running maximum would not
/// bound 2x, so rescaled terms could overflow where the softmax's do not.
func.func @other_value(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %x2 = arith.addf %x, %x : f32
          // expected-remark @+1 {{online softmax not applied: the maximum is subtracted from another value than the one it maximises}}
          %dd = arith.subf %x2, %max : f32
          %e = math.exp %dd : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %e, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

// -----

/// sqrt(p) is not linear in p: rescaling p by exp(m_old - m_new) would
/// rescale the term by its square root.
func.func @sqrt_of_probabilities(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %dd = arith.subf %x, %max : f32
          %e = math.exp %dd : f32
          // expected-remark @+1 {{online softmax not applied: 'math.sqrt' of the exponentials does not commute with rescaling them}}
          %q = math.sqrt %e : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %q, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

// -----

/// A sum starting at 1 would have its start rescaled too.
func.func @sum_from_one(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %one = arith.constant 1.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        // expected-remark @+1 {{online softmax not applied: a sum of exponentials does not start at zero}}
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %one : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %dd = arith.subf %x, %max : f32
          %e = math.exp %dd : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %e, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

// -----

/// e * v + e: the exponential feeds two ops of its term.
func.func @used_twice(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %dd = arith.subf %x, %max : f32
          // expected-remark @+1 {{online softmax not applied: an exponential of the maximum is used twice}}
          %e = math.exp %dd : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %e, %w : f32
          %t2 = arith.addf %t, %e : f32
          %a = arith.addf %acc, %t2 : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

// -----

/// A term under a condition is not summed for every key.
func.func @under_condition(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %c2 = arith.constant 2 : index
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %odd = arith.cmpi ult, %j, %c2 : index
          %t = scf.if %odd -> (f32) {
            %x = dloop.load %s[%i, %j] : memref<3x5xf32>
            %dd = arith.subf %x, %max : f32
            // expected-remark @+1 {{online softmax not applied: an exponential of the maximum is computed under a condition}}
            %e = math.exp %dd : f32
            scf.yield %e : f32
          } else {
            scf.yield %zero : f32
          }
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %tw = arith.mulf %t, %w : f32
          %a = arith.addf %acc, %tw : f32
          dloop.yield %a : f32
        }
        dloop.store %r, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}

// -----

/// Not attention, so no remark: a softmax alone, and a log-sum-exp (the
/// maximum is stored as well as exponentiated).
func.func @plain_softmax(%arg0: memref<3x5xf32>) -> memref<3x5xf32> {
  %out = memref.alloc() : memref<3x5xf32>
  dloop.kernel @softmax ins(%s = %arg0 : memref<3x5xf32>) outs(%p = %out : memref<3x5xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      %sum = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %d = arith.subf %x, %max : f32
        %e = math.exp %d : f32
        %a = arith.addf %acc, %e : f32
        dloop.yield %a : f32
      }
      dloop.for %j = 0 to 5 free "j" {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %d = arith.subf %x, %max : f32
        %e = math.exp %d : f32
        %q = arith.divf %e, %sum : f32
        dloop.store %q, %p[%i, %j] : memref<3x5xf32>
      }
    }
  }
  return %out : memref<3x5xf32>
}

func.func @log_sum_exp(%arg0: memref<3x5xf32>, %arg1: memref<5x4xf32>) -> memref<3x4xf32> {
  %out = memref.alloc() : memref<3x4xf32>
  dloop.kernel @attn ins(%s = %arg0 : memref<3x5xf32>, %v = %arg1 : memref<5x4xf32>) outs(%o = %out : memref<3x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %i = 0 to 3 free "i" {
      %max = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %ninf : f32) {
        %x = dloop.load %s[%i, %j] : memref<3x5xf32>
        %m = arith.maximumf %acc, %x : f32
        dloop.yield %m : f32
      }
      dloop.for %d = 0 to 4 free "d" {
        %r = dloop.for %j = 0 to 5 reduce "j" iter(%acc = %zero : f32) {
          %x = dloop.load %s[%i, %j] : memref<3x5xf32>
          %dd = arith.subf %x, %max : f32
          %e = math.exp %dd : f32
          %w = dloop.load %v[%j, %d] : memref<5x4xf32>
          %t = arith.mulf %e, %w : f32
          %a = arith.addf %acc, %t : f32
          dloop.yield %a : f32
        }
        %rm = arith.addf %r, %max : f32
        dloop.store %rm, %o[%i, %d] : memref<3x4xf32>
      }
    }
  }
  return %out : memref<3x4xf32>
}
