// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_90a -split-input-file -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel=target=sm_90a -split-input-file -verify-diagnostics | deplodock-run --interp - --func=roles --print=none

/// warp_specialize=true on a TMA kernel: the block gains a producer
/// warpgroup (128 + 128 threads); the consumers (thread ids below 128)
/// release the slot (each warp syncs, then its first thread arrives for it:
/// "empty" expects the 4 consumer warps) and wait for the box, then read
/// it, with no barrier; the
/// producer's first thread waits for the release and issues the box, and
/// runs none of the loads or stores.
// CHECK-LABEL: dkernel.func @roles_0
//  CHECK-SAME: block [256, 1, 1]
//       CHECK: dkernel.mbarrier_init %[[MB:.*]][%c0], 1 :
//       CHECK: dkernel.mbarrier_init %[[MB]][%c1], 4 :
//       CHECK: gpu.barrier
//       CHECK: %[[CONSUMER:.*]] = arith.cmpi ult, %thread_id_x, %c128
//  CHECK-NEXT: scf.if %[[CONSUMER]] {
//       CHECK:   dkernel.warp_sync
//  CHECK-NEXT:   %[[LANE:.*]] = arith.remui %thread_id_x, %c32
//  CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
//  CHECK-NEXT:   scf.if %[[FIRST]] {
//  CHECK-NEXT:     dkernel.mbarrier_arrive %[[MB]][%c1]
//       CHECK:   dkernel.mbarrier_wait %[[MB]][%c0]
//       CHECK:   memref.load
//       CHECK:   memref.store
//       CHECK: } else {
//       CHECK:   %[[PRODUCER:.*]] = arith.cmpi eq, %thread_id_x, %c128
//       CHECK:   scf.if %[[PRODUCER]] {
//       CHECK:     dkernel.mbarrier_wait %[[MB]][%c1]
//       CHECK:     dkernel.mbarrier_arrive_expect_tx %[[MB]][%c0], 4096
//       CHECK:     dkernel.tma_load
//   CHECK-NOT: memref.store
//   CHECK-NOT: gpu.barrier
//       CHECK: dkernel.return
func.func @roles(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @roles knobs<warp_specialize = true> ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %s = dtile.stage %x[%b * 32, 0] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %v = dloop.load %s[0, %t mod 32] : memref<32x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%b * 32, %t] : memref<64x128xf32>
    }
  }
  return
}

// -----

/// Without TMA stages there is nothing for a producer to do.
func.func @no_tma(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  // expected-error @+1 {{knob warp_specialize=true needs TMA stages; the kernel has none}}
  dtile.kernel @no_tma knobs<warp_specialize = true> ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %v = dloop.load %x[%b * 32, %t] : memref<64x128xf32>
      dloop.store %v, %y[%b * 32, %t] : memref<64x128xf32>
    }
  }
  return
}

// -----

/// A synchronous stage needs a block barrier after its copies, which the
/// producer warpgroup would never reach.
func.func @barrier(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {
  dtile.kernel @barrier knobs<warp_specialize = true> ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64x128xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%t : 128 "t") {
      %s = dtile.stage %x[%b * 32, 0] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      // expected-error @+1 {{needs a block barrier, which a warp-specialised kernel (warp_specialize=true) cannot have}}
      %r = dtile.stage %x[%b * 32, 32] box [32, 32] : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[0, %t mod 32] : memref<32x32xf32, #gpu.address_space<workgroup>>
      %w = dloop.load %r[0, %t mod 32] : memref<32x32xf32, #gpu.address_space<workgroup>>
      %sum = arith.addf %v, %w : f32
      dloop.store %sum, %y[%b * 32, %t] : memref<64x128xf32>
    }
  }
  return
}
