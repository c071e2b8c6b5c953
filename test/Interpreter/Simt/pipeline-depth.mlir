// RUN: deplodock-opt %s --dtile-pipeline-k-outer="knobs=d3n3:pipeline=true,stages=3;d3n4:pipeline=true,stages=3;d3n5:pipeline=true,stages=3;d3n6:pipeline=true,stages=3;d4n4:pipeline=true,stages=4;d4n5:pipeline=true,stages=4;d4n6:pipeline=true,stages=4;d4n8:pipeline=true,stages=4" > %t.tile.mlir
// RUN: FileCheck %s --check-prefix=TILE < %t.tile.mlir
// RUN: deplodock-opt %t.tile.mlir --convert-dtile-to-dkernel > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90 %t.cu %}
// RUN: deplodock-run --interp %t.tile.mlir --func=ref3 --compare-func=d3n3 --print=none | FileCheck %s --check-prefix=D3N3
// RUN: deplodock-run --interp %t.tile.mlir --func=ref4 --compare-func=d3n4 --print=none | FileCheck %s --check-prefix=D3N4
// RUN: deplodock-run --interp %t.tile.mlir --func=ref5 --compare-func=d3n5 --print=none | FileCheck %s --check-prefix=D3N5
// RUN: deplodock-run --interp %t.tile.mlir --func=ref6 --compare-func=d3n6 --print=none | FileCheck %s --check-prefix=D3N6
// RUN: deplodock-run --interp %t.tile.mlir --func=ref4 --compare-func=d4n4 --print=none | FileCheck %s --check-prefix=D4N4
// RUN: deplodock-run --interp %t.tile.mlir --func=ref5 --compare-func=d4n5 --print=none | FileCheck %s --check-prefix=D4N5
// RUN: deplodock-run --interp %t.tile.mlir --func=ref6 --compare-func=d4n6 --print=none | FileCheck %s --check-prefix=D4N6
// RUN: deplodock-run --interp %t.tile.mlir --func=ref8 --compare-func=d4n8 --print=none | FileCheck %s --check-prefix=D4N8
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref3 --compare-func=d3n3 --print=none | FileCheck %s --check-prefix=D3N3
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref4 --compare-func=d3n4 --print=none | FileCheck %s --check-prefix=D3N4
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref5 --compare-func=d3n5 --print=none | FileCheck %s --check-prefix=D3N5
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref6 --compare-func=d3n6 --print=none | FileCheck %s --check-prefix=D3N6
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref4 --compare-func=d4n4 --print=none | FileCheck %s --check-prefix=D4N4
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref5 --compare-func=d4n5 --print=none | FileCheck %s --check-prefix=D4N5
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref6 --compare-func=d4n6 --print=none | FileCheck %s --check-prefix=D4N6
// RUN: deplodock-run --interp %t.kernel.mlir --func=ref8 --compare-func=d4n8 --print=none | FileCheck %s --check-prefix=D4N8
/// A wait naming the next chunk's slabs instead of chunk k's: chunk k is
/// read before it lands (NaN), at the Tile and at the Kernel level alike
/// (the mbarrier model lands a TMA copy only at a wait on its phase).
// RUN: %python %S/Inputs/wrong_wait.py < %t.tile.mlir > %t.wrong.tile.mlir
// RUN: FileCheck %s --check-prefix=WRONG < %t.wrong.tile.mlir
// RUN: deplodock-opt %t.wrong.tile.mlir --convert-dtile-to-dkernel > %t.wrong.kernel.mlir
// RUN: not deplodock-run --interp %t.wrong.tile.mlir --func=ref4 --compare-func=d3n4 --print=none | FileCheck %s --check-prefix=WRONG-D3N4
// RUN: not deplodock-run --interp %t.wrong.kernel.mlir --func=ref4 --compare-func=d3n4 --print=none | FileCheck %s --check-prefix=WRONG-D3N4
// RUN: not deplodock-run --interp %t.wrong.kernel.mlir --func=ref8 --compare-func=d4n8 --print=none | FileCheck %s --check-prefix=WRONG-D4N8

/// pipeline_k_outer 3 and 4 deep on TMA stages of 3 to 8 chunks (multiples
/// of the depth and not), against a Loop IR reference on the SIMT
/// interpreter at the Tile and the Kernel level: chunks 0 .. d - 2 are
/// staged into slots 0 .. d - 2 before the loop, iteration k waits for
/// chunk k's slab alone, then stages chunk k + d - 1 into slot
/// (k + d - 1) mod d while k < chunks - d + 1.
/// (d0 + 2) mod 3 and (d0 + 3) mod 4, as the affine simplifier writes them.
// TILE: #[[$MAP3:.*]] = affine_map<(d0) -> (d0 - ((d0 + 2) floordiv 3) * 3 + 2)>
// TILE: #[[$MAP4:.*]] = affine_map<(d0) -> (d0 - ((d0 + 3) floordiv 4) * 4 + 3)>
// TILE-LABEL: func.func @d3n4
//   TILE-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   TILE-DAG:   %[[C1:.*]] = arith.constant 1 : index
//       TILE:   %[[S0:.*]] = dtile.stage %{{.*}}[0, 0] box [16, 32] buffers 3 slot %[[C0]] transport tma
//  TILE-NEXT:   %[[S1:.*]] = dtile.stage %{{.*}}[0, 32] box [16, 32] buffers 3 slot %[[C1]] transport tma
//  TILE-NEXT:   dloop.for %[[K:.*]] = 0 to 4 reduce "k_o" iter(%{{.*}} = %{{.*}} : f32, %[[A:.*]] = %[[S0]] : {{.*}}, %[[B:.*]] = %[[S1]] : {{.*}})
//  TILE-NEXT:     dtile.async_wait keep 0 for %[[A]] :
//  TILE-NEXT:     %[[MORE:.*]] = arith.cmpi ult, %[[K]], %[[C2:.*]] : index
//  TILE-NEXT:     %[[NEXT:.*]] = scf.if %[[MORE]]
//  TILE-NEXT:       %[[SLOT:.*]] = affine.apply #[[$MAP3]](%[[K]])
//  TILE-NEXT:       dtile.stage %{{.*}}[0, %[[K]] * 32 + 64] box [16, 32] buffers 3 slot %[[SLOT]] transport tma
//       TILE:     } else {
//  TILE-NEXT:       scf.yield %[[A]]
//       TILE:     dloop.for %{{.*}} = 0 to 32 reduce "k_i"
//  TILE-NEXT:       dloop.load %[[A]]
//       TILE:     dloop.yield %{{.*}}, %[[B]], %[[NEXT]] :
// TILE-LABEL: func.func @d4n8
//       TILE:   dtile.stage %{{.*}}[0, 64] box [16, 32] buffers 4 slot
//       TILE:   dloop.for %[[K4:.*]] = 0 to 8 reduce "k_o" iter(%{{.*}} = %{{.*}} : f32, %[[A4:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
//  TILE-NEXT:     dtile.async_wait keep 0 for %[[A4]] :
//  TILE-NEXT:     arith.cmpi ult, %[[K4]], %{{.*}} : index
//       TILE:       affine.apply #[[$MAP4]](%[[K4]])
//  TILE-NEXT:       dtile.stage %{{.*}}[0, %[[K4]] * 32 + 96] box [16, 32] buffers 4 slot

/// At the Kernel level the named wait polls the mbarrier of chunk k's slot
/// (its carried slot index), not every mbarrier with a copy in flight.
// KERNEL-LABEL: dkernel.func @d3n4
//       KERNEL:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[SLOT:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, index, index)
//  KERNEL-NEXT:     memref.load %{{.*}}[] : memref<i64>
//  KERNEL-NEXT:     arith.index_cast %[[SLOT]] : index to i64
//       KERNEL:     arith.cmpi ne
//  KERNEL-NEXT:     scf.if
//       KERNEL:       dkernel.mbarrier_wait %{{.*}}[%[[SLOT]]]
//   KERNEL-NOT:       dkernel.mbarrier_wait
//       KERNEL:     gpu.barrier
//  KERNEL-NEXT:     arith.cmpi ult, %{{.*}}, %c2

// WRONG: dtile.async_wait keep 0 for %{{.*}}
// WRONG-D3N4: compare result #0 @d3n4: {{.*}}: FAIL
// WRONG-D4N8: compare result #0 @d4n8: {{.*}}: FAIL
// D3N3: compare result #0 @d3n3: {{.*}}: PASS
// D3N4: compare result #0 @d3n4: {{.*}}: PASS
// D3N5: compare result #0 @d3n5: {{.*}}: PASS
// D3N6: compare result #0 @d3n6: {{.*}}: PASS
// D4N4: compare result #0 @d4n4: {{.*}}: PASS
// D4N5: compare result #0 @d4n5: {{.*}}: PASS
// D4N6: compare result #0 @d4n6: {{.*}}: PASS
// D4N8: compare result #0 @d4n8: {{.*}}: PASS

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

func.func @ref4(%arg0: memref<16x128xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dloop.kernel @ref4 ins(%x = %arg0 : memref<16x128xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %t = 0 to 16 free "t" {
      %s = dloop.for %k = 0 to 128 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%t, %k] : memref<16x128xf32>
        %next = arith.addf %acc, %v : f32
        dloop.yield %next : f32
      }
      dloop.store %s, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @ref5(%arg0: memref<16x160xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dloop.kernel @ref5 ins(%x = %arg0 : memref<16x160xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %t = 0 to 16 free "t" {
      %s = dloop.for %k = 0 to 160 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%t, %k] : memref<16x160xf32>
        %next = arith.addf %acc, %v : f32
        dloop.yield %next : f32
      }
      dloop.store %s, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @ref6(%arg0: memref<16x192xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dloop.kernel @ref6 ins(%x = %arg0 : memref<16x192xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %t = 0 to 16 free "t" {
      %s = dloop.for %k = 0 to 192 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%t, %k] : memref<16x192xf32>
        %next = arith.addf %acc, %v : f32
        dloop.yield %next : f32
      }
      dloop.store %s, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @ref8(%arg0: memref<16x256xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dloop.kernel @ref8 ins(%x = %arg0 : memref<16x256xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %t = 0 to 16 free "t" {
      %s = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%t, %k] : memref<16x256xf32>
        %next = arith.addf %acc, %v : f32
        dloop.yield %next : f32
      }
      dloop.store %s, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}

func.func @d3n3(%arg0: memref<16x96xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d3n3 ins(%x = %arg0 : memref<16x96xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 3 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x96xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d3n4(%arg0: memref<16x128xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d3n4 ins(%x = %arg0 : memref<16x128xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x128xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d3n5(%arg0: memref<16x160xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d3n5 ins(%x = %arg0 : memref<16x160xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 5 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x160xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d3n6(%arg0: memref<16x192xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d3n6 ins(%x = %arg0 : memref<16x192xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 6 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x192xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d4n4(%arg0: memref<16x128xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d4n4 ins(%x = %arg0 : memref<16x128xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x128xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d4n5(%arg0: memref<16x160xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d4n5 ins(%x = %arg0 : memref<16x160xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 5 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x160xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d4n6(%arg0: memref<16x192xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d4n6 ins(%x = %arg0 : memref<16x192xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 6 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x192xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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

func.func @d4n8(%arg0: memref<16x256xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @d4n8 ins(%x = %arg0 : memref<16x256xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32) {
        %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
        %s = dtile.stage %x[0, %ko * 32] box [16, 32] buffers 2 slot %slot transport tma : memref<16x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
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
