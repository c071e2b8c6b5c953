// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s -cse -canonicalize | FileCheck %s --check-prefix=CLEANUP

/// An elementwise kernel (SiLU): one element per thread, the flat index built
/// from the block and thread ids. Parameter attributes print in the
/// signature, kernel attributes after the geometry.
// CHECK-LABEL: dkernel.func @silu
//  CHECK-SAME:   (%[[X:[a-z0-9_]+]]: memref<1x32x2048xf32> {deplodock.name = "x"}, %[[Y:[a-z0-9_]+]]: memref<1x32x2048xf32>)
//  CHECK-SAME:   outputs [1] grid [256, 1, 1] block [256, 1, 1] smem 0
//  CHECK-SAME:   attributes {deplodock.source = "silu"} {
//       CHECK:   %[[B:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[BASE:.*]] = arith.muli %[[B]], %{{.*}} : index
//       CHECK:   %[[I:.*]] = arith.addi %[[BASE]], %[[T]] : index
//       CHECK:   %[[ROW:.*]] = arith.divui %[[I]], %{{.*}} : index
//       CHECK:   %[[COL:.*]] = arith.remui %[[I]], %{{.*}} : index
//       CHECK:   %[[V:.*]] = memref.load %[[X]][%{{.*}}, %[[ROW]], %[[COL]]] : memref<1x32x2048xf32>
//       CHECK:   %[[S:.*]] = arith.divf %[[V]], %{{.*}} : f32
//       CHECK:   memref.store %[[S]], %[[Y]][%{{.*}}, %[[ROW]], %[[COL]]] : memref<1x32x2048xf32>
//       CHECK:   dkernel.return
dkernel.func @silu(%x: memref<1x32x2048xf32> {deplodock.name = "x"}, %y: memref<1x32x2048xf32>) outputs [1] grid [256, 1, 1] block [256, 1, 1] smem 0 attributes {deplodock.source = "silu"} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %one = arith.constant 1.000000e+00 : f32
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %row = arith.divui %i, %c2048 : index
  %col = arith.remui %i, %c2048 : index
  %v = memref.load %x[%c0, %row, %col] : memref<1x32x2048xf32>
  %neg = arith.negf %v : f32
  %e = math.exp %neg : f32
  %d = arith.addf %one, %e : f32
  %s = arith.divf %v, %d : f32
  memref.store %s, %y[%c0, %row, %col] : memref<1x32x2048xf32>
  dkernel.return
}

/// RMSNorm as WALKTHROUGH.md sketches it: 256 threads per row, a strided
/// partial sum of squares, a warp reduction, the 8 warp partials in shared
/// memory, and the first warp folds them (width 8) for everyone.
// CHECK-LABEL: dkernel.func @rmsnorm
//  CHECK-SAME:   (%[[X:[a-z0-9_]+]]: memref<1x32x2048xf32>, %[[W:[a-z0-9_]+]]: memref<2048xf32>, %[[Y:[a-z0-9_]+]]: memref<1x32x2048xf32>)
//  CHECK-SAME:   outputs [2] grid [32, 1, 1] block [256, 1, 1] smem 32 {
//       CHECK:   %[[PART:.*]] = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[ROW:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[WARP:.*]] = arith.divui %[[T]], %{{.*}} : index
//       CHECK:   %[[P:.*]] = scf.for %[[K:.*]] = %[[T]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
//       CHECK:     memref.load %[[X]][%{{.*}}, %[[ROW]], %[[K]]] : memref<1x32x2048xf32>
//       CHECK:   %[[WSUM:.*]] = dkernel.warp_reduce add %[[P]] width 32 : f32
//       CHECK:   scf.if
//       CHECK:     memref.store %[[WSUM]], %[[PART]][%[[WARP]]] : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     %[[Q:.*]] = memref.load %[[PART]][%{{.*}}] : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:     %[[TOTAL:.*]] = dkernel.warp_reduce add %[[Q]] width 8 : f32
//       CHECK:       memref.store %[[TOTAL]], %[[PART]][%{{.*}}]
//       CHECK:   gpu.barrier
//       CHECK:   %[[SS:.*]] = memref.load %[[PART]][%{{.*}}]
//       CHECK:   math.rsqrt
//       CHECK:   scf.for
//       CHECK:     memref.load %[[W]]
//       CHECK:     memref.store %{{.*}}, %[[Y]]
//       CHECK:   dkernel.return
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

/// A 16x16 matmul tile with cp.async double buffering: stage 0 is loaded
/// before the K loop; each iteration prefetches the next K chunk into the
/// other stage, commits, waits for all but the newest group, synchronises,
/// and multiplies from shared memory in an unrolled inner loop.
// CHECK-LABEL: dkernel.func @matmul_cp_async
//  CHECK-SAME:   (%[[A:[a-z0-9_]+]]: memref<64x256xf32>, %[[B:[a-z0-9_]+]]: memref<256x64xf32>, %[[C:[a-z0-9_]+]]: memref<64x64xf32>)
//  CHECK-SAME:   outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
//       CHECK:   %[[AS:.*]] = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BS:.*]] = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[TX:.*]] = gpu.thread_id x
//       CHECK:   %[[TY:.*]] = gpu.thread_id y
//       CHECK:   dkernel.cp_async %[[A]][%{{.*}}, %[[TX]]], %[[AS]][%{{.*}}, %[[TY]], %[[TX]]], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async %[[B]][%[[TY]], %{{.*}}], %[[BS]][%{{.*}}, %[[TY]], %[[TX]]], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async_commit
//       CHECK:   %[[SUM:.*]] = scf.for %{{.*}} iter_args(%{{.*}}) -> (f32) {
//       CHECK:     scf.if
//       CHECK:       dkernel.cp_async %[[A]]
//       CHECK:       dkernel.cp_async %[[B]]
//       CHECK:     dkernel.cp_async_commit
//  CHECK-NEXT:     dkernel.cp_async_wait 1
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     scf.for
//       CHECK:       memref.load %[[AS]]
//       CHECK:       memref.load %[[BS]]
//       CHECK:       math.fma
//       CHECK:     } {dkernel.unroll = 16 : i64}
//  CHECK-NEXT:     gpu.barrier
//       CHECK:   memref.store %[[SUM]], %[[C]]
dkernel.func @matmul_cp_async(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
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
  // Prologue: K chunk 0 into stage 0.
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
    // An empty group on the last iteration keeps the wait count uniform.
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

/// cp.async copies 4, 8 or 16 bytes; the indices are elements.
// CHECK-LABEL: dkernel.func @cp_async_widths
//       CHECK:   dkernel.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 16 : memref<1024xf16>, memref<64xf16, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async_commit
//       CHECK:   dkernel.cp_async_wait 0
dkernel.func @cp_async_widths(%x: memref<128x2048xf32>, %h: memref<1024xf16>, %y: memref<128x2048xf32>) outputs [2] grid [1, 1, 1] block [32, 1, 1] smem 8320 {
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %half = dkernel.alloc_shared offset 8192 : memref<64xf16, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%t, %c0], %tile[%t, %c0], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%t, %c0], %tile[%t, %c0], 8 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %h[%c0], %half[%c0], 16 : memref<1024xf16>, memref<64xf16, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  dkernel.cp_async_wait 0
  gpu.barrier
  %v = memref.load %tile[%t, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %y[%t, %c0] : memref<128x2048xf32>
  dkernel.return
}

/// A TMA load: the descriptor parameter is tied to the buffer it describes;
/// thread 0 initialises the mbarrier, expects the box's 8192 bytes and issues
/// the load; every thread waits for phase 0, then copies the tile out.
// CHECK-LABEL: dkernel.func @tma_tile
//  CHECK-SAME:   (%[[X:[a-z0-9_]+]]: memref<128x2048xf32>, %[[D:[a-z0-9_]+]]: !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, %[[Y:[a-z0-9_]+]]: memref<128x2048xf32>)
//  CHECK-SAME:   outputs [2] grid [64, 2, 1] block [256, 1, 1] smem 8208 {
//  CHECK-NEXT:   dkernel.tma_descriptor %[[D]] describes %[[X]] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<128x2048xf32>
//       CHECK:   %[[TILE:.*]] = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[MB:.*]] = dkernel.alloc_shared offset 8192 : memref<2xi64, #gpu.address_space<workgroup>>
//       CHECK:   scf.if
//  CHECK-NEXT:     dkernel.mbarrier_init %[[MB]][%{{.*}}], 1 : memref<2xi64, #gpu.address_space<workgroup>>
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//  CHECK-NEXT:     dkernel.mbarrier_arrive_expect_tx %[[MB]][%{{.*}}], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
//  CHECK-NEXT:     dkernel.tma_load %[[D]][%{{.*}}, %{{.*}}] -> %[[TILE]], %[[MB]][%{{.*}}] : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.mbarrier_wait %[[MB]][%{{.*}}], %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>>{{$}}
//       CHECK:   memref.load %[[TILE]]
//       CHECK:   memref.store %{{.*}}, %[[Y]]
dkernel.func @tma_tile(%x: memref<128x2048xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, %y: memref<128x2048xf32>) outputs [2] grid [64, 2, 1] block [256, 1, 1] smem 8208 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 0>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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

/// Descriptor types of every swizzle and ranks 1 to 5; an i32 phase; the
/// parameter order is free (descriptors before buffers). With a swizzle the
/// tile in shared memory is permuted, so readers apply the XOR themselves.
// CHECK-LABEL: dkernel.func @tma_variants
//  CHECK-SAME:   (%[[D1:[a-z0-9_]+]]: !dkernel.tma_descriptor<256xf16, swizzle = 0>,
//  CHECK-SAME:    %[[D3:[a-z0-9_]+]]: !dkernel.tma_descriptor<2x8x16xbf16, swizzle = 32>,
//  CHECK-SAME:    %[[D5:[a-z0-9_]+]]: !dkernel.tma_descriptor<1x1x2x4x8xf64, swizzle = 64>,
//  CHECK-SAME:    %[[DS:[a-z0-9_]+]]: !dkernel.tma_descriptor<64x32xf32, swizzle = 128>,
//  CHECK-SAME:    %[[V:[a-z0-9_]+]]: memref<4096xf16>, %[[T3:[a-z0-9_]+]]: memref<4x8x64xbf16>, %[[T5:[a-z0-9_]+]]: memref<2x2x2x4x8xf64>, %[[M:[a-z0-9_]+]]: memref<128x2048xf32>, %[[OUT:[a-z0-9_]+]]: memref<8xf32>)
//  CHECK-SAME:   outputs [8]
//       CHECK:   dkernel.tma_descriptor %[[D1]] describes %[[V]] : !dkernel.tma_descriptor<256xf16, swizzle = 0>, memref<4096xf16>
//       CHECK:   dkernel.tma_descriptor %[[D3]] describes %[[T3]] : !dkernel.tma_descriptor<2x8x16xbf16, swizzle = 32>, memref<4x8x64xbf16>
//       CHECK:   dkernel.tma_descriptor %[[D5]] describes %[[T5]] : !dkernel.tma_descriptor<1x1x2x4x8xf64, swizzle = 64>, memref<2x2x2x4x8xf64>
//       CHECK:   dkernel.tma_descriptor %[[DS]] describes %[[M]] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<128x2048xf32>
//       CHECK:   dkernel.tma_load %[[D1]][%{{.*}}] -> %{{.*}}, %{{.*}}[%{{.*}}] : !dkernel.tma_descriptor<256xf16, swizzle = 0>, memref<256xf16, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.tma_load %[[D3]][%{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}}, %{{.*}}[%{{.*}}] : !dkernel.tma_descriptor<2x8x16xbf16, swizzle = 32>
//       CHECK:   dkernel.tma_load %[[D5]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}}, %{{.*}}[%{{.*}}] : !dkernel.tma_descriptor<1x1x2x4x8xf64, swizzle = 64>
//       CHECK:   dkernel.tma_load %[[DS]][%{{.*}}, %{{.*}}] -> %{{.*}}, %{{.*}}[%{{.*}}] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>
//       CHECK:   dkernel.mbarrier_wait %{{.*}}[%{{.*}}], %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>, i32
dkernel.func @tma_variants(%d1: !dkernel.tma_descriptor<256xf16, swizzle = 0>, %d3: !dkernel.tma_descriptor<2x8x16xbf16, swizzle = 32>, %d5: !dkernel.tma_descriptor<1x1x2x4x8xf64, swizzle = 64>, %ds: !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, %v: memref<4096xf16>, %t3: memref<4x8x64xbf16>, %t5: memref<2x2x2x4x8xf64>, %m: memref<128x2048xf32>, %out: memref<8xf32>) outputs [8] grid [1, 1, 1] block [128, 1, 1] smem 10240 {
  dkernel.tma_descriptor %d1 describes %v : !dkernel.tma_descriptor<256xf16, swizzle = 0>, memref<4096xf16>
  dkernel.tma_descriptor %d3 describes %t3 : !dkernel.tma_descriptor<2x8x16xbf16, swizzle = 32>, memref<4x8x64xbf16>
  dkernel.tma_descriptor %d5 describes %t5 : !dkernel.tma_descriptor<1x1x2x4x8xf64, swizzle = 64>, memref<2x2x2x4x8xf64>
  dkernel.tma_descriptor %ds describes %m : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %phase = arith.constant 0 : i32
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %s1 = dkernel.alloc_shared offset 8192 : memref<256xf16, #gpu.address_space<workgroup>>
  %s3 = dkernel.alloc_shared offset 8704 : memref<2x8x16xbf16, #gpu.address_space<workgroup>>
  %s5 = dkernel.alloc_shared offset 9216 : memref<1x1x2x4x8xf64, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 9728 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_init %mb[%c0], 1 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_init %mb[%c1], 1 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_init %mb[%c2], 1 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_init %mb[%c3], 1 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_expect_tx %mb[%c0], 512 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.tma_load %d1[%c0] -> %s1, %mb[%c0] : !dkernel.tma_descriptor<256xf16, swizzle = 0>, memref<256xf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_expect_tx %mb[%c1], 512 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.tma_load %d3[%c0, %c0, %c0] -> %s3, %mb[%c1] : !dkernel.tma_descriptor<2x8x16xbf16, swizzle = 32>, memref<2x8x16xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_expect_tx %mb[%c2], 512 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.tma_load %d5[%c0, %c0, %c0, %c0, %c0] -> %s5, %mb[%c2] : !dkernel.tma_descriptor<1x1x2x4x8xf64, swizzle = 64>, memref<1x1x2x4x8xf64, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_expect_tx %mb[%c3], 8192 : memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.tma_load %ds[%c0, %c0] -> %tile, %mb[%c3] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_wait %mb[%c3], %phase : memref<4xi64, #gpu.address_space<workgroup>>, i32
  dkernel.return
}

/// A block-wide reduction over warp partials: warp max, lane 0 writes its
/// warp's slot, then the whole block tree-reduces the 8 slots.
// CHECK-LABEL: dkernel.func @row_max
//       CHECK:   %[[BUF:.*]] = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[WMAX:.*]] = dkernel.warp_reduce max %{{.*}} width 32 : f32
//       CHECK:     memref.store %[[WMAX]], %[[BUF]]
//       CHECK:   gpu.barrier
//       CHECK:   %[[MAX:.*]] = dkernel.tree_reduce max %[[BUF]] length 8 : memref<8xf32, #gpu.address_space<workgroup>> -> f32
//       CHECK:   memref.store %[[MAX]]
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

/// Tree reductions over a whole block's values, of every kind, on integers
/// and floats, over part of a buffer.
// CHECK-LABEL: dkernel.func @tree_reduce_kinds
//       CHECK:   dkernel.tree_reduce add %{{.*}} length 256 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
//       CHECK:   dkernel.tree_reduce mul %{{.*}} length 2 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
//       CHECK:   dkernel.tree_reduce min %{{.*}} length 128 : memref<128xf64, #gpu.address_space<workgroup>> -> f64
dkernel.func @tree_reduce_kinds(%x: memref<256xi32>, %y: memref<2xi32>, %z: memref<f64>) outputs [1, 2] grid [1, 1, 1] block [256, 1, 1] smem 2048 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ints = dkernel.alloc_shared offset 0 : memref<256xi32, #gpu.address_space<workgroup>>
  %floats = dkernel.alloc_shared offset 1024 : memref<128xf64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<256xi32>
  memref.store %v, %ints[%t] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %sum = dkernel.tree_reduce add %ints length 256 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
  %prod = dkernel.tree_reduce mul %ints length 2 : memref<256xi32, #gpu.address_space<workgroup>> -> i32
  %min = dkernel.tree_reduce min %floats length 128 : memref<128xf64, #gpu.address_space<workgroup>> -> f64
  memref.store %sum, %y[%c0] : memref<2xi32>
  memref.store %prod, %y[%c1] : memref<2xi32>
  memref.store %min, %z[] : memref<f64>
  dkernel.return
}

/// Warp reductions of every kind and width, on the shuffle-able scalars.
// CHECK-LABEL: dkernel.func @warp_reduce_kinds
//       CHECK:   dkernel.warp_reduce add %{{.*}} width 2 : i32
//       CHECK:   dkernel.warp_reduce mul %{{.*}} width 4 : i64
//       CHECK:   dkernel.warp_reduce max %{{.*}} width 16 : f16
//       CHECK:   dkernel.warp_reduce min %{{.*}} width 32 : bf16
//       CHECK:   dkernel.warp_reduce max %{{.*}} width 8 : f64
dkernel.func @warp_reduce_kinds(%i: memref<32xi32>, %l: memref<32xi64>, %h: memref<32xf16>, %b: memref<32xbf16>, %d: memref<32xf64>) outputs [0, 1, 2, 3, 4] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %t = gpu.thread_id x
  %vi = memref.load %i[%t] : memref<32xi32>
  %vl = memref.load %l[%t] : memref<32xi64>
  %vh = memref.load %h[%t] : memref<32xf16>
  %vb = memref.load %b[%t] : memref<32xbf16>
  %vd = memref.load %d[%t] : memref<32xf64>
  %ri = dkernel.warp_reduce add %vi width 2 : i32
  %rl = dkernel.warp_reduce mul %vl width 4 : i64
  %rh = dkernel.warp_reduce max %vh width 16 : f16
  %rb = dkernel.warp_reduce min %vb width 32 : bf16
  %rd = dkernel.warp_reduce max %vd width 8 : f64
  memref.store %ri, %i[%t] : memref<32xi32>
  memref.store %rl, %l[%t] : memref<32xi64>
  memref.store %rh, %h[%t] : memref<32xf16>
  memref.store %rb, %b[%t] : memref<32xbf16>
  memref.store %rd, %d[%t] : memref<32xf64>
  dkernel.return
}

/// Split-K matmul: each of the 4 K chunks (block z) adds its partial dot
/// product into the output atomically, so the runtime zeroes it first.
// CHECK-LABEL: dkernel.func @matmul_split_k
//  CHECK-SAME:   (%[[A:[a-z0-9_]+]]: memref<32x1024xf32>, %[[B:[a-z0-9_]+]]: memref<1024x64xf32>, %[[C:[a-z0-9_]+]]: memref<32x64xf32>)
//  CHECK-SAME:   outputs [2] zero_init [2] grid [1, 32, 4] block [64, 1, 1] smem 0 {
//       CHECK:   %[[ROW:.*]] = gpu.block_id y
//       CHECK:   %[[CHUNK:.*]] = gpu.block_id z
//       CHECK:   %[[COL:.*]] = gpu.thread_id x
//       CHECK:   %[[PART:.*]] = scf.for
//       CHECK:   dkernel.atomic_store add %[[PART]], %[[C]][%[[ROW]], %[[COL]]] : memref<32x64xf32>
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

/// Atomics of every kind, on integers and floats, on buffers of any rank.
// CHECK-LABEL: dkernel.func @atomic_kinds
//       CHECK:   dkernel.atomic_store max %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xi32>
//       CHECK:   dkernel.atomic_store min %{{.*}}, %{{.*}}[] : memref<f32>
//       CHECK:   dkernel.atomic_store mul %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf64>
//       CHECK:   dkernel.atomic_store add %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf16>
dkernel.func @atomic_kinds(%i: memref<16xi32>, %f: memref<f32>, %d: memref<4x4xf64>, %h: memref<16xf16>) outputs [0, 1, 2, 3] zero_init [1, 3] grid [1, 1, 1] block [16, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %vi = arith.index_cast %t : index to i32
  %vf = arith.constant 1.500000e+00 : f32
  %vd = arith.constant 2.000000e+00 : f64
  %vh = arith.constant 1.000000e+00 : f16
  dkernel.atomic_store max %vi, %i[%t] : memref<16xi32>
  dkernel.atomic_store min %vf, %f[] : memref<f32>
  dkernel.atomic_store mul %vd, %d[%c0, %c0] : memref<4x4xf64>
  dkernel.atomic_store add %vh, %h[%t] : memref<16xf16>
  dkernel.return
}

/// Host code launches kernels in order; the arguments are the kernels'
/// buffers, and a kernel's TMA descriptors are not passed.
// CHECK-LABEL: func.func @forward
//  CHECK-SAME:   (%[[X:[a-z0-9_]+]]: memref<1x32x2048xf32>, %[[W:[a-z0-9_]+]]: memref<2048xf32>, %[[H:[a-z0-9_]+]]: memref<1x32x2048xf32>, %[[Y:[a-z0-9_]+]]: memref<1x32x2048xf32>)
//       CHECK:   dkernel.launch @rmsnorm(%[[X]], %[[W]], %[[H]]) : memref<1x32x2048xf32>, memref<2048xf32>, memref<1x32x2048xf32>
//  CHECK-NEXT:   dkernel.launch @silu(%[[H]], %[[Y]]) : memref<1x32x2048xf32>, memref<1x32x2048xf32>
//  CHECK-NEXT:   return
func.func @forward(%x: memref<1x32x2048xf32>, %w: memref<2048xf32>, %h: memref<1x32x2048xf32>, %y: memref<1x32x2048xf32>) {
  dkernel.launch @rmsnorm(%x, %w, %h) : memref<1x32x2048xf32>, memref<2048xf32>, memref<1x32x2048xf32>
  dkernel.launch @silu(%h, %y) : memref<1x32x2048xf32>, memref<1x32x2048xf32>
  return
}

// CHECK-LABEL: func.func @launch_tma
//  CHECK-SAME:   (%[[X:[a-z0-9_]+]]: memref<128x2048xf32>, %[[Y:[a-z0-9_]+]]: memref<128x2048xf32>)
//       CHECK:   dkernel.launch @tma_tile(%[[X]], %[[Y]]) : memref<128x2048xf32>, memref<128x2048xf32>
func.func @launch_tma(%x: memref<128x2048xf32>, %y: memref<128x2048xf32>) {
  dkernel.launch @tma_tile(%x, %y) : memref<128x2048xf32>, memref<128x2048xf32>
  return
}

/// CSE and canonicalization keep every op with an effect, duplicates
/// included: copies, commits, waits, mbarrier ops, tree reductions, atomics
/// and descriptor ties. Only the unused pure ops go.
// CLEANUP-LABEL: dkernel.func @effects_survive_cleanup
//       CLEANUP:   dkernel.tma_descriptor
//       CLEANUP:   dkernel.cp_async
//       CLEANUP:   dkernel.cp_async
//       CLEANUP:   dkernel.cp_async_commit
//       CLEANUP:   dkernel.cp_async_commit
//       CLEANUP:   dkernel.cp_async_wait 0
//       CLEANUP:   dkernel.cp_async_wait 0
//       CLEANUP:   dkernel.mbarrier_init
//       CLEANUP:   dkernel.mbarrier_init
//       CLEANUP:   dkernel.mbarrier_arrive_expect_tx
//       CLEANUP:   dkernel.mbarrier_arrive_expect_tx
//       CLEANUP:   dkernel.tma_load
//       CLEANUP:   dkernel.tma_load
//       CLEANUP:   dkernel.mbarrier_wait
//       CLEANUP:   dkernel.mbarrier_wait
//       CLEANUP:   dkernel.tree_reduce
//       CLEANUP:   dkernel.tree_reduce
//   CLEANUP-NOT:   dkernel.warp_reduce
//       CLEANUP:   dkernel.atomic_store
//       CLEANUP:   dkernel.atomic_store
//       CLEANUP:   dkernel.return
// CHECK-LABEL: dkernel.func @effects_survive_cleanup
dkernel.func @effects_survive_cleanup(%x: memref<128x2048xf32>, %desc: !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, %y: memref<128x2048xf32>) outputs [2] zero_init [2] grid [1, 1, 1] block [32, 1, 1] smem 8224 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<128x2048xf32>
  %c0 = arith.constant 0 : index
  %tile = dkernel.alloc_shared offset 0 : memref<64x32xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  %buf = dkernel.alloc_shared offset 8208 : memref<4xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%c0, %c0], %tile[%c0, %c0], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%c0, %c0], %tile[%c0, %c0], 16 : memref<128x2048xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  dkernel.cp_async_commit
  dkernel.cp_async_wait 0
  dkernel.cp_async_wait 0
  dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_expect_tx %mb[%c0], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_arrive_expect_tx %mb[%c0], 8192 : memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.tma_load %desc[%c0, %c0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.tma_load %desc[%c0, %c0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<64x32xf32, swizzle = 128>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>, index
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  %r0 = dkernel.tree_reduce add %buf length 4 : memref<4xf32, #gpu.address_space<workgroup>> -> f32
  %r1 = dkernel.tree_reduce add %buf length 4 : memref<4xf32, #gpu.address_space<workgroup>> -> f32
  %unused = dkernel.warp_reduce add %r0 width 32 : f32
  dkernel.atomic_store add %r0, %y[%c0, %c0] : memref<128x2048xf32>
  dkernel.atomic_store add %r0, %y[%c0, %c0] : memref<128x2048xf32>
  dkernel.return
}

/// A cp.async guarded by a zero-fill predicate round-trips; without the
/// clause nothing is printed.
// CHECK-LABEL: dkernel.func @cp_async_zero_fill
//       CHECK:   dkernel.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8 if %{{.*}} else zeros : memref<5x6xf32>, memref<8x8xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8 : memref<5x6xf32>, memref<8x8xf32, #gpu.address_space<workgroup>>
dkernel.func @cp_async_zero_fill(%x: memref<5x6xf32>, %y: memref<8x8xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %s = dkernel.alloc_shared offset 0 : memref<8x8xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %ok = arith.cmpi ult, %t, %c6 : index
  dkernel.cp_async %x[%c0, %c0], %s[%c0, %t], 8 if %ok else zeros : memref<5x6xf32>, memref<8x8xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %x[%c0, %c0], %s[%c0, %t], 8 : memref<5x6xf32>, memref<8x8xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  dkernel.return
}

/// A warp sync round-trips, and is not folded away (it orders memory).
// CHECK-LABEL: dkernel.func @warp_sync
//       CHECK:   memref.store
//  CHECK-NEXT:   dkernel.warp_sync
//  CHECK-NEXT:   memref.load
// CLEANUP-LABEL: dkernel.func @warp_sync
//       CLEANUP:   dkernel.warp_sync
dkernel.func @warp_sync(%y: memref<32xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 128 {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %s = dkernel.alloc_shared offset 0 : memref<32xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  memref.store %one, %s[%t] : memref<32xf32, #gpu.address_space<workgroup>>
  dkernel.warp_sync
  %v = memref.load %s[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %y[%t] : memref<32xf32>
  dkernel.return
}
