// RUN: deplodock-run --interp %s --func=exchange_ref --compare-func=exchange_host --print=none | FileCheck %s --check-prefix=EXCHANGE
// RUN: sed -e 's/%%barriers = arith.constant 4/%%barriers = arith.constant 0/' %s > %t.race.mlir
// RUN: not deplodock-run --interp %t.race.mlir --func=exchange_ref --compare-func=exchange_host --print=none 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: sed -e 's/%%barriers = arith.constant 4/%%barriers = arith.constant 3/' -e 's/%%flip = arith.constant 1/%%flip = arith.constant 0/' %s > %t.deadlock.mlir
// RUN: not deplodock-run --interp %t.deadlock.mlir --func=exchange_ref --compare-func=exchange_host --print=none 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sed -e 's/%%arrives = arith.cmpi ult, %%rank, %%barriers/%%arrives = arith.cmpi ult, %%t, %%barriers/' %s > %t.partial.mlir
// RUN: not deplodock-run --interp %t.partial.mlir --func=exchange_ref --compare-func=exchange_host --print=none 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: deplodock-run --interp %s --func=handoff_ref --compare-func=handoff_host --print=none | FileCheck %s --check-prefix=HANDOFF
// RUN: sed -e 's/%%handoff_barriers = arith.constant 1/%%handoff_barriers = arith.constant 0/' %s > %t.raw.mlir
// RUN: not deplodock-run --interp %t.raw.mlir --func=handoff_ref --compare-func=handoff_host --print=none 2>&1 | FileCheck %s --check-prefix=RAW

/// Thread-block clusters on the SIMT interpreter. A grid of 4 x 2 blocks
/// runs in clusters of 2 x 2; each block writes its slice of x plus
/// 1000 x its rank in the cluster (x fastest) to tmp, the cluster meets at
/// the barrier, and each block then reads the slice of the block diagonally
/// across its cluster: y[by, bx] = tmp[by ^ 1, bx ^ 1], which the dloop
/// reference computes directly.
// EXCHANGE: compare result #0 @exchange_host: {{.*}}: PASS

/// Without the barrier, the blocks of a cluster (run one after another up
/// to a barrier) race on tmp: block (1, 0) read tmp[1, 0] before block
/// (0, 1) wrote it.
// RACE: error: 'memref.store' op writes global memory (element 256) that thread 0 of block (1, 0, 0) read with no cluster barrier between in thread 0 of block (0, 1, 0)

/// The barrier needs every thread of each block, as gpu.barrier does: with
/// only threads 0-3 arriving it is an error, not a hang.
// PARTIAL: error: 'dkernel.cluster_barrier' op reached by 4 of the 64 threads of block (0, 0, 0); like a barrier, it needs every thread of the block

/// A block that skips the barrier (rank 3 here; the blocks read their own
/// slices, so nothing races) leaves the others waiting for ever: reported
/// at the barrier, not a hang.
// DEADLOCK: error: 'dkernel.cluster_barrier' op never completes in block (0, 0, 0): block (1, 1, 0) of its cluster finished without reaching a cluster barrier (a deadlock)

/// A hand-off through global memory: block 0 of each pair writes 2 x, the
/// cluster meets, block 1 copies it to y. Without the barrier block 1 reads
/// what block 0 wrote unordered.
// HANDOFF: compare result #0 @handoff_host: {{.*}}: PASS
// RAW: error: 'memref.load' op reads global memory (element 0) that thread 0 of block (0, 0, 0) wrote with no cluster barrier between in thread 0 of block (1, 0, 0)

func.func @exchange_ref(%arg0: memref<2x4x64xf32>) -> memref<2x4x64xf32> {
  %out = memref.alloc() : memref<2x4x64xf32>
  dloop.kernel @exchange_ref ins(%x = %arg0 : memref<2x4x64xf32>) outs(%y = %out : memref<2x4x64xf32>) {
    dloop.for %by = 0 to 2 free "by" {
      dloop.for %bx = 0 to 4 free "bx" {
        dloop.for %i = 0 to 64 free "i" {
          %k = arith.constant 1000.0 : f32
          %pby = affine.apply affine_map<(d0) -> (1 - d0)>(%by)
          %pbx = affine.apply affine_map<(d0) -> (d0 + 1 - (d0 mod 2) * 2)>(%bx)
          %rank = affine.apply affine_map<(d0, d1) -> (d1 mod 2 + d0 * 2)>(%pby, %pbx)
          %ri = arith.index_cast %rank : index to i32
          %rf = arith.sitofp %ri : i32 to f32
          %off = arith.mulf %rf, %k : f32
          %v = dloop.load %x[%pby, %pbx, %i] : memref<2x4x64xf32>
          %w = arith.addf %v, %off : f32
          dloop.store %w, %y[%by, %bx, %i] : memref<2x4x64xf32>
        }
      }
    }
  }
  return %out : memref<2x4x64xf32>
}

dkernel.func @exchange(%x: memref<2x4x64xf32>, %tmp: memref<2x4x64xf32>, %y: memref<2x4x64xf32>) outputs [1, 2] grid [4, 2, 1] block [64, 1, 1] cluster [2, 2, 1] smem 0 {
  %barriers = arith.constant 4 : index
  %flip = arith.constant 1 : index
  %k = arith.constant 1000.0 : f32
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %rank = dkernel.cluster_block_rank
  %ri = arith.index_cast %rank : index to i32
  %rf = arith.sitofp %ri : i32 to f32
  %off = arith.mulf %rf, %k : f32
  %v = memref.load %x[%by, %bx, %t] : memref<2x4x64xf32>
  %w = arith.addf %v, %off : f32
  memref.store %w, %tmp[%by, %bx, %t] : memref<2x4x64xf32>
  // The blocks of rank below %barriers arrive (all of them as written).
  %arrives = arith.cmpi ult, %rank, %barriers : index
  scf.if %arrives {
    dkernel.cluster_barrier
  }
  %pbx = arith.xori %bx, %flip : index
  %pby = arith.xori %by, %flip : index
  %u = memref.load %tmp[%pby, %pbx, %t] : memref<2x4x64xf32>
  memref.store %u, %y[%by, %bx, %t] : memref<2x4x64xf32>
  dkernel.return
}

func.func @exchange_host(%x: memref<2x4x64xf32>) -> memref<2x4x64xf32> {
  %tmp = memref.alloc() : memref<2x4x64xf32>
  %y = memref.alloc() : memref<2x4x64xf32>
  dkernel.launch @exchange(%x, %tmp, %y) : memref<2x4x64xf32>, memref<2x4x64xf32>, memref<2x4x64xf32>
  return %y : memref<2x4x64xf32>
}

func.func @handoff_ref(%arg0: memref<32xf32>) -> memref<32xf32> {
  %out = memref.alloc() : memref<32xf32>
  dloop.kernel @handoff_ref ins(%x = %arg0 : memref<32xf32>) outs(%y = %out : memref<32xf32>) {
    dloop.for %i = 0 to 32 free "i" {
      %v = dloop.load %x[%i] : memref<32xf32>
      %w = arith.addf %v, %v : f32
      dloop.store %w, %y[%i] : memref<32xf32>
    }
  }
  return %out : memref<32xf32>
}

dkernel.func @handoff(%x: memref<32xf32>, %tmp: memref<32xf32>, %y: memref<32xf32>) outputs [1, 2] grid [2, 1, 1] block [32, 1, 1] cluster [2, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %handoff_barriers = arith.constant 1 : index
  %t = gpu.thread_id x
  %rank = dkernel.cluster_block_rank
  %first = arith.cmpi eq, %rank, %c0 : index
  scf.if %first {
    %v = memref.load %x[%t] : memref<32xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %tmp[%t] : memref<32xf32>
  }
  %meet = arith.cmpi ne, %handoff_barriers, %c0 : index
  scf.if %meet {
    dkernel.cluster_barrier
  }
  %second = arith.cmpi ne, %rank, %c0 : index
  scf.if %second {
    %u = memref.load %tmp[%t] : memref<32xf32>
    memref.store %u, %y[%t] : memref<32xf32>
  }
  dkernel.return
}

func.func @handoff_host(%x: memref<32xf32>) -> memref<32xf32> {
  %tmp = memref.alloc() : memref<32xf32>
  %y = memref.alloc() : memref<32xf32>
  dkernel.launch @handoff(%x, %tmp, %y) : memref<32xf32>, memref<32xf32>, memref<32xf32>
  return %y : memref<32xf32>
}
