// RUN: deplodock-run --interp %s --func=shared_b --compare-func=multicast_host --print=none | FileCheck %s --check-prefix=MULTICAST
// RUN: sed -e 's/%%peer = arith.constant 1/%%peer = arith.constant 0/' %s > %t.noarrive.mlir
// RUN: not deplodock-run --interp %t.noarrive.mlir --func=shared_b --compare-func=multicast_host --print=none 2>&1 | FileCheck %s --check-prefix=NOARRIVE
// RUN: sed -e 's/%%mask = arith.constant 3/%%mask = arith.constant 1/' %s > %t.unicast.mlir
// RUN: not deplodock-run --interp %t.unicast.mlir --func=shared_b --compare-func=multicast_host --print=none 2>&1 | FileCheck %s --check-prefix=UNICAST
// RUN: sed -e 's/%%fences = arith.constant 1/%%fences = arith.constant 0/' %s > %t.uninit.mlir
// RUN: not deplodock-run --interp %t.uninit.mlir --func=shared_b --compare-func=multicast_host --print=none 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: sed -e 's/%%early = arith.constant 0/%%early = arith.constant 1/' %s > %t.early.mlir
// RUN: not deplodock-run --interp %t.early.mlir --func=shared_b --compare-func=multicast_host --print=none 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: sed -e 's/%%mask = arith.constant 3 : i16/%%mask = arith.index_cast %%c16 : index to i16/' %s > %t.mask.mlir
// RUN: not deplodock-run --interp %t.mask.mlir --func=shared_b --compare-func=multicast_host --print=none 2>&1 | FileCheck %s --check-prefix=MASK
// RUN: sed -e 's/%%peer = arith.constant 1 : index/%%peer = arith.addi %%c1, %%c1 : index/' %s > %t.rank.mlir
// RUN: not deplodock-run --interp %t.rank.mlir --func=shared_b --compare-func=multicast_host --print=none 2>&1 | FileCheck %s --check-prefix=RANK

/// TMA multicast in a cluster (docs/SimtInterpreter.md, TMA multicast). Two
/// blocks of a cluster share one 16x64 slab of B: rank 0 multicasts it to
/// both (mask 0b11), each block expects the bytes on its own mbarrier and
/// multiplies its row of A by it, y[b, :] = a[b, :] x B[16 (b / 2) ..][:].
/// Rank 1 first waits for rank 0 to arrive on its second mbarrier from
/// rank 0's block (mbarrier_arrive_cluster): it waits before rank 0 has
/// run, so the blocks take turns at the wait. Then rank 1 releases its slab
/// the same way, and rank 0 waits for that before multicasting the box
/// again; y is the mean of the two rounds.
// MULTICAST: compare result #0 @multicast_host: {{.*}}: PASS

/// Rank 0 lets itself go on instead of rank 1: rank 1 waits for ever,
/// reported at its wait.
// NOARRIVE: noarrive.mlir:[[#]]:[[#]]: error: 'dkernel.mbarrier_wait' op waits for phase parity 0 of mbarrier 1, which never completes: 1 arrivals missing, 0 of 0 expected bytes loaded in thread 0 of block (1, 0, 0); every block of its cluster is blocked on a wait or done (a deadlock)

/// A mask naming rank 0 alone: rank 1's slab never fills.
// UNICAST: unicast.mlir:[[#]]:[[#]]: error: 'dkernel.mbarrier_wait' op waits for phase parity 0 of mbarrier 0, which never completes: 0 arrivals missing, 0 of 4096 expected bytes loaded in thread 0 of block (1, 0, 0); every block of its cluster is blocked on a wait or done (a deadlock)

/// Without the cluster barrier after the initialisation, rank 0 (which
/// runs first) multicasts before rank 1 initialised its mbarrier.
// UNINIT: uninit.mlir:[[#]]:[[#]]: error: 'dkernel.tma_load' op signals mbarrier 0 of block (1, 0, 0), which no mbarrier_init initialised there (initialise, fence_mbarrier_init and cluster_barrier before multicasting) in thread 0 of block (0, 0, 0)

/// Rank 1 releases its slab before its wait for the box and reading it: the
/// second multicast overwrites what rank 1 read after the release.
// EARLY: early.mlir:[[#]]:[[#]]: error: 'dkernel.tma_load' op multicasts into shared memory (pool byte 0) of block (1, 0, 0) that its thread 0 read with neither a cluster barrier nor an mbarrier_arrive_cluster this block waited for between in thread 0 of block (0, 0, 0)

/// A mask or rank computed at run time that names a block beyond the
/// cluster (the verifier checks constants only).
// MASK: mask.mlir:[[#]]:[[#]]: error: 'dkernel.tma_load' op multicasts to cluster rank 4, beyond the cluster's 2 blocks in thread 0 of block (0, 0, 0)
// RANK: rank.mlir:[[#]]:[[#]]: error: 'dkernel.mbarrier_arrive_cluster' op arrives in cluster rank 2, beyond the cluster's 2 blocks in thread 0 of block (0, 0, 0)

func.func @shared_b(%arg0: memref<4x16xf32>, %arg1: memref<32x64xf32>) -> memref<4x64xf32> {
  %out = memref.alloc() : memref<4x64xf32>
  dloop.kernel @shared_b ins(%a = %arg0 : memref<4x16xf32>, %b = %arg1 : memref<32x64xf32>) outs(%y = %out : memref<4x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 4 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %s = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %zero : f32) {
          %row = affine.apply affine_map<(d0, d1) -> ((d0 floordiv 2) * 16 + d1)>(%m, %k)
          %av = dloop.load %a[%m, %k] : memref<4x16xf32>
          %bv = dloop.load %b[%row, %n] : memref<32x64xf32>
          %p = arith.mulf %av, %bv : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %s, %y[%m, %n] : memref<4x64xf32>
      }
    }
  }
  return %out : memref<4x64xf32>
}

dkernel.func @multicast(%a: memref<4x16xf32>, %b: memref<32x64xf32>, %desc: !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, %y: memref<4x64xf32>) outputs [3] grid [4, 1, 1] block [64, 1, 1] cluster [2, 1, 1] smem 4112 {
  dkernel.tma_descriptor %desc describes %b : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<32x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %mask = arith.constant 3 : i16
  %peer = arith.constant 1 : index
  %fences = arith.constant 1 : index
  %early = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %slab = dkernel.alloc_shared offset 0 : memref<16x64xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %rank = dkernel.cluster_block_rank
  %leader = arith.cmpi eq, %t, %c0 : index
  %first = arith.cmpi eq, %rank, %c0 : index
  %second = arith.cmpi ne, %rank, %c0 : index
  %issues = arith.andi %leader, %first : i1
  %releases = arith.andi %leader, %second : i1
  %cluster = arith.divui %bx, %c2 : index
  %row = arith.muli %cluster, %c16 : index
  // mb[0]: the slab is full; mb[1]: rank 1 may go on (rank 0 arrives
  // there), rank 0 may refill the slab (rank 1 arrives there).
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %mb[%c1], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.fence_mbarrier_init
  }
  // Every block's mbarriers exist before any block multicasts into them.
  %fenced = arith.cmpi ne, %fences, %c0 : index
  scf.if %fenced {
    dkernel.cluster_barrier
  }
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %issues {
    dkernel.tma_load %desc[%row, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  // Rank 1 goes on once rank 0 lets it.
  scf.if %second {
    dkernel.mbarrier_wait %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  // Releasing the slab before reading it lets rank 0 refill it too soon.
  %soon = arith.cmpi ne, %early, %c0 : index
  %releases_soon = arith.andi %releases, %soon : i1
  scf.if %releases_soon {
    dkernel.mbarrier_arrive_cluster %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  %sum1 = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %av = memref.load %a[%bx, %k] : memref<4x16xf32>
    %bv = memref.load %slab[%k, %t] : memref<16x64xf32, #gpu.address_space<workgroup>>
    %p = arith.mulf %av, %bv : f32
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  %late = arith.cmpi eq, %early, %c0 : index
  %releases_late = arith.andi %releases, %late : i1
  scf.if %releases_late {
    dkernel.mbarrier_arrive_cluster %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %issues {
    dkernel.mbarrier_arrive_cluster %mb[%c1], %peer : memref<2xi64, #gpu.address_space<workgroup>>
  }
  // Round 2: rank 0 refills both slabs with the same box once rank 1
  // released its slab.
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %first {
    dkernel.mbarrier_wait %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %issues {
    dkernel.tma_load %desc[%row, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c1 : memref<2xi64, #gpu.address_space<workgroup>>
  %sum2 = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %av = memref.load %a[%bx, %k] : memref<4x16xf32>
    %bv = memref.load %slab[%k, %t] : memref<16x64xf32, #gpu.address_space<workgroup>>
    %p = arith.mulf %av, %bv : f32
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  %both = arith.addf %sum1, %sum2 : f32
  %mean = arith.mulf %both, %half : f32
  memref.store %mean, %y[%bx, %t] : memref<4x64xf32>
  dkernel.return
}

func.func @multicast_host(%a: memref<4x16xf32>, %b: memref<32x64xf32>) -> memref<4x64xf32> {
  %y = memref.alloc() : memref<4x64xf32>
  dkernel.launch @multicast(%a, %b, %y) : memref<4x16xf32>, memref<32x64xf32>, memref<4x64xf32>
  return %y : memref<4x64xf32>
}
