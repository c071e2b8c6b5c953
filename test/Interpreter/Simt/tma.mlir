// RUN: deplodock-run --interp %s --func=copy --compare-func=tma_host --print=none | FileCheck %s --check-prefix=TMA
// RUN: deplodock-run --interp %s --func=copy --compare-func=swizzled_host --print=none | FileCheck %s --check-prefix=SWIZZLE
// RUN: not deplodock-run --interp %s --func=copy --compare-func=unswizzled_host --print=none | FileCheck %s --check-prefix=UNSWIZZLED
// RUN: deplodock-run --interp %s --func=chunk_sums --compare-func=pipeline_host --print=none | FileCheck %s --check-prefix=PIPELINE
// RUN: not deplodock-run --interp %s --func=copy --compare-func=no_expect_host --print=none 2>&1 | FileCheck %s --check-prefix=HANG
// RUN: sed -e 's/%%parity = arith.remui %%use/%%parity = arith.remui %%k/' %s > %t.parity.mlir
// RUN: not deplodock-run --interp %t.parity.mlir --func=chunk_sums --compare-func=pipeline_host --print=none | FileCheck %s --check-prefix=PARITY

/// TMA loads and mbarriers. @tma_tile (test/Dialect/DKernel/ops.mlir)
/// copies x to y through 64x32 shared tiles: thread 0 initialises the
/// mbarrier, expects the box's bytes and issues the load; the copy lands
/// when the wait completes the phase. With a 128-byte swizzle the 16-byte
/// chunks of each 128-byte row are permuted (chunk XOR row mod 8): a reader
/// that applies the XOR gets x back, one that does not gets it scrambled.
/// @pipeline refills two tiles through two mbarriers whose wait parity
/// flips every other use. A wait on a phase nobody can complete (no
/// arrive_expect_tx) is an error, not a hang. Waiting on the wrong parity
/// returns at once, as on the GPU, before the tile has landed (NaN).

// TMA: compare result #0 @tma_host: {{.*}}: PASS
// SWIZZLE: compare result #0 @swizzled_host: {{.*}}: PASS
// UNSWIZZLED: compare result #0 @unswizzled_host: {{.*}}: FAIL
// PIPELINE: compare result #0 @pipeline_host: {{.*}}: PASS
// PARITY: compare result #0 @pipeline_host: {{.*}} got nan: FAIL
// HANG: error: 'dkernel.mbarrier_wait' op waits for phase parity 0 of mbarrier 0, which never completes: 1 arrivals missing, 8192 of 0 expected bytes loaded in thread 0 of block (0, 0, 0)

func.func @copy(%arg0: memref<128x2048xf32>) -> memref<128x2048xf32> {
  %out = memref.alloc() : memref<128x2048xf32>
  dloop.kernel @copy ins(%x = %arg0 : memref<128x2048xf32>) outs(%y = %out : memref<128x2048xf32>) {
    dloop.for %i = 0 to 128 free "i" {
      dloop.for %j = 0 to 2048 free "j" {
        %v = dloop.load %x[%i, %j] : memref<128x2048xf32>
        dloop.store %v, %y[%i, %j] : memref<128x2048xf32>
      }
    }
  }
  return %out : memref<128x2048xf32>
}

dkernel.func @tma_tile(%x: memref<128x2048xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, %y: memref<128x2048xf32>) outputs [2] grid [64, 2, 1] block [256, 1, 1] smem 8208 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c64 : index
  %col0 = arith.muli %bx, %c32 : index
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %desc[%row0, %col0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  scf.for %e = %t to %c2048 step %c256 {
    %r = arith.divui %e, %c32 : index
    %c = arith.remui %e, %c32 : index
    %v = memref.load %tile[%r, %c] : memref<64x32xf32, #gpu.address_space<workgroup>>
    %gr = arith.addi %row0, %r : index
    %gc = arith.addi %col0, %c : index
    memref.store %v, %y[%gr, %gc] : memref<128x2048xf32>
  } {dkernel.unroll = 8 : i64}
  dkernel.return
}

func.func @tma_host(%x: memref<128x2048xf32>) -> memref<128x2048xf32> {
  %y = memref.alloc() : memref<128x2048xf32>
  dkernel.launch @tma_tile(%x, %y) : memref<128x2048xf32>, memref<128x2048xf32>
  return %y : memref<128x2048xf32>
}

/// The same copy through a 128-byte swizzled tile: element (r, c) sits in
/// column ((c / 4) xor (r mod 8)) * 4 + c mod 4.
dkernel.func @swizzled(%x: memref<128x2048xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, %y: memref<128x2048xf32>) outputs [2] grid [64, 2, 1] block [256, 1, 1] smem 8208 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c64 : index
  %col0 = arith.muli %bx, %c32 : index
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %desc[%row0, %col0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  scf.for %e = %t to %c2048 step %c256 {
    %r = arith.divui %e, %c32 : index
    %c = arith.remui %e, %c32 : index
    %chunk = arith.divui %c, %c4 : index
    %within = arith.remui %c, %c4 : index
    %rm = arith.remui %r, %c8 : index
    %sw = arith.xori %chunk, %rm : index
    %sc0 = arith.muli %sw, %c4 : index
    %sc = arith.addi %sc0, %within : index
    %v = memref.load %tile[%r, %sc] : memref<64x32xf32, #gpu.address_space<workgroup>>
    %gr = arith.addi %row0, %r : index
    %gc = arith.addi %col0, %c : index
    memref.store %v, %y[%gr, %gc] : memref<128x2048xf32>
  }
  dkernel.return
}

func.func @swizzled_host(%x: memref<128x2048xf32>) -> memref<128x2048xf32> {
  %y = memref.alloc() : memref<128x2048xf32>
  dkernel.launch @swizzled(%x, %y) : memref<128x2048xf32>, memref<128x2048xf32>
  return %y : memref<128x2048xf32>
}

/// The swizzled tile read as if it were dense.
dkernel.func @unswizzled(%x: memref<128x2048xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, %y: memref<128x2048xf32>) outputs [2] grid [64, 2, 1] block [256, 1, 1] smem 8208 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c64 : index
  %col0 = arith.muli %bx, %c32 : index
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %desc[%row0, %col0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  scf.for %e = %t to %c2048 step %c256 {
    %r = arith.divui %e, %c32 : index
    %c = arith.remui %e, %c32 : index
    %v = memref.load %tile[%r, %c] : memref<64x32xf32, #gpu.address_space<workgroup>>
    %gr = arith.addi %row0, %r : index
    %gc = arith.addi %col0, %c : index
    memref.store %v, %y[%gr, %gc] : memref<128x2048xf32>
  }
  dkernel.return
}

func.func @unswizzled_host(%x: memref<128x2048xf32>) -> memref<128x2048xf32> {
  %y = memref.alloc() : memref<128x2048xf32>
  dkernel.launch @unswizzled(%x, %y) : memref<128x2048xf32>, memref<128x2048xf32>
  return %y : memref<128x2048xf32>
}

/// The load is issued without arrive_expect_tx: the phase never completes.
dkernel.func @no_expect(%x: memref<128x2048xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, %y: memref<128x2048xf32>) outputs [2] grid [1, 1, 1] block [32, 1, 1] smem 8208 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.if %leader {
    dkernel.tma_load %desc[%c0, %c0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.return
}

func.func @no_expect_host(%x: memref<128x2048xf32>) -> memref<128x2048xf32> {
  %y = memref.alloc() : memref<128x2048xf32>
  dkernel.launch @no_expect(%x, %y) : memref<128x2048xf32>, memref<128x2048xf32>
  return %y : memref<128x2048xf32>
}

/// Sums of 64x32 chunks: s[r, c] = sum over k of x[r, 32 k + c], k < 8.
func.func @chunk_sums(%arg0: memref<64x256xf32>) -> memref<64x32xf32> {
  %out = memref.alloc() : memref<64x32xf32>
  dloop.kernel @chunk_sums ins(%x = %arg0 : memref<64x256xf32>) outs(%s = %out : memref<64x32xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %r = 0 to 64 free "r" {
      dloop.for %c = 0 to 32 free "c" {
        %sum = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
          %v = dloop.load %x[%r, %k * 32 + %c] : memref<64x256xf32>
          %n = arith.addf %acc, %v : f32
          dloop.yield %n : f32
        }
        dloop.store %sum, %s[%r, %c] : memref<64x32xf32>
      }
    }
  }
  return %out : memref<64x32xf32>
}

/// A two-stage TMA pipeline: chunk k + 1 is loaded into tile (k + 1) mod 2
/// while chunk k is summed; each tile has its mbarrier, whose phase parity
/// is (k / 2) mod 2 at use k. Each thread sums 8 elements of the tile into a
/// per-thread array (memref.alloca).
dkernel.func @pipeline(%x: memref<64x256xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, %s: memref<64x32xf32>) outputs [2] grid [1, 1, 1] block [256, 1, 1] smem 16400 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x256xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %tiles = dkernel.alloc_shared offset 0 : memref<2x64x32xf32, #gpu.address_space<workgroup>>
  %tile0 = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %tile1 = dkernel.alloc_shared offset 8192 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 16384 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %acc = memref.alloca() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %acc[%i] : memref<8xf32>
  }
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %mb[%c1], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %desc[%c0, %c0] -> %tile0, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.for %k = %c0 to %c8 step %c1 {
    %slot = arith.remui %k, %c2 : index
    %next = arith.addi %k, %c1 : index
    %more = arith.cmpi ult, %next, %c8 : index
    %issue = arith.andi %leader, %more : i1
    scf.if %issue {
      %other = arith.subi %c1, %slot : index
      %col = arith.muli %next, %c32 : index
      %is0 = arith.cmpi eq, %other, %c0 : index
      dkernel.mbarrier_arrive_expect_tx %mb[%other], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
      scf.if %is0 {
        dkernel.tma_load %desc[%c0, %col] -> %tile0, %mb[%other] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
      } else {
        dkernel.tma_load %desc[%c0, %col] -> %tile1, %mb[%other] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
      }
    }
    %use = arith.divui %k, %c2 : index
    %parity = arith.remui %use, %c2 : index
    dkernel.mbarrier_wait %mb[%slot], %parity : memref<2xi64, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c8 step %c1 {
      %base = arith.muli %i, %c256 : index
      %e = arith.addi %base, %t : index
      %r = arith.divui %e, %c32 : index
      %c = arith.remui %e, %c32 : index
      %v = memref.load %tiles[%slot, %r, %c] : memref<2x64x32xf32, #gpu.address_space<workgroup>>
      %old = memref.load %acc[%i] : memref<8xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %acc[%i] : memref<8xf32>
    }
    // Nobody reads the slot when its next refill is issued.
    gpu.barrier
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %base = arith.muli %i, %c256 : index
    %e = arith.addi %base, %t : index
    %r = arith.divui %e, %c32 : index
    %c = arith.remui %e, %c32 : index
    %v = memref.load %acc[%i] : memref<8xf32>
    memref.store %v, %s[%r, %c] : memref<64x32xf32>
  }
  dkernel.return
}

func.func @pipeline_host(%x: memref<64x256xf32>) -> memref<64x32xf32> {
  %s = memref.alloc() : memref<64x32xf32>
  dkernel.launch @pipeline(%x, %s) : memref<64x256xf32>, memref<64x32xf32>
  return %s : memref<64x32xf32>
}
