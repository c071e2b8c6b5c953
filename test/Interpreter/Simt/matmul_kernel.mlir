// RUN: deplodock-run --interp %s --func=loop --compare-func=cp_async_host --print=none | FileCheck %s --check-prefix=OK
// RUN: not deplodock-run --interp %s --func=loop --compare-func=short_wait_host --print=none | FileCheck %s --check-prefix=SHORT
// RUN: not deplodock-run --interp %s --func=loop --compare-func=no_barrier_host --print=none 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: not deplodock-run --interp %s --func=loop --compare-func=no_trailing_barrier_host --print=none 2>&1 | FileCheck %s --check-prefix=WAR

/// The cp.async double-buffered matmul of test/Dialect/DKernel/ops.mlir
/// against a Loop IR reference. cp.async copies land at the
/// cp_async_wait that retires their group, NaN in between: waiting for all
/// but the newest two groups (wait 2) reads the chunk still in flight. A
/// thread's copy becomes visible to the others only through a barrier:
/// dropping the barrier after the wait is a read-after-write race, dropping
/// the one after the compute lets the next prefetch overwrite a chunk other
/// threads still read (write-after-read).

// OK: compare result #0 @cp_async_host: {{.*}}: PASS
// SHORT: compare result #0 @short_wait_host: {{.*}} got nan: FAIL
// RAW: error: 'memref.load' op reads shared memory (pool byte {{[0-9]+}}) that thread {{[0-9]+}} wrote with no barrier between in thread {{[0-9]+}} of block (0, 0, 0)
// WAR: error: 'dkernel.cp_async' op writes shared memory (pool byte {{[0-9]+}}) that {{.*}} read with no barrier between in thread {{[0-9]+}} of block (0, 0, 0)

func.func @loop(%arg0: memref<64x256xf32>, %arg1: memref<256x64xf32>) -> memref<64x64xf32> {
  %out = memref.alloc() : memref<64x64xf32>
  dloop.kernel @matmul ins(%a = %arg0 : memref<64x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<64x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 64 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %s = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %zero : f32) {
          %av = dloop.load %a[%m, %k] : memref<64x256xf32>
          %bv = dloop.load %b[%k, %n] : memref<256x64xf32>
          %p = arith.mulf %av, %bv : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %s, %c[%m, %n] : memref<64x64xf32>
      }
    }
  }
  return %out : memref<64x64xf32>
}

dkernel.func @cp_async(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %as = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %bs = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  dkernel.cp_async %a[%row, %tx], %as[%c0, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %b[%ty, %col], %bs[%c0, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  %sum = scf.for %kt = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %stage = arith.remui %kt, %c2 : index
    %next = arith.addi %kt, %c1 : index
    %has_next = arith.cmpi ult, %next, %c16 : index
    scf.if %has_next {
      %other = arith.subi %c1, %stage : index
      %k0 = arith.muli %next, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      dkernel.cp_async %a[%row, %ka], %as[%other, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
      dkernel.cp_async %b[%kb, %col], %bs[%other, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
    }
    dkernel.cp_async_commit
    dkernel.cp_async_wait 1
    gpu.barrier
    %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%inner = %acc) -> (f32) {
      %av = memref.load %as[%stage, %ty, %k] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %bv = memref.load %bs[%stage, %k, %tx] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %f = math.fma %av, %bv, %inner : f32
      scf.yield %f : f32
    } {dkernel.unroll = 16 : i64}
    gpu.barrier
    scf.yield %part : f32
  }
  memref.store %sum, %c[%row, %col] : memref<64x64xf32>
  dkernel.return
}

func.func @cp_async_host(%a: memref<64x256xf32>, %b: memref<256x64xf32>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dkernel.launch @cp_async(%a, %b, %c) : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>
  return %c : memref<64x64xf32>
}

dkernel.func @short_wait(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %as = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %bs = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  dkernel.cp_async %a[%row, %tx], %as[%c0, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %b[%ty, %col], %bs[%c0, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  %sum = scf.for %kt = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %stage = arith.remui %kt, %c2 : index
    %next = arith.addi %kt, %c1 : index
    %has_next = arith.cmpi ult, %next, %c16 : index
    scf.if %has_next {
      %other = arith.subi %c1, %stage : index
      %k0 = arith.muli %next, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      dkernel.cp_async %a[%row, %ka], %as[%other, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
      dkernel.cp_async %b[%kb, %col], %bs[%other, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
    }
    dkernel.cp_async_commit
    dkernel.cp_async_wait 2
    gpu.barrier
    %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%inner = %acc) -> (f32) {
      %av = memref.load %as[%stage, %ty, %k] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %bv = memref.load %bs[%stage, %k, %tx] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %f = math.fma %av, %bv, %inner : f32
      scf.yield %f : f32
    } {dkernel.unroll = 16 : i64}
    gpu.barrier
    scf.yield %part : f32
  }
  memref.store %sum, %c[%row, %col] : memref<64x64xf32>
  dkernel.return
}

func.func @short_wait_host(%a: memref<64x256xf32>, %b: memref<256x64xf32>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dkernel.launch @short_wait(%a, %b, %c) : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>
  return %c : memref<64x64xf32>
}

dkernel.func @no_barrier(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %as = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %bs = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  dkernel.cp_async %a[%row, %tx], %as[%c0, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %b[%ty, %col], %bs[%c0, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  %sum = scf.for %kt = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %stage = arith.remui %kt, %c2 : index
    %next = arith.addi %kt, %c1 : index
    %has_next = arith.cmpi ult, %next, %c16 : index
    scf.if %has_next {
      %other = arith.subi %c1, %stage : index
      %k0 = arith.muli %next, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      dkernel.cp_async %a[%row, %ka], %as[%other, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
      dkernel.cp_async %b[%kb, %col], %bs[%other, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
    }
    dkernel.cp_async_commit
    dkernel.cp_async_wait 1
    %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%inner = %acc) -> (f32) {
      %av = memref.load %as[%stage, %ty, %k] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %bv = memref.load %bs[%stage, %k, %tx] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %f = math.fma %av, %bv, %inner : f32
      scf.yield %f : f32
    } {dkernel.unroll = 16 : i64}
    gpu.barrier
    scf.yield %part : f32
  }
  memref.store %sum, %c[%row, %col] : memref<64x64xf32>
  dkernel.return
}

func.func @no_barrier_host(%a: memref<64x256xf32>, %b: memref<256x64xf32>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dkernel.launch @no_barrier(%a, %b, %c) : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>
  return %c : memref<64x64xf32>
}

dkernel.func @no_trailing_barrier(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %as = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %bs = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  dkernel.cp_async %a[%row, %tx], %as[%c0, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %b[%ty, %col], %bs[%c0, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  %sum = scf.for %kt = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %stage = arith.remui %kt, %c2 : index
    %next = arith.addi %kt, %c1 : index
    %has_next = arith.cmpi ult, %next, %c16 : index
    scf.if %has_next {
      %other = arith.subi %c1, %stage : index
      %k0 = arith.muli %next, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      dkernel.cp_async %a[%row, %ka], %as[%other, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
      dkernel.cp_async %b[%kb, %col], %bs[%other, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
    }
    dkernel.cp_async_commit
    dkernel.cp_async_wait 1
    gpu.barrier
    %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%inner = %acc) -> (f32) {
      %av = memref.load %as[%stage, %ty, %k] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %bv = memref.load %bs[%stage, %k, %tx] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %f = math.fma %av, %bv, %inner : f32
      scf.yield %f : f32
    } {dkernel.unroll = 16 : i64}
    scf.yield %part : f32
  }
  memref.store %sum, %c[%row, %col] : memref<64x64xf32>
  dkernel.return
}

func.func @no_trailing_barrier_host(%a: memref<64x256xf32>, %b: memref<256x64xf32>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dkernel.launch @no_trailing_barrier(%a, %b, %c) : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>
  return %c : memref<64x64xf32>
}
