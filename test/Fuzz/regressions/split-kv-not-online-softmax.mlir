// Fuzz finding (fuzz/FINDINGS.md, seed 22, ir #2248, #2949, #4497, #4573):
// attention_blocks' split_kv merged the partial softmaxes of key loops that
// were not an online softmax (sdpa.loop with the -inf that starts the
// running maximum made 0.5, or math.exp made math.tanh, or a subf made an
// addf): silently wrong results. The split now proves the recurrence first
// (maximum from -inf, sum from 0, the new maximum used only in exp(x - m),
// l' = l * c + p, a' = a * c + p * v). Seed 23, ir #968: an addf made
// maximumf in the same loop. Seed 24, ir #2262: the guard of an all -inf
// row (m == -inf ? 0 : m) made m > -inf ? 0 : m, so the maximum is not
// what exp(x - m) subtracts. Seed 49, ir #4784: p = exp(s - s * scale), a
// copy of the scaled score subtracted instead of the new maximum (c and p
// must both subtract it).
// RUN: rm -rf %t && split-file %s %t
// RUN: deplodock-run --interp %t/init.mlir --print=none --compare=dtile-lower,convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-run --interp %t/tanh.mlir --print=none --compare=dtile-lower,convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-run --interp %t/maximumf.mlir --print=none --compare=dtile-lower,convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-run --interp %t/guard.mlir --print=none --compare=dtile-lower,convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-run --interp %t/subtrahend.mlir --print=none --compare=dtile-lower,convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %t/subtrahend.mlir --dtile-tileify --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t/guard.mlir --dtile-tileify --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %t/init.mlir --dtile-tileify --dtile-attention-blocks=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// CHECK: compare result #0 after 'dtile-lower,convert-dtile-to-dkernel': {{.*}}: PASS
// FORKS: attention_blocks: (BKV, BQ, split_kv) in {
// FORKS-NOT: , 2)
//--- init.mlir
#map = affine_map<(d0, d1) -> (-d0 + d1 - 1)>
module {
  func.func @sdpa(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<1x4x8x8xf32>
    dloop.kernel @sdpa_0_reduce ins(%in0 = %arg2 : memref<1x2x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x2x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
      %cst = arith.constant 0.353553385 : f32
      %c0 = arith.constant 0 : index
      %cst_0 = arith.constant 0.5 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 4 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %alloca = memref.alloca() : memref<8xf32>
          dloop.for %d2 = 0 to 8 free "d2" {
            dloop.store %cst_1, %alloca[%d2] : memref<8xf32>
          }
          %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
            %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
              %15 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
              %16 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
              %17 = arith.mulf %15, %16 : f32
              %18 = arith.addf %acc_3, %17 : f32
              dloop.yield %18 : f32
            }
            %2 = affine.apply #map(%d1, %r0)
            %3 = arith.cmpi sge, %2, %c0 : index
            %4 = arith.mulf %1, %cst : f32
            %5 = arith.select %3, %cst_0, %4 : f32
            %6 = arith.maxnumf %acc, %5 : f32
            %7 = arith.cmpf oeq, %6, %cst_0 : f32
            %8 = arith.select %7, %cst_1, %6 : f32
            %9 = arith.subf %acc, %8 : f32
            %10 = math.exp %9 : f32
            %11 = arith.subf %5, %8 : f32
            %12 = math.exp %11 : f32
            %13 = arith.mulf %acc_2, %10 : f32
            %14 = arith.addf %13, %12 : f32
            dloop.for %d3 = 0 to 8 free "d3" {
              %15 = dloop.load %alloca[%d3] : memref<8xf32>
              %16 = arith.mulf %15, %10 : f32
              %17 = dloop.load %in0[0, %d0 floordiv 2, %r0, %d3] : memref<1x2x8x8xf32>
              %18 = arith.mulf %12, %17 : f32
              %19 = arith.addf %16, %18 : f32
              dloop.store %19, %alloca[%d3] : memref<8xf32>
            }
            dloop.yield %6, %14 : f32, f32
          }
          dloop.for %d4 = 0 to 8 free "d4" {
            %1 = dloop.load %alloca[%d4] : memref<8xf32>
            %2 = arith.divf %1, %0#1 : f32
            dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
          }
        }
      }
    }
    return %alloc : memref<1x4x8x8xf32>
  }
}

//--- tanh.mlir
#map = affine_map<(d0, d1) -> (-d0 + d1 - 1)>
module {
  func.func @sdpa(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<1x4x8x8xf32>
    dloop.kernel @sdpa_0_reduce ins(%in0 = %arg2 : memref<1x2x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x2x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
      %cst = arith.constant 0.353553385 : f32
      %c0 = arith.constant 0 : index
      %cst_0 = arith.constant 0xFF800000 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 4 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %alloca = memref.alloca() : memref<8xf32>
          dloop.for %d2 = 0 to 8 free "d2" {
            dloop.store %cst_1, %alloca[%d2] : memref<8xf32>
          }
          %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
            %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
              %15 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
              %16 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
              %17 = arith.mulf %15, %16 : f32
              %18 = arith.addf %acc_3, %17 : f32
              dloop.yield %18 : f32
            }
            %2 = affine.apply #map(%d1, %r0)
            %3 = arith.cmpi sge, %2, %c0 : index
            %4 = arith.mulf %1, %cst : f32
            %5 = arith.select %3, %cst_0, %4 : f32
            %6 = arith.maxnumf %acc, %5 : f32
            %7 = arith.cmpf oeq, %6, %cst_0 : f32
            %8 = arith.select %7, %cst_1, %6 : f32
            %9 = arith.subf %acc, %8 : f32
            %10 = math.exp %9 : f32
            %11 = arith.subf %5, %8 : f32
            %12 = math.tanh %11 : f32
            %13 = arith.mulf %acc_2, %10 : f32
            %14 = arith.addf %13, %12 : f32
            dloop.for %d3 = 0 to 8 free "d3" {
              %15 = dloop.load %alloca[%d3] : memref<8xf32>
              %16 = arith.mulf %15, %10 : f32
              %17 = dloop.load %in0[0, %d0 floordiv 2, %r0, %d3] : memref<1x2x8x8xf32>
              %18 = arith.mulf %12, %17 : f32
              %19 = arith.addf %16, %18 : f32
              dloop.store %19, %alloca[%d3] : memref<8xf32>
            }
            dloop.yield %6, %14 : f32, f32
          }
          dloop.for %d4 = 0 to 8 free "d4" {
            %1 = dloop.load %alloca[%d4] : memref<8xf32>
            %2 = arith.divf %1, %0#1 : f32
            dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
          }
        }
      }
    }
    return %alloc : memref<1x4x8x8xf32>
  }
}
//--- maximumf.mlir
#map = affine_map<(d0, d1) -> (-d0 + d1 - 1)>
module {
  func.func @sdpa(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<1x4x8x8xf32>
    dloop.kernel @sdpa_0_reduce ins(%in0 = %arg2 : memref<1x2x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x2x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
      %cst = arith.constant 0.353553385 : f32
      %c0 = arith.constant 0 : index
      %cst_0 = arith.constant 0xFF800000 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 4 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %alloca = memref.alloca() : memref<8xf32>
          dloop.for %d2 = 0 to 8 free "d2" {
            dloop.store %cst_1, %alloca[%d2] : memref<8xf32>
          }
          %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
            %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
              %15 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
              %16 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
              %17 = arith.mulf %15, %16 : f32
              %18 = arith.addf %acc_3, %17 : f32
              dloop.yield %18 : f32
            }
            %2 = affine.apply #map(%d1, %r0)
            %3 = arith.cmpi sge, %2, %c0 : index
            %4 = arith.mulf %1, %cst : f32
            %5 = arith.select %3, %cst_0, %4 : f32
            %6 = arith.maxnumf %acc, %5 : f32
            %7 = arith.cmpf oeq, %6, %cst_0 : f32
            %8 = arith.select %7, %cst_1, %6 : f32
            %9 = arith.subf %acc, %8 : f32
            %10 = math.exp %9 : f32
            %11 = arith.subf %5, %8 : f32
            %12 = math.exp %11 : f32
            %13 = arith.mulf %acc_2, %10 : f32
            %14 = arith.addf %13, %12 : f32
            dloop.for %d3 = 0 to 8 free "d3" {
              %15 = dloop.load %alloca[%d3] : memref<8xf32>
              %16 = arith.mulf %15, %10 : f32
              %17 = dloop.load %in0[0, %d0 floordiv 2, %r0, %d3] : memref<1x2x8x8xf32>
              %18 = arith.mulf %12, %17 : f32
              %19 = arith.maximumf %16, %18 : f32
              dloop.store %19, %alloca[%d3] : memref<8xf32>
            }
            dloop.yield %6, %14 : f32, f32
          }
          dloop.for %d4 = 0 to 8 free "d4" {
            %1 = dloop.load %alloca[%d4] : memref<8xf32>
            %2 = arith.divf %1, %0#1 : f32
            dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
          }
        }
      }
    }
    return %alloc : memref<1x4x8x8xf32>
  }
}
//--- guard.mlir
#map = affine_map<(d0, d1) -> (-d0 + d1 - 1)>
module {
  func.func @sdpa(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x2x8x8xf32>, %arg2: memref<1x2x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<1x4x8x8xf32>
    dloop.kernel @sdpa_0_reduce ins(%in0 = %arg2 : memref<1x2x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x2x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
      %cst = arith.constant 0.353553385 : f32
      %c0 = arith.constant 0 : index
      %cst_0 = arith.constant 0xFF800000 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 4 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %alloca = memref.alloca() : memref<8xf32>
          dloop.for %d2 = 0 to 8 free "d2" {
            dloop.store %cst_1, %alloca[%d2] : memref<8xf32>
          }
          %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
            %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
              %15 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
              %16 = dloop.load %in2[0, %d0 floordiv 2, %r0, %r1] : memref<1x2x8x8xf32>
              %17 = arith.mulf %15, %16 : f32
              %18 = arith.addf %acc_3, %17 : f32
              dloop.yield %18 : f32
            }
            %2 = affine.apply #map(%d1, %r0)
            %3 = arith.cmpi sge, %2, %c0 : index
            %4 = arith.mulf %1, %cst : f32
            %5 = arith.select %3, %cst_0, %4 : f32
            %6 = arith.maxnumf %acc, %5 : f32
            %7 = arith.cmpf ogt, %6, %cst_0 : f32
            %8 = arith.select %7, %cst_1, %6 : f32
            %9 = arith.subf %acc, %8 : f32
            %10 = math.exp %9 : f32
            %11 = arith.subf %5, %8 : f32
            %12 = math.exp %11 : f32
            %13 = arith.mulf %acc_2, %10 : f32
            %14 = arith.addf %13, %12 : f32
            dloop.for %d3 = 0 to 8 free "d3" {
              %15 = dloop.load %alloca[%d3] : memref<8xf32>
              %16 = arith.mulf %15, %10 : f32
              %17 = dloop.load %in0[0, %d0 floordiv 2, %r0, %d3] : memref<1x2x8x8xf32>
              %18 = arith.mulf %12, %17 : f32
              %19 = arith.addf %16, %18 : f32
              dloop.store %19, %alloca[%d3] : memref<8xf32>
            }
            dloop.yield %6, %14 : f32, f32
          }
          dloop.for %d4 = 0 to 8 free "d4" {
            %1 = dloop.load %alloca[%d4] : memref<8xf32>
            %2 = arith.divf %1, %0#1 : f32
            dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
          }
        }
      }
    }
    return %alloc : memref<1x4x8x8xf32>
  }
}
//--- subtrahend.mlir
#map = affine_map<(d0, d1) -> (-d0 + d1 - 1)>
module {
  func.func @naive_attn(%arg0: memref<1x4x8x8xf32>, %arg1: memref<1x4x8x8xf32>, %arg2: memref<1x4x8x8xf32>) -> memref<1x4x8x8xf32> {
    %alloc = memref.alloc() : memref<1x4x8x8xf32>
    dloop.kernel @naive_attn_0_reduce ins(%in0 = %arg2 : memref<1x4x8x8xf32>, %in1 = %arg0 : memref<1x4x8x8xf32>, %in2 = %arg1 : memref<1x4x8x8xf32>) outs(%out0 = %alloc : memref<1x4x8x8xf32>) {
      %cst = arith.constant 0.353553385 : f32
      %cst_0 = arith.constant -1.000000e+09 : f32
      %c0 = arith.constant 0 : index
      %cst_1 = arith.constant 0xFF800000 : f32
      %cst_2 = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 4 free "d0" {
        dloop.for %d1 = 0 to 8 free "d1" {
          %alloca = memref.alloca() : memref<8xf32>
          dloop.for %d2 = 0 to 8 free "d2" {
            dloop.store %cst_2, %alloca[%d2] : memref<8xf32>
          }
          %0:2 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst_1 : f32, %acc_3 = %cst_2 : f32) {
            %1 = dloop.for %r1 = 0 to 8 reduce "r1" iter(%acc_4 = %cst_2 : f32) {
              %16 = dloop.load %in1[0, %d0, %d1, %r1] : memref<1x4x8x8xf32>
              %17 = dloop.load %in2[0, %d0, %r0, %r1] : memref<1x4x8x8xf32>
              %18 = arith.mulf %16, %17 : f32
              %19 = arith.addf %acc_4, %18 : f32
              dloop.yield %19 : f32
            }
            %2 = affine.apply #map(%d1, %r0)
            %3 = arith.cmpi sge, %2, %c0 : index
            %4 = arith.select %3, %cst_0, %cst_2 : f32
            %5 = arith.mulf %1, %cst : f32
            %dup_5 = arith.mulf %1, %cst : f32
            %6 = arith.addf %5, %4 : f32
            %7 = arith.maxnumf %acc, %6 : f32
            %8 = arith.cmpf oeq, %7, %cst_1 : f32
            %9 = arith.select %8, %cst_2, %7 : f32
            %10 = arith.subf %acc, %9 : f32
            %11 = math.exp %10 : f32
            %12 = arith.subf %6, %dup_5 : f32
            %13 = math.exp %12 : f32
            %14 = arith.mulf %acc_3, %11 : f32
            %15 = arith.addf %14, %13 : f32
            dloop.for %d3 = 0 to 8 free "d3" {
              %16 = dloop.load %alloca[%d3] : memref<8xf32>
              %17 = arith.mulf %16, %11 : f32
              %18 = dloop.load %in0[0, %d0, %r0, %d3] : memref<1x4x8x8xf32>
              %19 = arith.mulf %13, %18 : f32
              %20 = arith.addf %17, %19 : f32
              dloop.store %20, %alloca[%d3] : memref<8xf32>
            }
            dloop.yield %7, %15 : f32, f32
          }
          dloop.for %d4 = 0 to 8 free "d4" {
            %1 = dloop.load %alloca[%d4] : memref<8xf32>
            %2 = arith.divf %1, %0#1 : f32
            dloop.store %2, %out0[0, %d0, %d1, %d4] : memref<1x4x8x8xf32>
          }
        }
      }
    }
    return %alloc : memref<1x4x8x8xf32>
  }
}

