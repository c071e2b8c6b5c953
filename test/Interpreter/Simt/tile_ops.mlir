// RUN: deplodock-run --interp %s --func=row_stats_loop --compare-func=row_stats_tile --print=none | FileCheck %s --check-prefix=STATS
// RUN: deplodock-run --interp %s --func=sum_loop --compare-func=sum_tile --print=none | FileCheck %s --check-prefix=SUM
// RUN: deplodock-run --interp %s --func=silu_loop --compare-func=silu_tile --print=none | FileCheck %s --check-prefix=SILU
// RUN: deplodock-run --interp %s --func=stage_forms --print=values | FileCheck %s --check-prefix=FORMS
// RUN: deplodock-run --interp %s --func=rounding_loop --compare-func=rounding_tile --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=ROUNDING

/// Tile IR kernels of test/Dialect/DTile/ops.mlir against Loop IR
/// references. @row_stats has two thread axes (ty, tx): combines over
/// ["tx"] give per-row results, over ["ty", "tx"] one per block, on floats
/// and integers. @vector_sum is a threads-only tile whose strided reduce
/// loop folds through a reducing store, thread after thread; @row_copy a
/// blocks-only tile. @silu rebuilds the element index with floordiv and
/// mod.

// STATS: compare result #0 @row_stats_tile: {{.*}}: PASS
// STATS: compare result #1 @row_stats_tile: {{.*}}: PASS
// STATS: compare result #2 @row_stats_tile: {{.*}}: PASS
// STATS: compare result #3 @row_stats_tile: {{.*}}: PASS
// SUM: compare result #0 @sum_tile: max abs error 0, max rel error 0: PASS
// SUM: compare result #1 @sum_tile: max abs error 0, max rel error 0: PASS
// SILU: compare result #0 @silu_tile: {{.*}}: PASS

/// truncf's rounding modes hold on the SIMT interpreter as on the
/// sequential one: in a computed stage's apply region (toward zero) and in
/// a thread's code (upward); inputs in [-1, 1) round differently to bf16
/// under each, so the bit-exact comparison shows any mode lost.
// ROUNDING: compare result #0 @rounding_tile: max abs error 0, max rel error 0: PASS

func.func @row_stats_loop(%arg0: memref<16x256xf32>) -> (memref<16xf32>, memref<16xf32>, memref<4xf32>, memref<4xi32>) {
  %sums = memref.alloc() : memref<16xf32>
  %maxes = memref.alloc() : memref<16xf32>
  %top = memref.alloc() : memref<4xf32>
  %count = memref.alloc() : memref<4xi32>
  dloop.kernel @row_stats ins(%x = %arg0 : memref<16x256xf32>) outs(%s = %sums : memref<16xf32>, %m = %maxes : memref<16xf32>, %tp = %top : memref<4xf32>, %cnt = %count : memref<4xi32>) {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %izero = arith.constant 0 : i32
    dloop.for %b = 0 to 4 free "b" {
      dloop.store %ninf, %tp[%b] : memref<4xf32>
      dloop.store %izero, %cnt[%b] : memref<4xi32>
      dloop.for %ty = 0 to 4 free "ty" {
        %r:2 = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %zero : f32, %mx = %ninf : f32) {
          %v = dloop.load %x[%b * 4 + %ty, %k] : memref<16x256xf32>
          %a = arith.addf %acc, %v : f32
          %n = arith.maximumf %mx, %v : f32
          dloop.yield %a, %n : f32, f32
        }
        dloop.store %r#0, %s[%b * 4 + %ty] : memref<16xf32>
        dloop.store %r#1, %m[%b * 4 + %ty] : memref<16xf32>
        dloop.store max %r#1, %tp[%b] : memref<4xf32>
        // Threads whose strided partial sum is positive.
        dloop.for %tx = 0 to 64 free "tx" {
          %p = dloop.for %j = 0 to 4 reduce "j" iter(%acc = %zero : f32) {
            %v = dloop.load %x[%b * 4 + %ty, %tx + %j * 64] : memref<16x256xf32>
            %a = arith.addf %acc, %v : f32
            dloop.yield %a : f32
          }
          %pos = arith.cmpf ogt, %p, %zero : f32
          %one = arith.extui %pos : i1 to i32
          dloop.store add %one, %cnt[%b] : memref<4xi32>
        }
      }
    }
  }
  return %sums, %maxes, %top, %count : memref<16xf32>, memref<16xf32>, memref<4xf32>, memref<4xi32>
}

func.func @row_stats_tile(%arg0: memref<16x256xf32>) -> (memref<16xf32>, memref<16xf32>, memref<4xf32>, memref<4xi32>) {
  %arg1 = memref.alloc() : memref<16xf32>
  %arg2 = memref.alloc() : memref<16xf32>
  %arg3 = memref.alloc() : memref<4xf32>
  %arg4 = memref.alloc() : memref<4xi32>
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
  return %arg1, %arg2, %arg3, %arg4 : memref<16xf32>, memref<16xf32>, memref<4xf32>, memref<4xi32>
}

func.func @sum_loop(%arg0: memref<1000xf32>, %arg2: memref<8x16xf32>) -> (memref<1xf32>, memref<8x16xf32>) {
  %s = memref.alloc() : memref<1xf32>
  %y = memref.alloc() : memref<8x16xf32>
  dloop.kernel @vector_sum ins(%x = %arg0 : memref<1000xf32>) outs(%out = %s : memref<1xf32>) {
    %zero = arith.constant 0.0 : f32
    %sum = dloop.for %k = 0 to 1000 reduce "k" iter(%acc = %zero : f32) {
      %v = dloop.load %x[%k] : memref<1000xf32>
      %a = arith.addf %acc, %v : f32
      dloop.yield %a : f32
    }
    dloop.store %sum, %out[0] : memref<1xf32>
  }
  dloop.kernel @row_copy ins(%in = %arg2 : memref<8x16xf32>) outs(%out = %y : memref<8x16xf32>) {
    dloop.for %r = 0 to 8 free "r" {
      dloop.for %c = 0 to 16 free "c" {
        %v = dloop.load %in[%r, %c] : memref<8x16xf32>
        dloop.store %v, %out[%r, %c] : memref<8x16xf32>
      }
    }
  }
  return %s, %y : memref<1xf32>, memref<8x16xf32>
}

func.func @sum_tile(%arg0: memref<1000xf32>, %arg2: memref<8x16xf32>) -> (memref<1xf32>, memref<8x16xf32>) {
  %arg1 = memref.alloc() : memref<1xf32>
  %arg3 = memref.alloc() : memref<8x16xf32>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %arg1[%c0] : memref<1xf32>
  dtile.kernel @vector_sum ins(%x = %arg0 : memref<1000xf32>) outs(%s = %arg1 : memref<1xf32>) attributes {note = "one block"} {
    dtile.tile threads(%t : 128 "t") {
      dtile.strided_for %k = %t to 1000 step 128 reduce "k" {
        %v = dloop.load %x[%k] : memref<1000xf32>
        dloop.store add %v, %s[0] : memref<1xf32>
      } {note = "strided"}
    }
  }
  dtile.kernel @row_copy knobs<> ins(%x = %arg2 : memref<8x16xf32>) outs(%y = %arg3 : memref<8x16xf32>) {
    dtile.tile blocks(%r : 8 "r") attributes {note = "rows"} {
      dloop.for %c = 0 to 16 free "c" {
        %v = dloop.load %x[%r, %c] : memref<8x16xf32>
        dloop.store %v, %y[%r, %c] : memref<8x16xf32>
      }
    }
  }
  return %arg1, %arg3 : memref<1xf32>, memref<8x16xf32>
}

func.func @silu_loop(%arg0: memref<1x32x2048xf32>) -> memref<1x32x2048xf32> {
  %out = memref.alloc() : memref<1x32x2048xf32>
  dloop.kernel @silu ins(%x = %arg0 : memref<1x32x2048xf32>) outs(%y = %out : memref<1x32x2048xf32>) {
    %one = arith.constant 1.0 : f32
    dloop.for %i = 0 to 32 free "i" {
      dloop.for %j = 0 to 2048 free "j" {
        %v = dloop.load %x[0, %i, %j] : memref<1x32x2048xf32>
        %neg = arith.negf %v : f32
        %e = math.exp %neg : f32
        %d = arith.addf %e, %one : f32
        %s = arith.divf %v, %d : f32
        dloop.store %s, %y[0, %i, %j] : memref<1x32x2048xf32>
      }
    }
  }
  return %out : memref<1x32x2048xf32>
}

func.func @silu_tile(%arg0: memref<1x32x2048xf32>) -> memref<1x32x2048xf32> {
  %arg1 = memref.alloc() : memref<1x32x2048xf32>
  dtile.kernel @silu knobs<block_threads = 256> ins(%x = %arg0 : memref<1x32x2048xf32>) outs(%y = %arg1 : memref<1x32x2048xf32>) {
    %one = arith.constant 1.0 : f32
    dtile.tile blocks(%b : 256 "b") threads(%t : 256 "t") {
      %v = dloop.load %x[0, (%b * 256 + %t) floordiv 2048, (%b * 256 + %t) mod 2048] : memref<1x32x2048xf32>
      %neg = arith.negf %v : f32
      %e = math.exp %neg : f32
      %d = arith.addf %e, %one : f32
      %s = arith.divf %v, %d : f32
      dloop.store %s, %y[0, (%b * 256 + %t) floordiv 2048, (%b * 256 + %t) mod 2048] : memref<1x32x2048xf32>
    }
  }
  return %arg1 : memref<1x32x2048xf32>
}

/// Every form of stage reads back as the box of its source: padding and
/// swizzles change the layout in shared memory, not the slab's indices; a
/// cp_async or tma stage reads back after its wait. Element (r, c) of the
/// input is 1000 r + c; thread t copies slab element (10 t, 7 t) of each
/// stage to row t of the output (the fourth stage starts at column 32).
// FORMS:      result #0: tensor<4x6xf32>
// FORMS-NEXT: 0 0 0 32 0 0
// FORMS-NEXT: 10007 10007 10007 10039 10007 10007
// FORMS-NEXT: 20014 20014 20014 20046 20014 20014
// FORMS-NEXT: 30021 30021 30021 30053 30021 30021
func.func @stage_forms() -> memref<4x6xf32> {
  %x = memref.alloc() : memref<64x128xf32>
  %y = memref.alloc() : memref<4x6xf32>
  dloop.kernel @fill ins() outs(%xo = %x : memref<64x128xf32>) {
    dloop.for %r = 0 to 64 free "r" {
      dloop.for %c = 0 to 128 free "c" {
        %v = affine.apply affine_map<(r, c) -> (r * 1000 + c)>(%r, %c)
        %i = arith.index_cast %v : index to i32
        %f = arith.sitofp %i : i32 to f32
        dloop.store %f, %xo[%r, %c] : memref<64x128xf32>
      }
    }
  }
  dtile.kernel @stage_forms ins(%xi = %x : memref<64x128xf32>) outs(%yo = %y : memref<4x6xf32>) {
    %c1 = arith.constant 1 : index
    dtile.tile threads(%t : 4 "t") {
      %s0 = dtile.stage %xi[%t * 0, 0] box [32, 128] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s2 = dtile.stage %xi[0, 0] box [32, 128] pad [0, 4] : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s4 = dtile.stage %xi[0, 0] box [32, 128] transport cp_async : memref<64x128xf32> -> memref<32x128xf32, #gpu.address_space<workgroup>>
      %s3 = dtile.stage %xi[0, 32] box [32, 64] buffers 3 slot %c1 : memref<64x128xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
      %s5 = dtile.stage %xi[0, 0] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      %s6 = dtile.stage %xi[0, 0] box [32, 32] transport tma swizzle 128 : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0
      %row = affine.apply affine_map<(t) -> (t * 10)>(%t)
      %col = affine.apply affine_map<(t) -> (t * 7)>(%t)
      %v0 = dloop.load %s0[%row, %col] : memref<32x128xf32, #gpu.address_space<workgroup>>
      %v2 = dloop.load %s2[%row, %col] : memref<32x128xf32, #gpu.address_space<workgroup>>
      %v4 = dloop.load %s4[%row, %col] : memref<32x128xf32, #gpu.address_space<workgroup>>
      %v3 = dloop.load %s3[%row, %col] : memref<32x64xf32, #gpu.address_space<workgroup>>
      %v5 = dloop.load %s5[%row, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>
      %v6 = dloop.load %s6[%row, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v0, %yo[%t, 0] : memref<4x6xf32>
      dloop.store %v2, %yo[%t, 1] : memref<4x6xf32>
      dloop.store %v4, %yo[%t, 2] : memref<4x6xf32>
      dloop.store %v3, %yo[%t, 3] : memref<4x6xf32>
      dloop.store %v5, %yo[%t, 4] : memref<4x6xf32>
      dloop.store %v6, %yo[%t, 5] : memref<4x6xf32>
    }
  }
  return %y : memref<4x6xf32>
}

func.func @rounding_loop(%arg0: memref<4x64xf32>) -> memref<4x64xf32> {
  %out = memref.alloc() : memref<4x64xf32>
  dloop.kernel @rounding ins(%x = %arg0 : memref<4x64xf32>) outs(%o = %out : memref<4x64xf32>) {
    dloop.for %r = 0 to 4 free "r" {
      dloop.for %c = 0 to 64 free "c" {
        %v = dloop.load %x[%r, %c] : memref<4x64xf32>
        %z = arith.truncf %v toward_zero : f32 to bf16
        %zw = arith.extf %z : bf16 to f32
        %s = arith.mulf %zw, %v : f32
        %u = arith.truncf %s upward : f32 to bf16
        %uw = arith.extf %u : bf16 to f32
        dloop.store %uw, %o[%r, %c] : memref<4x64xf32>
      }
    }
  }
  return %out : memref<4x64xf32>
}

func.func @rounding_tile(%arg0: memref<4x64xf32>) -> memref<4x64xf32> {
  %out = memref.alloc() : memref<4x64xf32>
  dtile.kernel @rounding ins(%x = %arg0 : memref<4x64xf32>) outs(%o = %out : memref<4x64xf32>) {
    dtile.tile blocks(%r : 4 "r") threads(%c : 64 "c") {
      %zs = dtile.stage %x[%r, 0] box [1, 64] : memref<4x64xf32> -> memref<1x64xbf16, #gpu.address_space<workgroup>> apply() {
      ^bb0(%a: f32):
        %z = arith.truncf %a toward_zero : f32 to bf16
        dtile.yield %z : bf16
      }
      %zv = dloop.load %zs[0, %c] : memref<1x64xbf16, #gpu.address_space<workgroup>>
      %zw = arith.extf %zv : bf16 to f32
      %v = dloop.load %x[%r, %c] : memref<4x64xf32>
      %s = arith.mulf %zw, %v : f32
      %u = arith.truncf %s upward : f32 to bf16
      %uw = arith.extf %u : bf16 to f32
      dloop.store %uw, %o[%r, %c] : memref<4x64xf32>
    }
  }
  return %out : memref<4x64xf32>
}
