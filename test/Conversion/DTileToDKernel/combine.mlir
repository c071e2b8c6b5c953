// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

// How dtile.combine lowers, by the size G of the groups of threads that
// share a result (G consecutive linear thread ids, since the combined axes
// are the innermost ones). Every kernel stores each thread's result, so all
// threads can be checked to get it.

/// G = 16 divides a warp: one butterfly of width 16, no shared memory.
// CHECK-LABEL: dkernel.func @warp_groups
//  CHECK-SAME:   smem 0
//       CHECK:   %[[V:.*]] = memref.load
//       CHECK:   %[[R:.*]] = dkernel.warp_reduce add %[[V]] width 16 : f32
//       CHECK:   memref.store %[[R]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x256xf32>
//   CHECK-NOT:   gpu.barrier
func.func @run_warp_groups(%arg0: memref<2x256xf32>, %arg1: memref<2x256xf32>) {
  dtile.kernel @warp_groups ins(%x = %arg0 : memref<2x256xf32>) outs(%y = %arg1 : memref<2x256xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%r : 16 "r", %l : 16 "l") {
      %v = dloop.load %x[%b, %r * 16 + %l] : memref<2x256xf32>
      %s = dtile.combine add %v over ["l"] : f32
      dloop.store %s, %y[%b, %r * 16 + %l] : memref<2x256xf32>
    }
  }
  return
}

/// G = 96 is three warps: each warp reduces, 6 partials go to shared
/// memory; the first warp folds each group's 3 partials as 4 lanes, the
/// fourth holding the identity of max (-inf), and the group leaders store
/// the 2 results, which every thread reads back after the barrier.
// CHECK-LABEL: dkernel.func @padded_partials
//  CHECK-SAME:   block [192, 1, 1] smem 40
//       CHECK:   %[[PART:.*]] = dkernel.alloc_shared offset 0 : memref<6xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[RES:.*]] = dkernel.alloc_shared offset 32 : memref<2xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[NINF:.*]] = arith.constant 0xFF800000 : f32
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[G:.*]] = arith.divui %[[T]], %[[C96:.*]] : index
//       CHECK:   %[[W:.*]] = dkernel.warp_reduce max %{{.*}} width 32 : f32
//       CHECK:   memref.store %[[W]], %[[PART]]
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     %[[OK:.*]] = arith.andi
//       CHECK:     %[[SLOT:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
//       CHECK:     %[[Q:.*]] = memref.load %[[PART]][%[[SLOT]]]
//       CHECK:     %[[X:.*]] = arith.select %[[OK]], %[[Q]], %[[NINF]] : f32
//       CHECK:     %[[M:.*]] = dkernel.warp_reduce max %[[X]] width 4 : f32
//       CHECK:     memref.store %[[M]], %[[RES]]
//       CHECK:   gpu.barrier
//       CHECK:   %[[R:.*]] = memref.load %[[RES]][%[[G]]] : memref<2xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.store %[[R]]
func.func @run_padded_partials(%arg0: memref<2x192xf32>, %arg1: memref<2x192xf32>) {
  dtile.kernel @padded_partials ins(%x = %arg0 : memref<2x192xf32>) outs(%y = %arg1 : memref<2x192xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%g : 2 "g", %l : 96 "l") {
      %v = dloop.load %x[%b, %g * 96 + %l] : memref<2x192xf32>
      %s = dtile.combine max %v over ["l"] : f32
      dloop.store %s, %y[%b, %g * 96 + %l] : memref<2x192xf32>
    }
  }
  return
}

/// 10 groups of 3 warp partials do not fit one warp's shuffles (10 x 4
/// lanes): lane g of the first warp folds group g's partials in a loop.
// CHECK-LABEL: dkernel.func @many_groups
//  CHECK-SAME:   block [960, 1, 1] smem 168
//       CHECK:   %[[PART:.*]] = dkernel.alloc_shared offset 0 : memref<30xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[RES:.*]] = dkernel.alloc_shared offset 128 : memref<10xf32, #gpu.address_space<workgroup>>
//       CHECK:   dkernel.warp_reduce add %{{.*}} width 32 : f32
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     scf.if
//       CHECK:       %[[FIRST:.*]] = memref.load %[[PART]]
//       CHECK:       %[[SUM:.*]] = scf.for %{{[^ ]+}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:[^ ]+]] = %[[FIRST]]) -> (f32) {
//       CHECK:         %[[NEXT:.*]] = memref.load %[[PART]]
//       CHECK:         arith.addf %[[ACC]], %[[NEXT]] : f32
//       CHECK:       memref.store %[[SUM]], %[[RES]]
//       CHECK:   gpu.barrier
//       CHECK:   memref.load %[[RES]]
func.func @run_many_groups(%arg0: memref<2x960xf32>, %arg1: memref<2x960xf32>) {
  dtile.kernel @many_groups ins(%x = %arg0 : memref<2x960xf32>) outs(%y = %arg1 : memref<2x960xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%g : 10 "g", %l : 96 "l") {
      %v = dloop.load %x[%b, %g * 96 + %l] : memref<2x960xf32>
      %s = dtile.combine add %v over ["l"] : f32
      dloop.store %s, %y[%b, %g * 96 + %l] : memref<2x960xf32>
    }
  }
  return
}

/// 48 threads leave the second warp half empty, where full-mask shuffles
/// are undefined: the whole-block combine folds a 64-slot shared buffer with
/// tree_reduce instead, the 16 slots past the threads holding +inf.
// CHECK-LABEL: dkernel.func @partial_warp_block
//  CHECK-SAME:   block [48, 1, 1] smem 256
//       CHECK:   %[[BUF:.*]] = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[INF:.*]] = arith.constant 0x7F800000 : f32
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   memref.store %{{.*}}, %[[BUF]][%[[T]]]
//       CHECK:   scf.if
//       CHECK:     memref.store %[[INF]], %[[BUF]][%{{.*}}]
//       CHECK:   gpu.barrier
//       CHECK:   %[[R:.*]] = dkernel.tree_reduce min %[[BUF]] length 64 : memref<64xf32, #gpu.address_space<workgroup>> -> f32
//       CHECK:   memref.store %[[R]]
func.func @run_partial_warp_block(%arg0: memref<2x48xf32>, %arg1: memref<2x48xf32>) {
  dtile.kernel @partial_warp_block ins(%x = %arg0 : memref<2x48xf32>) outs(%y = %arg1 : memref<2x48xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 48 "t") {
      %v = dloop.load %x[%b, %t] : memref<2x48xf32>
      %s = dtile.combine min %v over ["t"] : f32
      dloop.store %s, %y[%b, %t] : memref<2x48xf32>
    }
  }
  return
}

/// Groups of 3 threads: each thread writes its value to shared memory and
/// thread g folds group g.
// CHECK-LABEL: dkernel.func @odd_groups
//  CHECK-SAME:   block [48, 1, 1] smem 256
//       CHECK:   %[[BUF:.*]] = dkernel.alloc_shared offset 0 : memref<48xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[RES:.*]] = dkernel.alloc_shared offset 192 : memref<16xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[G:.*]] = arith.divui %[[T]], %{{.*}} : index
//       CHECK:   memref.store %{{.*}}, %[[BUF]][%[[T]]]
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     scf.for
//       CHECK:       arith.mulf
//       CHECK:     memref.store %{{.*}}, %[[RES]][%[[T]]]
//       CHECK:   gpu.barrier
//       CHECK:   memref.load %[[RES]][%[[G]]]
func.func @run_odd_groups(%arg0: memref<2x48xf32>, %arg1: memref<2x48xf32>) {
  dtile.kernel @odd_groups ins(%x = %arg0 : memref<2x48xf32>) outs(%y = %arg1 : memref<2x48xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%g : 16 "g", %l : 3 "l") {
      %v = dloop.load %x[%b, %g * 3 + %l] : memref<2x48xf32>
      %s = dtile.combine mul %v over ["l"] : f32
      dloop.store %s, %y[%b, %g * 3 + %l] : memref<2x48xf32>
    }
  }
  return
}

/// i16 has no shuffle: a whole-block combine goes through tree_reduce.
// CHECK-LABEL: dkernel.func @short_ints
//  CHECK-SAME:   smem 128
//       CHECK:   dkernel.tree_reduce add %{{.*}} length 64 : memref<64xi16, #gpu.address_space<workgroup>> -> i16
func.func @run_short_ints(%arg0: memref<2x64xi16>, %arg1: memref<2x64xi16>) {
  dtile.kernel @short_ints ins(%x = %arg0 : memref<2x64xi16>) outs(%y = %arg1 : memref<2x64xi16>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 64 "t") {
      %v = dloop.load %x[%b, %t] : memref<2x64xi16>
      %s = dtile.combine add %v over ["t"] : i16
      dloop.store %s, %y[%b, %t] : memref<2x64xi16>
    }
  }
  return
}

/// f16 shuffles: G = 32 is one full-warp butterfly.
// CHECK-LABEL: dkernel.func @half_warps
//  CHECK-SAME:   smem 0
//       CHECK:   dkernel.warp_reduce max %{{.*}} width 32 : f16
func.func @run_half_warps(%arg0: memref<2x64xf16>, %arg1: memref<2x64xf16>) {
  dtile.kernel @half_warps ins(%x = %arg0 : memref<2x64xf16>) outs(%y = %arg1 : memref<2x64xf16>) {
    dtile.tile blocks(%b : 2 "b") threads(%g : 2 "g", %l : 32 "l") {
      %v = dloop.load %x[%b, %g * 32 + %l] : memref<2x64xf16>
      %s = dtile.combine max %v over ["l"] : f16
      dloop.store %s, %y[%b, %g * 32 + %l] : memref<2x64xf16>
    }
  }
  return
}

/// Half sums accumulate in f32: f16 partials are widened, shuffled as f32
/// and rounded once to f16 for the store.
// CHECK-LABEL: dkernel.func @half_sum_warps
//       CHECK:   %[[V:.*]] = memref.load %{{.*}} : memref<2x64xf16>
//       CHECK:   %[[W:.*]] = arith.extf %[[V]] : f16 to f32
//       CHECK:   %[[R:.*]] = dkernel.warp_reduce add %[[W]] width 32 : f32
//       CHECK:   %[[H:.*]] = arith.truncf %[[R]] : f32 to f16
//       CHECK:   memref.store %[[H]], %{{.*}} : memref<2x64xf16>
func.func @run_half_sum_warps(%arg0: memref<2x64xf16>, %arg1: memref<2x64xf16>) {
  dtile.kernel @half_sum_warps ins(%x = %arg0 : memref<2x64xf16>) outs(%y = %arg1 : memref<2x64xf16>) {
    dtile.tile blocks(%b : 2 "b") threads(%g : 2 "g", %l : 32 "l") {
      %v = dloop.load %x[%b, %g * 32 + %l] : memref<2x64xf16>
      %s = dtile.combine add %v over ["l"] : f16
      dloop.store %s, %y[%b, %g * 32 + %l] : memref<2x64xf16>
    }
  }
  return
}

/// bf16 sums over several warps keep their warp partials in f32 shared
/// memory; the result is rounded to bf16 after the last fold.
// CHECK-LABEL: dkernel.func @bf16_sum_partials
//       CHECK:   %[[PART:.*]] = dkernel.alloc_shared offset 0 : memref<4xf32, #gpu.address_space<workgroup>>
//       CHECK:   arith.extf %{{.*}} : bf16 to f32
//       CHECK:   dkernel.warp_reduce add %{{.*}} width 32 : f32
//       CHECK:   memref.store %{{.*}}, %[[PART]]
//       CHECK:   dkernel.warp_reduce add %{{.*}} : f32
//       CHECK:   %[[R:.*]] = memref.load %{{.*}} : memref<1xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[H:.*]] = arith.truncf %[[R]] : f32 to bf16
//       CHECK:   memref.store %[[H]], %{{.*}} : memref<2x128xbf16>
func.func @run_bf16_sum_partials(%arg0: memref<2x128xbf16>, %arg1: memref<2x128xbf16>) {
  dtile.kernel @bf16_sum_partials ins(%x = %arg0 : memref<2x128xbf16>) outs(%y = %arg1 : memref<2x128xbf16>) {
    dtile.tile blocks(%b : 2 "b") threads(%l : 128 "l") {
      %v = dloop.load %x[%b, %l] : memref<2x128xbf16>
      %s = dtile.combine add %v over ["l"] : bf16
      dloop.store %s, %y[%b, %l] : memref<2x128xbf16>
    }
  }
  return
}

/// Sums of half values through a tree fold f32 values too.
// CHECK-LABEL: dkernel.func @half_sum_tree
//       CHECK:   %[[BUF:.*]] = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
//       CHECK:   arith.extf %{{.*}} : f16 to f32
//       CHECK:   %[[R:.*]] = dkernel.tree_reduce add %[[BUF]]
//       CHECK:   arith.truncf %[[R]] : f32 to f16
func.func @run_half_sum_tree(%arg0: memref<2x48xf16>, %arg1: memref<2x48xf16>) {
  dtile.kernel @half_sum_tree ins(%x = %arg0 : memref<2x48xf16>) outs(%y = %arg1 : memref<2x48xf16>) {
    dtile.tile blocks(%b : 2 "b") threads(%l : 48 "l") {
      %v = dloop.load %x[%b, %l] : memref<2x48xf16>
      %s = dtile.combine add %v over ["l"] : f16
      dloop.store %s, %y[%b, %l] : memref<2x48xf16>
    }
  }
  return
}

/// Combining over an axis of extent 1 changes nothing.
// CHECK-LABEL: dkernel.func @unit_axis
//  CHECK-SAME:   smem 0
//       CHECK:   %[[V:.*]] = memref.load
//  CHECK-NEXT:   memref.store %[[V]]
func.func @run_unit_axis(%arg0: memref<2x64xf32>, %arg1: memref<2x64xf32>) {
  dtile.kernel @unit_axis ins(%x = %arg0 : memref<2x64xf32>) outs(%y = %arg1 : memref<2x64xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%u : 1 "u", %t : 64 "t") {
      %v = dloop.load %x[%b, %u * 64 + %t] : memref<2x64xf32>
      %s = dtile.combine add %v over ["u"] : f32
      dloop.store %s, %y[%b, %u * 64 + %t] : memref<2x64xf32>
    }
  }
  return
}

/// A tree combine in a loop first waits for the previous round's readers
/// of the buffer's element 0.
// CHECK-LABEL: dkernel.func @tree_in_loop
//       CHECK:   scf.for
//  CHECK-NEXT:     memref.load
//  CHECK-NEXT:     gpu.barrier
//  CHECK-NEXT:     memref.store
//       CHECK:     gpu.barrier
//       CHECK:     dkernel.tree_reduce add
//       CHECK:     memref.store

// CUDA-LABEL: warp_groups(
//       CUDA:   __shfl_xor_sync(0xffffffffu, red0, off, 16);
// CUDA-LABEL: partial_warp_block(
//       CUDA:   if (t < s)
//       CUDA:     smem0[t] = dk_minimum_f32(smem0[t], smem0[t + s]);
// CUDA-LABEL: half_warps(
//       CUDA:   __hmax_nan(
func.func @run_tree_in_loop(%arg0: memref<4x48xf32>, %arg1: memref<4xf32>) {
  dtile.kernel @tree_in_loop ins(%x = %arg0 : memref<4x48xf32>) outs(%y = %arg1 : memref<4xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile threads(%t : 48 "t") {
      dloop.for %j = 0 to 4 free "j" {
        %v = dloop.load %x[%j, %t] : memref<4x48xf32>
        %s = dtile.combine add %v over ["t"] : f32
        %first = arith.cmpi eq, %t, %c0 : index
        scf.if %first {
          dloop.store %s, %y[%j] : memref<4xf32>
        }
      }
    }
  }
  return
}
