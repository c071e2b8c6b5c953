// RUN: deplodock-run --interp %s --func=row_max_loop --compare-func=row_max_host --print=none | FileCheck %s --check-prefix=ROWMAX
// RUN: deplodock-run --interp %s --func=matmul_loop --compare-func=split_k_host --print=none | FileCheck %s --check-prefix=SPLITK
// RUN: deplodock-run --interp %s --func=kinds_host --print=values | FileCheck %s --check-prefix=KINDS
// RUN: not deplodock-run --interp %s --func=missing_barrier_host --print=none 2>&1 | FileCheck %s --check-prefix=RACE

/// Block reductions of test/Dialect/DKernel/ops.mlir: @row_max (warp
/// maxima, lane 0 of each warp writes its slot, a tree reduction over the 8
/// slots) and @matmul_split_k (4 K chunks in grid z add their partial dot
/// products atomically into an output the launch zeroes first), against
/// Loop IR references; tree reductions of every kind on values computed from
/// the thread id, checked exactly.

// ROWMAX: compare result #0 @row_max_host: {{.*}}: PASS
// SPLITK: compare result #0 @split_k_host: {{.*}}: PASS

func.func @row_max_loop(%arg0: memref<32x256xf32>) -> memref<32xf32> {
  %out = memref.alloc() : memref<32xf32>
  dloop.kernel @row_max ins(%x = %arg0 : memref<32x256xf32>) outs(%y = %out : memref<32xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    dloop.for %r = 0 to 32 free "r" {
      %m = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %ninf : f32) {
        %v = dloop.load %x[%r, %k] : memref<32x256xf32>
        %n = arith.maximumf %acc, %v : f32
        dloop.yield %n : f32
      }
      dloop.store %m, %y[%r] : memref<32xf32>
    }
  }
  return %out : memref<32xf32>
}

dkernel.func @row_max(%x: memref<32x256xf32>, %y: memref<32xf32>) outputs [1] grid [32, 1, 1] block [256, 1, 1] smem 32 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %buf = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  %row = gpu.block_id x
  %t = gpu.thread_id x
  %v = memref.load %x[%row, %t] : memref<32x256xf32>
  %wmax = dkernel.warp_reduce max %v width 32 : f32
  %lane = arith.remui %t, %c32 : index
  %warp = arith.divui %t, %c32 : index
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %is_lane0 {
    memref.store %wmax, %buf[%warp] : memref<8xf32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %max = dkernel.tree_reduce max %buf length 8 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    memref.store %max, %y[%row] : memref<32xf32>
  }
  dkernel.return
}

func.func @row_max_host(%x: memref<32x256xf32>) -> memref<32xf32> {
  %y = memref.alloc() : memref<32xf32>
  dkernel.launch @row_max(%x, %y) : memref<32x256xf32>, memref<32xf32>
  return %y : memref<32xf32>
}

/// The same without the barrier between the slot writes and the tree.
// RACE: error: 'dkernel.tree_reduce' op reads shared memory (pool byte 16) that thread 128 wrote with no barrier between in thread 0 of block (0, 0, 0)
dkernel.func @missing_barrier(%x: memref<32x256xf32>, %y: memref<32xf32>) outputs [1] grid [32, 1, 1] block [256, 1, 1] smem 32 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %buf = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
  %row = gpu.block_id x
  %t = gpu.thread_id x
  %v = memref.load %x[%row, %t] : memref<32x256xf32>
  %wmax = dkernel.warp_reduce max %v width 32 : f32
  %lane = arith.remui %t, %c32 : index
  %warp = arith.divui %t, %c32 : index
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %is_lane0 {
    memref.store %wmax, %buf[%warp] : memref<8xf32, #gpu.address_space<workgroup>>
  }
  %max = dkernel.tree_reduce max %buf length 8 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    memref.store %max, %y[%row] : memref<32xf32>
  }
  dkernel.return
}

func.func @missing_barrier_host(%x: memref<32x256xf32>) -> memref<32xf32> {
  %y = memref.alloc() : memref<32xf32>
  dkernel.launch @missing_barrier(%x, %y) : memref<32x256xf32>, memref<32xf32>
  return %y : memref<32xf32>
}

func.func @matmul_loop(%arg0: memref<32x1024xf32>, %arg1: memref<1024x64xf32>) -> memref<32x64xf32> {
  %out = memref.alloc() : memref<32x64xf32>
  dloop.kernel @matmul ins(%a = %arg0 : memref<32x1024xf32>, %b = %arg1 : memref<1024x64xf32>) outs(%c = %out : memref<32x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 32 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %s = dloop.for %k = 0 to 1024 reduce "k" iter(%acc = %zero : f32) {
          %av = dloop.load %a[%m, %k] : memref<32x1024xf32>
          %bv = dloop.load %b[%k, %n] : memref<1024x64xf32>
          %p = arith.mulf %av, %bv : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %s, %c[%m, %n] : memref<32x64xf32>
      }
    }
  }
  return %out : memref<32x64xf32>
}

dkernel.func @matmul_split_k(%a: memref<32x1024xf32>, %b: memref<1024x64xf32>, %c: memref<32x64xf32>) outputs [2] zero_init [2] grid [1, 32, 4] block [64, 1, 1] smem 0 {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.000000e+00 : f32
  %row = gpu.block_id y
  %chunk = gpu.block_id z
  %col = gpu.thread_id x
  %k0 = arith.muli %chunk, %c256 : index
  %k1 = arith.addi %k0, %c256 : index
  %part = scf.for %k = %k0 to %k1 step %c1 iter_args(%acc = %zero) -> (f32) {
    %av = memref.load %a[%row, %k] : memref<32x1024xf32>
    %bv = memref.load %b[%k, %col] : memref<1024x64xf32>
    %f = math.fma %av, %bv, %acc : f32
    scf.yield %f : f32
  } {dkernel.unroll = 4 : i64}
  dkernel.atomic_store add %part, %c[%row, %col] : memref<32x64xf32>
  dkernel.return
}

/// The output is poisoned (NaN) by memref.alloc: only zero_init makes the
/// atomic adds correct.
func.func @split_k_host(%a: memref<32x1024xf32>, %b: memref<1024x64xf32>) -> memref<32x64xf32> {
  %c = memref.alloc() : memref<32x64xf32>
  dkernel.launch @matmul_split_k(%a, %b, %c) : memref<32x1024xf32>, memref<1024x64xf32>, memref<32x64xf32>
  return %c : memref<32x64xf32>
}

/// Thread t holds t + 1 or 1 - t (as i32) and (t + 1) / 4 (as f64); tree
/// reductions of every kind over parts of the block, every thread getting
/// the result: sum(1..256), 1 * 2, min(1 - t), max over threads 0..7, and
/// the float min and max over threads 0..127.
// KINDS:      result #0: tensor<4xi32>
// KINDS-NEXT: 32896 2 -254 1
// KINDS:      result #1: tensor<2xf64>
// KINDS-NEXT: 0.25 32
dkernel.func @kinds(%y: memref<4xi32>, %z: memref<2xf64>) outputs [0, 1] grid [1, 1, 1] block [256, 1, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c255 = arith.constant 255 : index
  %four = arith.constant 4.0 : f64
  %ints = dkernel.alloc_shared offset 0 : memref<256xi32, #gpu.address_space<workgroup>>
  %floats = dkernel.alloc_shared offset 1024 : memref<256xf64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %t1 = arith.addi %t, %c1 : index
  %vi = arith.index_cast %t1 : index to i32
  %vf0 = arith.uitofp %vi : i32 to f64
  %vf = arith.divf %vf0, %four : f64
  // The sum, product, min and max need fresh data: each fold overwrites it.
  memref.store %vi, %ints[%t] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %sum = dkernel.tree_reduce add %ints length 256 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
  gpu.barrier
  memref.store %vi, %ints[%t] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %prod = dkernel.tree_reduce mul %ints length 2 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
  gpu.barrier
  %neg = arith.subi %c255, %t : index
  %vn = arith.index_cast %neg : index to i32
  %one = arith.constant 254 : i32
  %vm = arith.subi %vn, %one : i32
  memref.store %vm, %ints[%t] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %min = dkernel.tree_reduce min %ints length 256 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
  gpu.barrier
  memref.store %vm, %ints[%t] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %max = dkernel.tree_reduce max %ints length 8 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
  memref.store %vf, %floats[%t] : memref<256xf64, #gpu.address_space<workgroup>>
  gpu.barrier
  %fmin = dkernel.tree_reduce min %floats length 128 : memref<256xf64, #gpu.address_space<workgroup>> -> f64
  gpu.barrier
  memref.store %vf, %floats[%t] : memref<256xf64, #gpu.address_space<workgroup>>
  gpu.barrier
  %fmax = dkernel.tree_reduce max %floats length 128 : memref<256xf64, #gpu.address_space<workgroup>> -> f64
  %leader = arith.cmpi eq, %t, %c255 : index
  scf.if %leader {
    memref.store %sum, %y[%c0] : memref<4xi32>
    memref.store %prod, %y[%c1] : memref<4xi32>
    memref.store %min, %y[%c2] : memref<4xi32>
    memref.store %max, %y[%c3] : memref<4xi32>
    memref.store %fmin, %z[%c0] : memref<2xf64>
    memref.store %fmax, %z[%c1] : memref<2xf64>
  }
  dkernel.return
}

func.func @kinds_host() -> (memref<4xi32>, memref<2xf64>) {
  %y = memref.alloc() : memref<4xi32>
  %z = memref.alloc() : memref<2xf64>
  dkernel.launch @kinds(%y, %z) : memref<4xi32>, memref<2xf64>
  return %y, %z : memref<4xi32>, memref<2xf64>
}
