// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90 %t.cu %}
// RUN: deplodock-run --interp %s --compare=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %s --func=run_column --compare=convert-dtile-to-dkernel --print=none | FileCheck %s --check-prefix=NUM

/// matmul-tma.mlir's pipelined matmul with swizzled slabs. A's rows span
/// 64 f32 = 256 bytes: a 128-byte swizzle splits them into two segments,
/// each a 16x32 box of its own (the descriptor's box), copied by two
/// tma_loads at columns +0 and +32 that complete on the slot's one
/// mbarrier (its transaction counts both). B's 16-column rows take a
/// 64-byte swizzle whole. Swizzled slabs are flat arrays aligned to the
/// pattern's repeat (1024 bytes for 128, 512 for 64), and so are their
/// slots and segments.
// CHECK-LABEL: dkernel.func @matmul_swizzled
//  CHECK-SAME:   %[[DA:[^:]*]]: !dkernel.tma_descriptor<16x32xf32, swizzle = 128>, %[[DB:[^:]*]]: !dkernel.tma_descriptor<64x16xf32, swizzle = 64>)
//       CHECK:   %[[AFLAT:.*]] = dkernel.alloc_shared offset 0 : memref<2048xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A00:.*]] = dkernel.alloc_shared offset 0 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A01:.*]] = dkernel.alloc_shared offset 2048 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 4096 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 6144 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BFLAT:.*]] = dkernel.alloc_shared offset 8192 : memref<2048xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 8192 : memref<64x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 12288 : memref<64x16xf32, #gpu.address_space<workgroup>>
/// The prologue fills slot 0: 4096 bytes expected, two boxes.
//       CHECK:   dkernel.mbarrier_arrive_expect_tx %[[MB:.*]][%[[C0:.*]]], 4096
//  CHECK-NEXT:   dkernel.tma_load %[[DA]][%{{.*}}, %[[C0]]] -> %[[A00]], %[[MB]][%[[C0]]]
//  CHECK-NEXT:   dkernel.tma_load %[[DA]][%{{.*}}, %[[C32:.*]]] -> %[[A01]], %[[MB]][%[[C0]]]
//       CHECK:   dkernel.mbarrier_arrive_expect_tx %{{.*}}, 4096
//  CHECK-NEXT:   dkernel.tma_load %[[DB]]
//  CHECK-NEXT:   }
/// A read of A: the dense offset in the segmented slot (segment, row,
/// column), then the 16-byte chunk XOR the 128-byte line modulo 8, read
/// from the flat view.
//       CHECK:   scf.for %[[K:[^ ]*]] = %{{.*}} to %[[C64:[^ ]*]] step %{{[^ ]*}} iter_args(%{{[^)]*}}) -> (f32) {
//  CHECK-NEXT:     %[[SEG:.*]] = arith.divui %[[K]], %[[C32]]
//  CHECK-NEXT:     arith.muli %[[SEG]], %{{.*}}
//       CHECK:     arith.remui %[[K]], %[[C32]]
//       CHECK:     %[[LINE:.*]] = arith.divui %[[DENSE:.*]], %[[C32]]
//  CHECK-NEXT:     %[[MOD:.*]] = arith.remui %[[LINE]], %[[C8:.*]] :
//  CHECK-NEXT:     %[[CHUNK:.*]] = arith.muli %[[MOD]], %[[C4:.*]] :
//  CHECK-NEXT:     %[[AT:.*]] = arith.xori %[[DENSE]], %[[CHUNK]] : index
//  CHECK-NEXT:     memref.load %[[AFLAT]][%[[AT]]]
/// B's 64-byte swizzle takes the line modulo 4.
//       CHECK:     %[[BLINE:.*]] = arith.divui %{{.*}}, %[[C32]]
//  CHECK-NEXT:     arith.remui %[[BLINE]], %[[C4]] :
//  CHECK-NEXT:     arith.muli
//  CHECK-NEXT:     arith.xori
//  CHECK-NEXT:     memref.load %[[BFLAT]]

// CHECK-LABEL: dkernel.func @column
//  CHECK-SAME:   !dkernel.tma_descriptor<32x32xf32, swizzle = 128>

/// The dynamic shared memory is declared aligned to the widest repeat, and
/// a pool that is not (the reads' XOR would pick wrong elements) traps.
// CUDA: extern __shared__ __align__(1024) unsigned char smem[];
// CUDA-NEXT: if ((unsigned)__cvta_generic_to_shared(smem) % 1024 != 0) __trap();
// CUDA: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CUDA: ^

/// The Kernel IR agrees with the Tile IR on the SIMT interpreter, whose
/// tma_load writes the hardware's swizzled layout: a read that missed the
/// XOR would fetch another element.
// NUM-NOT: FAIL
// NUM: PASS

func.func @run_matmul_swizzled(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %arg2 = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul_swizzled ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %arg2 : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 64] buffers 2 slot %c0 transport tma swizzle 128 : memref<128x256xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [64, 16] buffers 2 slot %c0 transport tma swizzle 64 : memref<256x64xf32> -> memref<64x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x64xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<64x16xf32, #gpu.address_space<workgroup>>) {
        dtile.async_wait keep 0
        %more = arith.cmpi ult, %ko, %c3 : index
        %next:2 = scf.if %more -> (memref<16x64xf32, #gpu.address_space<workgroup>>, memref<64x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 64 + 64] box [16, 64] buffers 2 slot %slot transport tma swizzle 128 : memref<128x256xf32> -> memref<16x64xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 64 + 64, %no * 16] box [64, 16] buffers 2 slot %slot transport tma swizzle 64 : memref<256x64xf32> -> memref<64x16xf32, #gpu.address_space<workgroup>>
          scf.yield %an, %bn : memref<16x64xf32, #gpu.address_space<workgroup>>, memref<64x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %as, %bs : memref<16x64xf32, #gpu.address_space<workgroup>>, memref<64x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 64 reduce "k_i" iter(%acc2 = %acc : f32) unroll 8 {
          %av = dloop.load %as[%mi, %ki] : memref<16x64xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<64x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part, %next#0, %next#1 : f32, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<64x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return %arg2 : memref<128x64xf32>
}

/// Threads reading down a column of one slab (the case the swizzle is
/// for), no slot: the single flat view, refilled every chunk.
func.func @run_column(%arg0: memref<64x128xf32>) -> memref<64xf32> {
  %arg1 = memref.alloc() : memref<64xf32>
  dtile.kernel @column ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 2 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%b * 32, %ko * 32] box [32, 32] transport tma swizzle 128 : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<32x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%b * 32 + %t] : memref<64xf32>
    }
  }
  return %arg1 : memref<64xf32>
}
