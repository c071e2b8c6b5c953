// RUN: deplodock-run --interp %s --func=loop --compare-func=tile_sync --print=none | FileCheck %s --check-prefix=SYNC
// RUN: deplodock-run --interp %s --func=loop --compare-func=tile_cp_async --seed=3 --print=none | FileCheck %s --check-prefix=ASYNC
// RUN: not deplodock-run --interp %s --func=loop --compare-func=no_wait --print=none | FileCheck %s --check-prefix=NOWAIT
// RUN: not deplodock-run --interp %s --func=loop --compare-func=wrong_slot --print=none | FileCheck %s --check-prefix=SLOT

/// The matmul tiles of test/Dialect/DTile/ops.mlir against a Loop IR
/// reference: 16x16 output tiles per block, one element per thread, K in
/// chunks of 32 staged into shared slabs, synchronously or double-buffered
/// with cp.async. An async stage lands at the dtile.async_wait covering it
/// and its slab holds NaN in between, so dropping the wait, or refilling the
/// slot being read (slot ko mod 2 instead of (ko + 1) mod 2), fails.

// SYNC: compare result #0 @tile_sync: {{.*}}: PASS
// ASYNC: compare result #0 @tile_cp_async: {{.*}}: PASS
// NOWAIT: compare result #0 @no_wait: {{.*}} got nan: FAIL
// SLOT: compare result #0 @wrong_slot: {{.*}} got nan: FAIL

func.func @loop(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dloop.kernel @matmul ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 128 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %s = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %zero : f32) {
          %av = dloop.load %a[%m, %k] : memref<128x256xf32>
          %bv = dloop.load %b[%k, %n] : memref<256x64xf32>
          %p = arith.mulf %av, %bv : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %s, %c[%m, %n] : memref<128x64xf32>
      }
    }
  }
  return %out : memref<128x64xf32>
}

func.func @tile_sync(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul knobs<stage = [0, 1], BN = 16, BM = 16, BK = 32> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
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
  return %out : memref<128x64xf32>
}

func.func @tile_cp_async(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul_cp_async knobs<BK = 32, BM = 16, BN = 16, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 32] buffers 2 slot %c0 transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [32, 16] buffers 2 slot %c0 transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x32xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<32x16xf32, #gpu.address_space<workgroup>>) {
        dtile.async_wait keep 0
        %more = arith.cmpi ult, %ko, %c7 : index
        %next:2 = scf.if %more -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 32 + 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 32 + 32, %no * 16] box [32, 16] buffers 2 slot %slot transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
          scf.yield %an, %bn : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %as, %bs : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 8 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part, %next#0, %next#1 : f32, memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return %out : memref<128x64xf32>
}

func.func @no_wait(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul_cp_async knobs<BK = 32, BM = 16, BN = 16, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 32] buffers 2 slot %c0 transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [32, 16] buffers 2 slot %c0 transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x32xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<32x16xf32, #gpu.address_space<workgroup>>) {
        %more = arith.cmpi ult, %ko, %c7 : index
        %next:2 = scf.if %more -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 32 + 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 32 + 32, %no * 16] box [32, 16] buffers 2 slot %slot transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
          scf.yield %an, %bn : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %as, %bs : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 8 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part, %next#0, %next#1 : f32, memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return %out : memref<128x64xf32>
}

func.func @wrong_slot(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul_cp_async knobs<BK = 32, BM = 16, BN = 16, async_copy = true, double_buffer = true, pipeline = true, stage = [0, 1]> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %a0 = dtile.stage %a[%mo * 16, 0] box [16, 32] buffers 2 slot %c0 transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %b0 = dtile.stage %b[0, %no * 16] box [32, 16] buffers 2 slot %c0 transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
      %res:3 = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32, %as = %a0 : memref<16x32xf32, #gpu.address_space<workgroup>>, %bs = %b0 : memref<32x16xf32, #gpu.address_space<workgroup>>) {
        dtile.async_wait keep 0
        %more = arith.cmpi ult, %ko, %c7 : index
        %next:2 = scf.if %more -> (memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> (d0 mod 2)>(%ko)
          %an = dtile.stage %a[%mo * 16, %ko * 32 + 32] box [16, 32] buffers 2 slot %slot transport cp_async : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
          %bn = dtile.stage %b[%ko * 32 + 32, %no * 16] box [32, 16] buffers 2 slot %slot transport cp_async : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
          scf.yield %an, %bn : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %as, %bs : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 8 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part, %next#0, %next#1 : f32, memref<16x32xf32, #gpu.address_space<workgroup>>, memref<32x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return %out : memref<128x64xf32>
}
