// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// RMSNorm as cooperative_reduce leaves it (test/Dialect/DTile/ops.mlir):
/// rows on blocks, 256 threads per row. The strided loops become scf.for
/// from the thread id in steps of 256. The combine over the whole block is a
/// warp reduction, the 8 warp partials in shared memory, a barrier, the
/// first warp folding the partials (width 8) into a result slot, a barrier,
/// and every thread reading the slot. The two slices sit at 16-byte aligned
/// offsets: 8 partials at 0, the result at 32, 36 bytes in all.
// CHECK-LABEL: dkernel.func @rmsnorm
//  CHECK-SAME:   (%[[X:.*]]: memref<1x32x2048xf32>, %[[W:.*]]: memref<2048xf32>, %[[Y:.*]]: memref<1x32x2048xf32>)
//  CHECK-SAME:   outputs [2] grid [32, 1, 1] block [256, 1, 1] smem 36
//       CHECK:   %[[PART:.*]] = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[RES:.*]] = dkernel.alloc_shared offset 32 : memref<1xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
//   CHECK-DAG:   %[[C2048:.*]] = arith.constant 2048 : index
//       CHECK:   %[[ROW:.*]] = gpu.block_id x
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[P:.*]] = scf.for %[[K:.*]] = %[[T]] to %[[C2048]] step %[[C256]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
//       CHECK:     %[[V:.*]] = memref.load %[[X]][%[[C0]], %[[ROW]], %[[K]]] : memref<1x32x2048xf32>
//       CHECK:     %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
//       CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
//       CHECK:     scf.yield %[[NEXT]] : f32
//       CHECK:   }
//       CHECK:   %[[LANE:.*]] = arith.remui %[[T]], %[[C32]] : index
//       CHECK:   %[[WARP:.*]] = arith.divui %[[T]], %[[C32]] : index
//       CHECK:   %[[WSUM:.*]] = dkernel.warp_reduce add %[[P]] width 32 : f32
//       CHECK:   %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]] : index
//       CHECK:   scf.if %[[LANE0]] {
//       CHECK:     memref.store %[[WSUM]], %[[PART]][%[[WARP]]] : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   }
//       CHECK:   gpu.barrier
//       CHECK:   %[[WARP0:.*]] = arith.cmpi eq, %[[WARP]], %[[C0]] : index
//       CHECK:   scf.if %[[WARP0]] {
//       CHECK:     %[[SLOT:.*]] = arith.remui %[[LANE]], %{{.*}} : index
//       CHECK:     %[[Q:.*]] = memref.load %[[PART]][%[[SLOT]]] : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:     %[[TOTAL:.*]] = dkernel.warp_reduce add %[[Q]] width 8 : f32
//       CHECK:     scf.if %[[LANE0]] {
//       CHECK:       memref.store %[[TOTAL]], %[[RES]][%[[C0]]] : memref<1xf32, #gpu.address_space<workgroup>>
//       CHECK:     }
//       CHECK:   }
//       CHECK:   gpu.barrier
//       CHECK:   %[[SS:.*]] = memref.load %[[RES]][%[[C0]]] : memref<1xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[MEAN:.*]] = arith.divf %[[SS]], %{{.*}} : f32
//       CHECK:   %[[ME:.*]] = arith.addf %[[MEAN]], %{{.*}} : f32
//       CHECK:   %[[INV:.*]] = math.rsqrt %[[ME]] : f32
//       CHECK:   scf.for %[[C:.*]] = %[[T]] to %[[C2048]] step %[[C256]] {
//       CHECK:     %[[XV:.*]] = memref.load %[[X]][%[[C0]], %[[ROW]], %[[C]]] : memref<1x32x2048xf32>
//       CHECK:     %[[G:.*]] = memref.load %[[W]][%[[C]]] : memref<2048xf32>
//       CHECK:     %[[XI:.*]] = arith.mulf %[[XV]], %[[INV]] : f32
//       CHECK:     %[[O:.*]] = arith.mulf %[[XI]], %[[G]] : f32
//       CHECK:     memref.store %[[O]], %[[Y]][%[[C0]], %[[ROW]], %[[C]]] : memref<1x32x2048xf32>
//       CHECK:   }
//       CHECK:   dkernel.return
//       CHECK: func.func @run_rmsnorm(%[[A0:.*]]: memref<1x32x2048xf32>, %[[A1:.*]]: memref<2048xf32>, %[[A2:.*]]: memref<1x32x2048xf32>)
//  CHECK-NEXT:   dkernel.launch @rmsnorm(%[[A0]], %[[A1]], %[[A2]])

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: rmsnorm(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//  CUDA-NEXT:   extern __shared__ __align__(128) unsigned char smem[];
//  CUDA-NEXT:   float* const smem0 = reinterpret_cast<float*>(smem + 0);
//  CUDA-NEXT:   float* const smem1 = reinterpret_cast<float*>(smem + 32);
//       CUDA:   for (int i0 = [[T:v[0-9]+]]; i0 < 2048; i0 += 256) {
//       CUDA:   __shfl_xor_sync(0xffffffffu, red0, off, 32);
//       CUDA:   __syncthreads();
//       CUDA:   __shfl_xor_sync(0xffffffffu, red1, off, 8);
//       CUDA:   __syncthreads();
//       CUDA:   const float {{v[0-9]+}} = smem1[0];
//       CUDA:   rsqrtf(
func.func @run_rmsnorm(%arg0: memref<1x32x2048xf32>, %arg1: memref<2048xf32>, %arg2: memref<1x32x2048xf32>) {
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

/// Two thread axes, 4 rows (ty) of 64 threads (tx). A combine over ["tx"]
/// folds groups of 64 consecutive threads: each warp reduces, the 8 warp
/// partials go to shared memory, and the first warp folds pairs (width 2)
/// into 4 row results, each thread then reading the one of its row
/// (tid / 64). A combine over ["ty", "tx"] is the whole block; an i32
/// combine takes the same path. Every combine has its own slices, so no
/// combine waits for the readers of another.
// CHECK-LABEL: dkernel.func @row_stats
//  CHECK-SAME:   outputs [1, 2, 3, 4] grid [4, 1, 1] block [256, 1, 1] smem 180
//       CHECK:   %[[P0:.*]] = dkernel.alloc_shared offset 0 : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[R0:.*]] = dkernel.alloc_shared offset 32 : memref<4xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 48 : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 80 : memref<4xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 96 : memref<8xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 128 : memref<1xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 144 : memref<8xi32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.alloc_shared offset 176 : memref<1xi32, #gpu.address_space<workgroup>>
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[TX:.*]] = arith.remui %[[T]], %[[C64:.*]] : index
//       CHECK:   %[[TY:.*]] = arith.divui %[[T]], %[[C64]] : index
//       CHECK:   %[[P:.*]]:2 = scf.for %{{.*}} = %[[TX]] to %{{.*}} step %[[C64]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
//       CHECK:   } {dkernel.unroll = 2 : i64}
//       CHECK:   %[[LANE:.*]] = arith.remui %[[T]], %{{.*}} : index
//       CHECK:   %[[WARP:.*]] = arith.divui %[[T]], %{{.*}} : index
//       CHECK:   %[[WS:.*]] = dkernel.warp_reduce add %[[P]]#0 width 32 : f32
//       CHECK:   memref.store %[[WS]], %[[P0]][%[[WARP]]]
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     %[[J:.*]] = arith.remui %[[LANE]], %{{.*}} : index
//       CHECK:     %[[G:.*]] = arith.divui %[[LANE]], %{{.*}} : index
//       CHECK:     %[[Q:.*]] = memref.load %[[P0]][%{{.*}}]
//       CHECK:     %[[RS:.*]] = dkernel.warp_reduce add %[[Q]] width 2 : f32
//       CHECK:     memref.store %[[RS]], %[[R0]][%[[G]]]
//       CHECK:   gpu.barrier
//       CHECK:   memref.load %[[R0]][%[[TY]]] : memref<4xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.warp_reduce max %[[P]]#1 width 32 : f32
//       CHECK:   dkernel.warp_reduce max %{{.*}} width 2 : f32
//       CHECK:   dkernel.warp_reduce max %{{.*}} width 32 : f32
//       CHECK:   dkernel.warp_reduce max %{{.*}} width 8 : f32
//       CHECK:   dkernel.warp_reduce add %{{.*}} width 32 : i32
//       CHECK:   dkernel.warp_reduce add %{{.*}} width 8 : i32
//       CHECK:   scf.if
//       CHECK:     memref.store
//       CHECK:     memref.store
//       CHECK:     memref.store
//       CHECK:     memref.store
//       CHECK:   dkernel.return

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: row_stats(const float* __restrict__ in0, float* __restrict__ out0, float* __restrict__ out1, float* __restrict__ out2, int* __restrict__ out3) {
//       CUDA:   #pragma unroll 2
func.func @run_row_stats(%arg0: memref<16x256xf32>, %arg1: memref<16xf32>, %arg2: memref<16xf32>, %arg3: memref<4xf32>, %arg4: memref<4xi32>) {
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
