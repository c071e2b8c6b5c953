// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// The staged matmul of test/Dialect/DTile/ops.mlir: per K chunk the block
/// copies a 16x32 slab of A and a 32x16 slab of B into shared memory. Each
/// slab has its own slice (2048 bytes each, 4096 in all). The two sync stages
/// share their barriers: one before both copies (the previous chunk's
/// readers must be done) and one after both. Each copy is a loop in which
/// thread t copies elements t, t + 256, ... of the box, decoded row-major;
/// the slab is then read in place of the stage result.
// CHECK-LABEL: dkernel.func @matmul
//  CHECK-SAME:   (%[[A:.*]]: memref<128x256xf32>, %[[B:.*]]: memref<256x64xf32>, %[[C:.*]]: memref<128x64xf32>)
//  CHECK-SAME:   outputs [2] grid [4, 8, 1] block [256, 1, 1] smem 4096
//       CHECK:   %[[AS:.*]] = dkernel.alloc_shared offset 0 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BS:.*]] = dkernel.alloc_shared offset 2048 : memref<32x16xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
//   CHECK-DAG:   %[[C512:.*]] = arith.constant 512 : index
//       CHECK:   %[[MO:.*]] = gpu.block_id y
//       CHECK:   %[[NO:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[NI:.*]] = arith.remui %[[T]], %[[C16]] : index
//       CHECK:   %[[MI:.*]] = arith.divui %[[T]], %[[C16]] : index
//       CHECK:   %[[SUM:.*]] = scf.for %[[KO:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
//       CHECK:     %[[AROW:.*]] = arith.muli %[[MO]], %[[C16]] : index
//       CHECK:     %[[ACOL:.*]] = arith.muli %[[KO]], %[[C32]] : index
//       CHECK:     gpu.barrier
//       CHECK:     scf.for %[[E:.*]] = %[[T]] to %[[C512]] step %[[C256]] {
//       CHECK:       %[[EC:.*]] = arith.remui %[[E]], %[[C32]] : index
//       CHECK:       %[[ER:.*]] = arith.divui %[[E]], %[[C32]] : index
//       CHECK:       %[[SR:.*]] = arith.addi %[[AROW]], %[[ER]] : index
//       CHECK:       %[[SC:.*]] = arith.addi %[[ACOL]], %[[EC]] : index
//       CHECK:       %[[V:.*]] = memref.load %[[A]][%[[SR]], %[[SC]]] : memref<128x256xf32>
//       CHECK:       memref.store %[[V]], %[[AS]][%[[ER]], %[[EC]]] : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:     }
//   CHECK-NOT:     gpu.barrier
//       CHECK:     scf.for %{{.*}} = %[[T]] to %[[C512]] step %[[C256]] {
//       CHECK:       memref.load %[[B]]
//       CHECK:       memref.store %{{.*}}, %[[BS]]
//       CHECK:     }
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     %[[PART:.*]] = scf.for %[[KI:[^ ]+]] = %{{.*}} to %[[C32]] step %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (f32) {
//       CHECK:       %[[AV:.*]] = memref.load %[[AS]][%[[MI]], %[[KI]]] : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:       %[[BV:.*]] = memref.load %[[BS]][%[[KI]], %[[NI]]] : memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:       %[[PROD:.*]] = arith.mulf %[[AV]], %[[BV]] : f32
//       CHECK:       %[[NEXT:.*]] = arith.addf %[[ACC2]], %[[PROD]] : f32
//       CHECK:       scf.yield %[[NEXT]] : f32
//       CHECK:     } {dkernel.unroll = 4 : i64}
//       CHECK:     scf.yield %[[PART]] : f32
//       CHECK:   }
//       CHECK:   memref.store %[[SUM]], %[[C]][%{{.*}}, %{{.*}}] : memref<128x64xf32>
//       CHECK:   dkernel.return

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: matmul(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//  CUDA-NEXT:   extern __shared__ __align__(128) unsigned char smem[];
//  CUDA-NEXT:   float* const smem0 = reinterpret_cast<float*>(smem + 0);
//  CUDA-NEXT:   float* const smem1 = reinterpret_cast<float*>(smem + 2048);
//       CUDA:   __syncthreads();
//       CUDA:   smem0[{{.*}}] = {{v[0-9]+}};
//       CUDA:   smem1[{{.*}}] = {{v[0-9]+}};
//       CUDA:   __syncthreads();
//       CUDA:   #pragma unroll 4
func.func @run_matmul(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>, %arg2: memref<128x64xf32>) {
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

/// Padded, rotating sync stages with BK = 16, plus a staged bias. Padding
/// widens the slab rows (16x17 and 16x20 instead of 16x16) and keeps the
/// indices; `buffers 2` puts both slots in one slice indexed by the slot.
/// Slices: A 2x16x17xf32 (2176 bytes) at 0, B 2x16x20xf32 (2560 bytes) at
/// 2176, the bias 16xf32 at 4736; 4800 bytes in all. A 16x16 box has one
/// element per thread, so its copy needs no loop; the 16-element bias only
/// some threads copy. The slots rotate, so no barrier comes before a chunk's
/// copies: the slot they fill was last read two chunks back, before the
/// barrier that ended the previous chunk's copies. The bias stage follows
/// the K loop, whose threads still read the slabs, so a barrier comes first.
// CHECK-LABEL: dkernel.func @matmul_padded
//  CHECK-SAME:   (%[[A:.*]]: memref<64x64xf32>, %[[B:.*]]: memref<64x64xf32>, %[[BIAS:.*]]: memref<64xf32>, %[[C:.*]]: memref<64x64xf32>)
//  CHECK-SAME:   outputs [3] grid [4, 4, 1] block [256, 1, 1] smem 4800
//       CHECK:   %[[AS:.*]] = dkernel.alloc_shared offset 0 : memref<2x16x17xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BS:.*]] = dkernel.alloc_shared offset 2176 : memref<2x16x20xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BIASS:.*]] = dkernel.alloc_shared offset 4736 : memref<16xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[NI:.*]] = arith.remui %[[T]], %{{.*}} : index
//       CHECK:   %[[MI:.*]] = arith.divui %[[T]], %{{.*}} : index
//       CHECK:   scf.for %[[KO:[^ ]+]] = {{.*}} iter_args
//       CHECK:     %[[SLOT:.*]] = arith.remui %[[KO]], %{{.*}} : index
//   CHECK-NOT:     gpu.barrier
//   CHECK-NOT:     scf.for
//       CHECK:     %[[AV:.*]] = memref.load %[[A]]
//       CHECK:     memref.store %[[AV]], %[[AS]][%[[SLOT]], %[[MI]], %[[NI]]] : memref<2x16x17xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:     gpu.barrier
//       CHECK:     %[[BV:.*]] = memref.load %[[B]]
//       CHECK:     memref.store %[[BV]], %[[BS]][%[[SLOT]], %[[MI]], %[[NI]]] : memref<2x16x20xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     scf.for %[[KI:[^ ]+]] =
//       CHECK:       memref.load %[[AS]][%[[SLOT]], %[[MI]], %[[KI]]] : memref<2x16x17xf32, #gpu.address_space<workgroup>>
//       CHECK:       memref.load %[[BS]][%[[SLOT]], %[[KI]], %[[NI]]] : memref<2x16x20xf32, #gpu.address_space<workgroup>>
//       CHECK:   }
//       CHECK:   gpu.barrier
//       CHECK:   %[[FEW:.*]] = arith.cmpi ult, %[[T]], %{{.*}} : index
//       CHECK:   scf.if %[[FEW]] {
//       CHECK:     %[[BV:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<64xf32>
//       CHECK:     memref.store %[[BV]], %[[BIASS]][%[[T]]] : memref<16xf32, #gpu.address_space<workgroup>>
//       CHECK:   }
//       CHECK:   gpu.barrier
//       CHECK:   memref.load %[[BIASS]][%[[NI]]] : memref<16xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.return

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: matmul_padded(const float* __restrict__ in0, const float* __restrict__ in1, const float* __restrict__ in2, float* __restrict__ out0) {
//  CUDA-NEXT:   extern __shared__ __align__(128) unsigned char smem[];
//  CUDA-NEXT:   float* const smem0 = reinterpret_cast<float*>(smem + 0);
//  CUDA-NEXT:   float* const smem1 = reinterpret_cast<float*>(smem + 2176);
//  CUDA-NEXT:   float* const smem2 = reinterpret_cast<float*>(smem + 4736);
func.func @run_matmul_padded(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64xf32>, %arg3: memref<64x64xf32>) {
  dtile.kernel @matmul_padded knobs<BK = 16, BM = 16, BN = 16, double_buffer = true, stage = [0, 1]> ins(%a = %arg0 : memref<64x64xf32>, %b = %arg1 : memref<64x64xf32>, %bias = %arg2 : memref<64xf32>) outs(%c = %arg3 : memref<64x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 4 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %sum = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %as = dtile.stage %a[%mo * 16, %ko * 16] box [16, 16] pad [0, 1] buffers 2 slot %slot : memref<64x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
        %bs = dtile.stage %b[%ko * 16, %no * 16] box [16, 16] pad [0, 4] buffers 2 slot %slot : memref<64x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
        %part = dloop.for %ki = 0 to 16 reduce "k_i" iter(%acc2 = %acc : f32) {
          %av = dloop.load %as[%mi, %ki] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %next = arith.addf %acc2, %prod : f32
          dloop.yield %next : f32
        }
        dloop.yield %part : f32
      }
      %bias_s = dtile.stage %bias[%no * 16] box [16] : memref<64xf32> -> memref<16xf32, #gpu.address_space<workgroup>>
      %bv = dloop.load %bias_s[%ni] : memref<16xf32, #gpu.address_space<workgroup>>
      %out = arith.addf %sum, %bv : f32
      dloop.store %out, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<64x64xf32>
    }
  }
  return
}
