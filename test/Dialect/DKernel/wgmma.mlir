// RUN: deplodock-opt %s | deplodock-opt | FileCheck %s
// RUN: deplodock-opt %s --mlir-print-op-generic | deplodock-opt | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cu %}

/// One warpgroup multiplies A (64 x 16) by B (16 x 8, stored K-major as
/// 8 x 16) on Hopper tensor cores: both staged in shared memory as 8 x 8
/// core matrices (no swizzle: LBO 128 bytes between the two along K, SBO
/// 256 between 8-row groups), D = A B + C by one wgmma, each thread storing
/// its four accumulators where the PTX ISA places them. The same kernel
/// shape, in every swizzle mode, runs on the SIMT interpreter in
/// unittests/Interpreter/SimtWgmmaTest.cpp.
// CHECK-LABEL: dkernel.func @wgmma_bf16
//       CHECK:   dkernel.fence_proxy_async
//       CHECK:   dkernel.wgmma_fence
//       CHECK:   %[[DA:.*]] = dkernel.wgmma_desc %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] swizzle 0 lbo 128 sbo 256 : memref<8x2x8x8xbf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[DB:.*]] = dkernel.wgmma_desc
//       CHECK:   %[[D:.*]]:4 = dkernel.wgmma_mma_async %[[DA]], %[[DB]], [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] n 8 : bf16
//       CHECK:   dkernel.wgmma_commit_group
//       CHECK:   %[[R:.*]]:4 = dkernel.wgmma_wait_group 0 [%[[D]]#0, %[[D]]#1, %[[D]]#2, %[[D]]#3]
//       CHECK:   memref.store %[[R]]#0
// CHECK-LABEL: dkernel.func @wgmma_f16_zero
//       CHECK:   dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [] n 16 : f16
// CHECK-LABEL: dkernel.func @wgmma_f8
//       CHECK:   dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [] n 16 : f8E4M3FN{{$}}
//       CHECK:   dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [%{{.*}}] n 16 : f8E5M2, f8E4M3FN{{$}}
// CHECK-LABEL: dkernel.func @wgmma_n256
//       CHECK:   %{{.*}}:128 = dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [] n 256 : bf16
// CHECK-LABEL: dkernel.func @wgmma_mn_major
//       CHECK:   dkernel.wgmma_desc %{{.*}}[%{{.*}}] swizzle 128 lbo 8192 sbo 1024 : memref<8192xbf16, #gpu.address_space<workgroup>>
//       CHECK:   %{{.*}}:64 = dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [] n 128 major_b mn : bf16
//       CHECK:   %{{.*}}:64 = dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [] n 128 major_a mn major_b mn : f16
// CHECK-LABEL: dkernel.func @wgmma_in_flight
//       CHECK:   %[[ACC:.*]]:4 = scf.for
//       CHECK:     %[[M:.*]]:4 = dkernel.wgmma_mma_async
//       CHECK:     dkernel.wgmma_commit_group
//  CHECK-NEXT:     dkernel.wgmma_wait_group 1{{$}}
//  CHECK-NEXT:     scf.yield %[[M]]#0, %[[M]]#1, %[[M]]#2, %[[M]]#3
//       CHECK:   dkernel.wgmma_wait_group 0 [%[[ACC]]#0, %[[ACC]]#1, %[[ACC]]#2, %[[ACC]]#3]
// CHECK-LABEL: dkernel.func @warp_roles
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//  CHECK-NEXT:     dkernel.setmaxnreg dec 40
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     dkernel.setmaxnreg inc 232
//       CHECK:   dkernel.mbarrier_arrive %{{.*}}[%{{.*}}] : memref<1xi64, #gpu.address_space<workgroup>>

/// The emitter prints inline PTX: the descriptor's address bits joined to
/// its constant fields (LBO 128 / 16 = 8 at bit 16, SBO 256 / 16 = 16 at
/// bit 32), the accumulators updated in place, scale-d from a register.
// CUDA-LABEL: wgmma_bf16(
//       CUDA:   asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
//       CUDA:   asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
//       CUDA:   const long long [[DA:wd[0-9]+]] = (long long)((((unsigned long long)(unsigned)__cvta_generic_to_shared(&smem{{[0-9]+}}[0]) & 0x3ffffull) >> 4) | 0x0000001000080000ull);
//       CUDA:   float [[ACC:acc[0-9]+]] = v{{[0-9]+}};
//       CUDA:   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\nwgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n" : "+f"([[ACC]]), "+f"(acc{{[0-9]+}}), "+f"(acc{{[0-9]+}}), "+f"(acc{{[0-9]+}}) : "l"([[DA]]), "l"(wd{{[0-9]+}}), "r"(1) : "memory");
//       CUDA:   asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
//       CUDA:   asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
//       CUDA:   asm volatile("" : "+f"([[ACC]]) :: "memory");
// CUDA-LABEL: wgmma_f16_zero(
//       CUDA:   float [[Z:acc[0-9]+]] = 0.0f;
//       CUDA:   wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;
//  CUDA-SAME:   "r"(0)
/// 8-bit floats: k32 (32 bytes of K, as k16 of halves), each operand's
/// type named, and no imm-trans operands (the instruction has none for
/// them: they are K-major).
// CUDA-LABEL: wgmma_f8(
//       CUDA:   wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1;
//       CUDA:   wgmma.mma_async.sync.aligned.m64n16k32.f32.e5m2.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1;
// CUDA-LABEL: wgmma_n256(
//       CUDA:   wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, {{.*}}, %127}, %128, %129, p, 1, 1, 0, 0;

/// An MN-major operand sets its imm-trans operand; the descriptor carries
/// LBO 8192 / 16 = 0x200 at bit 16 and SBO 1024 / 16 = 0x40 at bit 32.
// CUDA-LABEL: wgmma_mn_major(
//       CUDA:   (long long)((((unsigned long long)(unsigned)__cvta_generic_to_shared(&smem{{[0-9]+}}[0]) & 0x3ffffull) >> 4) | 0x4000004002000000ull);
//       CUDA:   wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, {{.*}}, %63}, %64, %65, p, 1, 1, 0, 1;
//       CUDA:   wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, {{.*}}, %63}, %64, %65, p, 1, 1, 1, 1;
/// A chain on the values a loop carries updates the carried locals in
/// place: no copy of an accumulator stands between two wgmmas (ptxas
/// serialises a pipeline whose accumulators a copy reads in flight).
// CUDA-LABEL: wgmma_in_flight(
//       CUDA:   float [[C0:acc[0-9]+]] = 0.00000000e+00f;
//       CUDA:   for (
//   CUDA-NOT:     float acc
//       CUDA:     : "+f"([[C0]]), "+f"(acc{{[0-9]+}}), "+f"(acc{{[0-9]+}}), "+f"(acc{{[0-9]+}}) :
//   CUDA-NOT:     acc{{[0-9]+}} = acc
//       CUDA:     asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
//  CUDA-NEXT:     asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
//       CUDA:   asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
//  CUDA-NEXT:   asm volatile("" : "+f"(
// CUDA-LABEL: warp_roles(
//       CUDA:   asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
//       CUDA:   asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
//       CUDA:   asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem{{[0-9]+}}[0])) : "memory");

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

/// scale-d 0: D = A B, no C.
dkernel.func @wgmma_f16_zero(%d: memref<64x16xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 8192 {
  %sa = dkernel.alloc_shared offset 0 : memref<64x64xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %t = gpu.thread_id x
  dkernel.wgmma_fence
  %da = dkernel.wgmma_desc %sa[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<64x64xf16, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %sa[%c0, %c16] swizzle 128 lbo 0 sbo 1024 : memref<64x64xf16, #gpu.address_space<workgroup>>
  %acc:8 = dkernel.wgmma_mma_async %da, %db, [] n 16 : f16
  dkernel.wgmma_commit_group
  %r:8 = dkernel.wgmma_wait_group 0 [%acc#0, %acc#1, %acc#2, %acc#3, %acc#4, %acc#5, %acc#6, %acc#7]
  %col = arith.remui %t, %c16 : index
  %row = arith.divui %t, %c16 : index
  memref.store %r#0, %d[%row, %col] : memref<64x16xf32>
  dkernel.return
}


/// The 8-bit floats: e4m3 by e4m3, then e5m2 by e4m3 accumulating on it,
/// both K-major in the 128-byte swizzle (a row of 128 elements of K).
dkernel.func @wgmma_f8(%d: memref<64x16xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 12288 {
  %sa = dkernel.alloc_shared offset 0 : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
  %se = dkernel.alloc_shared offset 8192 : memref<16x128xf8E5M2, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %t = gpu.thread_id x
  dkernel.wgmma_fence
  %da = dkernel.wgmma_desc %sa[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %sa[%c0, %c32] swizzle 128 lbo 0 sbo 1024 : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
  %acc:8 = dkernel.wgmma_mma_async %da, %db, [] n 16 : f8E4M3FN
  %de = dkernel.wgmma_desc %se[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<16x128xf8E5M2, #gpu.address_space<workgroup>>
  %mix:8 = dkernel.wgmma_mma_async %de, %db, [%acc#0, %acc#1, %acc#2, %acc#3, %acc#4, %acc#5, %acc#6, %acc#7] n 16 : f8E5M2, f8E4M3FN
  dkernel.wgmma_commit_group
  %r:8 = dkernel.wgmma_wait_group 0 [%mix#0, %mix#1, %mix#2, %mix#3, %mix#4, %mix#5, %mix#6, %mix#7]
  %col = arith.remui %t, %c16 : index
  %row = arith.divui %t, %c16 : index
  memref.store %r#0, %d[%row, %col] : memref<64x16xf32>
  dkernel.return
}

/// The largest shape, m64n256k16: 128 accumulators a thread, 131 asm
/// operands, which nvcc takes.
dkernel.func @wgmma_n256(%d: memref<128x128xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 40960 {
  %sa = dkernel.alloc_shared offset 0 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 8192 : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %t = gpu.thread_id x
  dkernel.wgmma_fence
  %da = dkernel.wgmma_desc %sa[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %sb[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc:128 = dkernel.wgmma_mma_async %da, %db, [] n 256 : bf16
  dkernel.wgmma_commit_group
  %r:128 = dkernel.wgmma_wait_group 0 [%acc#0, %acc#1, %acc#2, %acc#3, %acc#4, %acc#5, %acc#6, %acc#7, %acc#8, %acc#9, %acc#10, %acc#11, %acc#12, %acc#13, %acc#14, %acc#15, %acc#16, %acc#17, %acc#18, %acc#19, %acc#20, %acc#21, %acc#22, %acc#23, %acc#24, %acc#25, %acc#26, %acc#27, %acc#28, %acc#29, %acc#30, %acc#31, %acc#32, %acc#33, %acc#34, %acc#35, %acc#36, %acc#37, %acc#38, %acc#39, %acc#40, %acc#41, %acc#42, %acc#43, %acc#44, %acc#45, %acc#46, %acc#47, %acc#48, %acc#49, %acc#50, %acc#51, %acc#52, %acc#53, %acc#54, %acc#55, %acc#56, %acc#57, %acc#58, %acc#59, %acc#60, %acc#61, %acc#62, %acc#63, %acc#64, %acc#65, %acc#66, %acc#67, %acc#68, %acc#69, %acc#70, %acc#71, %acc#72, %acc#73, %acc#74, %acc#75, %acc#76, %acc#77, %acc#78, %acc#79, %acc#80, %acc#81, %acc#82, %acc#83, %acc#84, %acc#85, %acc#86, %acc#87, %acc#88, %acc#89, %acc#90, %acc#91, %acc#92, %acc#93, %acc#94, %acc#95, %acc#96, %acc#97, %acc#98, %acc#99, %acc#100, %acc#101, %acc#102, %acc#103, %acc#104, %acc#105, %acc#106, %acc#107, %acc#108, %acc#109, %acc#110, %acc#111, %acc#112, %acc#113, %acc#114, %acc#115, %acc#116, %acc#117, %acc#118, %acc#119, %acc#120, %acc#121, %acc#122, %acc#123, %acc#124, %acc#125, %acc#126, %acc#127]
  memref.store %r#0, %d[%t, %c0] : memref<128x128xf32>
  memref.store %r#127, %d[%t, %c127] : memref<128x128xf32>
  dkernel.return
}

/// B held K x N (MN-major): 16 K rows by 128 of N as two 128-byte swizzle
/// atoms of 64 columns, 8192 bytes apart (LBO); 8-row groups of K 1024
/// bytes apart (SBO). Then A held K x M as well.
dkernel.func @wgmma_mn_major(%d: memref<128x128xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 32768 {
  %sa = dkernel.alloc_shared offset 0 : memref<8192xbf16, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 16384 : memref<8192xbf16, #gpu.address_space<workgroup>>
  %ha = dkernel.alloc_shared offset 0 : memref<8192xf16, #gpu.address_space<workgroup>>
  %hb = dkernel.alloc_shared offset 16384 : memref<8192xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c63 = arith.constant 63 : index
  %t = gpu.thread_id x
  dkernel.wgmma_fence
  %da = dkernel.wgmma_desc %sa[%c0] swizzle 128 lbo 16 sbo 1024 : memref<8192xbf16, #gpu.address_space<workgroup>>
  %db = dkernel.wgmma_desc %sb[%c0] swizzle 128 lbo 8192 sbo 1024 : memref<8192xbf16, #gpu.address_space<workgroup>>
  %acc:64 = dkernel.wgmma_mma_async %da, %db, [] n 128 major_b mn : bf16
  %ea = dkernel.wgmma_desc %ha[%c0] swizzle 128 lbo 8192 sbo 1024 : memref<8192xf16, #gpu.address_space<workgroup>>
  %eb = dkernel.wgmma_desc %hb[%c0] swizzle 128 lbo 8192 sbo 1024 : memref<8192xf16, #gpu.address_space<workgroup>>
  %acc2:64 = dkernel.wgmma_mma_async %ea, %eb, [] n 128 major_a mn major_b mn : f16
  dkernel.wgmma_commit_group
  %r:2 = dkernel.wgmma_wait_group 0 [%acc#0, %acc2#63]
  memref.store %r#0, %d[%t, %c0] : memref<128x128xf32>
  memref.store %r#1, %d[%t, %c63] : memref<128x128xf32>
  dkernel.return
}

/// Groups in flight across loop steps (pipeline_k_outer's wgmma_wait = 1):
/// each step's chain takes the accumulators the previous step left in
/// flight, waits with wait_group 1 (the previous step's group retires) and
/// yields its own unwaited; a wait_group 0 on the loop's results makes them
/// readable.
dkernel.func @wgmma_in_flight(%d: memref<64x8xf32>) outputs [0] grid [1, 1, 1] block [128, 1, 1] smem 4096 {
  %sa = dkernel.alloc_shared offset 0 : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %acc:4 = scf.for %k = %c0 to %c4 step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z) -> (f32, f32, f32, f32) {
    dkernel.wgmma_fence
    %da = dkernel.wgmma_desc %sa[%c0, %c0] swizzle 0 lbo 128 sbo 256 : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %m:4 = dkernel.wgmma_mma_async %da, %da, [%a0, %a1, %a2, %a3] n 8 : bf16
    dkernel.wgmma_commit_group
    dkernel.wgmma_wait_group 1
    scf.yield %m#0, %m#1, %m#2, %m#3 : f32, f32, f32, f32
  }
  %r:4 = dkernel.wgmma_wait_group 0 [%acc#0, %acc#1, %acc#2, %acc#3]
  memref.store %r#0, %d[%t, %c0] : memref<64x8xf32>
  dkernel.return
}

/// Warp roles (the ops a warp-specialised pipeline uses): the first
/// warpgroup lowers its registers, the second raises them, and every thread
/// arrives on an mbarrier ("empty") that thread 0 initialised for 256
/// arrivals, then waits for that phase.
dkernel.func @warp_roles(%d: memref<256xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 8 {
  %mb = dkernel.alloc_shared offset 0 : memref<1xi64, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 256 : memref<1xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %producer = arith.cmpi ult, %t, %c128 : index
  scf.if %producer {
    dkernel.setmaxnreg dec 40
  } else {
    dkernel.setmaxnreg inc 232
  }
  dkernel.mbarrier_arrive %mb[%c0] : memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<1xi64, #gpu.address_space<workgroup>>
  memref.store %one, %d[%t] : memref<256xf32>
  dkernel.return
}
}
