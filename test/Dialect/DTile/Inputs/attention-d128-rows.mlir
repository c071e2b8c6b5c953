// The Tile IR of a head-dimension-128 attention kernel (sdpa, S=37, two heads)
// after attention_blocks with BQ=32,BKV=16,split_kv=1: whole rows a thread,
// which attention_split_d splits and attention-split-d-refusals.mlir breaks
// one way at a time.
#map = affine_map<(d0, d1) -> (d0 * 32 + d1)>
#map1 = affine_map<(d0, d1) -> (d0 * 16 + d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0 * 16 + d1 - d2 * 32 - d3 - 1)>
module {
  func.func @sdpa(%arg0: memref<1x2x37x128xf32>, %arg1: memref<1x1x37x128xf32>, %arg2: memref<1x1x37x128xf32>) -> memref<1x2x37x128xf32> {
    %alloc = memref.alloc() : memref<1x2x37x128xf32>
    dtile.kernel @sdpa_0_reduce knobs<BKV = 16, BQ = 32, split_kv = 1> ins(%in0 = %arg2 : memref<1x1x37x128xf32>, %in1 = %arg0 : memref<1x2x37x128xf32>, %in2 = %arg1 : memref<1x1x37x128xf32>) outs(%out0 = %alloc : memref<1x2x37x128xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      %cst_0 = arith.constant 0xFF800000 : f32
      %c0 = arith.constant 0 : index
      %cst_1 = arith.constant 0.0883883461 : f32
      %c37 = arith.constant 37 : index
      dtile.tile blocks(%d0 : 2 "d0", %d1_o : 2 "d1_o") threads(%d1_i : 32 "d1_i") {
        %0 = affine.apply #map(%d1_o, %d1_i)
        %1 = arith.cmpi ult, %0, %c37 : index
        %alloca = memref.alloca() : memref<128xf32>
        dloop.for %d2 = 0 to 128 free "d2" {
          scf.if %1 {
            dloop.store %cst, %alloca[%d2] : memref<128xf32>
          }
        }
        %alloca_2 = memref.alloca() : memref<128xf32>
        dloop.for %r1_row = 0 to 128 free "r1_row" {
          %3 = scf.if %1 -> (f32) {
            %4 = dloop.load %in1[0, %d0, %d1_o * 32 + %d1_i, %r1_row] : memref<1x2x37x128xf32>
            scf.yield %4 : f32
          } else {
            scf.yield %cst : f32
          }
          dloop.store %3, %alloca_2[%r1_row] : memref<128xf32>
        }
        %2:2 = dloop.for %r0_o = 0 to 3 reduce "r0_o" iter(%acc = %cst_0 : f32, %acc_3 = %cst : f32) {
          %3:2 = dloop.for %r0_i = 0 to 16 reduce "r0_i" iter(%acc_4 = %acc : f32, %acc_5 = %acc_3 : f32) {
            %4 = affine.apply #map1(%r0_o, %r0_i)
            %5 = arith.cmpi ult, %4, %c37 : index
            %6:2 = scf.if %5 -> (f32, f32) {
              %7 = dloop.for %r1 = 0 to 128 reduce "r1" iter(%acc_6 = %cst : f32) {
                %21 = dloop.load %alloca_2[%r1] : memref<128xf32>
                %22 = dloop.load %in2[0, 0, %r0_o * 16 + %r0_i, %r1] : memref<1x1x37x128xf32>
                %23 = arith.mulf %21, %22 : f32
                %24 = arith.addf %acc_6, %23 : f32
                dloop.yield %24 : f32
              }
              %8 = affine.apply #map2(%r0_o, %r0_i, %d1_o, %d1_i)
              %9 = arith.cmpi sge, %8, %c0 : index
              %10 = arith.mulf %7, %cst_1 : f32
              %11 = arith.select %9, %cst_0, %10 : f32
              %12 = arith.maxnumf %acc_4, %11 : f32
              %13 = arith.cmpf oeq, %12, %cst_0 : f32
              %14 = arith.select %13, %cst, %12 : f32
              %15 = arith.subf %acc_4, %14 : f32
              %16 = math.exp %15 : f32
              %17 = arith.subf %11, %14 : f32
              %18 = math.exp %17 : f32
              %19 = arith.mulf %acc_5, %16 : f32
              %20 = arith.addf %19, %18 : f32
              dloop.for %d3 = 0 to 128 free "d3" {
                %21 = dloop.load %alloca[%d3] : memref<128xf32>
                %22 = arith.mulf %21, %16 : f32
                %23 = dloop.load %in0[0, 0, %r0_o * 16 + %r0_i, %d3] : memref<1x1x37x128xf32>
                %24 = arith.mulf %18, %23 : f32
                %25 = arith.addf %22, %24 : f32
                scf.if %1 {
                  dloop.store %25, %alloca[%d3] : memref<128xf32>
                }
              }
              scf.yield %12, %20 : f32, f32
            } else {
              scf.yield %acc_4, %acc_5 : f32, f32
            }
            dloop.yield %6#0, %6#1 : f32, f32
          }
          dloop.yield %3#0, %3#1 : f32, f32
        }
        dloop.for %d4 = 0 to 128 free "d4" {
          %3 = dloop.load %alloca[%d4] : memref<128xf32>
          %4 = arith.divf %3, %2#1 : f32
          scf.if %1 {
            dloop.store %4, %out0[0, %d0, %d1_o * 32 + %d1_i, %d4] : memref<1x2x37x128xf32>
          }
        }
      }
    }
    return %alloc : memref<1x2x37x128xf32>
  }
}

