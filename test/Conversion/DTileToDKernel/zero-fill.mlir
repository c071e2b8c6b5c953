// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_80 | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_80 | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_80 | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}

/// A zero_fill stage copies only the elements inside its source: a plain
/// copy loads under a bounds check and stores zero otherwise; a cp.async
/// copy of an 8-byte run (the source rows hold 6 floats) past the end is
/// issued with its indices clamped to 0 and reads nothing, landing zeros.
/// Only the dimensions whose box may overhang are checked.
// CHECK-LABEL: dkernel.func @pad
//       CHECK:   %[[TID:.*]] = gpu.thread_id x
//       CHECK:   %[[J:.*]] = arith.remui %[[TID]], %{{.*}} : index
//       CHECK:   %[[I:.*]] = arith.divui %[[TID]], %{{.*}} : index
//       CHECK:   %[[IN_I:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
//       CHECK:   %[[IN_J:.*]] = arith.cmpi ult, %[[J]], %{{.*}} : index
//       CHECK:   %[[IN:.*]] = arith.andi %[[IN_I]], %[[IN_J]] : i1
//       CHECK:   %[[V:.*]] = scf.if %[[IN]] -> (f32) {
//       CHECK:     memref.load %arg0[%[[I]], %[[J]]] : memref<5x6xf32>
//       CHECK:   } else {
//       CHECK:     scf.yield %{{.*}} : f32
//       CHECK:   memref.store %[[V]], %{{.*}}[%[[I]], %[[J]]]
//       CHECK:   scf.if
//       CHECK:     %[[OK:.*]] = arith.andi
//       CHECK:     %[[R:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
//       CHECK:     %[[C:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
//       CHECK:     dkernel.cp_async %arg0[%[[R]], %[[C]]], %{{.*}}, 8 if %[[OK]] else zeros
//       CHECK:   dkernel.cp_async_commit

/// The guarded cp.async passes its source size: 8 bytes, or 0 to zero-fill.
// CUDA: asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" :: "r"({{.*}}), "l"(&{{.*}}), "r"({{.*}} ? 8u : 0u) : "memory");

func.func @pad(%arg0: memref<5x6xf32>) -> (memref<8x8xf32>, memref<8x8xf32>) {
  %y = memref.alloc() : memref<8x8xf32>
  %z = memref.alloc() : memref<8x8xf32>
  dtile.kernel @pad ins(%x = %arg0 : memref<5x6xf32>) outs(%out0 = %y : memref<8x8xf32>, %out1 = %z : memref<8x8xf32>) {
    dtile.tile blocks(%u : 1 "u") threads(%i : 8 "i", %j : 8 "j") {
      %s = dtile.stage %x[0, 0] box [8, 8] zero_fill : memref<5x6xf32> -> memref<8x8xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[%i, %j] : memref<8x8xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %out0[%i, %j] : memref<8x8xf32>
      %t = dtile.stage %x[0, 0] box [8, 8] zero_fill transport cp_async : memref<5x6xf32> -> memref<8x8xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %w = dloop.load %t[%i, %j] : memref<8x8xf32, #gpu.address_space<workgroup>>
      dloop.store %w, %out1[%i, %j] : memref<8x8xf32>
    }
  }
  return %y, %z : memref<8x8xf32>, memref<8x8xf32>
}
