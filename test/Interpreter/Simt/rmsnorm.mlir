// RUN: deplodock-run --interp %s --func=loop --compare-func=tile --print=none | FileCheck %s --check-prefix=TILE
// RUN: deplodock-run --interp %s --func=loop --compare-func=kernel --seed=7 --print=none | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-run --interp %s --func=tile --compare-func=kernel --print=summary | FileCheck %s --check-prefix=BOTH
// RUN: not deplodock-run --interp %s --func=loop --compare-func=nope --print=none 2>&1 | FileCheck %s --check-prefix=NOFUNC

/// RMSNorm three times: the Loop IR reference, the Tile IR of
/// test/Dialect/DTile/ops.mlir (strided partial sums, dtile.combine) and the
/// Kernel IR of test/Dialect/DKernel/ops.mlir (warp_reduce, shared
/// partials, barriers). The SIMT engine runs the last two thread by thread;
/// all three agree on the same inputs (--compare-func runs a second function
/// of the module on the inputs of the first).

// TILE: compare result #0 @tile: {{.*}}: PASS
// KERNEL: compare result #0 @kernel: {{.*}}: PASS
// BOTH: result #0: tensor<1x32x2048xf32> min {{.*}} max {{.*}} mean
// BOTH-NEXT: compare result #0 @kernel: {{.*}}: PASS
// NOFUNC: error: no function @nope in {{.*}}rmsnorm.mlir

func.func @loop(%arg0: memref<1x32x2048xf32>, %arg1: memref<2048xf32>) -> memref<1x32x2048xf32> {
  %out = memref.alloc() : memref<1x32x2048xf32>
  dloop.kernel @rmsnorm ins(%x = %arg0 : memref<1x32x2048xf32>, %w = %arg1 : memref<2048xf32>) outs(%y = %out : memref<1x32x2048xf32>) {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 2048.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    dloop.for %r = 0 to 32 free "r" {
      %ss = dloop.for %k = 0 to 2048 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[0, %r, %k] : memref<1x32x2048xf32>
        %sq = arith.mulf %v, %v : f32
        %next = arith.addf %acc, %sq : f32
        dloop.yield %next : f32
      }
      %mean = arith.divf %ss, %n : f32
      %me = arith.addf %mean, %eps : f32
      %inv = math.rsqrt %me : f32
      dloop.for %c = 0 to 2048 free "c" {
        %xv = dloop.load %x[0, %r, %c] : memref<1x32x2048xf32>
        %g = dloop.load %w[%c] : memref<2048xf32>
        %t = arith.mulf %xv, %inv : f32
        %o = arith.mulf %t, %g : f32
        dloop.store %o, %y[0, %r, %c] : memref<1x32x2048xf32>
      }
    }
  }
  return %out : memref<1x32x2048xf32>
}

func.func @tile(%arg0: memref<1x32x2048xf32>, %arg1: memref<2048xf32>) -> memref<1x32x2048xf32> {
  %out = memref.alloc() : memref<1x32x2048xf32>
  dtile.kernel @rmsnorm knobs<threads = 256> ins(%x = %arg0 : memref<1x32x2048xf32>, %w = %arg1 : memref<2048xf32>) outs(%y = %out : memref<1x32x2048xf32>) {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 2048.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    dtile.tile blocks(%r : 32 "r") threads(%t : 256 "t") {
      %p = dtile.strided_for %k = %t to 2048 step 256 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[0, %r, %k] : memref<1x32x2048xf32>
        %sq = arith.mulf %v, %v : f32
        %next = arith.addf %acc, %sq : f32
        dtile.yield %next : f32
      }
      %ss = dtile.combine add %p over ["t"] : f32
      %mean = arith.divf %ss, %n : f32
      %me = arith.addf %mean, %eps : f32
      %inv = math.rsqrt %me : f32
      dtile.strided_for %c = %t to 2048 step 256 free "c" {
        %xv = dloop.load %x[0, %r, %c] : memref<1x32x2048xf32>
        %g = dloop.load %w[%c] : memref<2048xf32>
        %xi = arith.mulf %xv, %inv : f32
        %o = arith.mulf %xi, %g : f32
        dloop.store %o, %y[0, %r, %c] : memref<1x32x2048xf32>
      }
    }
  }
  return %out : memref<1x32x2048xf32>
}

dkernel.func @rmsnorm(%x: memref<1x32x2048xf32>, %w: memref<2048xf32>, %y: memref<1x32x2048xf32>) outputs [2] grid [32, 1, 1] block [256, 1, 1] smem 32 {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.048000e+03 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %partials = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  %row = gpu.block_id x
  %t = gpu.thread_id x
  %lane = arith.remui %t, %c32 : index
  %warp = arith.divui %t, %c32 : index
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  %p = scf.for %k = %t to %c2048 step %c256 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %x[%c0, %row, %k] : memref<1x32x2048xf32>
    %sq = arith.mulf %v, %v : f32
    %a = arith.addf %acc, %sq : f32
    scf.yield %a : f32
  }
  %wsum = dkernel.warp_reduce add %p width 32 : f32
  scf.if %is_lane0 {
    memref.store %wsum, %partials[%warp] : memref<8xf32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %is_warp0 = arith.cmpi eq, %warp, %c0 : index
  scf.if %is_warp0 {
    %slot = arith.andi %lane, %c7 : index
    %part = memref.load %partials[%slot] : memref<8xf32, #gpu.address_space<workgroup>>
    %total = dkernel.warp_reduce add %part width 8 : f32
    scf.if %is_lane0 {
      memref.store %total, %partials[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
    }
  }
  gpu.barrier
  %ss = memref.load %partials[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
  %mean = arith.divf %ss, %n : f32
  %biased = arith.addf %mean, %eps : f32
  %inv = math.rsqrt %biased : f32
  scf.for %c = %t to %c2048 step %c256 {
    %v = memref.load %x[%c0, %row, %c] : memref<1x32x2048xf32>
    %g = memref.load %w[%c] : memref<2048xf32>
    %vn = arith.mulf %v, %inv : f32
    %o = arith.mulf %vn, %g : f32
    memref.store %o, %y[%c0, %row, %c] : memref<1x32x2048xf32>
  }
  dkernel.return
}

func.func @kernel(%x: memref<1x32x2048xf32>, %w: memref<2048xf32>) -> memref<1x32x2048xf32> {
  %y = memref.alloc() : memref<1x32x2048xf32>
  dkernel.launch @rmsnorm(%x, %w, %y) : memref<1x32x2048xf32>, memref<2048xf32>, memref<1x32x2048xf32>
  return %y : memref<1x32x2048xf32>
}
