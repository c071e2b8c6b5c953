// RUN: deplodock-run --interp %s --func=chunk_sums --compare-func=ring_host --print=none | FileCheck %s --check-prefix=RING
// RUN: sed -e '/EMPTY-WAIT/d' %s > %t.nowait.mlir
// RUN: not deplodock-run --interp %t.nowait.mlir --func=chunk_sums --compare-func=ring_host --print=none 2>&1 | FileCheck %s --check-prefix=NOWAIT
// RUN: sed -e '/LATE-ARRIVE/d' -e 's|// EARLY-ARRIVE ||' %s > %t.early.mlir
// RUN: not deplodock-run --interp %t.early.mlir --func=chunk_sums --compare-func=ring_host --print=none 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: sed -e 's/%%empty\[%%c2\], 128 :/%%empty[%%c2], 129 :/' %s > %t.deadlock.mlir
// RUN: not deplodock-run --interp %t.deadlock.mlir --func=chunk_sums --compare-func=ring_host --print=none 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sed -e 's/grid \[1, 1, 1\] block \[256, 1, 1\] smem/grid [2, 1, 1] block [256, 1, 1] cluster [2, 1, 1] smem/' -e 's/^  %%producer = /  dkernel.cluster_barrier\n  %%producer = /' -e 's/^  dkernel.return$/  dkernel.cluster_barrier\n  dkernel.return/' %s > %t.cluster.mlir
// RUN: not deplodock-run --interp %t.cluster.mlir --func=chunk_sums --compare-func=ring_host --print=none 2>&1 | FileCheck %s --check-prefix=CLUSTER

/// A warp-specialised ring on the SIMT interpreter: the threads of a block
/// take two sides of a branch that synchronise only through mbarriers, so
/// the interpreter runs the sides as tasks that take turns at blocked waits.
/// Thread 0 (the producer warpgroup) loads the 8 chunks of x through TMA
/// into a ring of 3 slots; each slot has a "full" mbarrier (the TMA bytes)
/// and an "empty" one the 128 consumer threads arrive on once they have read
/// it. The producer waits for "empty" before refilling a slot, the
/// consumers for "full" before reading it (8 chunks: not a multiple of the
/// ring). Without the producer's wait the refill overwrites a slot the
/// consumers may not have read: a race, reported; so is a release of the
/// slot before the consumers read it (arriving on "empty" early). With one arrival too
/// many expected, both sides wait for ever: a deadlock, reported at the
/// wait rather than a hang.

// RING: compare result #0 @ring_host: {{.*}}: PASS
// NOWAIT: error: 'dkernel.tma_load' op {{.*}}shared memory (pool byte {{[0-9]+}}){{.*}} in thread 0 of block (0, 0, 0)
// EARLY: error: 'dkernel.tma_load' op writes shared memory (pool byte {{[0-9]+}}) that thread 128 read with no barrier between in thread 0 of block (0, 0, 0)
// DEADLOCK: error: 'dkernel.mbarrier_wait' op waits for phase parity {{[01]}} of mbarrier {{[0-9]}}, which never completes: {{.*}}; every other thread of the block is blocked on a wait or done (a deadlock)

/// Warp roles inside the blocks of a cluster: two blocks each run the ring
/// (their sides as tasks) between cluster barriers. Both then store the
/// same sums before the last barrier: block (1, 0, 0) ran past the first
/// barrier while block (0, 0, 0) waited there, so block 0's stores race
/// with block 1's.
// CLUSTER: error: 'memref.store' op writes global memory (element 0) that thread 128 of block (1, 0, 0) wrote with no cluster barrier between in thread 128 of block (0, 0, 0)

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

dkernel.func @ring(%x: memref<64x256xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, %s: memref<64x32xf32>) outputs [2] grid [1, 1, 1] block [256, 1, 1] smem 24640 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x256xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %tiles = dkernel.alloc_shared offset 0 : memref<3x64x32xf32, #gpu.address_space<workgroup>>
  %tile0 = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %tile1 = dkernel.alloc_shared offset 8192 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %tile2 = dkernel.alloc_shared offset 16384 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %full = dkernel.alloc_shared offset 24576 : memref<3xi64, #gpu.address_space<workgroup>>
  %empty = dkernel.alloc_shared offset 24608 : memref<3xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %full[%c0], 1 : memref<3xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %full[%c1], 1 : memref<3xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %full[%c2], 1 : memref<3xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %empty[%c0], 128 : memref<3xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %empty[%c1], 128 : memref<3xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %empty[%c2], 128 : memref<3xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %producer = arith.cmpi ult, %t, %c128 : index
  scf.if %producer {
    scf.if %leader {
      scf.for %k = %c0 to %c8 step %c1 {
        %slot = arith.remui %k, %c3 : index
        %use = arith.divui %k, %c3 : index
        // Parity 1 on a fresh mbarrier returns at once: the first use
        // waits for nothing.
        %use1 = arith.addi %use, %c1 : index
        %freed = arith.remui %use1, %c2 : index
        dkernel.mbarrier_wait %empty[%slot], %freed : memref<3xi64, #gpu.address_space<workgroup>> // EMPTY-WAIT
        dkernel.mbarrier_arrive_expect_tx %full[%slot], 8192 : memref<3xi64, #gpu.address_space<workgroup>>
        %col = arith.muli %k, %c32 : index
        %is0 = arith.cmpi eq, %slot, %c0 : index
        %is1 = arith.cmpi eq, %slot, %c1 : index
        scf.if %is0 {
          dkernel.tma_load %desc[%c0, %col] -> %tile0, %full[%slot] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
        } else {
          scf.if %is1 {
            dkernel.tma_load %desc[%c0, %col] -> %tile1, %full[%slot] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
          } else {
            dkernel.tma_load %desc[%c0, %col] -> %tile2, %full[%slot] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
          }
        }
      }
    }
  } else {
    // Consumer thread c sums elements c + 128 i (i < 16) of each chunk.
    %c = arith.subi %t, %c128 : index
    %acc = memref.alloca() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %zero, %acc[%i] : memref<16xf32>
    }
    scf.for %k = %c0 to %c8 step %c1 {
      %slot = arith.remui %k, %c3 : index
      %use = arith.divui %k, %c3 : index
      %parity = arith.remui %use, %c2 : index
      dkernel.mbarrier_wait %full[%slot], %parity : memref<3xi64, #gpu.address_space<workgroup>>
      // EARLY-ARRIVE dkernel.mbarrier_arrive %empty[%slot] : memref<3xi64, #gpu.address_space<workgroup>>
      scf.for %i = %c0 to %c16 step %c1 {
        %base = arith.muli %i, %c128 : index
        %e = arith.addi %base, %c : index
        %r = arith.divui %e, %c32 : index
        %col = arith.remui %e, %c32 : index
        %v = memref.load %tiles[%slot, %r, %col] : memref<3x64x32xf32, #gpu.address_space<workgroup>>
        %old = memref.load %acc[%i] : memref<16xf32>
        %new = arith.addf %old, %v : f32
        memref.store %new, %acc[%i] : memref<16xf32>
      }
      dkernel.mbarrier_arrive %empty[%slot] : memref<3xi64, #gpu.address_space<workgroup>> // LATE-ARRIVE
    }
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c128 : index
      %e = arith.addi %base, %c : index
      %r = arith.divui %e, %c32 : index
      %col = arith.remui %e, %c32 : index
      %v = memref.load %acc[%i] : memref<16xf32>
      memref.store %v, %s[%r, %col] : memref<64x32xf32>
    }
  }
  dkernel.return
}

func.func @ring_host(%x: memref<64x256xf32>) -> memref<64x32xf32> {
  %s = memref.alloc() : memref<64x32xf32>
  dkernel.launch @ring(%x, %s) : memref<64x256xf32>, memref<64x32xf32>
  return %s : memref<64x32xf32>
}
