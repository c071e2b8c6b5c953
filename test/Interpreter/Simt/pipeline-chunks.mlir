// RUN: deplodock-opt %s --dtile-pipeline-k-outer="knobs=pipeline=true" > %t.tile.mlir
// RUN: FileCheck %s --check-prefix=TILE < %t.tile.mlir
// RUN: deplodock-opt %t.tile.mlir --convert-dtile-to-dkernel > %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: deplodock-run --interp %t.tile.mlir --func=ref1 --compare-func=async1 --print=none | FileCheck %s --check-prefix=ASYNC1
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref1 --compare-func=async1 --print=none | FileCheck %s --check-prefix=ASYNC1
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref1 --compare-func=sync1 --print=none | FileCheck %s --check-prefix=SYNC1
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref3 --compare-func=async3 --print=none | FileCheck %s --check-prefix=ASYNC3
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref3 --compare-func=sync3 --print=none | FileCheck %s --check-prefix=SYNC3
/// Without the wait the prefetched slabs are read before they land (NaN):
/// the checks above can fail.
// RUN: sed -e '/dtile.async_wait/d' %t.tile.mlir | deplodock-opt --convert-dtile-to-dkernel > %t.nowait.mlir
// RUN: not deplodock-run --interp %t.nowait.mlir --func=ref3 --compare-func=async3 --print=none | FileCheck %s --check-prefix=NOWAIT

/// pipeline_k_outer on one chunk and on three, with cp.async and with
/// synchronous copies, against a Loop IR reference on the SIMT interpreter
/// at the Tile and the Kernel level: chunk 0 is staged before the loop, the
/// guard `k < chunks - 1` stages each further chunk once, a chunk ahead, and
/// the wait at the top of each iteration covers the chunk it computes on.
// TILE-LABEL: func.func @async1
//       TILE:   dtile.stage %{{.*}}[0, 0] box [16, 32] buffers 2 slot %{{.*}} transport cp_async
//       TILE:   dloop.for %[[K:.*]] = 0 to 1 reduce "k_o"
//  TILE-NEXT:     dtile.async_wait keep 0
//  TILE-NEXT:     dloop.for %{{.*}} = 0 to 32 reduce "k_i"
// TILE-LABEL: func.func @sync1
//   TILE-NOT:   async_wait
// TILE-LABEL: func.func @async3
//       TILE:   dloop.for %[[K3:.*]] = 0 to 3 reduce "k_o"
//  TILE-NEXT:     dtile.async_wait keep 0
//  TILE-NEXT:     %[[MORE:.*]] = arith.cmpi ult, %[[K3]], %{{.*}} : index
//  TILE-NEXT:     scf.if %[[MORE]]

// ASYNC1: compare result #0 @async1: {{.*}}: PASS
// SYNC1: compare result #0 @sync1: {{.*}}: PASS
// ASYNC3: compare result #0 @async3: {{.*}}: PASS
// SYNC3: compare result #0 @sync3: {{.*}}: PASS
// NOWAIT: compare result #0 @async3: {{.*}} got nan: FAIL

func.func @ref1(%arg0: memref<16x32xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dloop.kernel @ref1 ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %t = 0 to 16 free "t" {
      %s = dloop.for %k = 0 to 32 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%t, %k] : memref<16x32xf32>
        %next = arith.addf %acc, %v : f32
        dloop.yield %next : f32
      }
      dloop.store %s, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @async1(%arg0: memref<16x32xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @async1 ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 1 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @sync1(%arg0: memref<16x32xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @sync1 ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 1 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @ref3(%arg0: memref<16x96xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dloop.kernel @ref3 ins(%x = %arg0 : memref<16x96xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %t = 0 to 16 free "t" {
      %s = dloop.for %k = 0 to 96 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%t, %k] : memref<16x96xf32>
        %next = arith.addf %acc, %v : f32
        dloop.yield %next : f32
      }
      dloop.store %s, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @async3(%arg0: memref<16x96xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @async3 ins(%x = %arg0 : memref<16x96xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 3 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<16x96xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @sync3(%arg0: memref<16x96xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @sync3 ins(%x = %arg0 : memref<16x96xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 3 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot : memref<16x96xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}
