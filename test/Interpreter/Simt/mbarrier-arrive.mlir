// RUN: deplodock-run --interp %s --func=rotate --compare-func=arrive_host --print=none | FileCheck %s --check-prefix=ARRIVE
// RUN: sed -e 's/%%arrivers = arith.constant 256/%%arrivers = arith.constant 192/' %s > %t.short.mlir
// RUN: not deplodock-run --interp %t.short.mlir --func=rotate --compare-func=arrive_host --print=none 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: sed -e 's/%%regs_lanes = arith.constant 128/%%regs_lanes = arith.constant 64/' %s > %t.partial.mlir
// RUN: not deplodock-run --interp %t.partial.mlir --func=rotate --compare-func=arrive_host --print=none 2>&1 | FileCheck %s --check-prefix=PARTIAL

/// Plain mbarrier arrivals and register reallocation on the SIMT
/// interpreter. Each of 256 threads (two warpgroups: the first lowers its
/// registers, the second raises them) writes its element to shared memory
/// and arrives on an mbarrier initialised for 256 arrivals; after the wait
/// (the phase completes only once all have arrived) each reads its
/// neighbour's: y[b, i] = x[b, (i + 1) mod 256]. If only 192 threads
/// arrive, the wait can never complete (an error, not a hang); a setmaxnreg
/// reached by half a warpgroup is an error.
// ARRIVE: compare result #0 @arrive_host: {{.*}}: PASS
// SHORT: error: 'dkernel.mbarrier_wait' op waits for phase parity 0 of mbarrier 0, which never completes: 64 arrivals missing, 0 of 0 expected bytes loaded in thread 0 of block (0, 0, 0)
// PARTIAL: error: 'dkernel.setmaxnreg' op reached by 64 of the 128 threads of warpgroup 0 of block (0, 0, 0); the whole warpgroup executes it

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {

func.func @rotate(%arg0: memref<4x256xf32>) -> memref<4x256xf32> {
  %out = memref.alloc() : memref<4x256xf32>
  dloop.kernel @rotate ins(%x = %arg0 : memref<4x256xf32>) outs(%y = %out : memref<4x256xf32>) {
    dloop.for %b = 0 to 4 free "b" {
      dloop.for %i = 0 to 256 free "i" {
        %n = affine.apply affine_map<(d0) -> ((d0 + 1) mod 256)>(%i)
        %v = dloop.load %x[%b, %n] : memref<4x256xf32>
        dloop.store %v, %y[%b, %i] : memref<4x256xf32>
      }
    }
  }
  return %out : memref<4x256xf32>
}

dkernel.func @arrive(%x: memref<4x256xf32>, %y: memref<4x256xf32>) outputs [1] grid [4, 1, 1] block [256, 1, 1] smem 1032 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %arrivers = arith.constant 256 : index
  %regs_lanes = arith.constant 128 : index
  %tile = dkernel.alloc_shared offset 0 : memref<256xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 1024 : memref<1xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 256 : memref<1xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %first = arith.cmpi ult, %t, %regs_lanes : index
  %second = arith.cmpi uge, %t, %c128 : index
  scf.if %first {
    dkernel.setmaxnreg dec 40
  }
  scf.if %second {
    dkernel.setmaxnreg inc 232
  }
  %v = memref.load %x[%b, %t] : memref<4x256xf32>
  memref.store %v, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
  %arrives = arith.cmpi ult, %t, %arrivers : index
  scf.if %arrives {
    dkernel.mbarrier_arrive %mb[%c0] : memref<1xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<1xi64, #gpu.address_space<workgroup>>
  %n0 = arith.addi %t, %c1 : index
  %n = arith.remui %n0, %c256 : index
  %w = memref.load %tile[%n] : memref<256xf32, #gpu.address_space<workgroup>>
  memref.store %w, %y[%b, %t] : memref<4x256xf32>
  dkernel.return
}

func.func @arrive_host(%x: memref<4x256xf32>) -> memref<4x256xf32> {
  %y = memref.alloc() : memref<4x256xf32>
  dkernel.launch @arrive(%x, %y) : memref<4x256xf32>, memref<4x256xf32>
  return %y : memref<4x256xf32>
}

}
