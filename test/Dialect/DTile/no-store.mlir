// A kernel that stores nothing (its sum is dead) goes through every rule and
// down to an empty Kernel IR kernel: once cooperative_reduce's cleanup drops
// the dead tile, no rule applies (it used to crash in chunk_reduce).
// RUN: deplodock-opt %s --dtile-lower="list-forks=true" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %s --dtile-lower --convert-dtile-to-dkernel | FileCheck %s

// FORKS: remark: @k_0_reduce: cooperative_reduce: (rows, threads) in {32*, 1, (2, 32), (4, 32), (8, 32), (16, 32)}
// FORKS: remark: @k_0_reduce: blockify_launch: does not apply
// FORKS: remark: @k_0_reduce: chunk_reduce: does not apply
// FORKS: remark: @k_0_reduce: mark_unroll: does not apply

// CHECK: dkernel.func @k_0_reduce
// CHECK-NEXT: dkernel.return
// CHECK: dkernel.launch @k_0_reduce
func.func @f(%arg0: memref<64x8xf32>) -> memref<64xf32> {
  %alloc = memref.alloc() : memref<64xf32>
  dloop.kernel @k_0_reduce ins(%in0 = %arg0 : memref<64x8xf32>) outs(%out0 = %alloc : memref<64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 64 free "d0" {
      %0 = dloop.for %r0 = 0 to 8 reduce "r0" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%d0, %r0] : memref<64x8xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
    }
  }
  return %alloc : memref<64xf32>
}
