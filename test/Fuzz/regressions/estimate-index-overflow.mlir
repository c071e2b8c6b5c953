// Fuzz finding (fuzz/FINDINGS.md, seed 53 under UBSan, ir #897): the cost
// model evaluated a warp's addresses from index arithmetic that a mutated
// constant (2^62) took past 64 bits, a signed overflow in dkernel-estimate.
// The model's index evaluator now treats any value past 64 bits (sums,
// differences, products, shifts, the most negative value divided by -1, a
// loop's span) as unknown, as it treats an index it cannot evaluate, and the
// estimate goes on. Seed 55 (ir #773, decoder_block.kernel with an extent
// of 2^62) overflowed the row strides of a buffer: unknown addresses too.
// (scripts/sanitize.sh runs this under UBSan.)
// RUN: %fuzz_check -- deplodock-opt %s --dkernel-estimate -o %t.mlir
// RUN: deplodock-opt %s --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: estimate of @far_address:
// CHECK: remark: estimate of @far_product:
// CHECK: remark: estimate of @min_over_minus_one:
// CHECK: remark: estimate of @far_loop:
// CHECK: remark: estimate of @far_strides:
dkernel.func @far_address(%y: memref<64x4xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %big = arith.constant 4611686018427387904 : index
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %i = arith.addi %t, %big : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %y[%i, %c0] : memref<64x4xf32>
  dkernel.return
}
dkernel.func @far_product(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %big = arith.constant 4611686018427387904 : index
  %c8 = arith.constant 8 : index
  %c3 = arith.constant 3 : index
  %t = gpu.thread_id x
  %m = arith.muli %big, %c8 : index
  %s = arith.shli %big, %c3 : index
  %a = arith.addi %m, %s : index
  %i = arith.addi %a, %t : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %y[%i] : memref<64xf32>
  dkernel.return
}
dkernel.func @min_over_minus_one(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %min = arith.constant -9223372036854775808 : index
  %m1 = arith.constant -1 : index
  %t = gpu.thread_id x
  %q = arith.divsi %min, %m1 : index
  %r = arith.remsi %min, %m1 : index
  %d = arith.floordivsi %min, %m1 : index
  %e = arith.ceildivsi %min, %m1 : index
  %a = arith.addi %q, %r : index
  %b = arith.addi %d, %e : index
  %c = arith.addi %a, %b : index
  %i = arith.addi %c, %t : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %y[%i] : memref<64xf32>
  dkernel.return
}
dkernel.func @far_loop(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %lo = arith.constant -9223372036854775807 : index
  %hi = arith.constant 9223372036854775807 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  %f = arith.constant 1.0 : f32
  scf.for %k = %lo to %hi step %c1 {
    %i = arith.addi %k, %t : index
    memref.store %f, %y[%i] : memref<64xf32>
  }
  dkernel.return
}
dkernel.func @far_strides(%x: memref<1x8x4611686018427387904xf32>, %y: memref<64xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %t = gpu.thread_id x
  %r = arith.remui %t, %c7 : index
  %v = memref.load %x[%c0, %r, %t] : memref<1x8x4611686018427387904xf32>
  memref.store %v, %y[%t] : memref<64xf32>
  dkernel.return
}
