// RUN: deplodock-run --interp %s --func=pad_loop --compare-func=pad_tile --print=none | FileCheck %s
// RUN: deplodock-run --interp %s --func=pad_tile --compare="convert-dtile-to-dkernel{target=sm_80}" --print=none | FileCheck %s --check-prefix=KERNEL
// RUN: not deplodock-run --interp %s --func=overhang_tile --print=none 2>&1 | FileCheck %s --check-prefix=OVERHANG

/// A zero_fill stage whose 8 x 8 box overhangs its 5 x 6 source reads
/// zeros past the end, whether it travels by plain copies or by cp.async
/// (whose 8-byte runs either lie inside the rows or past them). Lowered to
/// Kernel IR the plain copies guard their loads and the cp.async copies of
/// the runs past the end read nothing and land zeros.
// CHECK: compare result #0 @pad_tile: max abs error 0, max rel error 0: PASS
// CHECK: compare result #1 @pad_tile: max abs error 0, max rel error 0: PASS
// KERNEL: compare result #0 {{.*}}: max abs error 0, max rel error 0: PASS
// KERNEL: compare result #1 {{.*}}: max abs error 0, max rel error 0: PASS

/// Without zero_fill a box past the end is an error at run time too (the
/// origin is an arith.muli, whose range the verifier does not follow).
// OVERHANG: error: 'dtile.stage' op copies indices [4, 8) of dimension 0 of size 5 of block (1)

func.func @pad_loop(%arg0: memref<5x6xf32>) -> (memref<8x8xf32>, memref<8x8xf32>) {
  %y = memref.alloc() : memref<8x8xf32>
  %z = memref.alloc() : memref<8x8xf32>
  dloop.kernel @pad ins(%x = %arg0 : memref<5x6xf32>) outs(%out0 = %y : memref<8x8xf32>, %out1 = %z : memref<8x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    dloop.for %i = 0 to 8 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %ri = arith.cmpi ult, %i, %c5 : index
        %rj = arith.cmpi ult, %j, %c6 : index
        %in = arith.andi %ri, %rj : i1
        %v = scf.if %in -> (f32) {
          %l = dloop.load %x[%i, %j] : memref<5x6xf32>
          scf.yield %l : f32
        } else {
          scf.yield %zero : f32
        }
        dloop.store %v, %out0[%i, %j] : memref<8x8xf32>
        dloop.store %v, %out1[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return %y, %z : memref<8x8xf32>, memref<8x8xf32>
}

func.func @pad_tile(%arg0: memref<5x6xf32>) -> (memref<8x8xf32>, memref<8x8xf32>) {
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

func.func @overhang_tile(%arg0: memref<5x6xf32>) -> memref<8x6xf32> {
  %y = memref.alloc() : memref<8x6xf32>
  dtile.kernel @overhang ins(%x = %arg0 : memref<5x6xf32>) outs(%out0 = %y : memref<8x6xf32>) {
    dtile.tile blocks(%b : 2 "b") threads(%j : 6 "j") {
      %c4 = arith.constant 4 : index
      %r = arith.muli %b, %c4 : index
      %s = dtile.stage %x[%r, 0] box [4, 6] : memref<5x6xf32> -> memref<4x6xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[0, %j] : memref<4x6xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %out0[%b, %j] : memref<8x6xf32>
    }
  }
  return %y : memref<8x6xf32>
}
