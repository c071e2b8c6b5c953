// deplodock-run --bench of a Kernel IR module targeting sm_90a on the bench
// worker's fake device: the CPU interpreter runs the wgmma kernel for the
// reference, and with the real NVRTC (--fake-nvrtc) the program compiles
// for sm_90a (its compile options name the target's architecture, which
// replaces the device's sm_90: wgmma does not assemble for plain sm_90).
// RUN: deplodock-run --bench %s --func=f --fake-device --warmup-ms=0.1 --max-time-ms=1 | FileCheck %s
// RUN: %if runtime-nvrtc %{ deplodock-run --bench %s --func=f --fake-device --worker-arg=--fake-nvrtc --warmup-ms=0.1 --max-time-ms=1 | FileCheck %s --check-prefix=NVRTC %}
// CHECK: @f on Deplodock fake GPU (sm_90, 132 SMs
// CHECK: reference: 1 output checked against the CPU interpreter
// CHECK: wgmma_bf16
// NVRTC: @f on Deplodock fake GPU (sm_90, 132 SMs, driver 0.0-fake, CUDA 13.0, NVRTC {{[0-9]+\.[0-9]+}})
// NVRTC: reference: 1 output checked against the CPU interpreter

/// The layer manifest carries the architecture too, for the runtime's C API.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-translate --emit-cuda --cuda-manifest=%t/m.json --cuda-manifest-func=f %s -o %t/out.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/m.json
// MANIFEST: "compile_options": [
// MANIFEST-NEXT: "--gpu-architecture=sm_90a"
// MANIFEST-NEXT: ],

module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {

dkernel.func @wgmma_bf16(%a: memref<64x16xbf16>, %b: memref<8x16xbf16>, %c: memref<64x8xf32>, %d: memref<64x8xf32>) outputs [3] grid [1, 1, 1] block [128, 1, 1] smem 2304 {
  %sa = dkernel.alloc_shared offset 0 : memref<8x2x8x8xbf16, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 2048 : memref<1x2x8x8xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  // Thread t copies row t / 2, columns 8 (t % 2) .. + 7 of A into core
  // matrix [t / 16][t % 2], row (t / 2) % 8; threads 0-15 do the same for B.
  %row = arith.divui %t, %c2 : index
  %kc = arith.remui %t, %c2 : index
  %k0 = arith.muli %kc, %c8 : index
  %rg = arith.divui %row, %c8 : index
  %rr = arith.remui %row, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %k = arith.addi %k0, %i : index
    %v = memref.load %a[%row, %k] : memref<64x16xbf16>
    memref.store %v, %sa[%rg, %kc, %rr, %i] : memref<8x2x8x8xbf16, #gpu.address_space<workgroup>>
  }
  %isb = arith.cmpi ult, %t, %c16 : index
  scf.if %isb {
    scf.for %i = %c0 to %c8 step %c1 {
      %k = arith.addi %k0, %i : index
      %v = memref.load %b[%row, %k] : memref<8x16xbf16>
      memref.store %v, %sb[%c0, %kc, %rr, %i] : memref<1x2x8x8xbf16, #gpu.address_space<workgroup>>
    }
  }
  gpu.barrier
  dkernel.fence_proxy_async
  dkernel.wgmma_fence
  // Accumulator i of thread t: D[16 w + g + 8 (i / 2)][2 q + i % 2].
  %w = arith.divui %t, %c32 : index
  %lane = arith.remui %t, %c32 : index
  %g = arith.divui %lane, %c4 : index
  %q = arith.remui %lane, %c4 : index
  %w16 = arith.muli %w, %c16 : index
  %r0 = arith.addi %w16, %g : index
  %r1 = arith.addi %r0, %c8 : index
  %col0 = arith.muli %q, %c2 : index
  %col1 = arith.addi %col0, %c1 : index
  %x0 = memref.load %c[%r0, %col0] : memref<64x8xf32>
  %x1 = memref.load %c[%r0, %col1] : memref<64x8xf32>
  %x2 = memref.load %c[%r1, %col0] : memref<64x8xf32>
  %x3 = memref.load %c[%r1, %col1] : memref<64x8xf32>
  %da = dkernel.wgmma_desc %sa[%c0, %c0, %c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<8x2x8x8xbf16, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %sb[%c0, %c0, %c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<1x2x8x8xbf16, #gpu.address_space<workgroup>>
  %acc:4 = dkernel.wgmma_mma_async %da, %db, [%x0, %x1, %x2, %x3] n 8 : bf16
  dkernel.wgmma_commit_group
  %r:4 = dkernel.wgmma_wait_group 0 [%acc#0, %acc#1, %acc#2, %acc#3]
  memref.store %r#0, %d[%r0, %col0] : memref<64x8xf32>
  memref.store %r#1, %d[%r0, %col1] : memref<64x8xf32>
  memref.store %r#2, %d[%r1, %col0] : memref<64x8xf32>
  memref.store %r#3, %d[%r1, %col1] : memref<64x8xf32>
  dkernel.return
}

func.func @f(%a: memref<64x16xbf16>, %b: memref<8x16xbf16>, %c: memref<64x8xf32>) -> memref<64x8xf32> {
  %d = memref.alloc() : memref<64x8xf32>
  dkernel.launch @wgmma_bf16(%a, %b, %c, %d) : memref<64x16xbf16>, memref<8x16xbf16>, memref<64x8xf32>, memref<64x8xf32>
  return %d : memref<64x8xf32>
}

}
