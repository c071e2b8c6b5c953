// RUN: deplodock-run --interp %s --func=reverse_rows --compare-func=vector_host --print=none | FileCheck %s --check-prefix=OK
// RUN: not deplodock-run --interp %s --func=misaligned_host --print=none 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not deplodock-run --interp %s --func=race_host --print=none 2>&1 | FileCheck %s --check-prefix=RACE

/// dkernel.vector_load / vector_store move a thread's run element by
/// element, race-tracked in shared memory like loads and stores; a run
/// that is not aligned to its width (which the GPU would fault on) is an
/// error naming the thread.

// OK: compare result #0 @vector_host: {{.*}}: PASS
// ALIGN: error: 'dkernel.vector_load' op accesses a run of 4 elements at element 2, which is not aligned to the run in thread 0 of block (0, 0, 0)
// RACE: error: 'dkernel.vector_load' op reads shared memory (pool byte {{[0-9]+}}) that thread {{[0-9]+}} wrote with no barrier between

/// The reference: y[r][c] = x[7 - r][c], element by element.
func.func @reverse_rows(%x: memref<8x16xf32>) -> memref<8x16xf32> {
  %y = memref.alloc() : memref<8x16xf32>
  dloop.kernel @rev ins(%in = %x : memref<8x16xf32>) outs(%out = %y : memref<8x16xf32>) {
    dloop.for %r = 0 to 8 free "r" {
      dloop.for %c = 0 to 16 free "c" {
        %v = dloop.load %in[7 - %r, %c] : memref<8x16xf32>
        dloop.store %v, %out[%r, %c] : memref<8x16xf32>
      }
    }
  }
  return %y : memref<8x16xf32>
}

/// 32 threads, a float4 each: global -> shared, then shared -> global with
/// the rows reversed.
dkernel.func @vec(%x: memref<8x16xf32>, %y: memref<8x16xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 512 {
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %t = gpu.thread_id x
  %r = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %c = arith.muli %q, %c4 : index
  %s = dkernel.alloc_shared offset 0 : memref<8x16xf32, #gpu.address_space<workgroup>>
  %a:4 = dkernel.vector_load %x[%r, %c] : memref<8x16xf32> -> f32, f32, f32, f32
  dkernel.vector_store(%a#0, %a#1, %a#2, %a#3), %s[%r, %c] : (f32, f32, f32, f32), memref<8x16xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %rr = arith.subi %c7, %r : index
  %b:4 = dkernel.vector_load %s[%rr, %c] : memref<8x16xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
  dkernel.vector_store(%b#0, %b#1, %b#2, %b#3), %y[%r, %c] : (f32, f32, f32, f32), memref<8x16xf32>
  dkernel.return
}

func.func @vector_host(%x: memref<8x16xf32>) -> memref<8x16xf32> {
  %y = memref.alloc() : memref<8x16xf32>
  dkernel.launch @vec(%x, %y) : memref<8x16xf32>, memref<8x16xf32>
  return %y : memref<8x16xf32>
}

/// Thread t reads from element 4 * t + 2: not 16-byte aligned.
dkernel.func @misaligned(%x: memref<256xf32>, %y: memref<256xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %i = arith.muli %t, %c4 : index
  %j = arith.addi %i, %c2 : index
  %a:4 = dkernel.vector_load %x[%j] : memref<256xf32> -> f32, f32, f32, f32
  dkernel.vector_store(%a#0, %a#1, %a#2, %a#3), %y[%i] : (f32, f32, f32, f32), memref<256xf32>
  dkernel.return
}

func.func @misaligned_host(%x: memref<256xf32>) -> memref<256xf32> {
  %y = memref.alloc() : memref<256xf32>
  dkernel.launch @misaligned(%x, %y) : memref<256xf32>, memref<256xf32>
  return %y : memref<256xf32>
}

/// The reversed read without the barrier reads another thread's run.
dkernel.func @race(%x: memref<8x16xf32>, %y: memref<8x16xf32>) outputs [1] grid [1, 1, 1] block [32, 1, 1] smem 512 {
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %t = gpu.thread_id x
  %r = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %c = arith.muli %q, %c4 : index
  %s = dkernel.alloc_shared offset 0 : memref<8x16xf32, #gpu.address_space<workgroup>>
  %a:4 = dkernel.vector_load %x[%r, %c] : memref<8x16xf32> -> f32, f32, f32, f32
  dkernel.vector_store(%a#0, %a#1, %a#2, %a#3), %s[%r, %c] : (f32, f32, f32, f32), memref<8x16xf32, #gpu.address_space<workgroup>>
  %rr = arith.subi %c7, %r : index
  %b:4 = dkernel.vector_load %s[%rr, %c] : memref<8x16xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
  dkernel.vector_store(%b#0, %b#1, %b#2, %b#3), %y[%r, %c] : (f32, f32, f32, f32), memref<8x16xf32>
  dkernel.return
}

func.func @race_host(%x: memref<8x16xf32>) -> memref<8x16xf32> {
  %y = memref.alloc() : memref<8x16xf32>
  dkernel.launch @race(%x, %y) : memref<8x16xf32>, memref<8x16xf32>
  return %y : memref<8x16xf32>
}
