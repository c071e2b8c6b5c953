// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// A pointwise add with two block axes and two thread axes. The last block
/// axis goes to x and the first to y; the 8x64 threads form a 1-D block of
/// 512 whose linear id splits into (ty, tx) = (tid / 64, tid mod 64), tx
/// fastest. The maps expand into index arithmetic on those coordinates.
// CHECK-LABEL: dkernel.func @add_2d
//  CHECK-SAME:   (%[[A:.*]]: memref<64x256xf32>, %[[B:.*]]: memref<64x256xf32>, %[[C:.*]]: memref<64x256xf32>)
//  CHECK-SAME:   outputs [2] grid [4, 8, 1] block [512, 1, 1] smem 0
//   CHECK-NOT:   dkernel.alloc_shared
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : index
//       CHECK:   %[[BY:.*]] = gpu.block_id y
//       CHECK:   %[[BX:.*]] = gpu.block_id x
//       CHECK:   %[[TID:.*]] = gpu.thread_id x
//       CHECK:   %[[TX:.*]] = arith.remui %[[TID]], %[[C64]] : index
//       CHECK:   %[[TY:.*]] = arith.divui %[[TID]], %[[C64]] : index
//       CHECK:   %[[R0:.*]] = arith.muli %[[BY]], %[[C8]] : index
//       CHECK:   %[[ROW:.*]] = arith.addi %[[R0]], %[[TY]] : index
//       CHECK:   %[[C0:.*]] = arith.muli %[[BX]], %[[C64]] : index
//       CHECK:   %[[COL:.*]] = arith.addi %[[C0]], %[[TX]] : index
//       CHECK:   %[[VA:.*]] = memref.load %[[A]][%[[ROW]], %[[COL]]] : memref<64x256xf32>
//       CHECK:   %[[VB:.*]] = memref.load %[[B]][%[[ROW]], %[[COL]]] : memref<64x256xf32>
//       CHECK:   %[[S:.*]] = arith.addf %[[VA]], %[[VB]] : f32
//       CHECK:   memref.store %[[S]], %[[C]][%[[ROW]], %[[COL]]] : memref<64x256xf32>
//       CHECK:   dkernel.return
//       CHECK: func.func @run_add_2d(%[[X:.*]]: memref<64x256xf32>, %[[Y:.*]]: memref<64x256xf32>, %[[Z:.*]]: memref<64x256xf32>)
//  CHECK-NEXT:   dkernel.launch @add_2d(%[[X]], %[[Y]], %[[Z]]) : memref<64x256xf32>, memref<64x256xf32>, memref<64x256xf32>
//  CHECK-NEXT:   return

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(512)
//  CUDA-NEXT: add_2d(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//   CUDA-NOT:   extern __shared__
//       CUDA:   const int [[BY:v[0-9]+]] = (int)blockIdx.y;
//       CUDA:   const int [[BX:v[0-9]+]] = (int)blockIdx.x;
//       CUDA:   const int [[TID:v[0-9]+]] = (int)threadIdx.x;
func.func @run_add_2d(%arg0: memref<64x256xf32>, %arg1: memref<64x256xf32>, %arg2: memref<64x256xf32>) {
  dtile.kernel @add_2d ins(%a = %arg0 : memref<64x256xf32>, %b = %arg1 : memref<64x256xf32>) outs(%c = %arg2 : memref<64x256xf32>) {
    dtile.tile blocks(%by : 8 "by", %bx : 4 "bx") threads(%ty : 8 "ty", %tx : 64 "tx") {
      %va = dloop.load %a[%by * 8 + %ty, %bx * 64 + %tx] : memref<64x256xf32>
      %vb = dloop.load %b[%by * 8 + %ty, %bx * 64 + %tx] : memref<64x256xf32>
      %s = arith.addf %va, %vb : f32
      dloop.store %s, %c[%by * 8 + %ty, %bx * 64 + %tx] : memref<64x256xf32>
    }
  }
  return
}

/// A host function keeps its buffers: an argument, an intermediate
/// memref.alloc and a constant memref.get_global feed two kernels, launched
/// in order, each a dkernel.func before the function. SiLU rebuilds a flat
/// index from one block and one thread axis; as both coordinates are known
/// to be non-negative, the floordiv and mod become unsigned division and
/// remainder. Kernel knobs travel as a dtile.knobs attribute.
// CHECK-LABEL: dkernel.func @silu
//  CHECK-SAME:   outputs [1] grid [32, 1, 1] block [256, 1, 1] smem 0 attributes {dtile.knobs = #dtile.knobs<block_threads = 256>}
//       CHECK:   %[[BLK:.*]] = gpu.block_id x
//       CHECK:   %[[TID:.*]] = gpu.thread_id x
//       CHECK:   %[[BASE:.*]] = arith.muli %[[BLK]], %{{.*}} : index
//       CHECK:   %[[FLAT:.*]] = arith.addi %[[BASE]], %[[TID]] : index
//       CHECK:   %[[ROW:.*]] = arith.divui %[[FLAT]], %{{.*}} : index
//       CHECK:   %[[COL:.*]] = arith.remui %[[FLAT]], %{{.*}} : index
//       CHECK:   memref.load %{{.*}}[%[[ROW]], %[[COL]]] : memref<16x512xf32>
//       CHECK:   math.exp
//       CHECK:   memref.store
//       CHECK: dkernel.func @scale_rows
//  CHECK-SAME:   outputs [2] grid [2, 16, 1] block [256, 1, 1] smem 0 {
//       CHECK: func.func @silu_then_scale(%[[X:.*]]: memref<16x512xf32>, %[[Y:.*]]: memref<16x512xf32>)
//  CHECK-NEXT:   %[[T:.*]] = memref.alloc() : memref<16x512xf32>
//  CHECK-NEXT:   %[[W:.*]] = memref.get_global @scale : memref<512xf32>
//  CHECK-NEXT:   dkernel.launch @silu(%[[X]], %[[T]]) : memref<16x512xf32>, memref<16x512xf32>
//  CHECK-NEXT:   dkernel.launch @scale_rows(%[[T]], %[[W]], %[[Y]]) : memref<16x512xf32>, memref<512xf32>, memref<16x512xf32>
//  CHECK-NEXT:   return

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: silu(const float* __restrict__ in0, float* __restrict__ out0) {
// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(256)
//  CUDA-NEXT: scale_rows(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
memref.global "private" constant @scale : memref<512xf32> = dense<2.0>
func.func @silu_then_scale(%x: memref<16x512xf32>, %y: memref<16x512xf32>) {
  %t = memref.alloc() : memref<16x512xf32>
  %w = memref.get_global @scale : memref<512xf32>
  dtile.kernel @silu knobs<block_threads = 256> ins(%in = %x : memref<16x512xf32>) outs(%out = %t : memref<16x512xf32>) {
    %one = arith.constant 1.0 : f32
    dtile.tile blocks(%b : 32 "b") threads(%th : 256 "t") {
      %v = dloop.load %in[(%b * 256 + %th) floordiv 512, (%b * 256 + %th) mod 512] : memref<16x512xf32>
      %neg = arith.negf %v : f32
      %e = math.exp %neg : f32
      %d = arith.addf %e, %one : f32
      %s = arith.divf %v, %d : f32
      dloop.store %s, %out[(%b * 256 + %th) floordiv 512, (%b * 256 + %th) mod 512] : memref<16x512xf32>
    }
  }
  dtile.kernel @scale_rows ins(%in = %t : memref<16x512xf32>, %g = %w : memref<512xf32>) outs(%out = %y : memref<16x512xf32>) {
    dtile.tile blocks(%r : 16 "r", %ch : 2 "ch") threads(%c : 256 "c") {
      %v = dloop.load %in[%r, %ch * 256 + %c] : memref<16x512xf32>
      %s = dloop.load %g[%ch * 256 + %c] : memref<512xf32>
      %p = arith.mulf %v, %s : f32
      dloop.store %p, %out[%r, %ch * 256 + %c] : memref<16x512xf32>
    }
  }
  return
}

/// Kernel names stay unless another symbol has them: here the host function
/// shares the name of its first kernel, and two kernels share a name, so
/// the symbol table makes the later names unique.
// CHECK-LABEL: dkernel.func @copy_0
//       CHECK: dkernel.func @copy_1
//       CHECK: func.func @copy(%[[X:.*]]: memref<64xf32>, %[[Y:.*]]: memref<64xf32>)
//  CHECK-NEXT:   dkernel.launch @copy_0(%[[X]], %[[Y]])
//  CHECK-NEXT:   dkernel.launch @copy_1(%[[Y]], %[[X]])

// CUDA-LABEL: extern "C" __global__ void __launch_bounds__(64)
//  CUDA-NEXT: copy_0(const float* __restrict__ in0, float* __restrict__ out0) {
func.func @copy(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @copy ins(%x = %arg0 : memref<64xf32>) outs(%y = %arg1 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  dtile.kernel @copy ins(%x = %arg1 : memref<64xf32>) outs(%y = %arg0 : memref<64xf32>) {
    dtile.tile threads(%t : 64 "t") {
      %v = dloop.load %x[%t] : memref<64xf32>
      dloop.store %v, %y[%t] : memref<64xf32>
    }
  }
  return
}
