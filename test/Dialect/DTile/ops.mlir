// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s -canonicalize -control-flow-sink -loop-invariant-code-motion -cse | FileCheck %s --check-prefix=CLEANUP

/// RMSNorm as one Tile kernel (the Tile IR of WALKTHROUGH.md):
/// cooperative_reduce chose 256 threads per row, rows go to blocks. Each
/// thread folds a strided share of the row, dtile.combine adds the 256
/// partials, and a free strided loop stores the row. Tile coordinates and
/// strided loop variables print with their axis names.
// CHECK-LABEL: func.func @rmsnorm
//  CHECK-SAME:   (%[[A0:.*]]: memref<1x32x2048xf32>, %[[A1:.*]]: memref<2048xf32>, %[[A2:.*]]: memref<1x32x2048xf32>)
//       CHECK:   dtile.kernel @rmsnorm knobs<threads = 256> ins(%[[X:in0]] = %[[A0]] : memref<1x32x2048xf32>, %[[W:in1]] = %[[A1]] : memref<2048xf32>) outs(%[[Y:out0]] = %[[A2]] : memref<1x32x2048xf32>) {
//       CHECK:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:     %[[N:.*]] = arith.constant 2.048000e+03 : f32
//       CHECK:     %[[EPS:.*]] = arith.constant 9.99999997E-7 : f32
//       CHECK:     dtile.tile blocks(%[[R:r]] : 32 "r") threads(%[[T:t]] : 256 "t") {
//       CHECK:       %[[P:.*]] = dtile.strided_for %[[K:k]] = %[[T]] to 2048 step 256 reduce "k" iter(%[[ACC:acc]] = %[[ZERO]] : f32) {
//       CHECK:         %[[V:.*]] = dloop.load %[[X]][0, %[[R]], %[[K]]] : memref<1x32x2048xf32>
//       CHECK:         %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
//       CHECK:         %[[NEXT:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
//       CHECK:         dtile.yield %[[NEXT]] : f32
//       CHECK:       }
//       CHECK:       %[[SS:.*]] = dtile.combine add %[[P]] over ["t"] : f32
//       CHECK:       %[[MEAN:.*]] = arith.divf %[[SS]], %[[N]] : f32
//       CHECK:       %[[ME:.*]] = arith.addf %[[MEAN]], %[[EPS]] : f32
//       CHECK:       %[[INV:.*]] = math.rsqrt %[[ME]] : f32
//       CHECK:       dtile.strided_for %[[C:c]] = %[[T]] to 2048 step 256 free "c" {
//       CHECK:         %[[XV:.*]] = dloop.load %[[X]][0, %[[R]], %[[C]]] : memref<1x32x2048xf32>
//       CHECK:         %[[G:.*]] = dloop.load %[[W]][%[[C]]] : memref<2048xf32>
//       CHECK:         %[[XI:.*]] = arith.mulf %[[XV]], %[[INV]] : f32
//       CHECK:         %[[O:.*]] = arith.mulf %[[XI]], %[[G]] : f32
//       CHECK:         dloop.store %[[O]], %[[Y]][0, %[[R]], %[[C]]] : memref<1x32x2048xf32>
//   CHECK-NOT:         dtile.yield
//       CHECK:       }
//   CHECK-NOT:       dtile.yield
//       CHECK:     }
//   CHECK-NOT:     dtile.yield
//       CHECK:   }
//       CHECK:   return
func.func @rmsnorm(%arg0: memref<1x32x2048xf32>, %arg1: memref<2048xf32>, %arg2: memref<1x32x2048xf32>) {
  dtile.kernel @rmsnorm knobs<threads = 256> ins(%x = %arg0 : memref<1x32x2048xf32>, %w = %arg1 : memref<2048xf32>) outs(%y = %arg2 : memref<1x32x2048xf32>) {
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
  return
}

/// Matmul with shared-memory staging: 16x16 output tiles go to blocks
/// (m_o, n_o), one output element to each thread (m_i, n_i). A sequential
/// reduce loop walks K in chunks of BK = 32; per chunk the block stages a
/// 16x32 slab of A and a 32x16 slab of B, and each thread folds one row of
/// the A slab against one column of the B slab. Knobs print sorted by name
/// (upper case first), whatever order they were written in.
// CHECK-LABEL: func.func @matmul
//  CHECK-SAME:   (%[[A0:.*]]: memref<128x256xf32>, %[[A1:.*]]: memref<256x64xf32>, %[[A2:.*]]: memref<128x64xf32>)
//       CHECK:   dtile.kernel @matmul knobs<BK = 32, BM = 16, BN = 16, stage = [0, 1]> ins(%[[A:in0]] = %[[A0]] : memref<128x256xf32>, %[[B:in1]] = %[[A1]] : memref<256x64xf32>) outs(%[[C:out0]] = %[[A2]] : memref<128x64xf32>) {
//       CHECK:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:     dtile.tile blocks(%[[MO:m_o]] : 8 "m_o", %[[NO:n_o]] : 4 "n_o") threads(%[[MI:m_i]] : 16 "m_i", %[[NI:n_i]] : 16 "n_i") {
//       CHECK:       %[[SUM:.*]] = dloop.for %[[KO:k_o]] = 0 to 8 reduce "k_o" iter(%[[ACC:acc]] = %[[ZERO]] : f32) {
//       CHECK:         %[[AS:.*]] = dtile.stage %[[A]][%[[MO]] * 16, %[[KO]] * 32] box [16, 32] : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:         %[[BS:.*]] = dtile.stage %[[B]][%[[KO]] * 32, %[[NO]] * 16] box [32, 16] : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:         %[[PART:.*]] = dloop.for %[[KI:k_i]] = 0 to 32 reduce "k_i" iter(%[[ACC2:acc_[0-9]+]] = %[[ACC]] : f32) unroll 4 {
//       CHECK:           %[[AV:.*]] = dloop.load %[[AS]][%[[MI]], %[[KI]]] : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:           %[[BV:.*]] = dloop.load %[[BS]][%[[KI]], %[[NI]]] : memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:           %[[PROD:.*]] = arith.mulf %[[AV]], %[[BV]] : f32
//       CHECK:           %[[NEXT:.*]] = arith.addf %[[ACC2]], %[[PROD]] : f32
//       CHECK:           dloop.yield %[[NEXT]] : f32
//       CHECK:         }
//       CHECK:         dloop.yield %[[PART]] : f32
//       CHECK:       }
//       CHECK:       dloop.store %[[SUM]], %[[C]][%[[MO]] * 16 + %[[MI]], %[[NO]] * 16 + %[[NI]]] : memref<128x64xf32>
func.func @matmul(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>, %arg2: memref<128x64xf32>) {
  dtile.kernel @matmul knobs<stage = [0, 1], BN = 16, BM = 16, BK = 32> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %arg2 : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %sum = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32) {
        %as = dtile.stage %a[%mo * 16, %ko * 32] box [16, 32] : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %bs = dtile.stage %b[%ko * 32, %no * 16] box [32, 16] : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 4 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %next = arith.addf %acc2, %prod : f32
          dloop.yield %next : f32
        }
        dloop.yield %part : f32
      }
      dloop.store %sum, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return
}

/// The same matmul, double-buffered with cp.async (async_copy,
/// double_buffer and pipeline knobs). The prologue issues chunk 0 into slot
/// 0. Each K step waits for every copy in flight (which also synchronises the
/// block, so nobody still reads the slot about to be refilled), issues chunk
/// k_o + 1 into the other slot, then computes on chunk k_o while that copy
/// travels. The current slabs are carried through the K loop. The scf.if
/// guard narrows k_o to [0, 6], which is what proves the next chunk's origin
/// inside A and B. The slot, an affine.apply with a mod, has no exact bound,
/// so the verifier leaves it alone (also once -canonicalize has rewritten the
/// mod, in the CLEANUP run).
// CHECK-LABEL: func.func @matmul_cp_async
//       CHECK:   dtile.kernel @matmul_cp_async knobs<BK = 32, BM = 16, BN = 16, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]> ins(%[[A:in0]] = %{{.*}} : memref<128x256xf32>, %[[B:in1]] = %{{.*}} : memref<256x64xf32>) outs(%[[C:out0]] = %{{.*}} : memref<128x64xf32>) {
//       CHECK:     %[[C0:.*]] = arith.constant 0 : index
//       CHECK:     %[[C7:.*]] = arith.constant 7 : index
//       CHECK:     dtile.tile blocks(%[[MO:m_o]] : 8 "m_o", %[[NO:n_o]] : 4 "n_o") threads(%[[MI:m_i]] : 16 "m_i", %[[NI:n_i]] : 16 "n_i") {
//       CHECK:       %[[A0:.*]] = dtile.stage %[[A]][%[[MO]] * 16, 0] box [16, 32] buffers 2 slot %[[C0]] transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:       %[[B0:.*]] = dtile.stage %[[B]][0, %[[NO]] * 16] box [32, 16] buffers 2 slot %[[C0]] transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:       %[[RES:.*]]:3 = dloop.for %[[KO:k_o]] = 0 to 8 reduce "k_o" iter(%[[ACC:acc]] = %{{.*}} : f32, %[[AS:acc_[0-9]+]] = %[[A0]] : memref<16x32xf32, #gpu.address_space<workgroup>>, %[[BS:acc_[0-9]+]] = %[[B0]] : memref<32x16xf32, #gpu.address_space<workgroup>>) {
//       CHECK:         dtile.async_wait keep 0
//       CHECK:         %[[MORE:.*]] = arith.cmpi ult, %[[KO]], %[[C7]] : index
//       CHECK:         %[[NEXT:.*]]:2 = scf.if %[[MORE]] -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
//       CHECK:           %[[SLOT:.*]] = affine.apply #{{.*}}(%[[KO]])
//       CHECK:           %[[AN:.*]] = dtile.stage %[[A]][%[[MO]] * 16, %[[KO]] * 32 + 32] box [16, 32] buffers 2 slot %[[SLOT]] transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:           %[[BN:.*]] = dtile.stage %[[B]][%[[KO]] * 32 + 32, %[[NO]] * 16] box [32, 16] buffers 2 slot %[[SLOT]] transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:           scf.yield %[[AN]], %[[BN]] : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:         } else {
//       CHECK:           scf.yield %[[AS]], %[[BS]] : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:         }
//       CHECK:         %[[PART:.*]] = dloop.for %[[KI:k_i]] = 0 to 32 reduce "k_i" iter(%{{.*}} = %[[ACC]] : f32) unroll 8 {
//       CHECK:           dloop.load %[[AS]][%[[MI]], %[[KI]]] : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:           dloop.load %[[BS]][%[[KI]], %[[NI]]] : memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:         }
//       CHECK:         dloop.yield %[[PART]], %[[NEXT]]#0, %[[NEXT]]#1 : f32, memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:       }
//       CHECK:       dloop.store %[[RES]]#0, %[[C]][%[[MO]] * 16 + %[[MI]], %[[NO]] * 16 + %[[NI]]] : memref<128x64xf32>
func.func @matmul_cp_async(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>, %arg2: memref<128x64xf32>) {
  dtile.kernel @matmul_cp_async knobs<BK = 32, BM = 16, BN = 16, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %arg2 : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 32] buffers 2 slot %c0 transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [32, 16] buffers 2 slot %c0 transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x32xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<32x16xf32, #gpu.address_space<workgroup>>) {
        dtile.async_wait keep 0
        %more = arith.cmpi ult, %ko, %c7 : index
        %next:2 = scf.if %more -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 32 + 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 32 + 32, %no * 16] box [32, 16] buffers 2 slot %slot transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
          scf.yield %an, %bn : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %as, %bs : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 8 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part, %next#0, %next#1 : f32, memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return
}

/// Every form of dtile.stage, and async waits that keep one or no stage in
/// flight. `transport sync` is the default and is not printed; the other
/// clauses print in a fixed order (zero_fill, pad, buffers/slot, transport,
/// swizzle) whatever order the options come in, with discardable attributes
/// last. A zero_fill box may be larger than its source.
// CHECK-LABEL: func.func @stage_forms
//       CHECK:   dtile.kernel @stage_forms ins(%[[X:in0]] = %{{.*}} : memref<64x128xf32>) outs(%{{.*}} = %{{.*}} : memref<64x128xf32>) {
//       CHECK:     %[[C1:.*]] = arith.constant 1 : index
//       CHECK:     dtile.tile blocks(%[[BLK:b]] : 2 "b") threads(%{{.*}} : 128 "t") {
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [32, 128] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [32, 128] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [32, 128] pad [0, 4] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 64] box [32, 64] buffers 3 slot %[[C1]] : memref<64x128xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [32, 128] transport cp_async : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 96] box [32, 32] transport tma swizzle 128 : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [32, 128] pad [0, 1] buffers 2 slot %[[C1]] transport cp_async {note = "all"} : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.stage %[[X]][%[[BLK]] * 32, 0] box [128, 128] zero_fill pad [0, 1] transport cp_async : memref<64x128xf32> -> memref<128x128xf32, #gpu.address_space<workgroup>>
//       CHECK:       dtile.async_wait keep 1
//       CHECK:       dtile.async_wait keep 0
func.func @stage_forms(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @stage_forms ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %s0 = dtile.stage %x[%b * 32, 0] box [32, 128] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s1 = dtile.stage %x[%b * 32, 0] box [32, 128] transport sync : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s2 = dtile.stage %x[%b * 32, 0] box [32, 128] pad [0, 4] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s3 = dtile.stage %x[%b * 32, 64] box [32, 64] buffers 3 slot %c1 : memref<64x128xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
      %s4 = dtile.stage %x[%b * 32, 0] box [32, 128] transport cp_async : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s5 = dtile.stage %x[%b * 32, 0] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      %s6 = dtile.stage %x[%b * 32, 96] box [32, 32] transport tma swizzle 128 : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      %s7 = dtile.stage %x[%b * 32, 0] box [32, 128] pad [0, 1] buffers 2 slot %c1 transport cp_async {note = "all"} : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s8 = dtile.stage %x[%b * 32, 0] box [128, 128] zero_fill pad [0, 1] transport cp_async : memref<64x128xf32> -> memref<128x128xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 1
      dtile.async_wait keep 0
    }
  }
  return
}

/// Block and thread axes each linearise with the last axis fastest: a
/// pointwise SiLU over 65536 elements as 256 blocks of 256 threads, the
/// element index rebuilt from the two coordinates inside the load and store
/// maps. The bounds check sees through floordiv and mod of tile coordinates.
// CHECK-LABEL: func.func @silu
//       CHECK:   dtile.kernel @silu knobs<block_threads = 256> ins(%[[X:in0]] = %{{.*}} : memref<1x32x2048xf32>) outs(%[[Y:out0]] = %{{.*}} : memref<1x32x2048xf32>) {
//       CHECK:     dtile.tile blocks(%[[BLK:b]] : 256 "b") threads(%[[T:t]] : 256 "t") {
//       CHECK:       %[[V:.*]] = dloop.load %[[X]][0, (%[[BLK]] * 256 + %[[T]]) floordiv 2048, (%[[BLK]] * 256 + %[[T]]) mod 2048] : memref<1x32x2048xf32>
//       CHECK:       %[[NEG:.*]] = arith.negf %[[V]] : f32
//       CHECK:       %[[E:.*]] = math.exp %[[NEG]] : f32
//       CHECK:       %[[D:.*]] = arith.addf %[[E]], %{{.*}} : f32
//       CHECK:       %[[S:.*]] = arith.divf %[[V]], %[[D]] : f32
//       CHECK:       dloop.store %[[S]], %[[Y]][0, (%[[BLK]] * 256 + %[[T]]) floordiv 2048, (%[[BLK]] * 256 + %[[T]]) mod 2048] : memref<1x32x2048xf32>
func.func @silu(%arg0: memref<1x32x2048xf32>, %arg1: memref<1x32x2048xf32>) {
  dtile.kernel @silu knobs<block_threads = 256> ins(%x = %arg0 : memref<1x32x2048xf32>) outs(%y = %arg1 : memref<1x32x2048xf32>) {
    %one = arith.constant 1.0 : f32
    dtile.tile blocks(%b : 256 "b") threads(%t : 256 "t") {
      %v = dloop.load %x[0, (%b * 256 + %t) floordiv 2048, (%b * 256 + %t) mod 2048] : memref<1x32x2048xf32>
      %neg = arith.negf %v : f32
      %e = math.exp %neg : f32
      %d = arith.addf %e, %one : f32
      %s = arith.divf %v, %d : f32
      dloop.store %s, %y[0, (%b * 256 + %t) floordiv 2048, (%b * 256 + %t) mod 2048] : memref<1x32x2048xf32>
    }
  }
  return
}

/// Two thread axes: 4 rows per block (ty) times 64 threads per row (tx). A
/// strided reduce loop carries two accumulators (sum and max) with an unroll
/// hint; dtile.combine over ["tx"] finishes each row, and a combine over
/// ["ty", "tx"] folds the whole block. Integer values combine too.
// CHECK-LABEL: func.func @row_stats
//       CHECK:   dtile.kernel @row_stats ins(%[[X:in0]] = %{{.*}} : memref<16x256xf32>) outs(%[[S:out0]] = %{{.*}} : memref<16xf32>, %[[M:out1]] = %{{.*}} : memref<16xf32>, %[[TOP:out2]] = %{{.*}} : memref<4xf32>, %[[CNT:out3]] = %{{.*}} : memref<4xi32>) {
//       CHECK:     dtile.tile blocks(%[[BLK:b]] : 4 "b") threads(%[[TY:ty]] : 4 "ty", %[[TX:tx]] : 64 "tx") {
//       CHECK:       %[[P:.*]]:2 = dtile.strided_for %[[K:k]] = %[[TX]] to 256 step 64 reduce "k" iter(%[[SUM:acc]] = %{{.*}} : f32, %[[MAX:acc_[0-9]+]] = %{{.*}} : f32) unroll 2 {
//       CHECK:         %[[V:.*]] = dloop.load %[[X]][%[[BLK]] * 4 + %[[TY]], %[[K]]] : memref<16x256xf32>
//       CHECK:         %[[S2:.*]] = arith.addf %[[SUM]], %[[V]] : f32
//       CHECK:         %[[M2:.*]] = arith.maximumf %[[MAX]], %[[V]] : f32
//       CHECK:         dtile.yield %[[S2]], %[[M2]] : f32, f32
//       CHECK:       }
//       CHECK:       %[[RS:.*]] = dtile.combine add %[[P]]#0 over ["tx"] : f32
//       CHECK:       %[[RM:.*]] = dtile.combine max %[[P]]#1 over ["tx"] : f32
//       CHECK:       %[[BM:.*]] = dtile.combine max %[[RM]] over ["ty", "tx"] : f32
//       CHECK:       %[[ONE:.*]] = arith.extui %{{.*}} : i1 to i32
//       CHECK:       %[[N:.*]] = dtile.combine add %[[ONE]] over ["ty", "tx"] : i32
//       CHECK:       scf.if %{{.*}} {
//       CHECK:         dloop.store %[[RS]], %[[S]][%[[BLK]] * 4 + %[[TY]]] : memref<16xf32>
//       CHECK:         dloop.store %[[RM]], %[[M]][%[[BLK]] * 4 + %[[TY]]] : memref<16xf32>
//       CHECK:         dloop.store %[[BM]], %[[TOP]][%[[BLK]]] : memref<4xf32>
//       CHECK:         dloop.store %[[N]], %[[CNT]][%[[BLK]]] : memref<4xi32>
func.func @row_stats(%arg0: memref<16x256xf32>, %arg1: memref<16xf32>, %arg2: memref<16xf32>, %arg3: memref<4xf32>, %arg4: memref<4xi32>) {
  dtile.kernel @row_stats ins(%x = %arg0 : memref<16x256xf32>) outs(%sums = %arg1 : memref<16xf32>, %maxes = %arg2 : memref<16xf32>, %top = %arg3 : memref<4xf32>, %count = %arg4 : memref<4xi32>) {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 4 "b") threads(%ty : 4 "ty", %tx : 64 "tx") {
      %p:2 = dtile.strided_for %k = %tx to 256 step 64 reduce "k" iter(%s = %zero : f32, %m = %ninf : f32) unroll 2 {
        %v = dloop.load %x[%b * 4 + %ty, %k] : memref<16x256xf32>
        %s2 = arith.addf %s, %v : f32
        %m2 = arith.maximumf %m, %v : f32
        dtile.yield %s2, %m2 : f32, f32
      }
      %rs = dtile.combine add %p#0 over ["tx"] : f32
      %rm = dtile.combine max %p#1 over ["tx"] : f32
      %bm = dtile.combine max %rm over ["ty", "tx"] : f32
      %pos = arith.cmpf ogt, %p#0, %zero : f32
      %one = arith.extui %pos : i1 to i32
      %n = dtile.combine add %one over ["ty", "tx"] : i32
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        dloop.store %rs, %sums[%b * 4 + %ty] : memref<16xf32>
        dloop.store %rm, %maxes[%b * 4 + %ty] : memref<16xf32>
        dloop.store %bm, %top[%b] : memref<4xf32>
        dloop.store %n, %count[%b] : memref<4xi32>
      }
    }
  }
  return
}

/// A tile with threads only (one block sums a whole vector) and a tile with
/// blocks only (one thread per block walks a row with a sequential dloop.for).
/// The first kernel's reduce loop carries nothing and folds through a
/// reducing store; an empty knobs<> prints as no knobs; discardable
/// attributes go after `attributes` on kernels and tiles and after the body
/// of a strided loop.
// CHECK-LABEL: func.func @one_sided_tiles
//       CHECK:   dtile.kernel @vector_sum ins(%[[X:in0]] = %{{.*}} : memref<1000xf32>) outs(%[[S:out0]] = %{{.*}} : memref<1xf32>) attributes {note = "one block"} {
//       CHECK:     dtile.tile threads(%[[T:t]] : 128 "t") {
//       CHECK:       dtile.strided_for %[[K:k]] = %[[T]] to 1000 step 128 reduce "k" {
//       CHECK:         %[[V:.*]] = dloop.load %[[X]][%[[K]]] : memref<1000xf32>
//       CHECK:         dloop.store add %[[V]], %[[S]][0] : memref<1xf32>
//       CHECK:       } {note = "strided"}
//       CHECK:   dtile.kernel @row_copy ins(%[[X2:in0]] = %{{.*}} : memref<8x16xf32>) outs(%[[Y2:out0]] = %{{.*}} : memref<8x16xf32>) {
//       CHECK:     dtile.tile blocks(%[[R:r]] : 8 "r") attributes {note = "rows"} {
//       CHECK:       dloop.for %[[C:c]] = 0 to 16 free "c" {
//       CHECK:         %[[V2:.*]] = dloop.load %[[X2]][%[[R]], %[[C]]] : memref<8x16xf32>
//       CHECK:         dloop.store %[[V2]], %[[Y2]][%[[R]], %[[C]]] : memref<8x16xf32>
func.func @one_sided_tiles(%arg0: memref<1000xf32>, %arg1: memref<1xf32>, %arg2: memref<8x16xf32>, %arg3: memref<8x16xf32>) {
  dtile.kernel @vector_sum ins(%x = %arg0 : memref<1000xf32>) outs(%s = %arg1 : memref<1xf32>) attributes {note = "one block"} {
    dtile.tile threads(%t : 128 "t") {
      dtile.strided_for %k = %t to 1000 step 128 reduce "k" {
        %v = dloop.load %x[%k] : memref<1000xf32>
        dloop.store add %v, %s[0] : memref<1xf32>
      } {note = "strided"}
    }
  }
  dtile.kernel @row_copy knobs<> ins(%x = %arg2 : memref<8x16xf32>) outs(%y = %arg3 : memref<8x16xf32>) {
    dtile.tile blocks(%r : 8 "r") attributes {note = "rows"} {
      dloop.for %c = 0 to 16 free "c" {
        %v = dloop.load %x[%r, %c] : memref<8x16xf32>
        dloop.store %v, %y[%r, %c] : memref<8x16xf32>
      }
    }
  }
  return
}

/// #dtile.knobs is an ordinary attribute too: here a discardable one on a
/// function (as a tuner record or a `knobs=` option might carry it), with
/// entries sorted by name and an empty list; an empty knobs attribute prints
/// as <>.
// CHECK-LABEL: func.func @knobs_attribute
//  CHECK-SAME:   attributes {dtile.knobs = #dtile.knobs<BK = 64, FM = 4, permute = false, split_k = 1, stage = [], tma = true>, empty = #dtile.knobs<>}
func.func @knobs_attribute() attributes {dtile.knobs = #dtile.knobs<tma = true, stage = [], split_k = 1, permute = false, FM = 4, BK = 64>, empty = #dtile.knobs<>} {
  return
}

/// Cleanups leave dtile.combine where it is: it is a block-wide exchange, so
/// control-flow sinking must not move it into a branch only thread 0 takes,
/// and LICM must not hoist it out of a loop, even though its operand is
/// invariant there; CSE must not merge two of them.
// CLEANUP-LABEL: func.func @combine_stays
//       CLEANUP:   dtile.tile blocks(%[[R:.*]] : 4 "r") threads(%[[T:.*]] : 64 "t") {
//       CLEANUP:     %[[V:.*]] = dloop.load
//       CLEANUP:     %[[S:.*]] = dtile.combine add %[[V]] over ["t"] : f32
//       CLEANUP:     %[[S2:.*]] = dtile.combine add %[[V]] over ["t"] : f32
//       CLEANUP:     dloop.for
//       CLEANUP:       dtile.combine max %[[V]] over ["t"] : f32
//       CLEANUP:     scf.if
//       CLEANUP:       arith.addf %[[S]], %[[S2]] : f32
func.func @combine_stays(%arg0: memref<4x64xf32>, %arg1: memref<4xf32>, %arg2: memref<4x8xf32>) {
  dtile.kernel @combine_stays ins(%x = %arg0 : memref<4x64xf32>) outs(%y = %arg1 : memref<4xf32>, %z = %arg2 : memref<4x8xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%r : 4 "r") threads(%t : 64 "t") {
      %v = dloop.load %x[%r, %t] : memref<4x64xf32>
      %s = dtile.combine add %v over ["t"] : f32
      %s2 = dtile.combine add %v over ["t"] : f32
      dloop.for %i = 0 to 8 free "i" {
        %m = dtile.combine max %v over ["t"] : f32
        dloop.store %m, %z[%r, %i] : memref<4x8xf32>
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %both = arith.addf %s, %s2 : f32
        dloop.store %both, %y[%r] : memref<4xf32>
      }
    }
  }
  return
}

/// Split-K: blocks along "k_s" each add a quarter of K into an output that
/// zero_init zeroes before the kernel runs.
// CHECK-LABEL: func.func @split_k
//       CHECK:   dtile.kernel @split_k knobs<split_k = 4> zero_init [0] ins(
//       CHECK:     dtile.tile blocks(%{{.*}} : 4 "k_s", %{{.*}} : 8 "m") {
//       CHECK:       dloop.store add
func.func @split_k(%arg0: memref<8x64xf32>, %arg1: memref<8xf32>) {
  dtile.kernel @split_k knobs<split_k = 4> zero_init [0] ins(%x = %arg0 : memref<8x64xf32>) outs(%y = %arg1 : memref<8xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%s : 4 "k_s", %m : 8 "m") {
      %sum = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%m, %s * 16 + %k] : memref<8x64xf32>
        %a = arith.addf %acc, %v : f32
        dloop.yield %a : f32
      }
      dloop.store add %sum, %y[%m] : memref<8xf32>
    }
  }
  return
}

/// transpose_a: A's [16, 32] box held as a [32, 16] slab, its rows padded
/// by a float4, copied 4 bytes at a time; read at [k, m].
// CHECK-LABEL: func.func @transposed_stage
//       CHECK:   dtile.stage %{{.*}}[%{{.*}} * 16, %{{.*}} * 32] box [16, 32] transpose pad [0, 4] transport cp_async : memref<64x128xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   dloop.load %{{.*}}[%{{.*}}, %{{.*}} * 4] : memref<32x16xf32, #gpu.address_space<workgroup>>
func.func @transposed_stage(%arg0: memref<64x128xf32>, %arg1: memref<64x8xf32>) {
  dtile.kernel @transposed_stage ins(%a = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x8xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 4 "mo") threads(%mi : 4 "mi", %ni : 8 "ni") {
      %sum = dloop.for %ko = 0 to 4 reduce "ko" iter(%acc = %zero : f32) {
        %as = dtile.stage %a[%mo * 16, %ko * 32] box [16, 32] transpose pad [0, 4] transport cp_async : memref<64x128xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "ki" iter(%acc_0 = %acc : f32) {
          %v = dloop.load %as[%ki, %mi * 4] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %acc_0, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %sum, %y[%mo * 16 + %mi * 4, %ni] : memref<64x8xf32>
    }
  }
  return
}

/// A computed stage: the slab holds silu(gate) * up for the box, the apply
/// region run on the gate element and the up element at each index; the
/// reads of the slab see the product (a matmul prologue, stage_inputs).
// CHECK-LABEL: func.func @computed_stage
//       CHECK:   %[[GS:.*]] = dtile.stage %[[G:in0]][%[[MO:m_o]] * 16, %[[KO:k_o]] * 32] box [16, 32] : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>> apply(%[[U:in1]] : memref<128x256xf32>) {
//  CHECK-NEXT:   ^bb0(%[[GV:.*]]: f32, %[[UV:.*]]: f32):
//  CHECK-NEXT:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[NEG:.*]] = arith.negf %[[GV]] : f32
//  CHECK-NEXT:     %[[E:.*]] = math.exp %[[NEG]] : f32
//  CHECK-NEXT:     %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
//  CHECK-NEXT:     %[[S:.*]] = arith.divf %[[GV]], %[[D]] : f32
//  CHECK-NEXT:     %[[P:.*]] = arith.mulf %[[S]], %[[UV]] : f32
//  CHECK-NEXT:     dtile.yield %[[P]] : f32
//  CHECK-NEXT:   }
//       CHECK:   dloop.load %[[GS]][%{{.*}}, %{{.*}}] : memref<16x32xf32, #gpu.address_space<workgroup>>
func.func @computed_stage(%arg0: memref<128x256xf32>, %arg1: memref<128x256xf32>, %arg2: memref<256x64xf32>, %arg3: memref<128x64xf32>) {
  dtile.kernel @computed_stage ins(%g = %arg0 : memref<128x256xf32>, %u = %arg1 : memref<128x256xf32>, %b = %arg2 : memref<256x64xf32>) outs(%c = %arg3 : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %sum = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32) {
        %gs = dtile.stage %g[%mo * 16, %ko * 32] box [16, 32] : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>> apply(%u : memref<128x256xf32>) {
        ^bb0(%gv: f32, %uv: f32):
          %one = arith.constant 1.0 : f32
          %neg = arith.negf %gv : f32
          %e = math.exp %neg : f32
          %d = arith.addf %e, %one : f32
          %s = arith.divf %gv, %d : f32
          %p = arith.mulf %s, %uv : f32
          dtile.yield %p : f32
        }
        %bs = dtile.stage %b[%ko * 32, %no * 16] box [32, 16] : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) {
          %av = dloop.load %gs[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %next = arith.addf %acc2, %prod : f32
          dloop.yield %next : f32
        }
        dloop.yield %part : f32
      }
      dloop.store %sum, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return
}
